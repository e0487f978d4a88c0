#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: create's labels round-trip through examine, table, stop and assemble
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# ssdstripe create on four whole NVMe disks: the label round-trips (examine
# shows what create wrote, checksum included), the array's table is what
# `ssdstripe table` computes from the labels, member 0 does not look like a
# file system to blkid even with ext4 on the array, and data written before
# stop reads back after assemble.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

set -- $(disks) || fail "disks missing"
wipe_labels "$@"
must ssdstripe create --name lab --chunk 64K "$@"
[ -b /dev/mapper/lab ] || fail "/dev/mapper/lab missing after create"

i=0
for d in "$@"; do
	ex=$(ssdstripe examine "$d") || fail "examine $d failed"
	echo "$ex" | grep -qx "  SSDSTRIPE-LABEL 1" || fail "$d: no label header: $ex"
	echo "$ex" | grep -qx "  name=lab" || fail "$d: name: $ex"
	echo "$ex" | grep -qx "  index=$i" || fail "$d: index: $ex"
	echo "$ex" | grep -qx "  count=4" || fail "$d: count: $ex"
	echo "$ex" | grep -qx "  chunk_sectors=128" || fail "$d: chunk: $ex"
	echo "$ex" | grep -qx "  data_offset=2048" || fail "$d: data_offset: $ex"
	echo "$ex" | grep -qE "^  checksum=sha256:[0-9a-f]{64}$" || fail "$d: checksum: $ex"
	# the label is plain text in the second 4 KiB block, NUL padded
	blk=$(dd if="$d" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\000')
	body=$(printf '%s\n' "$blk" | sed '/^checksum=/,$d')
	sum=$(printf '%s\n' "$body" | sha256sum | cut -d' ' -f1)
	printf '%s\n' "$blk" | grep -qx "checksum=sha256:$sum" || fail "$d: checksum does not match the text"
	i=$((i + 1))
done

# geometry: every member gives the smallest member's space past 1 MiB, less
# the 1 MiB tail, in whole 128-sector chunks
min=$(for d in "$@"; do sectors "$d"; done | sort -n | head -n 1)
data=$(( (min - 4096) / 128 * 128 ))
[ "$(sectors /dev/mapper/lab)" = $((4 * data)) ] ||
	fail "array has $(sectors /dev/mapper/lab) sectors, expected $((4 * data))"
want="0 $((4 * data)) ssdstripe 4 128 $(mm "$1") 2048 $(mm "$2") 2048 $(mm "$3") 2048 $(mm "$4") 2048"
[ "$(dmsetup table lab)" = "$want" ] || fail "table $(dmsetup table lab), expected $want"
computed=$(ssdstripe table lab) || fail "ssdstripe table failed"
[ "$computed" = "$(dmsetup table lab)" ] || fail "ssdstripe table said $computed"

must mkfs.ext4 -q /dev/mapper/lab
t=$(blkid -p -o value -s TYPE "$1")
[ -z "$t" ] || fail "blkid sees $t on member 0"
[ "$(blkid -p -o value -s TYPE /dev/mapper/lab)" = ext4 ] || fail "no ext4 on the array"

pat=$(pattern_file 8)
must dd if="$pat" of=/dev/mapper/lab bs=1M seek=3 conv=fsync
must ssdstripe stop lab
dmsetup info lab >/dev/null 2>&1 && fail "lab still active after stop"
[ "$(ssdstripe table lab)" = "$want" ] || fail "table from labels: $(ssdstripe table lab)"
must ssdstripe assemble lab
[ "$(dmsetup table lab)" = "$want" ] || fail "assembled table $(dmsetup table lab)"
[ "$(dd if=/dev/mapper/lab bs=1M skip=3 count=8 2>/dev/null | md5sum)" = "$(md5sum <"$pat")" ] ||
	fail "data differs after stop and assemble"
must ssdstripe stop lab
pass
