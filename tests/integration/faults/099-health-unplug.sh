#!/bin/sh
# DESCRIPTION: an NVMe SSD hot-unplugged under fio: its member failed, no hang, the survivors verify
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: last
#
# A member that disappears under load: hot-unplug one NVMe SSD through the
# QEMU monitor while fio writes and verifies.  Every I/O completes (fio is
# done within its runtime + 120 s), the errors reach fio, health names the
# member failed and the array failed, the other members stay ok, the data
# written before the unplug verifies on the three surviving SSDs, and
# removal and module unload succeed.
# Runs last: the SSD stays gone for the rest of the boot.
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
. /tests/integration/lib/faults.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=131072
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
victim=$(sysname "$d3")
A=32
mk_array hu "$(stripe_table ssdstripe $((4 * S)) "$FAULT_CHUNK" "$d0" 0 "$d1" 0 "$d2" 0 "$d3" 0)"
top=/sys/block/$(dm_sysname hu)/ssdstripe
prefill hu "$A"

fault_load hu "$A" 20 /tmp/fio-unplug.txt &
fio_pid=$!
sleep 3
log "unplugging ssd3 ($victim): $(host_unplug 3)"

t_unplug=$(date +%s)
wait_state "$top" 3 failed 30
i=$(($(date +%s) - t_unplug))
log "member 3 failed after ${i}s; $victim present: $([ -e "/sys/block/$victim" ] && echo yes || echo no)"
[ "$(cat "$top/state")" = failed ] || fail "array state $(cat "$top/state")"
for m in 0 1 2; do
	[ "$(cat "$top/members/$m/state")" = ok ] ||
		fail "member $m is $(cat "$top/members/$m/state")"
	[ "$(cat "$top/members/$m/errors")" = 0 ] || fail "errors counted on member $m"
done
letters=$(dmsetup status hu | awk '{print $(6 + $4)}')
[ "$letters" = AAAD ] || fail "status letters $letters"

# fio must finish on its own: every bio to the missing SSD completed.
wait "$fio_pid"
[ $? = 137 ] && fail "fio not done ${FAULT_BOUND}s after its runtime: a bio hangs"
all_quiet "$top" 4
[ "$(fio_errors /tmp/fio-unplug.txt)" -gt 0 ] ||
	fail "fio saw no I/O error: $(grep -m1 'err=' /tmp/fio-unplug.txt)"
[ "$(cat "$top/members/3/errors")" -gt 0 ] || fail "no errors counted on member 3"
survivors_verify "$A" 3 "$d0" "$d1" "$d2" "$d3"

rm_array hu
must rmmod dm_ssdstripe
pass "member failed after ${i}s, $(fio_errors /tmp/fio-unplug.txt) I/O errors reached fio, survivors verify"
