#!/bin/sh
# ext4 on the array: mkfs, fill until full, files read back, e2fsck -fn clean.
# (4 x 64 MiB; 4 x 16 MiB on the debug kernel, see scaled in lib/common.sh)
. /tests/integration/lib/common.sh
. /tests/integration/lib/target.sh
args='' i=0
while [ $i -lt 4 ]; do args="$args $(disk $i) $((2048 + i * 8))"; i=$((i + 1)); done
# shellcheck disable=SC2086
mk_array t004 "$(stripe_table "$TARGET" $((4 * $(scaled 64 16) * 2048)) 128 $args)"
must mkfs.ext4 -q -F -E stride=16,stripe_width=64 /dev/mapper/t004
n=$(fs_fill_check ext4 t004 e2fsck -fn) || exit 1
rm_array t004
pass "$n big files, e2fsck clean"
