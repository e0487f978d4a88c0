#!/bin/sh
# DESCRIPTION: a member failing writes, then everything, under fio: erroring, failed, no hang, survivors verify
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# A member that starts returning errors under load.  Member 2 sits on a
# dm device that is switched, while fio writes and verifies, first to
# dm-flakey failing every write (reads still work: erroring), then to the
# error target (every I/O fails: failed).  fio finishes within its bound
# and counts errors, reads of member 2's chunks fail and of the others do
# not, health names member 2 and only it, the data on members 0, 1 and 3
# verifies, and removal and module unload succeed.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
. /tests/integration/lib/faults.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536				# 32 MiB per member, 128 MiB array
A=32				# region A: first 32 MiB, 8 MiB per member
RUN=14
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
must dmsetup create fe_m2 --table "0 $S linear $d2 0"
mk_array fe "$(stripe_table ssdstripe $((4 * S)) "$FAULT_CHUNK" "$d0" 0 "$d1" 0 \
	/dev/mapper/fe_m2 0 "$d3" 0)"
top=/sys/block/$(dm_sysname fe)/ssdstripe
prefill fe "$A"

t0=$(date +%s)
fault_load fe "$A" "$RUN" /tmp/fio-fe.txt &
fio_pid=$!
sleep 2
log "member 2: writes fail (dm-flakey error_writes)"
swap_table fe_m2 "0 $S flakey $d2 0 0 60 1 error_writes"
wait_state "$top" 2 "erroring|failed" 10
log "member 2 $(cat "$top/members/2/state"); now every I/O fails (error target)"
swap_table fe_m2 "0 $S error"
wait_state "$top" 2 failed 10

wait "$fio_pid"
rc=$?
took=$(($(date +%s) - t0))
[ "$rc" = 137 ] && fail "fio not done ${FAULT_BOUND}s after its runtime: a bio hangs"
log "fio exit $rc after ${took}s, $(fio_errors /tmp/fio-fe.txt) errors reported"
all_quiet "$top" 4

# the error reached the issuer; the array fails exactly member 2's chunks
[ "$(fio_errors /tmp/fio-fe.txt)" -gt 0 ] || fail "fio saw no error: $(grep -m 2 err /tmp/fio-fe.txt)"
dd if=/dev/mapper/fe of=/dev/null bs=1M skip=2 count=1 iflag=direct 2>/dev/null &&
	fail "a read of member 2's chunk succeeded"
dd if=/dev/mapper/fe of=/dev/null bs=1M skip=1 count=1 iflag=direct 2>/dev/null ||
	fail "a read of member 1's chunk failed"

# health names member 2, and only it
for m in 0 1 3; do
	[ "$(cat "$top/members/$m/state")" = ok ] || fail "member $m is $(cat "$top/members/$m/state")"
	[ "$(cat "$top/members/$m/errors")" = 0 ] || fail "member $m counted errors"
done
[ "$(cat "$top/members/2/write_errors")" -gt 0 ] || fail "no write errors on member 2"
[ "$(cat "$top/members/2/read_errors")" -gt 0 ] || fail "no read errors on member 2"
[ "$(cat "$top/state")" = failed ] || fail "array is $(cat "$top/state")"
letters=$(dmsetup status fe | awk '{print $(6 + $4)}')
[ "$letters" = AADA ] || fail "status letters $letters"
dmesg | grep -q "ssdstripe: .*member 2 .* -> failed" || fail "no log line naming member 2"

survivors_verify "$A" 2 "$d0" "$d1" /dev/mapper/fe_m2 "$d3"

rm_array fe
must dmsetup remove fe_m2
must rmmod dm_ssdstripe
pass "fio done in ${took}s with $(fio_errors /tmp/fio-fe.txt) errors, all counted on member 2"
