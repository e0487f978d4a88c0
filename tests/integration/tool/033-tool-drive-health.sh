#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: a drive's critical warning is named in status, a hook and the metrics, and its clearing too
# KERNELS: 6.12
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# What the drives say (SMART), end to end on the rig's emulated NVMe SSDs:
# QEMU's controllers answer smartctl and nvme-cli; status, the monitor's
# hooks and its textfile show every drive ok and stay silent; a critical
# warning set on one controller at run time (QEMU's smart_critical_warning,
# through its monitor) is named on that member only, within the cache
# period (SMART_CACHE from the configuration file), in status (exit 6
# while the array stays optimal), in one drive-health hook with the
# member, device and serial, and in the metrics; clearing it fires the
# clear event.  Without smartctl and nvme-cli (an initramfs) every drive
# is unknown and status exits 0.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

set -- $(disks) || fail "disks missing"
wipe_labels "$@"
must ssdstripe create --name dh "$@"
uuid=$(ssdstripe examine "$1" | sed -n 's/^  array_uuid=//p')
conf=/tmp/dh.conf
printf 'SMART_CACHE 2\n' >"$conf"
export SSDSTRIPE_CONF=$conf
# member 1 is disk 1 (serial ssd1): create keeps the order given
k=1 dev=${2#/dev/}

# ---- all healthy: every drive ok, nothing fires ------------------------------
out=$(ssdstripe status dh) || fail "status exited $? with every drive ok: $out"
n=$(echo "$out" | awk '$NF == "ok" && $1 ~ /^[0-9]$/' | wc -l)
[ "$n" = 4 ] || fail "status: $n members with drive ok, not 4: $out"
j=$(ssdstripe status --json dh)
[ "$(echo "$j" | jq -r '[.arrays[0].members[] | .drive_source] | unique | join(",")')" = smartctl+nvme-cli ] ||
	fail "drive_source: $(echo "$j" | jq -c '[.arrays[0].members[] | .drive_source]')"
[ "$(echo "$j" | jq -r '.arrays[0].members[1].drive_critical_warning')" = 0 ] ||
	fail "drive_critical_warning of member 1: $j"

ev=/tmp/dh.events prom=/tmp/dh.prom
: >"$ev"
# shellcheck disable=SC2016 # expanded by the hook's shell
hook='echo "$SSDSTRIPE_EVENT|$SSDSTRIPE_ARRAY|$SSDSTRIPE_MEMBER|$SSDSTRIPE_DEVICE|$SSDSTRIPE_OLD_STATE|$SSDSTRIPE_STATE|$SSDSTRIPE_ARRAY_STATE|$SSDSTRIPE_UUID|$SSDSTRIPE_SERIAL|$SSDSTRIPE_DETAIL" >>'"$ev"
ssdstripe monitor --interval 1 --textfile "$prom" --exec "$hook" >/tmp/dh.out 2>/tmp/dh.err &
mpid=$!
wait_until 30 test -s "$prom" || fail "no textfile: $(cat /tmp/dh.err)"
m1="array=\"dh\",uuid=\"$uuid\",member=\"$k\",serial=\"ssd$k\""
grep -qxF "ssdstripe_member_drive_health{$m1,state=\"ok\"} 1" "$prom" ||
	fail "textfile: member $k's drive not ok: $(grep drive_health "$prom")"
sleep 4	# two cache periods: a healthy drive raises nothing
[ -s "$ev" ] && fail "a hook fired with every drive healthy: $(cat "$ev")"

# ---- a critical warning on ssd1 ---------------------------------------------
log "QEMU: $(host_critical_warning "$k" 4)"
t0=$(cut -d. -f1 /proc/uptime)
wait_until 30 grep -q '^drive-health|' "$ev" || fail "no drive-health event 30 s on: $(cat /tmp/dh.out /tmp/dh.err)"
log "event after about $(($(cut -d. -f1 /proc/uptime) - t0)) s: $(cat "$ev")"
want="drive-health|dh|$k|$dev|ok|critical|optimal|$uuid|ssd$k|reliability degraded"
[ "$(cat "$ev")" = "$want" ] || fail "event: $(cat "$ev"), wanted $want"
out=$(ssdstripe status dh)
rc=$?
[ "$rc" = 6 ] || fail "status exited $rc with a critical drive (want 6): $out"
echo "$out" | grep -qx "array dh: optimal, .*" || fail "the array state moved: $out"
echo "$out" | grep -qxF "  drive of member $k ($dev, serial ssd$k) is critical: reliability degraded" ||
	fail "status does not name the drive: $out"
[ "$(echo "$out" | awk '$1 ~ /^[0-9]$/ { print $1 "=" $NF }' | tr '\n' ' ')" = "0=ok 1=critical 2=ok 3=ok " ] ||
	fail "DRIVE column: $out"
wait_until 10 grep -qxF "ssdstripe_member_drive_health{$m1,state=\"critical\"} 1" "$prom" ||
	fail "textfile: $(grep "drive_health.*member=\"$k\"" "$prom")"
grep -qxF "ssdstripe_member_drive_critical_warning{$m1} 4" "$prom" ||
	fail "textfile: $(grep "critical_warning" "$prom")"
[ "$(grep -c 'ssdstripe_member_drive_health.*state="critical"} 1' "$prom")" = 1 ] ||
	fail "another drive is critical: $(grep 'drive_health.*} 1' "$prom")"
grep -q 'ssdstripe_member_state{.*state="ok"} 0' "$prom" && fail "a member state moved: $(grep member_state "$prom")"
sleep 3
[ "$(grep -c . "$ev")" = 1 ] || fail "more than one event: $(cat "$ev")"

# ---- cleared ----------------------------------------------------------------
log "QEMU: $(host_critical_warning "$k" 0)"
wait_until 30 grep -q '|critical|ok|' "$ev" || fail "no clear event: $(cat "$ev")"
[ "$(sed -n 2p "$ev")" = "drive-health|dh|$k|$dev|critical|ok|optimal|$uuid|ssd$k|the drive reports no warning" ] ||
	fail "clear event: $(sed -n 2p "$ev")"
must ssdstripe status dh
kill "$mpid"
wait "$mpid"
grep -q 'dh: drive-health member 1 .* ok -> critical, array optimal: reliability degraded' /tmp/dh.out ||
	fail "no log line: $(cat /tmp/dh.out)"

# ---- no smartctl, no nvme-cli: unknown, not an error ----------------------------
out=$(SSDSTRIPE_SMARTCTL=/nonexistent SSDSTRIPE_NVME=/nonexistent SSDSTRIPE_SMART_CACHE=0 ssdstripe status dh) ||
	fail "status without the tools exited $?: $out"
[ "$(echo "$out" | awk '$1 ~ /^[0-9]$/ { print $NF }' | sort -u)" = unknown ] || fail "without the tools: $out"
must ssdstripe stop dh
pass "critical warning on ssd$k: event, status exit 6, metrics; cleared; unknown without the tools"
