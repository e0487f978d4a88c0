#!/bin/sh
# shellcheck disable=SC2046,SC2086 # device lists are words
# The transcript of issue #28, end to end on NVMe disks (six with
# --disks 6: four members and two blank disks): a member pulled out of
# its PCIe slot (/sys/class/nvme/nvmeX/device/remove) is named by the drive
# its labels record, model and serial, in assemble (by name, --scan, by
# devices), table, list and examine, with "reseat it, or replace it" and
# no create --assume-clean hint; create --assume-clean of the survivors and
# a blank disk is refused (exit 3), naming what the labels record for the
# member and what the blank disk is, and writes nothing; after a PCI rescan
# the drive, under whatever name it gets, is named where it is and the
# array assembles with the file on it unchanged.  Then the same pull under
# an active array: status and detail show the gone member's recorded model
# and serial (and --json its recorded_*), list names it, and after the
# rescan all three say where the drive is now.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

nd=$(ndisks)
[ "$nd" -ge 4 ] || skip "needs 4 disks (6 for the issue's transcript), has $nd"
m=$((nd - 2))
[ "$m" -le 4 ] || m=4
v=$((m - 1))			# the member pulled: the last one
e=$m				# a blank disk of the same model and size
model="QEMU NVMe Ctrl"

# controller K: the /sys/class/nvme directory of the drive with serial ssdK
controller() {
	for _c in /sys/class/nvme/nvme*; do
		[ "$(tr -d ' ' <"$_c/serial")" = "ssd$1" ] && { echo "$_c"; return 0; }
	done
	return 1
}
# shellcheck disable=SC2317 # called by wait_until
gone() { ! member_dev "ssd$1" >/dev/null; }
# shellcheck disable=SC2317 # called by wait_until
back() { member_dev "ssd$1" >/dev/null; }
# pull K: surprise removal of SSD K from the guest's PCI bus
pull() {
	_pc=$(controller "$1") || fail "no controller with serial ssd$1"
	log "pulling ssd$1 ($(disk "$1"), ${_pc##*/})"
	echo 1 >"$_pc/device/remove" || fail "cannot remove ${_pc##*/}"
	wait_until 30 gone "$1" || fail "ssd$1 still present after removing it"
}
# rescan K: the PCI bus finds SSD K again, under whatever name
rescan() {
	echo 1 >/sys/bus/pci/rescan
	wait_until 30 back "$1" || fail "ssd$1 not back after a PCI rescan"
	log "ssd$1 is back as $(disk "$1")"
}
# whatever happens, later tests find every disk
trap 'echo 1 >/sys/bus/pci/rescan 2>/dev/null' EXIT

set -- $(disks) || fail "disks missing"
wipe_labels "$@"
members=''
k=0
while [ "$k" -lt "$m" ]; do members="$members $(disk $k)"; k=$((k + 1)); done
must ssdstripe create --name fast $members
must mkfs.ext4 -q /dev/mapper/fast
mkdir -p /mnt/fast
must mount -t ext4 /dev/mapper/fast /mnt/fast
pat=$(pattern_file 8)
must cp "$pat" /mnt/fast/file
umount /mnt/fast
sum=$(md5sum <"$pat")

