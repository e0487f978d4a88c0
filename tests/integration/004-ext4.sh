#!/bin/sh
# ext4 on the array: mkfs, fill until full, files read back, e2fsck -fn clean.
. /tests/integration/lib.sh
args='' i=0
while [ $i -lt 4 ]; do args="$args $(disk $i) $((2048 + i * 8))"; i=$((i + 1)); done
# shellcheck disable=SC2086
mk_array t004 "$(stripe_table "$TARGET" $((4 * 64 * 2048)) 128 $args)"
must mkfs.ext4 -q -F -E stride=16,stripe_width=64 /dev/mapper/t004
mkdir -p /mnt/t004
must mount -t ext4 /dev/mapper/t004 /mnt/t004
pat=$(pattern_file 8)
# many small files, then big ones until the file system is full
i=0
while [ $i -lt 200 ]; do
	dd if="$pat" of=/mnt/t004/small.$i bs=1 count=$((i * 37 + 1)) skip=$i 2>/dev/null
	i=$((i + 1))
done
i=0
while dd if="$pat" of=/mnt/t004/big.$i bs=1M count=8 2>/dev/null; do i=$((i + 1)); done
df -k /mnt/t004 | tail -n 1
avail=$(df -k /mnt/t004 | awk 'NR == 2 {print $4}')
[ "$avail" -lt 8192 ] || fail "file system not filled ($avail KiB left)"
sync
umount /mnt/t004
must e2fsck -fn /dev/mapper/t004
must mount -t ext4 -o ro /dev/mapper/t004 /mnt/t004
want=$(md5sum <"$pat" | cut -d' ' -f1)
j=0
while [ $j -lt $((i - 1)) ]; do
	[ "$(md5sum </mnt/t004/big.$j | cut -d' ' -f1)" = "$want" ] || fail "big.$j corrupted"
	j=$((j + 1))
done
[ "$(wc -c </mnt/t004/small.199)" = $((199 * 37 + 1)) ] || fail "small.199 wrong size"
umount /mnt/t004
rm_array t004
pass "$i big files, e2fsck clean"
