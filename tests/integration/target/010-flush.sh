#!/bin/sh
# DESCRIPTION: fsync of the array and sync of ext4 on it flush every member
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# Flush reaches every member: the member flush counters (field 16 of
# /sys/block/X/stat) move on fsync of the array device and on sync of a
# file system on it.
. /tests/integration/lib/common.sh
m=4
[ "$(awk '{print NF}' "/sys/block/$(sysname "$(disk 0)")/stat")" -ge 17 ] ||
	skip "kernel has no flush counters in /sys/block/X/stat"
mk_stripe t010 $((m * 64 * 2048)) 64 $m 0 8
flushes() { disks_stat 16; }
check_moved() { # what before after
	i=0
	for x in $(vec_sub "$3" "$2"); do
		[ $i -lt $m ] || break
		[ "$x" -ge 1 ] || fail "$1: ssd$i flush count did not move ($2 -> $3)"
		i=$((i + 1))
	done
	log "$1: flushes $(vec_sub "$3" "$2")"
}
f1=$(flushes)
# one small write touches one member only; the fsync must still flush all
dd if=/dev/urandom of=/dev/mapper/t010 bs=4k count=1 conv=fsync 2>/dev/null || fail "dd failed"
f2=$(flushes)
check_moved "fsync of the block device" "$f1" "$f2"
must mkfs.ext4 -q -F /dev/mapper/t010
mkdir -p /mnt/t010
must mount -t ext4 /dev/mapper/t010 /mnt/t010
f3=$(flushes)
echo hello >/mnt/t010/x
sync
f4=$(flushes)
check_moved "sync on ext4" "$f3" "$f4"
umount /mnt/t010
rm_array t010
pass
