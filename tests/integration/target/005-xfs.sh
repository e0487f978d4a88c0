#!/bin/sh
# DESCRIPTION: xfs on 192 KiB chunks filled until full reads back, and xfs_repair finds it clean
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# xfs on the array: mkfs, fill until full, xfs_repair -n clean.
. /tests/integration/lib/common.sh
. /tests/integration/lib/target.sh
# non-power-of-two chunk (192 KiB)
mk_stripe t005 $((3 * 384 * 640)) 384 3 0 24
must mkfs.xfs -q -f /dev/mapper/t005
# xfs will not be made smaller than 300 MB: on the debug kernel fill 64 MiB
debug_kernel && export FILL_MAX_MB=64
n=$(fs_fill_check xfs t005 xfs_repair -n) || exit 1
rm_array t005
pass "$n big files, xfs_repair clean"
