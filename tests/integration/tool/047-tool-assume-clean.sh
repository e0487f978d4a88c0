#!/bin/sh
# shellcheck disable=SC2046,SC2086 # device lists are words
# create --assume-clean writes a lost label back only onto the drive the
# labels record (issue #28).  A member whose label alone was zeroed: its
# drive is found without a label, and only then does assemble print the
# create --assume-clean command, every device in order; that command
# writes the one label back and the survivor's with the next generation
# (the same array and member uuids), and the data is intact.  A blank disk given in its
# place is refused, naming both drives and where the recorded one is;
# --force writes it anyway, saying so.  An array with version 1 labels,
# written here by hand as the tool before version 2 wrote them, still
# assembles; its missing member is named by uuid, with no hint, and create
# --assume-clean needs --force ("labels of version 1 record no drive
# identity"), then writes version 2 labels, the survivor's too.  A set of
# version 1 and version 2 labels assembles.  Device-mapper members: one with a dm UUID is identified
# by it (and found under another name), one without says it has no serial
# and that nothing identifies it.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

model="QEMU NVMe Ctrl"
set -- $(disks) || fail "disks missing"
[ $# -ge 3 ] || skip "needs 3 disks"
d0=$1 d1=$2 d2=$3
wipe_labels "$@"
zero_label() { dd if=/dev/zero of="$1" bs=4096 seek=1 count=1 conv=notrunc,fsync 2>/dev/null; }
pat=$(pattern_file 4)
sum=$(md5sum <"$pat")
intact() { [ "$(dd if="/dev/mapper/$1" bs=1M count=4 2>/dev/null | md5sum)" = "$sum" ] || fail "data of $1 lost"; }

# ---- a lost label on a drive that is there ------------------------------
must ssdstripe create --name keep "$d0" "$d1"
must dd if="$pat" of=/dev/mapper/keep bs=1M conv=fsync
must ssdstripe stop keep
kept() { ssdstripe examine "$1" | grep -E '^  (array_uuid|name|member_uuid|index|count|chunk_sectors|data_offset|data_sectors|members|created)='; }
k0=$(kept "$d0")
zero_label "$d1"
refused 3 "array keep: member 1 \\($model, serial ssd1\\) not found \\(incomplete\\): the drive is present as ${d1#/dev/}, without a label" \
	ssdstripe assemble --timeout 0 keep
hint="array keep: if only the label of member 1 was lost (its data is intact), 'ssdstripe create --assume-clean --name keep $d0 $d1' writes it back and nothing else"
grep -qF "$hint" /tmp/refused.err || fail "no hint naming the devices: $(cat /tmp/refused.err)"
# the blank disk in its place: refused, naming both, and where the
# recorded drive is; nothing written
w0=$(writes_done "$d0" "$d1" "$d2")
refused 3 "$d2 is not member 1 of keep: its labels record $model, serial ssd1, .* and $d2 is $model, serial ssd2, .*; the recorded drive is present as ${d1#/dev/}; --force writes it anyway" \
	ssdstripe create --assume-clean --name keep "$d0" "$d2"
[ "$(writes_done "$d0" "$d1" "$d2")" = "$w0" ] || fail "a refused create --assume-clean wrote"
# the command the hint names, as it is printed
cmd=${hint#*\'}
cmd=${cmd%%\'*}
out=$($cmd 2>&1) || fail "$cmd: $out"
echo "$out" | grep -q "member 1: wrote the label of array keep back to ${d1#/dev/} (nothing else)" || fail "$cmd said: $out"
echo "$out" | grep -q "member 0: rewrote the label of array keep on ${d0#/dev/}: generation 2" || fail "$cmd said: $out"
[ "$(kept "$d0")" = "$k0" ] || fail "the survivor's label says another array or member"
ex=$(ssdstripe examine "$d1") || fail "examine: $ex"
echo "$ex" | grep -qx "  SSDSTRIPE-LABEL 2" || fail "written back: $ex"
echo "$ex" | grep -qx "  generation=2" || fail "written back, not generation 2: $ex"
echo "$ex" | grep -qx "  member 1 ($model, serial ssd1): this device" || fail "written back: $ex"
intact keep
must ssdstripe stop keep

# ---- --force onto the blank disk: said, then written ---------------------
zero_label "$d1"
out=$(ssdstripe create --assume-clean --force --name keep "$d0" "$d2" 2>&1) || fail "--force: $out"
log "$(echo "$out" | tr '\n' ';')"
echo "$out" | grep -q "$d2 is not member 1 of keep: its labels record $model, serial ssd1, .* and $d2 is $model, serial ssd2, .*: writing it anyway (--force)" ||
	fail "--force did not say what it overrides: $out"
echo "$out" | grep -q "member 1: wrote the label of array keep back to ${d2#/dev/}" || fail "--force: $out"
# the label written records what it was written on
ex=$(ssdstripe examine "$d0") || fail "examine: $ex"
echo "$ex" | grep -qx "  member 1 ($model, serial ssd2): $d2" || fail "after --force: $ex"
must ssdstripe stop keep
wipe_labels "$d0" "$d1" "$d2"

# ---- version 1 labels, as the tool before version 2 wrote them ---------
# v1label DEV INDEX: the label of member INDEX of array old (two members)
u=0f6b6d1e-2c1e-4c53-9b44-8a1f3e0d2c11
m0=5a0c0a2e-52b1-4d1b-8b5e-6e2b7c33b0a9 m1=6b1d1b3f-63c2-4e2c-9c6f-7f3c8d44c1ba
min=$(for d in "$d0" "$d1"; do sectors "$d"; done | sort -n | head -n 1)
data=$(( (min - 4096) / 128 * 128 ))
v1label() {
	if [ "$2" = 0 ]; then _m=$m0; else _m=$m1; fi
	_b="SSDSTRIPE-LABEL 1
array_uuid=$u
name=old
member_uuid=$_m
index=$2
count=2
chunk_sectors=128
data_offset=2048
data_sectors=$data
members=$m0,$m1
created=1795014000"
	printf '%s\nchecksum=sha256:%s\n' "$_b" "$(printf '%s\n' "$_b" | sha256sum | cut -d' ' -f1)" >/tmp/v1
	dd if=/tmp/v1 of="$1" bs=4096 seek=1 count=1 conv=notrunc,sync,fsync 2>/dev/null || fail "cannot write a v1 label"
}
v1label "$d0" 0
v1label "$d1" 1
out=$(ssdstripe assemble old 2>&1) || fail "a version 1 array does not assemble: $out"
must dd if="$pat" of=/dev/mapper/old bs=1M conv=fsync
must ssdstripe stop old
ex=$(ssdstripe examine "$d0") || fail "examine v1: $ex"
echo "$ex" | grep -qx "  (a label of version 1 records no member's drive)" || fail "examine v1: $ex"
zero_label "$d1"
refused 3 "array old: member 1 \\(uuid $m1; labels of version 1 record no drive identity\\) not found \\(incomplete\\): reseat it, or replace it" \
	ssdstripe assemble --timeout 0 old
grep -q "assume-clean" /tmp/refused.err && fail "a hint without a recorded drive: $(cat /tmp/refused.err)"
w0=$(writes_done "$d0" "$d1")
refused 3 "labels of version 1 record no drive identity: cannot tell that $d1 is the lost member 1 of old; --force writes it anyway" \
	ssdstripe create --assume-clean --name old "$d0" "$d1"
[ "$(writes_done "$d0" "$d1")" = "$w0" ] || fail "a refused create --assume-clean wrote"
out=$(ssdstripe create --assume-clean --force --name old "$d0" "$d1" 2>&1) || fail "--force on v1: $out"
echo "$out" | grep -q "cannot tell that $d1 is the lost member 1 of old: writing it anyway (--force)" || fail "v1 --force: $out"
for d in "$d0" "$d1"; do
	ex=$(ssdstripe examine "$d") || fail "examine: $ex"
	echo "$ex" | grep -qx "  SSDSTRIPE-LABEL 2" || fail "not a version 2 label: $ex"
	echo "$ex" | grep -qx "  generation=1" || fail "not generation 1: $ex"
	echo "$ex" | grep -qE "^  drive\\.0=.* serial:ssd0 model:$model$" || fail "no drive of member 0: $ex"
	echo "$ex" | grep -qE "^  drive\\.1=.* serial:ssd1 model:$model$" || fail "no drive of member 1: $ex"
done
echo "$ex" | grep -qx "  member_uuid=$m1" || fail "member 1's uuid changed: $ex"
intact old
must ssdstripe stop old
# versions 1 and 2 side by side assemble, by name and by devices
v1label "$d0" 0
out=$(ssdstripe assemble old 2>&1) || fail "v1 + v2 do not assemble: $out"
intact old
must ssdstripe stop old
out=$(ssdstripe assemble "$d1" "$d0" 2>&1) || fail "v1 + v2 do not assemble by devices: $out"
intact old
must ssdstripe stop old
wipe_labels "$d0" "$d1"

# ---- device-mapper members ----------------------------------------------
S=65536
must dmsetup create idm0 --uuid TEST-ssdstripe-idm0 --table "0 $S linear $d0 2048"
must dmsetup create idm1 --table "0 $S linear $d1 2048"
must ssdstripe create --name dmx /dev/mapper/idm0 /dev/mapper/idm1
must ssdstripe stop dmx
ex=$(ssdstripe examine /dev/mapper/idm0) || fail "examine: $ex"
echo "$ex" | grep -qx "  member 1 (a device-mapper device, no serial): nothing recorded identifies it" ||
	fail "examine of a dm member without a uuid: $ex"
echo "$ex" | grep -qE "^  drive\\.0=size:$S type:dm id:dm-uuid:TEST-ssdstripe-idm0 serial:none model:$" ||
	fail "the drive of a dm member with a uuid: $ex"
must dmsetup remove idm1
refused 3 "array dmx: member 1 \\(a device-mapper device, no serial\\) not found \\(incomplete\\): reseat it, or replace it \\(nothing recorded identifies it" \
	ssdstripe assemble --timeout 0 dmx
must dmsetup create idm1 --table "0 $S linear $d1 2048"
# the one with a uuid, under another name and without its label
must dmsetup remove idm0
must dmsetup create other0 --uuid TEST-ssdstripe-idm0 --table "0 $S linear $d0 2048"
zero_label /dev/mapper/other0
refused 3 "array dmx: member 0 \\(a device-mapper device \\(TEST-ssdstripe-idm0\\), no serial\\) not found \\(incomplete\\): the drive is present as mapper/other0, without a label" \
	ssdstripe assemble --timeout 0 dmx
grep -qF "'ssdstripe create --assume-clean --name dmx /dev/mapper/other0 /dev/mapper/idm1'" /tmp/refused.err ||
	fail "no hint for the dm member found by its uuid: $(cat /tmp/refused.err)"
must ssdstripe create --assume-clean --name dmx /dev/mapper/other0 /dev/mapper/idm1
must ssdstripe stop dmx
must dmsetup remove other0 idm1
wipe_labels "$d0" "$d1"
pass
