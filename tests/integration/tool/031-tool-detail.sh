#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: detail and detail --json agree with sysfs and the label, for a labelled and a raw array
# KERNELS: 6.12
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# ssdstripe detail NAME: one array's whole picture, checked against sysfs,
# the label (uuid, creation time) and the rig's NVMe serials ssd0..; every
# default threshold it shows is the module's own (a message setting it to
# that value leaves 'dmsetup table' without features); a changed threshold
# and no_discard_passdown show; a raw dmsetup array has no uuid and no
# creation time.  status with no array says so and exits 0.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

# ---- no arrays -----------------------------------------------------------
[ -z "$(dmsetup ls --target ssdstripe | awk '$1 != "No"')" ] || fail "arrays left active"
out=$(ssdstripe status) || fail "status without arrays exited $?: $out"
[ "$out" = "no active arrays" ] || fail "status without arrays said: '$out'"
out=$(ssdstripe status --json) || fail "status --json without arrays exited $?: $out"
[ "$out" = '{"version":1,"arrays":[]}' ] || fail "status --json without arrays: $out"
refused 4 "^ssdstripe: nope is not an active ssdstripe array$" ssdstripe detail nope
refused 2 "detail needs an array name" ssdstripe detail
refused 2 "detail takes one array name" ssdstripe detail a b

# ---- an array made by the tool ---------------------------------------------
set -- $(disks) || fail "disks missing"
wipe_labels "$@"
must ssdstripe create --name dt --chunk 128K "$@"
must dd if=/dev/zero of=/dev/mapper/dt bs=1M count=8 oflag=direct
top=/sys/block/$(dm_sysname dt)/ssdstripe
uuid=$(ssdstripe examine "$1" | sed -n 's/^  array_uuid=//p')
created=$(ssdstripe examine "$1" | sed -n 's/^  created=[0-9]* (\(.*\))$/\1/p')
{ [ -n "$uuid" ] && [ -n "$created" ]; } || fail "examine $1: $(ssdstripe examine "$1")"

j=$(ssdstripe detail --json dt) || fail "detail --json exited $?: $j"
echo "$j" | jq -e . >/dev/null || fail "detail --json is not JSON: $j"
q() { echo "$j" | jq -r "$1"; }
[ "$(q .name)" = dt ] || fail "name: $j"
[ "$(q .uuid)" = "$uuid" ] || fail "uuid $(q .uuid), label $uuid"
[ "$(q .created)" = "$created" ] || fail "created $(q .created), label $created"
[ "$(q .state)" = "$(cat "$top/state")" ] || fail "state $(q .state), sysfs $(cat "$top/state")"
[ "$(q .state)" = optimal ] || fail "state $(q .state)"
[ "$(q .member_count)" = "$(cat "$top/member_count")" ] || fail "member_count: $j"
[ "$(q .member_count)" = 4 ] || fail "member_count $(q .member_count)"
[ "$(q .chunk_sectors)" = "$(cat "$top/chunk_sectors")" ] || fail "chunk: $j"
[ "$(q .chunk_sectors)" = 256 ] || fail "chunk $(q .chunk_sectors)"
[ "$(q .size_sectors)" = "$(sectors /dev/mapper/dt)" ] || fail "size: $j"
[ "$(q .discard_passdown)" = true ] || fail "discard_passdown: $j"
[ "$(q .stats)" = true ] || fail "stats: $j"
i=0
for d in "$@"; do
	m=".members[$i]"
	ms=$top/members/$i
	[ "$(q "$m.index")" = $i ] || fail "member $i index: $j"
	[ "$(q "$m.device")" = "${d#/dev/}" ] || fail "member $i device $(q "$m.device"), not $d"
	[ "$(q "$m.serial")" = "ssd$i" ] || fail "member $i serial $(q "$m.serial"), not ssd$i"
	case $(q "$m.model") in *QEMU*) ;; *) fail "member $i model $(q "$m.model")" ;; esac
	[ "$(q "$m.size_sectors")" = "$(sectors "$d")" ] || fail "member $i size $(q "$m.size_sectors")"
	[ "$(q "$m.state")" = "$(cat "$ms/state")" ] || fail "member $i state $(q "$m.state")"
	[ "$(q "$m.errors")" = "$(cat "$ms/errors")" ] || fail "member $i errors $(q "$m.errors")"
	[ "$(q "$m.retries")" = "$(cat "$ms/retries")" ] || fail "member $i retries $(q "$m.retries")"
	[ "$(q "$m.latency_us | type")" = number ] || fail "member $i latency_us: $j"
	i=$((i + 1))
