#!/bin/sh
# DESCRIPTION: a flapping member changes state at most 3 times, ends erroring or failed, never ok
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# True alarm without a storm: member 1 flaps (dm-flakey, 1 s up, 3 s down:
# every I/O fails while down) under light fio load for about 10 windows.
# Its state changes a bounded number of times (at most 3), it ends erroring
# or failed and never goes back to ok, and the other members stay ok.
# Down for 3 s, so that whole windows see nothing but errors: that is what
# made ABI v1 flip failed <-> erroring every window.  With 1 s down nearly
# every 1 s window is mixed, and the old state machine would pass too.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
must dmsetup create fl_m1 --table "0 $S flakey $d1 0 1 3"
# shellcheck disable=SC2046 # feature words
mk_array fl "$(stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 /dev/mapper/fl_m1 0 \
	"$d2" 0 "$d3" 0 $(health_opts))"
top=/sys/block/$(dm_sysname fl)/ssdstripe
kmsg_mark 044

secs=$(health_secs 10)
timeout -s KILL $((secs + 60)) fio --name=flap --filename=/dev/mapper/fl --direct=1 \
	--ioengine=libaio --iodepth=2 --rw=randread --bs=4k --rate_iops=200 \
	--time_based --runtime="$secs" --continue_on_error=all >/tmp/fio-044.txt 2>&1
[ $? = 137 ] && fail "fio hung on the flapping member"
sleep "$(health_secs 2)"

changes=$(dmesg_since 044 | grep -c "ssdstripe: .*member 1 .* -> ")
log "member 1 $(cat "$top/members/1/state") after $changes state changes," \
	"errors $(cat "$top/members/1/errors"), array $(cat "$top/state")"
dmesg_since 044 | grep "ssdstripe: .* -> " | sed 's/^/    /'
[ "$(cat "$top/members/1/errors")" -gt 0 ] || fail "no errors counted on the flapping member"
[ "$changes" -ge 1 ] || fail "no state change logged for member 1"
[ "$changes" -le 3 ] || fail "$changes state changes in $secs s: flapping"
final=$(cat "$top/members/1/state")
case $final in
erroring | failed) ;;
*) fail "member 1 is $(cat "$top/members/1/state")" ;;
esac
dmesg_since 044 | grep -q "member 1 .* -> ok" && fail "member 1 went back to ok"
for m in 0 2 3; do
	[ "$(cat "$top/members/$m/state")" = ok ] || fail "member $m is $(cat "$top/members/$m/state")"
	[ "$(cat "$top/members/$m/errors")" = 0 ] || fail "member $m counted errors"
done

rm_array fl
must dmsetup remove fl_m1
pass "flapping member: $changes state changes, ends $final"
