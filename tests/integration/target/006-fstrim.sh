#!/bin/sh
# DESCRIPTION: fstrim frees each member's share of deleted ext4 files in its backing image on the host
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# TRIM reaches every SSD: files on ext4 (mounted without discard) are written
# and deleted, then util-linux fstrim: every member's backing image on the host
# frees its share of the deleted space.
. /tests/integration/lib/common.sh
m=4 chunk=128
reset_disks
mk_stripe t006 $((m * 128 * 2048)) $chunk $m 0 8
must mkfs.ext4 -q -F -E nodiscard /dev/mapper/t006
mkdir -p /mnt/t006
must mount -t ext4 -o nodiscard /dev/mapper/t006 /mnt/t006
pat=$(pattern_file 8)
mb=0 fill=$(scaled 160 40)
while [ $mb -lt "$fill" ]; do dd if="$pat" of=/mnt/t006/f.$mb bs=1M count=8 2>/dev/null; mb=$((mb + 8)); done
sync
b1=$(host_blocks) || fail "host measurement failed"
rm -f /mnt/t006/f.*
sync
b2=$(host_blocks)
/sbin/fstrim -v /mnt/t006 || fail "fstrim failed"
b3=$(host_blocks)
log "host blocks after write: $b1 | after rm: $b2 | after fstrim: $b3"
freed=$(vec_sub "$b1" "$b3")
log "freed per SSD (512B blocks): $freed (deleted $mb MiB, share $((mb * 2048 / m)) each)"
share=$((mb * 2048 / m))
i=0
for f in $freed; do
	[ $i -lt $m ] || break
	[ "$f" -ge $((share * 9 / 10)) ] || fail "ssd$i freed only $f of $share blocks"
	i=$((i + 1))
done
[ "$(vec_sub "$b1" "$b2")" = "$(vec_sub "$b1" "$b1")" ] || log "note: space freed before fstrim: $(vec_sub "$b1" "$b2")"
umount /mnt/t006
rm_array t006
pass "freed $freed blocks"
