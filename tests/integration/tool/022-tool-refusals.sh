#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: every refusal of create and assemble, with its exit code and message
# KERNELS: 6.12
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Every refusal of create and assemble, with its exit code and a message
# naming the offending device: in use (mounted, held), carrying a file
# system (with util-linux blkid and with the busybox fallback), given
# twice, already labelled, name taken; incomplete, duplicated (a cloned
# member), mixed arrays, reordered, mismatched geometry, damaged label,
# truncated member, unlabelled device.  No refused assemble writes to a
# member.  Members are dm-linear slices so they can vanish and come back.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536				# 32 MiB slices
wipe_labels $(disks)
set -- $(slices 6 $S 2048)
s0=$1 s1=$2 s2=$3 s3=$4 s4=$5 s5=$6

# ---- create ------------------------------------------------------------
must mkfs.ext4 -q "$s0"
mkdir -p /mnt/r0 && must mount -t ext4 "$s0" /mnt/r0
refused 3 "$s0 is in use \(mounted on /mnt/r0\)" ssdstripe create --name c "$s0" "$s1"
umount /mnt/r0
refused 3 "$s0 carries an? ext4 signature.*--force" ssdstripe create --name c "$s0" "$s1"
SSDSTRIPE_NO_BLKID=1 refused 3 "$s0 carries an ext2/3/4 signature" ssdstripe create --name c "$s0" "$s1"
# xfsprogs wants 300 MiB: a device of its own, 1 GiB into disk 2
must dmsetup create xfsdev --table "0 655360 linear $(disk 2) 2097152"
must mkfs.xfs -q -f /dev/mapper/xfsdev
SSDSTRIPE_NO_BLKID=1 refused 3 "/dev/mapper/xfsdev carries an xfs signature" \
	ssdstripe create --name c "$s1" /dev/mapper/xfsdev
refused 3 "/dev/mapper/xfsdev carries an xfs signature" ssdstripe create --name c "$s1" /dev/mapper/xfsdev
must dmsetup remove xfsdev
printf 'label: gpt\n' | sfdisk -q "$s3" >/dev/null 2>&1 ||
	printf 'o\nw\n' | fdisk "$s3" >/dev/null 2>&1
SSDSTRIPE_NO_BLKID=1 refused 3 "$s3 carries an? (GPT|MBR) partition table" ssdstripe create --name c "$s1" "$s3"
wipe_labels "$s3"
must dmsetup create holder --table "0 8 linear $s1 0"
refused 3 "$s1 is in use \(held by mapper/holder\)" ssdstripe create --name c "$s1" "$s2"
must dmsetup remove holder
refused 3 "$s1: given twice" ssdstripe create --name c "$s1" "$s2" "$s1"
refused 4 "/dev/null: not a block device" ssdstripe create --name c "$s1" /dev/null
refused 2 "invalid chunk size" ssdstripe create --name c --chunk 12Q "$s1" "$s2"
refused 2 "invalid array name" ssdstripe create --name 'a b' "$s1" "$s2"
must ssdstripe create --force --name f "$s0" "$s2"
must ssdstripe stop f
refused 3 "$s0 carries an ssdstripe label \(member 0 of array f\)" ssdstripe create --name c "$s0" "$s1"
refused 3 "an array called f already exists on $s0" ssdstripe create --name f "$s1" "$s3"
wipe_labels "$s0" "$s2"

# ---- assemble ----------------------------------------------------------
must ssdstripe create --name r "$s0" "$s1" "$s2" "$s3"
must ssdstripe stop r
table3=$(dmsetup table ssl3)

