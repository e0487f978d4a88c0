#!/bin/sh
# DESCRIPTION: ext4 filled until full reads back, and e2fsck finds it clean
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# ext4 on the array: mkfs, fill until full, files read back, e2fsck -fn clean.
# (4 x 64 MiB; 4 x 16 MiB on the debug kernel, see scaled in lib/common.sh)
. /tests/integration/lib/common.sh
. /tests/integration/lib/target.sh
mk_stripe t004 $((4 * $(scaled 64 16) * 2048)) 128 4 2048 8
must mkfs.ext4 -q -F -E stride=16,stripe_width=64 /dev/mapper/t004
n=$(fs_fill_check ext4 t004 e2fsck -fn) || exit 1
rm_array t004
pass "$n big files, e2fsck clean"
