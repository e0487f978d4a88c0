#!/bin/sh
# Hysteresis: a slow member and a failed member return to ok once the
# condition clears, and an idle array does not flap.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=131072
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2)
must dmsetup create hr_m1 --table "0 $S delay $d1 0 $(slow_delay_ms)"
must dmsetup create hr_m2 --table "0 $S linear $d2 0"
# shellcheck disable=SC2046 # feature words
mk_array hr "$(stripe_table ssdstripe $((3 * S)) 64 "$d0" 0 \
	/dev/mapper/hr_m1 0 /dev/mapper/hr_m2 0 $(health_opts))"
top=/sys/block/$(dm_sysname hr)/ssdstripe
st() { cat "$top/members/$1/state"; }

load() { # SECONDS
	fio --name=load --filename=/dev/mapper/hr --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randrw --bs=4k --time_based --runtime="$(health_secs "$1")" \
		--continue_on_error=all --output=/dev/null >/dev/null 2>&1
}

# Idle: nothing may change over several windows.
sleep "$(health_secs 4)"
[ "$(st 0) $(st 1) $(st 2)" = "ok ok ok" ] || fail "idle array flapped"

load 8
[ "$(st 1)" = slow ] || fail "member 1 not slow under $(slow_delay_ms) ms delay: $(st 1)"

# Take member 2 away (every I/O fails), then give it back.
swap_table hr_m2 "0 $S error"
load 4
[ "$(st 2)" = failed ] || fail "member 2 not failed: $(st 2)"
[ "$(cat "$top/state")" = failed ] || fail "array not failed"

swap_table hr_m1 "0 $S delay $d1 0 0"
swap_table hr_m2 "0 $S linear $d2 0"
load 8
log "after recovery: $(st 0) $(st 1) $(st 2), array $(cat "$top/state")"
[ "$(st 1)" = ok ] || fail "member 1 did not recover: $(st 1)"
[ "$(st 2)" = ok ] || fail "member 2 did not recover: $(st 2)"
[ "$(cat "$top/state")" = optimal ] || fail "array not optimal again"

sleep "$(health_secs 4)"
[ "$(st 0) $(st 1) $(st 2)" = "ok ok ok" ] || fail "flapped after recovery"
rm_array hr
must dmsetup remove hr_m1
must dmsetup remove hr_m2
pass
