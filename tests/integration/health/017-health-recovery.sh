#!/bin/sh
# DESCRIPTION: no flapping when idle, slow recovers under light load, failed then erroring until clear_errors
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Hysteresis and sticky errors: an idle array does not flap; a slow member
# that is fast again returns to ok under light load (2000 dd reads over a
# few windows, not sustained fio); a member whose every I/O fails becomes
# failed, and once it works again it is erroring, not ok: errors stay
# flagged until clear_errors, which brings the array back to optimal.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
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
# light ROUNDS: 400 direct 4 KiB reads per round, one round per window
light() {
	_r=0
	while [ "$_r" -lt "$1" ]; do
		dd if=/dev/mapper/hr of=/dev/null bs=4k count=400 skip=$((_r * 4000)) \
			iflag=direct 2>/dev/null || fail "dd read failed"
		sleep "$(health_secs 1)"
		_r=$((_r + 1))
	done
}

# Idle: nothing may change over several windows.
sleep "$(health_secs 4)"
[ "$(st 0) $(st 1) $(st 2)" = "ok ok ok" ] || fail "idle array flapped"

load 8
[ "$(st 1)" = slow ] || fail "member 1 not slow under $(slow_delay_ms) ms delay: $(st 1)"
[ "$(cat "$top/state")" = slow ] || fail "array not slow: $(cat "$top/state")"

# fast again: 5 rounds of 400 reads (2000 in all) clear it
swap_table hr_m1 "0 $S delay $d1 0 0"
light 5
log "after light load: $(st 0) $(st 1) $(st 2), latency_us $(cat "$top"/members/*/latency_us | tr '\n' ' ')"
[ "$(st 1)" = ok ] || fail "member 1 still $(st 1) after 2000 reads"

# Take member 2 away (every I/O fails): failed after fail_windows windows.
swap_table hr_m2 "0 $S error"
load 6
wait_state "$top" 2 failed "$(health_secs 4)"
[ "$(cat "$top/state")" = failed ] || fail "array not failed"

# Give it back: after recover_windows clean windows it is erroring, not ok.
swap_table hr_m2 "0 $S linear $d2 0"
load 8
log "after recovery: $(st 0) $(st 1) $(st 2), array $(cat "$top/state")"
[ "$(st 1)" = ok ] || fail "member 1 is $(st 1)"
[ "$(st 2)" = erroring ] || fail "member 2 is $(st 2), not erroring, after it works again"
[ "$(cat "$top/state")" = erroring ] || fail "array not erroring: $(cat "$top/state")"
sleep "$(health_secs 3)"
[ "$(st 2)" = erroring ] || fail "erroring not sticky: $(st 2)"

must dmsetup message hr 0 clear_errors
[ "$(st 0) $(st 1) $(st 2)" = "ok ok ok" ] || fail "clear_errors: $(st 0) $(st 1) $(st 2)"
[ "$(cat "$top/state")" = optimal ] || fail "array not optimal after clear_errors"
[ "$(cat "$top/members/2/errors")" = 0 ] || fail "errors not cleared"

sleep "$(health_secs 4)"
[ "$(st 0) $(st 1) $(st 2)" = "ok ok ok" ] || fail "flapped after clear_errors"
rm_array hr
must dmsetup remove hr_m1
must dmsetup remove hr_m2
pass