done
[ "$(q '.members | length')" = 4 ] || fail "members: $j"

# every default shown is the module's: setting it leaves no feature words
q '.thresholds | to_entries[] | "\(.key) \(.value)"' >/tmp/thresholds
[ "$(wc -l </tmp/thresholds)" = 7 ] || fail "thresholds: $(cat /tmp/thresholds)"
while read -r k v; do
	must dmsetup message dt 0 "$k" "$v"
	t=$(dmsetup table dt)
	[ "$(echo "$t" | awk '{print NF}')" = 13 ] ||
		fail "detail says $k defaults to $v, but setting it changed the table: $t"
done </tmp/thresholds
log "defaults: $(tr '\n' ' ' </tmp/thresholds)"

# a changed threshold, in both forms
must dmsetup message dt 0 slow_factor 9
j=$(ssdstripe detail --json dt) || fail "detail --json exited $?"
[ "$(q .thresholds.slow_factor)" = 9 ] || fail "slow_factor after the message: $j"
h=$(ssdstripe detail dt) || fail "detail exited $?: $h"
echo "$h"
echo "$h" | grep -q "^array dt$" || fail "detail header: $h"
echo "$h" | grep -qE "^  uuid +$uuid$" || fail "detail uuid: $h"
echo "$h" | grep -qE "^  created +$created$" || fail "detail created: $h"
echo "$h" | grep -qE "^  state +optimal$" || fail "detail state: $h"
echo "$h" | grep -qE "^  chunk +128.0 KiB \(256 sectors\)$" || fail "detail chunk: $h"
echo "$h" | grep -qE "^  slow_factor +9 \(default 4\)$" || fail "detail slow_factor: $h"
echo "$h" | grep -qE "^  fail_windows +3$" || fail "detail fail_windows: $h"
i=0
for d in "$@"; do
	# the last column: what the drive says (QEMU's drives: ok; 033 the rest)
	echo "$h" | grep -qE "^  $i +${d#/dev/} +QEMU.* ssd$i +[0-9.]+ [KMG]iB +ok +0 +[0-9]+ +[0-9]+ ok$" ||
		fail "detail member $i row: $h"
	i=$((i + 1))
done
must ssdstripe stop dt

# ---- a raw dmsetup array: no label, no uuid ----------------------------------
set -- $(slices 2 65536)
mk_array raw "$(stripe_table ssdstripe 65536 128 "$1" 0 "$2" 0 -- no_discard_passdown)"
j=$(ssdstripe detail --json raw) || fail "detail --json raw exited $?: $j"
[ "$(q .uuid)" = null ] || fail "raw uuid: $j"
[ "$(q .created)" = null ] || fail "raw created: $j"
[ "$(q .discard_passdown)" = false ] || fail "raw discard_passdown: $j"
[ "$(q ".members[1].device")" = "$(sysname "$2")" ] || fail "raw member 1: $j"
[ "$(q ".members[1].serial")" = null ] || fail "raw member 1 serial: $j"
h=$(ssdstripe detail raw) || fail "detail raw exited $?"
echo "$h" | grep -qE "^  created +-$" || fail "raw created: $h"
echo "$h" | grep -qE "^  discard passdown +off$" || fail "raw passdown: $h"
rm_array raw
rm_slices
pass
