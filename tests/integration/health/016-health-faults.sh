#!/bin/sh
# DESCRIPTION: slow, half-failing and healthy members read slow, erroring, ok, with events and log lines
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# The issue's scenario: four members, one under dm-delay, one whose second
# half is a dm error target, two healthy.  After a dozen seconds of mixed
# I/O: slow / erroring / ok / ok (a member that fails part of its I/O is
# erroring, never failed), array erroring, error counts only on the failing
# member, dmsetup wait woke, a uevent listener saw the changes, and after
# removal no sysfs directory remains and the module unloads.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=262144			# 128 MiB per member
H=$((S / 2))
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
must dmsetup create hf_slow --table "0 $S delay $d1 0 $(slow_delay_ms)"
printf '0 %s linear %s 0\n%s %s error\n' "$H" "$d2" "$H" "$H" |
	dmsetup create hf_bad || fail "cannot create the half-error member"

uev=/tmp/uevents.$$
: >"$uev"
# shellcheck disable=SC2016 # expanded by the uevent child, per event
uevent sh -c '[ -n "$SSDSTRIPE_MEMBER" ] &&
	echo "$SSDSTRIPE_MEMBER $SSDSTRIPE_STATE $SSDSTRIPE_DEVICE $SSDSTRIPE_ARRAY_STATE" >>'"$uev" &
uev_pid=$!

# shellcheck disable=SC2046 # feature words
mk_array hf "$(stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 \
	/dev/mapper/hf_slow 0 /dev/mapper/hf_bad 0 "$d3" 0 $(health_opts))"
top=/sys/block/$(dm_sysname hf)/ssdstripe
ev=$(dmsetup info -c --noheadings -o events hf | tr -d ' ')
dmsetup wait hf "$ev" >/dev/null 2>&1 &
wait_pid=$!

secs=$(health_secs 12)
log "$secs s of mixed random I/O"
fio --name=mixed --filename=/dev/mapper/hf --direct=1 --ioengine=libaio \
	--iodepth=8 --rw=randrw --bs=4k --time_based --runtime="$secs" \
	--continue_on_error=all --output=/tmp/fio.$$ >/dev/null 2>&1
sleep "$(health_secs 2)"

states=""
for i in 0 1 2 3; do states="$states $(cat "$top/members/$i/state")"; done
log "member states:$states, array $(cat "$top/state")"
log "errors: $(cat "$top"/members/*/errors | tr '\n' ' ')"
log "latency_us: $(cat "$top"/members/*/latency_us | tr '\n' ' ')"
log "status: $(dmsetup status hf)"

# shellcheck disable=SC2086
set -- $states
[ "$1" = ok ] || fail "member 0 (healthy) is $1"
[ "$2" = slow ] || fail "member 1 (dm-delay) is $2"
[ "$3" = erroring ] || fail "member 2 (half error) is $3" 
[ "$4" = ok ] || fail "member 3 (healthy) is $4"
[ "$(cat "$top/state")" = erroring ] || fail "array $(cat "$top/state")" 

for i in 0 1 3; do
	[ "$(cat "$top/members/$i/errors")" = 0 ] ||
		fail "member $i counted $(cat "$top/members/$i/errors") errors"
done
[ "$(cat "$top/members/2/errors")" -gt 0 ] || fail "member 2 counted no errors"
[ "$(cat "$top/members/2/read_errors")" -gt 0 ] || fail "no read errors on member 2"
[ "$(cat "$top/members/2/write_errors")" -gt 0 ] || fail "no write errors on member 2"

letters=$(dmsetup status hf | awk '{print $(6 + $4)}')
[ "$letters" = ASEA ] || fail "status letters $letters"
# the array word follows the letters it is printed with
[ "$(dmsetup status hf | awk '{print $(7 + $4)}')" = erroring ] ||
	fail "status array word: $(dmsetup status hf)" 

kill -0 "$wait_pid" 2>/dev/null && fail "dmsetup wait did not wake"
[ "$(dmsetup info -c --noheadings -o events hf | tr -d ' ')" -gt "$ev" ] ||
	fail "event counter did not move"

sleep 1
kill "$uev_pid" 2>/dev/null
grep -q "^1 slow " "$uev" || fail "no uevent for member 1 slow: $(cat "$uev")"
grep -qE "^2 erroring " "$uev" || fail "no uevent for member 2: $(cat "$uev")"
grep -qE "^2 failed " "$uev" && fail "member 2 was called failed: $(cat "$uev")"
grep -qE "^(0|3) " "$uev" && fail "uevent for a healthy member: $(cat "$uev")"
dmesg | grep -q "ssdstripe: .*member 1 .* ok -> slow" || fail "no log line for member 1"

rm_array hf
left=$(find /sys/devices -name ssdstripe -type d 2>/dev/null)
[ -z "$left" ] || fail "sysfs left behind: $left"
must dmsetup remove hf_slow
must dmsetup remove hf_bad
must rmmod dm_ssdstripe
pass