# every label records every member's drive, and status --json says it
j=$(ssdstripe status --json fast) || fail "status --json: $j"
k=0
for d in $members; do
	[ "$(echo "$j" | jq -r ".arrays[0].members[$k].recorded_serial")" = "ssd$k" ] ||
		fail "member $k: recorded_serial: $j"
	[ "$(echo "$j" | jq -r ".arrays[0].members[$k].recorded_model")" = "$model" ] ||
		fail "member $k: recorded_model: $j"
	[ "$(echo "$j" | jq -r ".arrays[0].members[$k].recorded_id")" = "$(cat "/sys/class/block/${d#/dev/}/wwid")" ] ||
		fail "member $k: recorded_id: $j"
	k=$((k + 1))
done
must ssdstripe stop fast

# ---- the transcript: member v pulled; a blank disk is not it -----------
pull "$v"
survivors=''
k=0
while [ "$k" -lt "$v" ]; do survivors="$survivors $(disk $k)"; k=$((k + 1)); done
blank=$(disk "$e")
missing="member $v \\($model, serial ssd$v\\) not found"
refused 3 "array fast: $missing \\(incomplete\\): reseat it, or replace it" ssdstripe assemble --timeout 1 fast
grep -qE "assume-clean|could be member" /tmp/refused.err && fail "assemble suggests a device: $(cat /tmp/refused.err)"
refused 3 "array fast: $missing \\(incomplete\\): reseat it, or replace it" ssdstripe assemble --scan --timeout 1
refused 3 "array fast: $missing \\(incomplete\\): reseat it, or replace it" ssdstripe assemble $survivors
refused 3 "array fast: $missing: reseat it, or replace it" ssdstripe table fast
grep -q "assume-clean" /tmp/refused.err && fail "table suggests a device: $(cat /tmp/refused.err)"
ssdstripe list >/tmp/list.out 2>/tmp/list.err || fail "list exited $?"
grep -qE "^fast +inactive +$v/$m " /tmp/list.out || fail "list: $(cat /tmp/list.out)"
grep -qE "array fast: $missing: reseat it, or replace it" /tmp/list.err ||
	fail "list did not name the missing member: $(cat /tmp/list.err)"
ex=$(ssdstripe examine "$(disk 0)") || fail "examine: $ex"
echo "$ex" | grep -qx "  member $v ($model, serial ssd$v): not found: reseat it, or replace it" ||
	fail "examine did not name the missing member: $ex"
echo "$ex" | grep -qx "  member 0 ($model, serial ssd0): this device" || fail "examine: $ex"

# create --assume-clean onto the blank disk: refused, nothing written
w0=$(writes_done $survivors "$blank")
refused 3 "$blank is not member $v of fast: its labels record $model, serial ssd$v, id nvme\\.[0-9a-f-]+, [0-9]+ sectors for it, and $blank is $model, serial ssd$e, id nvme\\.[0-9a-f-]+, [0-9]+ sectors; --force writes it anyway" \
	ssdstripe create --assume-clean --name fast $survivors "$blank"
grep -q "create --assume-clean refused; nothing was written" /tmp/refused.err ||
	fail "no 'nothing was written': $(cat /tmp/refused.err)"
grep -q "assembled" /tmp/refused.out && fail "create --assume-clean assembled: $(cat /tmp/refused.out)"
[ "$(writes_done $survivors "$blank")" = "$w0" ] || fail "a refused create --assume-clean wrote"
refused 4 "has no ssdstripe label" ssdstripe examine "$blank"
dmsetup info fast >/dev/null 2>&1 && fail "fast is active"

# the drive comes back, under some name: examine and assemble by devices
# say where; assemble by name takes it
rescan "$v"
now=$(disk "$v")
ex=$(ssdstripe examine "$(disk 0)") || fail "examine: $ex"
echo "$ex" | grep -qx "  member $v ($model, serial ssd$v): $now" ||
	fail "examine did not find member $v as $now: $ex"
# given the survivors alone, assemble says where the member is
refused 3 "array fast: $missing \\(incomplete\\): the drive is present as ${now#/dev/}, with its label \\(not among the devices given\\)" \
	ssdstripe assemble $survivors
out=$(ssdstripe assemble fast 2>&1) || fail "assemble after the rescan: $out"
echo "$out" | grep -q "assembled fast from .*${now#/dev/}" || fail "assemble said: $out"
must mount -t ext4 -o ro /dev/mapper/fast /mnt/fast
[ "$(md5sum </mnt/fast/file)" = "$sum" ] || fail "the file on fast changed"
umount /mnt/fast

# ---- the same pull under the active array -------------------------------
pull "$v"
st=$(ssdstripe status fast 2>&1)
log "status: $(echo "$st" | tr '\n' ';')"
echo "$st" | grep -qE "^  $v  \\(gone\\) +$model +ssd$v +" || fail "status row of the gone member: $st"
echo "$st" | grep -qx "  member $v ($model, serial ssd$v) is gone: reseat it, or replace it" ||
	fail "status did not name the gone member: $st"
de=$(ssdstripe detail fast 2>&1) || fail "detail exited $?: $de"
echo "$de" | grep -qE "^  $v  \\(gone\\) +$model +ssd$v +- " || fail "detail row of the gone member: $de"
echo "$de" | grep -qx "  member $v ($model, serial ssd$v) is gone: reseat it, or replace it" ||
	fail "detail did not name the gone member: $de"
j=$(ssdstripe detail --json fast) || fail "detail --json: $j"
[ "$(echo "$j" | jq -r ".members[$v].recorded_serial") $(echo "$j" | jq -r ".members[$v].serial")" = "ssd$v null" ] ||
	fail "detail --json of the gone member: $j"
ssdstripe list >/tmp/list.out 2>/tmp/list.err || fail "list exited $?"
grep -q "array fast: member $v ($model, serial ssd$v) is gone: reseat it, or replace it" /tmp/list.err ||
	fail "list: $(cat /tmp/list.err)"
rescan "$v"
now=$(disk "$v")
again="member $v ($model, serial ssd$v) is gone from the array; the drive is present again as ${now#/dev/}: stop the array and assemble it again"
ssdstripe status fast 2>&1 | grep -qF "  $again" || fail "status after the rescan: $(ssdstripe status fast 2>&1)"
ssdstripe detail fast 2>&1 | grep -qF "  $again" || fail "detail after the rescan: $(ssdstripe detail fast 2>&1)"
ssdstripe list 2>&1 >/dev/null | grep -qF "array fast: $again" || fail "list after the rescan: $(ssdstripe list 2>&1)"
must ssdstripe stop fast
out=$(ssdstripe assemble fast 2>&1) || fail "assemble after the second rescan: $out"
must mount -t ext4 -o ro /dev/mapper/fast /mnt/fast
[ "$(md5sum </mnt/fast/file)" = "$sum" ] || fail "the file on fast changed"
umount /mnt/fast
must ssdstripe stop fast
wipe_labels $(disks)
pass
