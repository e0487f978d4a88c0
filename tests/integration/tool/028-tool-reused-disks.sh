#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: re-used disks are refused by name, wipe erases only the label, and a lost label comes back
# KERNELS: 6.12
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Disks are never taken by surprise (issue #20).  A member re-used as swap
# (wipefs -a, mkswap) keeps our label, which blkid does not see: examine and
# list say it is shadowed, and assemble (by name, by devices, --scan and
# --boot, what the initramfs and the unit run) refuses it at once, by name,
# writing nothing, while --scan still assembles the other array; swapon
# then works.  Our own label is no signature to blkid.  wipe erases our
# label block and nothing else, refuses a member of an active array, a
# device in use and one without a label (unless --force).  create --force
# over a partitioned disk wipes the labels inside its partitions and makes
# the kernel drop them, so --scan finds no stale array; two partitions of
# one drive are refused as members.  A member whose label was lost is named
# by assemble and table as a device that could be it, and create
# --assume-clean writes that one label back (same uuids, data intact),
# refusing a wrong order, chunk or member count without writing.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536				# 32 MiB slices
wipe_labels $(disks)
set -- $(slices 4 $S 2048)
s0=$1 s1=$2 s2=$3 s3=$4
must ssdstripe create --name keep "$s0" "$s1"
must ssdstripe create --name mix "$s2" "$s3"

# ---- wipe: members of active arrays and devices without a label ---------
refused 3 "refusing $s3: it is a member of active array mix \(stop" ssdstripe wipe "$s3"
pat=$(pattern_file 4)
must dd if="$pat" of=/dev/mapper/keep bs=1M conv=fsync
must ssdstripe stop keep mix
for d in "$@"; do
	out=$(blkid -p "$d" 2>&1) && fail "blkid -p finds something on member $d: $out"
done

# ---- the transcript of issue #20: a member re-used as swap --------------
must wipefs -a "$s3"
must mkswap "$s3"
[ "$(blkid -p -o value -s TYPE "$s3")" = swap ] || fail "no swap signature on $s3"
ex=$(ssdstripe examine "$s3" 2>&1) || fail "examine $s3 exited $?: $ex"
echo "$ex" | grep -q "^  name=mix$" || fail "examine lost the label: $ex"
echo "$ex" | grep -q "shadowed: $s3 carries a swap signature now" || fail "examine: $ex"
ssdstripe list >/tmp/list.out 2>/tmp/list.err || fail "list exited $?"
grep -qE "^mix +shadowed +1/2 " /tmp/list.out || fail "list: $(cat /tmp/list.out)"
grep -q "$s3: member 1 of array mix: label shadowed by a swap signature" /tmp/list.err ||
	fail "list said: $(cat /tmp/list.err)"

w0=$(writes_done "$@")
# boot: the unit runs --scan, the initramfs --boot (BOOT all).  The refused
# member is there: nothing to wait for, so a long timeout must not be used
# up (a --scan takes a few seconds under TCG, twice that on a busy host).
t0=$(date +%s)
refused 3 "refusing mapper/ssl3: it carries a swap signature now" ssdstripe assemble --scan --timeout 60
el=$(($(date +%s) - t0))
log "--scan took ${el}s"
[ "$el" -lt 30 ] || fail "--scan took ${el}s: it waited for the refused member"
[ "$(grep -c 'refusing' /tmp/refused.err)" = 1 ] || fail "said more than once: $(cat /tmp/refused.err)"
dmsetup info keep >/dev/null 2>&1 || fail "--scan did not assemble keep: $(cat /tmp/refused.out)"
dmsetup info mix >/dev/null 2>&1 && fail "--scan assembled mix over a swap disk"
must ssdstripe stop keep
export SSDSTRIPE_CONF=/tmp/none SSDSTRIPE_CMDLINE=/tmp/cmdline
echo "ssdstripe.assemble=all ssdstripe.timeout=60" >/tmp/cmdline
t0=$(date +%s)
refused 3 "refusing mapper/ssl3: it carries a swap signature now" ssdstripe assemble --boot
[ $(($(date +%s) - t0)) -lt 30 ] || fail "--boot took $(($(date +%s) - t0))s"
dmsetup info keep >/dev/null 2>&1 || fail "--boot did not assemble keep"
dmsetup info mix >/dev/null 2>&1 && fail "--boot assembled mix"
must ssdstripe stop keep
refused 3 "refusing mapper/ssl3: it carries a swap signature" ssdstripe assemble mix
refused 3 "refusing mapper/ssl3: it carries a swap signature" ssdstripe assemble "$s2" "$s3"
# busybox blkid cannot probe: the magic numbers still find the swap
SSDSTRIPE_NO_BLKID=1 refused 3 "refusing mapper/ssl3: it carries a swap signature" ssdstripe assemble mix
grep -q "magic numbers" /tmp/refused.err || fail "no word on the missing blkid: $(cat /tmp/refused.err)"
dmsetup info mix >/dev/null 2>&1 && fail "mix assembled"
[ "$(writes_done "$@")" = "$w0" ] || fail "refused assemblies wrote to members"
must swapon "$s3"
refused 3 "refusing $s3: it is in use \(in use as swap\)" ssdstripe wipe --force "$s3"
must swapoff "$s3"

# ---- wipe: the label block, nothing else --------------------------------
# everything but the label block, before and after
rest() { { dd if="$1" bs=4096 count=1; dd if="$1" bs=4096 skip=2 count=254; } 2>/dev/null | md5sum; }
r0=$(rest "$s3")
out=$(ssdstripe wipe "$s3") || fail "wipe $s3 exited $?: $out"
echo "$out" | grep -q "wiped the ssdstripe label of $s3 (member 1 of array mix.*a swap signature left alone" ||
	fail "wipe said: $out"
[ -z "$(dd if="$s3" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\000')" ] || fail "label block not zero"
[ "$(rest "$s3")" = "$r0" ] || fail "wipe wrote outside the label block"
[ "$(blkid -p -o value -s TYPE "$s3")" = swap ] || fail "wipe damaged the swap signature"
refused 4 "$s3 has no ssdstripe label" ssdstripe wipe "$s3"
refused 4 "$s3 has no ssdstripe label" ssdstripe examine "$s3"
out=$(ssdstripe wipe --force "$s3") || fail "wipe --force of an unlabelled device exited $?"
echo "$out" | grep -q "nothing to wipe" || fail "wipe --force said: $out"
# nothing is written when one device of the list is refused
refused 4 "$s3 has no ssdstripe label" ssdstripe wipe "$s2" "$s3"
must ssdstripe examine "$s2"
must ssdstripe wipe "$s2"
ssdstripe list 2>&1 | grep -q mix && fail "mix still listed: $(ssdstripe list 2>&1)"

# ---- recovery: a lost label written back by create --assume-clean ------
label0=$(dd if="$s0" bs=4096 skip=1 count=1 2>/dev/null | md5sum)
uuid0=$(ssdstripe examine "$s0" | sed -n 's/^  array_uuid=//p')
# a member that still carries its label is not lost: refused, even if
# another device is offered in its place
refused 3 "$s1 carries a label of array keep \(uuid $uuid0\): that member is not lost" \
	ssdstripe create --assume-clean --name keep "$s0" "$s2"
must ssdstripe wipe "$s1"
n1=${s1#/dev/}
refused 3 "array keep: devices without a label that could be member 1:.* $n1.*create --assume-clean" \
	ssdstripe assemble --timeout 0 keep
refused 3 "array keep: devices without a label that could be member 1:.* $n1" ssdstripe table keep
w0=$(writes_done "$s0" "$s1")
refused 3 "$s0 is member 0 of array keep, but given as member 1 \(wrong order\)" \
	ssdstripe create --assume-clean --name keep "$s1" "$s0"
refused 3 "array keep has a chunk of 64.0 KiB .*not 128.0 KiB" \
	ssdstripe create --assume-clean --name keep --chunk 128K "$s0" "$s1"
refused 3 "array keep has 2 members .* 3 devices given" \
	ssdstripe create --assume-clean --name keep "$s0" "$s1" "$s2"
refused 3 "$s0 is member 0 of array keep, not of zz" ssdstripe create --assume-clean --name zz "$s0" "$s1"
# a device without the label that carries something else (swap) now: its
# data is gone or it never was the member; --force does not change that
for f in '' --force; do
	# shellcheck disable=SC2086 # no option or one
	refused 3 "$s3 has no label of keep and carries a swap signature" \
		ssdstripe create --assume-clean $f --name keep "$s0" "$s3"
done
[ "$(writes_done "$s0" "$s1")" = "$w0" ] || fail "a refused create --assume-clean wrote"
out=$(ssdstripe create --assume-clean --name keep "$s0" "$s1" 2>&1) || fail "create --assume-clean: $out"
echo "$out" | grep -q "member 1: wrote the label of array keep back to $n1 (nothing else)" ||
	fail "create --assume-clean said: $out"
echo "$out" | grep -q "member 0: wrote" && fail "create --assume-clean rewrote member 0's label: $out"
[ "$(dd if="$s0" bs=4096 skip=1 count=1 2>/dev/null | md5sum)" = "$label0" ] ||
	fail "create --assume-clean changed the label member 0 kept"
[ "$(ssdstripe examine "$s1" | sed -n 's/^  array_uuid=//p')" = "$uuid0" ] ||
	fail "member 1's label is not of the same array (uuid $uuid0)"
[ "$(dd if=/dev/mapper/keep bs=1M count=4 2>/dev/null | md5sum)" = "$(md5sum <"$pat")" ] ||
	fail "data lost by create --assume-clean"
must ssdstripe stop keep
# a survivor re-used since (swap over its label) is not taken back
must mkswap "$s0"
must ssdstripe wipe "$s1"
w0=$(writes_done "$s0" "$s1")
refused 3 "$s0 kept its label of keep but carries a swap signature now" \
	ssdstripe create --assume-clean --name keep "$s0" "$s1"
[ "$(writes_done "$s0" "$s1")" = "$w0" ] || fail "a refused create --assume-clean wrote"
rm_slices

# ---- create --force over a partitioned disk ----------------------------
d2=$(disk 2) d3=$(disk 3)
n3=${d3#/dev/}
wipe_labels "$d2" "$d3"
# le32 N: N as 4 little-endian bytes
le32() {
	# shellcheck disable=SC2059 # the format is the bytes
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) \
		$(($1 >> 16 & 255)) $(($1 >> 24 & 255)))"
}
# two Linux partitions of 32 MiB at 1 MiB and 33 MiB, in a DOS table
{
	dd if=/dev/zero bs=446 count=1 2>/dev/null
	printf '\000\000\000\000\203\000\000\000'; le32 2048; le32 65536
	printf '\000\000\000\000\203\000\000\000'; le32 67584; le32 65536
	dd if=/dev/zero bs=32 count=1 2>/dev/null
	printf '\125\252'
} >/tmp/mbr
[ "$(wc -c </tmp/mbr)" = 512 ] || fail "MBR is $(wc -c </tmp/mbr) bytes"
# the tests after this one must not find these partitions, pass or fail
trap 'dd if=/dev/zero of="$d3" bs=512 count=1 conv=notrunc,fsync 2>/dev/null
	blockdev --rereadpt "$d3" 2>/dev/null' EXIT
must dd if=/tmp/mbr of="$d3" bs=512 count=1 conv=notrunc,fsync
must blockdev --rereadpt "$d3"
[ -e "/sys/block/$n3/${n3}p2" ] || fail "no partitions after writing the MBR: $(ls "/sys/block/$n3")"
refused 3 "${d3}p1 and ${d3}p2 are on one physical drive \(serial ssd3\)" \
	ssdstripe create --name two "${d3}p1" "${d3}p2"
must ssdstripe create --name old "${d3}p1"
must ssdstripe stop old
refused 3 "$d3 carries partitions" ssdstripe create --name new "$d3" "$d2"
out=$(ssdstripe create --force --name new "$d3" "$d2" 2>&1) || fail "create --force exited $?: $out"
log "$(echo "$out" | tr '\n' ';')"
echo "$out" | grep -q "wiped the stale ssdstripe label on ${d3}p1 (member 0 of array old)" ||
	fail "create --force did not wipe the label in ${d3}p1: $out"
for p in "/sys/block/$n3/${n3}p"*; do
	[ -e "$p" ] && fail "partition ${p##*/} left in the kernel after create --force"
done
[ -z "$(dd if="$d3" bs=512 skip=2056 count=8 2>/dev/null | tr -d '\000')" ] ||
	fail "the old label is still in what was ${d3}p1"
must ssdstripe stop new
t0=$(date +%s)
out=$(ssdstripe assemble --scan --timeout 60 2>&1) || fail "--scan exited $?: $out"
el=$(($(date +%s) - t0))
echo "$out" | grep -q old && fail "--scan mentions the stale array: $out"
[ "$el" -lt 30 ] || fail "--scan took ${el}s: it waited for a stale array"
echo "$out" | grep -q "assembled new from" || fail "--scan said: $out"
must ssdstripe stop new
wipe_labels $(disks)
pass
