#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: status --json, the status table and list agree with sysfs and the NVMe drives
# KERNELS: all
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# ssdstripe status --json, parsed with jq: array name, uuid, state, geometry,
# and per member the device, model and serial from the NVMe controller,
# state, I/O and discard counters that moved with the I/O done, and the
# temperature where hwmon has it.  The human table and list show the same
# array; list shows it inactive after stop.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

set -- $(disks) || fail "disks missing"
wipe_labels "$@"
must ssdstripe create --name st --chunk 128K "$@"
must dd if=/dev/zero of=/dev/mapper/st bs=1M count=16 oflag=direct
must dd if=/dev/mapper/st of=/dev/null bs=1M count=16 iflag=direct
must /usr/sbin/blkdiscard -o 0 -l $((64 * 1024 * 1024)) /dev/mapper/st

j=$(ssdstripe status --json st) || fail "status --json exited $?: $j"
echo "$j" | jq -e . >/dev/null || fail "status --json is not JSON: $j"
q() { echo "$j" | jq -r "$1"; }
[ "$(q '.arrays | length')" = 1 ] || fail "arrays: $j"
[ "$(q '.arrays[0].name')" = st ] || fail "name: $j"
[ "$(q '.arrays[0].state')" = optimal ] || fail "state: $j"
[ "$(q '.arrays[0].member_count')" = 4 ] || fail "member_count: $j"
[ "$(q '.arrays[0].chunk_sectors')" = 256 ] || fail "chunk: $j"
[ "$(q '.arrays[0].size_sectors')" = "$(sectors /dev/mapper/st)" ] || fail "size: $j"
uuid=$(ssdstripe examine "$1" | sed -n 's/^  array_uuid=//p')
[ "$(q '.arrays[0].uuid')" = "$uuid" ] || fail "uuid $(q '.arrays[0].uuid') is not $uuid"
i=0
for d in "$@"; do
	m=".arrays[0].members[$i]"
	[ "$(q "$m.index")" = $i ] || fail "member $i index: $j"
	[ "$(q "$m.device")" = "${d#/dev/}" ] || fail "member $i device $(q "$m.device"), not $d"
	[ "$(q "$m.serial")" = "ssd$i" ] || fail "member $i serial $(q "$m.serial")"
	case $(q "$m.model") in *QEMU*) ;; *) fail "member $i model $(q "$m.model")" ;; esac
	[ "$(q "$m.state")" = ok ] || fail "member $i state $(q "$m.state")"
	[ "$(q "$m.write_sectors")" -ge 8192 ] || fail "member $i wrote $(q "$m.write_sectors") sectors"
	[ "$(q "$m.read_sectors")" -ge 8192 ] || fail "member $i read $(q "$m.read_sectors") sectors"
	[ "$(q "$m.discard_sectors")" = 32768 ] || fail "member $i discarded $(q "$m.discard_sectors") sectors"
	[ "$(q "$m.discard_ios")" -ge 1 ] || fail "member $i discard_ios $(q "$m.discard_ios")"
	[ "$(q "$m.errors")" = 0 ] || fail "member $i errors $(q "$m.errors")"
	[ "$(q "$m.latency_us | type")" = number ] || fail "member $i latency_us: $j"
	hw=''
	for h in /sys/block/"${d#/dev/}"/device/hwmon*/temp1_input; do [ -r "$h" ] && hw=$h; done
	if [ -n "$hw" ]; then
		[ "$(q "$m.temperature_c")" = $(($(cat "$hw") / 1000)) ] ||
			fail "member $i temperature $(q "$m.temperature_c"), hwmon $(cat "$hw")"
	else
		[ "$(q "$m.temperature_c")" = null ] || fail "member $i temperature without hwmon"
	fi
	i=$((i + 1))
done
log "member 0: $(q '.arrays[0].members[0]' | tr -d '\n ')"

human=$(ssdstripe status st) || fail "status exited $?"
echo "$human"
echo "$human" | grep -q "^array st: optimal, 4 members, chunk 128.0 KiB" || fail "status header: $human"
[ "$(echo "$human" | grep -c ' ok ')" = 4 ] || fail "status rows: $human"
ssdstripe list | grep -qE '^st +optimal +4 ' || fail "list: $(ssdstripe list)"
must ssdstripe stop st
ssdstripe list | grep -qE "^st +inactive +4/4 .* $uuid\$" || fail "list after stop: $(ssdstripe list)"
refused 4 "st is not an active ssdstripe array" ssdstripe status st
pass
