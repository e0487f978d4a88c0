#!/bin/sh
# xfs on the array: mkfs, fill until full, xfs_repair -n clean.
. /tests/integration/lib.sh
args='' i=0
while [ $i -lt 3 ]; do args="$args $(disk $i) $((i * 24))"; i=$((i + 1)); done
# non-power-of-two chunk (192 KiB)
# shellcheck disable=SC2086
mk_array t005 "$(stripe_table "$TARGET" $((3 * 384 * 640)) 384 $args)"
must mkfs.xfs -q -f /dev/mapper/t005
mkdir -p /mnt/t005
must mount -t xfs /dev/mapper/t005 /mnt/t005
pat=$(pattern_file 8)
i=0
while [ $i -lt 200 ]; do
	dd if="$pat" of=/mnt/t005/small.$i bs=1 count=$((i * 41 + 3)) skip=$i 2>/dev/null
	i=$((i + 1))
done
i=0
while dd if="$pat" of=/mnt/t005/big.$i bs=1M count=8 2>/dev/null; do i=$((i + 1)); done
avail=$(df -k /mnt/t005 | awk 'NR == 2 {print $4}')
[ "$avail" -lt 8192 ] || fail "file system not filled ($avail KiB left)"
sync
umount /mnt/t005
must xfs_repair -n /dev/mapper/t005
must mount -t xfs -o ro /dev/mapper/t005 /mnt/t005
want=$(md5sum <"$pat" | cut -d' ' -f1)
j=0
while [ $j -lt $((i - 1)) ]; do
	[ "$(md5sum </mnt/t005/big.$j | cut -d' ' -f1)" = "$want" ] || fail "big.$j corrupted"
	j=$((j + 1))
done
umount /mnt/t005
rm_array t005
pass "$i big files, xfs_repair clean"
