#!/bin/sh
# A member that stops answering is named.  Member 2 sits on a dm-linear
# that is suspended while fio reads at QD16, so its I/O is held as a hung
# drive or a dropped fabric link holds it.  Within stall_ms (5 s by
# default) and a health window it is stalled: the array says stalled, its
# waiting_ms counts, one log line, a uevent and a dm event tell it, and
# the other members stay ok.  Resumed, it completes again and is ok
# within a window (a stall is not sticky), stalls says 1, and fio ends
# without an error: the I/O waited, nothing was lost.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=262144			# 128 MiB per member
stall=$(stall_ms) win=$(window_ms)
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
must dmsetup create sl_m2 --table "0 $S linear $d2 0"

uev=/tmp/uevents.$$
: >"$uev"
# shellcheck disable=SC2016 # expanded by the uevent child, per event
uevent sh -c '[ -n "$SSDSTRIPE_MEMBER" ] &&
	echo "$SSDSTRIPE_MEMBER $SSDSTRIPE_STATE $SSDSTRIPE_ARRAY_STATE" >>'"$uev" &
uev_pid=$!

# shellcheck disable=SC2046 # feature words
mk_array sl "$(stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 "$d1" 0 \
	/dev/mapper/sl_m2 0 "$d3" 0 $(health_opts))"
top=/sys/block/$(dm_sysname sl)/ssdstripe
run=$((stall * 2 / 1000 + 8))
fio --eta=never --name=r --filename=/dev/mapper/sl --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randread --bs=4k --time_based --runtime="$run" --output=/tmp/fio-sl.txt &
fio_pid=$!
sleep "$(health_secs 2)"
for i in 0 1 2 3; do
	[ "$(cat "$top/members/$i/state")" = ok ] || fail "before the stall member $i is $(cat "$top/members/$i/state")"
done
kmsg_mark 038
ev0=$(dm_events sl)
t0=$(date +%s)
must dmsetup suspend sl_m2
# stalled after stall_ms, give or take one window, and not before
wait_state "$top" 2 stalled $(((stall + 2 * win) / 1000 + 2))
took=$(($(date +%s) - t0))
waiting=$(cat "$top/members/2/waiting_ms") inflight=$(cat "$top/members/2/inflight")
log "member 2 stalled after ${took}s: waiting_ms $waiting, inflight $inflight, status $(dmsetup status sl | cut -d' ' -f9-12)"
[ "$took" -ge $(((stall - win) / 1000 - 1)) ] || fail "member 2 was called stalled after ${took}s, before stall_ms ($stall ms)"
[ "$waiting" -ge "$stall" ] || fail "waiting_ms $waiting below stall_ms $stall while stalled"
[ "$inflight" -gt 0 ] || fail "stalled with nothing in flight"
[ "$(cat "$top/state")" = stalled ] || fail "array is $(cat "$top/state"), not stalled"
for i in 0 1 3; do
	[ "$(cat "$top/members/$i/state")" = ok ] || fail "member $i is $(cat "$top/members/$i/state") while member 2 stalls"
	[ "$(cat "$top/members/$i/stalls")" = 0 ] || fail "member $i counted a stall"
done
[ "$(dmsetup status sl | awk '{print $(6 + $4)}')" = AAHA ] || fail "status letters: $(dmsetup status sl)"
[ "$(cat "$top/members/2/errors")" = 0 ] || fail "a stall counted as an error"
[ "$(dm_events sl)" -gt "$ev0" ] || fail "no dm event for the stall"
dmesg_since 038 | grep -q "member 2 .* ok -> stalled (no read or write completed for [0-9]* ms), array stalled" ||
	fail "no log line for the stall: $(dmesg_since 038 | grep ssdstripe | tail -n 3)"

must dmsetup resume sl_m2
wait_state "$top" 2 ok $((2 * win / 1000 + 2))
[ "$(cat "$top/state")" = optimal ] || fail "array $(cat "$top/state") after the stall ended"
[ "$(cat "$top/members/2/stalls")" = 1 ] || fail "stalls $(cat "$top/members/2/stalls"), want 1"
[ "$(cat "$top/members/2/waiting_ms")" = 0 ] || fail "waiting_ms $(cat "$top/members/2/waiting_ms") after completions resumed"
dmesg_since 038 | grep -q "member 2 .* stalled -> ok, array optimal" || fail "no log line for the end of the stall"

wait "$fio_pid" || fail "fio failed: $(tail -n 5 /tmp/fio-sl.txt)"
grep -q 'err= *0' /tmp/fio-sl.txt || fail "fio: $(grep 'err=' /tmp/fio-sl.txt)"
sleep 1
kill "$uev_pid" 2>/dev/null
grep -q "^2 stalled stalled" "$uev" || fail "no uevent for member 2 stalled: $(cat "$uev")"
grep -q "^2 ok optimal" "$uev" || fail "no uevent for member 2 ok again: $(cat "$uev")"
grep -qE "^(0|1|3) " "$uev" && fail "uevent for a healthy member: $(cat "$uev")"
rm_array sl
must dmsetup remove sl_m2
pass "stalled after ${took}s, ok again after resume, fio clean"
