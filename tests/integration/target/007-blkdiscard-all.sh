#!/bin/sh
# DESCRIPTION: blkdiscard of the whole array frees nearly everything on every member
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# util-linux blkdiscard of the whole array frees nearly everything on every member.
. /tests/integration/lib/common.sh
m=4 chunk=384
reset_disks
per=$((384 * 640))  # 120 MiB per member
mk_stripe t007 $((m * per)) $chunk $m 0 8
pat=$(pattern_file 8)
i=0 n=$(scaled 12 3)	# 8 MiB writes
while [ $i -lt "$n" ]; do dd if="$pat" of=/dev/mapper/t007 bs=1M count=8 seek=$((i * 8)) 2>/dev/null; i=$((i + 1)); done
sync
b1=$(host_blocks) || fail "host measurement failed"
/usr/sbin/blkdiscard /dev/mapper/t007 || fail "blkdiscard failed"
b2=$(host_blocks)
log "host blocks before: $b1 after: $b2"
i=0
for b in $b1; do
	[ $i -lt $m ] || break
	[ "$b" -ge $((n * 8 * 2048 * 9 / 10 / m)) ] || fail "ssd$i had only $b blocks allocated before discard"
	i=$((i + 1))
done
i=0
for b in $b2; do
	[ $i -lt $m ] || break
	[ "$b" -le 64 ] || fail "ssd$i still has $b blocks allocated after whole-array blkdiscard"
	i=$((i + 1))
done
rm_array t007
pass "all members freed: $b1 -> $b2"
