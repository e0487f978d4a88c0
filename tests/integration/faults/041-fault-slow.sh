#!/bin/sh
# DESCRIPTION: a member slowed by dm-delay under fio is named slow, fio sees no error, the data verifies
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# A member that slows down under load.  Member 1 sits on a dm device that
# is switched, while fio writes and verifies, to dm-delay (slow_delay_ms:
# 40 ms per I/O, 400 ms on the debug kernel).
# fio finishes within its bound with no error and no verify failure,
# health names member 1 slow and only it, the whole of region A still
# verifies through the array, and removal and module unload succeed.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
. /tests/integration/lib/faults.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536
A=32
RUN=$(health_secs 14)
# min_ios 4: the slowed member completes few I/Os per window.  On the debug
# kernel health_opts also widens the window to 4 s (see lib/health.sh):
# there the whole guest completes a few dozen I/Os a second.
opts=$(health_opts)
[ -n "$opts" ] || opts="-- min_ios 4"
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
must dmsetup create fs_m1 --table "0 $S linear $d1 0"
# shellcheck disable=SC2086 # feature words
mk_array fs "$(stripe_table ssdstripe $((4 * S)) "$FAULT_CHUNK" "$d0" 0 \
	/dev/mapper/fs_m1 0 "$d2" 0 "$d3" 0 $opts)"
top=/sys/block/$(dm_sysname fs)/ssdstripe
prefill fs "$A"

t0=$(date +%s)
fault_load fs "$A" "$RUN" /tmp/fio-fs.txt &
fio_pid=$!
sleep 2
log "member 1: $(slow_delay_ms) ms per I/O (dm-delay)"
swap_table fs_m1 "0 $S delay $d1 0 $(slow_delay_ms)"
wait_state "$top" 1 slow "$(health_secs 11)"

wait "$fio_pid"
rc=$?
took=$(($(date +%s) - t0))
[ "$rc" = 137 ] && fail "fio not done ${FAULT_BOUND}s after its runtime: a bio hangs"
all_quiet "$top" 4
[ "$rc" = 0 ] || fail "fio exit $rc: $(grep -m 3 -E 'error|verify' /tmp/fio-fs.txt)"
[ "$(fio_errors /tmp/fio-fs.txt)" = 0 ] || fail "fio reported errors on a slow member"
log "fio done after ${took}s; latency_us $(cat "$top"/members/*/latency_us | tr '\n' ' ')"

for m in 0 2 3; do
	[ "$(cat "$top/members/$m/state")" = ok ] || fail "member $m is $(cat "$top/members/$m/state")"
done
[ "$(cat "$top/members/1/state")" = slow ] || fail "member 1 is $(cat "$top/members/1/state")"
[ "$(cat "$top/state")" = slow ] || fail "array is $(cat "$top/state")"
[ "$(cat "$top"/members/*/errors | sort -u)" = 0 ] || fail "errors counted"
dmesg | grep -q "ssdstripe: .*member 1 .* ok -> slow" || fail "no log line naming member 1"

# slow is not lost: everything written before still reads back
got=$(dd if=/dev/mapper/fs bs=1M count="$A" iflag=direct 2>/dev/null | md5sum)
[ "$got" = "$(md5sum <"$(pattern_file "$A")")" ] || fail "region A does not verify"

rm_array fs
must dmsetup remove fs_m1
must rmmod dm_ssdstripe
pass "member 1 slow, fio clean in ${took}s"
