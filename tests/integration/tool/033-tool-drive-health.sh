#!/bin/sh
# shellcheck disable=SC2154 # S_* are set by smart_read
# Drive-reported health (scripts/lib/smart.sh) on the rig's emulated NVMe
# SSDs: QEMU's controllers answer smartctl and nvme-cli; a critical warning
# set on one controller at run time (QEMU's smart_critical_warning, through
# its monitor) is read on that drive only, decoded to words, and clearing
# it reads ok again.
. /tests/integration/lib.sh
# shellcheck source=../../../scripts/lib/smart.sh
. /usr/lib/ssdstripe/smart.sh

d1=$(disk 1) || fail "no ssd1"
d2=$(disk 2) || fail "no ssd2"
n1=${d1##*/} n2=${d2##*/}
log "smartctl on $d1:"
smartctl --json -H -A "$d1" | head -c 3000
log "nvme smart-log on $d1:"
nvme smart-log -o json "$d1" | head -c 3000
export SSDSTRIPE_RUNDIR=/run/ssdstripe-t033
# shellcheck disable=SC2034 # read by smart_read
SMART_CACHE=0
smart_read "$n1"
log "ssd1: source=$S_source health=$S_health why=$S_why crit=$S_critical wear=$S_wear_pct spare=$S_spare_pct/$S_spare_threshold_pct temp=$S_temperature_c throttle=$S_throttle_count/$S_throttle_seconds"
[ "$S_source" = smartctl+nvme-cli ] || fail "ssd1 read from '$S_source'"
[ "$S_health" = ok ] || fail "ssd1 health '$S_health' ($S_why) before any warning"
log "qom-set: $(host_critical_warning 1 4)"
smart_read "$n1"
if [ "$S_health" != critical ] || [ "$S_critical" != 4 ] || [ "$S_why" != "reliability degraded" ]; then
	fail "ssd1 after warning 4: $S_health $S_critical '$S_why'"
fi
smart_read "$n2"
[ "$S_health" = ok ] || fail "ssd2 caught ssd1's warning: $S_health $S_why"
log "qom-set: $(host_critical_warning 1 0)"
smart_read "$n1"
[ "$S_health" = ok ] || fail "ssd1 after clearing: $S_health $S_critical '$S_why'"
pass
