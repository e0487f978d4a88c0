#!/bin/sh
# DESCRIPTION: one bad sector makes its member erroring until clear_errors, with a bounded number of events
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# True alarm, kept: one bad sector on an idle array.  Member 1 is a linear
# table with a one-block error segment in the middle.  One dd read of that
# block through the array (in the rig a failing read-ahead, then the failing
# read) makes member 1 erroring (never failed) and
# the array erroring; it stays so over idle windows and clean reads, until
# clear_errors makes it ok and optimal with its errors zeroed.  Events are
# raised a bounded number of times.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536				# 32 MiB per member
C=128				# chunk, sectors
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
lbs=$(blockdev --getss "$d1")
B=$((lbs / 512))		# the bad block, in sectors
M=$((S / 2))			# its sector on member 1
printf '0 %s linear %s 0\n%s %s error\n%s %s linear %s %s\n' \
	"$M" "$d1" "$M" "$B" $((M + B)) $((S - M - B)) "$d1" $((M + B)) |
	dmsetup create bs_m1 || fail "cannot create the member with a bad block"
# shellcheck disable=SC2046 # feature words
mk_array bs "$(stripe_table ssdstripe $((4 * S)) $C "$d0" 0 /dev/mapper/bs_m1 0 \
	"$d2" 0 "$d3" 0 $(health_opts))"
top=/sys/block/$(dm_sysname bs)/ssdstripe
# Idle first: the partition scan at create reads (with read-ahead) chunks
# of members 0 and 1; in the same window as the bad read, those successes
# would hide what one error on an idle member does.
sleep "$(health_secs 2)"
st() { cat "$top/members/$1/state"; }
states() { echo "$(st 0) $(st 1) $(st 2) $(st 3) $(cat "$top/state")"; }
kmsg_mark 043
ev0=$(dmsetup info -c --noheadings -o events bs | tr -d ' ')
dmsetup wait bs "$ev0" >/dev/null 2>&1 &
wait_pid=$!

# member 1's sector M is array sector ((M / C) * 4 + 1) * C + M % C
bad=$(( ((M / C) * 4 + 1) * C + M % C ))
dd if=/dev/mapper/bs of=/dev/null bs="$lbs" skip=$((bad / B)) count=1 \
	iflag=direct 2>/dev/null && fail "the bad block read fine"
wait_state "$top" 1 erroring "$(health_secs 3)"
log "after one bad read: $(states), errors $(cat "$top/members/1/errors")"
[ "$(states)" = "ok erroring ok ok erroring" ] || fail "states: $(states)"
[ "$(cat "$top/members/1/read_errors")" = 1 ] || fail "read_errors $(cat "$top/members/1/read_errors")"

# sticky: idle windows, then clean reads (all four members, member 1 too)
sleep "$(health_secs 4)"
[ "$(states)" = "ok erroring ok ok erroring" ] || fail "after idle windows: $(states)"
# more windows with clean reads than recover_windows (3): ABI v1 forgot
# the error after 3 of them
r=0
while [ "$r" -lt 5 ]; do
	dd if=/dev/mapper/bs of=/dev/null bs=64k count=64 skip=$((r * 64)) \
		iflag=direct 2>/dev/null || fail "clean reads failed"
	sleep "$(health_secs 1)"
	r=$((r + 1))
done
sleep "$(health_secs 1)"
[ "$(states)" = "ok erroring ok ok erroring" ] || fail "after clean reads: $(states)"
kill -0 "$wait_pid" 2>/dev/null && fail "dmsetup wait did not wake"
ev1=$(dmsetup info -c --noheadings -o events bs | tr -d ' ')

must dmsetup message bs 0 clear_errors
[ "$(states)" = "ok ok ok ok optimal" ] || fail "after clear_errors: $(states)"
for f in errors read_errors; do
	[ "$(cat "$top/members/1/$f")" = 0 ] || fail "clear_errors left $f $(cat "$top/members/1/$f")"
done
[ "$(dmsetup status bs | awk '{print $(6 + $4), $(7 + $4)}')" = "AAAA optimal" ] ||
	fail "status: $(dmsetup status bs)"
ev2=$(dmsetup info -c --noheadings -o events bs | tr -d ' ')
sleep "$(health_secs 2)"
[ "$(states)" = "ok ok ok ok optimal" ] || fail "after clear_errors and a window: $(states)"

# one error event, one state change each way: a handful, not one per window
log "dm events: $ev0 -> $ev1 (error) -> $ev2 (clear)"
if [ $((ev1 - ev0)) -lt 1 ] || [ $((ev1 - ev0)) -gt 3 ]; then
	fail "events for one bad read: $((ev1 - ev0))"
fi
[ $((ev2 - ev1)) = 1 ] || fail "events for clear_errors: $((ev2 - ev1))"
changes=$(dmesg_since 043 | grep -c "ssdstripe: .*member 1 .* -> ")
[ "$changes" = 2 ] || fail "$changes logged state changes: $(dmesg_since 043 | grep ' -> ')"
dmesg_since 043 | grep -q -- "-> failed" && fail "something was called failed"

rm_array bs
must dmsetup remove bs_m1
pass "one bad block: erroring, kept over idle and clean windows, cleared by clear_errors"