# refused_ro CODE PATTERN ARGS...: a refused assemble that wrote nothing
refused_ro() {
	_w0=$(writes_done "$s0" "$s1" "$s2" "$s3" "$s4" "$s5")
	refused "$@"
	_w1=$(writes_done "$s0" "$s1" "$s2" "$s3" "$s4" "$s5")
	[ "$_w0" = "$_w1" ] || fail "refused '$*' wrote $((_w1 - _w0)) times to members"
	dmsetup info r >/dev/null 2>&1 && fail "array r active after refused '$*'"
	return 0
}
# relabel DEV SED [damage]: rewrite DEV's label text through SED with a
# good checksum, or with the old one when damage is asked for
relabel() {
	_t=$(dd if="$1" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\000')
	_old=$(printf '%s\n' "$_t" | sed -n 's/^checksum=//p')
	_t=$(printf '%s\n' "$_t" | sed '/^checksum=/d' | sed "$2")
	_new=sha256:$(printf '%s\n' "$_t" | sha256sum | cut -d' ' -f1)
	[ -n "${3:-}" ] && _new=$_old
	printf '%s\nchecksum=%s\n' "$_t" "$_new" >/tmp/label
	dd if=/tmp/label of="$1" bs=4096 seek=1 count=1 conv=notrunc,sync,fsync 2>/dev/null
}
save() { dd if="$1" of="/tmp/save.$2" bs=4096 count=2 2>/dev/null; }
restore() { dd if="/tmp/save.$2" of="$1" bs=4096 count=2 conv=notrunc,fsync 2>/dev/null; }

must dmsetup remove ssl3
refused_ro 3 "array r: member 3 \([0-9a-f-]+\) not found \(incomplete\)" ssdstripe assemble --timeout 1 r
refused_ro 3 "member 3 .*not found \(incomplete\)" ssdstripe assemble --timeout 1 "$s0" "$s1" "$s2"
printf '%s\n' "$table3" | dmsetup create ssl3 || fail "cannot recreate ssl3"

dd if="$s1" of="$s4" bs=1M count=1 conv=notrunc,fsync 2>/dev/null
refused_ro 3 "($s1 and $s4|$s4 and $s1) both claim to be member 1 of array r \(duplicated" ssdstripe assemble --timeout 1 r
wipe_labels "$s4"

must ssdstripe create --name q "$s4" "$s5"
must ssdstripe stop q
refused_ro 3 "$s4 belongs to array q .*, not to array r .* like $s0 \(mixed arrays\)" \
	ssdstripe assemble "$s0" "$s1" "$s2" "$s4"

save "$s2" 2
relabel "$s2" 's/^index=2$/index=1/'
refused_ro 3 "$s2: label says member 1 but array r's member list puts it at 2 \(reordered" ssdstripe assemble --timeout 1 r
restore "$s2" 2

save "$s3" 3
relabel "$s3" 's/^chunk_sectors=128$/chunk_sectors=256/'
refused_ro 3 "$s3: chunk_sectors 256 differs from 128 on $s0 \(mismatched member\)" ssdstripe assemble --timeout 1 r
relabel "$s3" 's/^name=r$/name=x/'
refused_ro 3 "$s3: name x differs from r on $s0 \(mismatched member\)" ssdstripe assemble --timeout 1 "$s0" "$s1" "$s2" "$s3"
restore "$s3" 3

save "$s2" 2
relabel "$s2" 's/^count=4$/count=5/' damage
refused_ro 3 "$s2: label checksum mismatch" ssdstripe assemble --timeout 1 r
out=$(cat /tmp/refused.err)
echo "$out" | grep -q "member 2 .*not found" || fail "damaged member not reported missing: $out"
refused_ro 3 "$s2: label checksum mismatch" ssdstripe assemble "$s0" "$s1" "$s2" "$s3"
restore "$s2" 2

swap_table ssl3 "0 $((S / 2)) linear $(disk 3) 2048"
refused_ro 3 "$s3: $((S / 2)) sectors, smaller than its label's data end .*\(truncated member\)" \
	ssdstripe assemble --timeout 1 r
swap_table ssl3 "$table3"

wipe_labels "$s5"
refused_ro 4 "$s5 has no ssdstripe label" ssdstripe assemble "$s5"
refused_ro 4 "no member of array nosuch found" ssdstripe assemble --timeout 1 nosuch
refused 2 "do not mix names and devices" ssdstripe assemble "$s0" r
refused 4 "nosuch is not an active ssdstripe array" ssdstripe stop nosuch

# after all that, the untouched set still assembles, and a mounted array
# refuses to stop
must ssdstripe assemble --timeout 1 r
must mkfs.ext4 -q /dev/mapper/r
mkdir -p /mnt/r && must mount -t ext4 /dev/mapper/r /mnt/r
refused 1 "cannot stop r: it is open \(mounted on /mnt/r\)" ssdstripe stop r
umount /mnt/r
must ssdstripe stop r
pass
