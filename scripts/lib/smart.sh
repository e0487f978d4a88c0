# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe: what each member's drive says about itself.  Sourced by the
# ssdstripe tool; POSIX sh, runs under busybox.
#
# The figures come from smartmontools' `smartctl --json` (7.0 or later:
# NVMe SMART/health log, ATA/SCSI overall health and attributes) and, for
# NVMe, from nvme-cli's `nvme smart-log -o json`, which alone has the
# thermal-management counters (smartctl 7.3 prints them only as text).
# Either tool alone is enough; with neither, or for a device that is no
# drive (dm, loop, md), every figure is unknown: never healthy, never an
# error.  Both are run read-only (Get Log Page / SMART READ DATA) and their
# answer is cached for SMART_CACHE seconds, so that monitor does not ask a
# drive at every poll.  Documentation/ssdstripe.rst ("Drive health")
# explains every figure to an administrator.
#
# Record, one "key=value" a line (smart_record prints it, smart_read sets
# the S_* variables from it; empty means unknown):
#   source         smartctl, nvme-cli, smartctl+nvme-cli or none
#   health         ok, warning, critical or unknown
#   why            what made it warning or critical, in words
#   critical       the NVMe critical-warning bits (0-255); ATA/SCSI: 1 when
#                  the drive's overall self-assessment failed
#   wear_pct       NVMe percentage used (may exceed 100); ATA: 100 - the
#                  normalized wear attribute
#   spare_pct, spare_threshold_pct   NVMe available spare and its threshold
#                  (a threshold of 0: the drive does not report its spare)
#   media_errors   NVMe media and data integrity errors; ATA: reported
#                  uncorrectable errors (187)
#   unsafe_shutdowns, power_on_hours, temperature_c
#   warning_temp_minutes, critical_temp_minutes   time above the drive's
#                  warning / critical composite temperature (NVMe)
#   throttle_count, throttle_seconds   thermal-management transitions and
#                  total time, TMT1 + TMT2 (NVMe, nvme-cli)

SMARTCTL=${SSDSTRIPE_SMARTCTL:-smartctl}
NVME_CLI=${SSDSTRIPE_NVME:-nvme}
SMART_FIELDS="source health why critical wear_pct spare_pct spare_threshold_pct media_errors unsafe_shutdowns power_on_hours temperature_c warning_temp_minutes critical_temp_minutes throttle_count throttle_seconds"

# json_flat: a JSON document on stdin as "path<TAB>value" lines, one per
# scalar; object keys joined with ".", array elements as [i]; strings
# without their quotes (escaped as JSON, so a line stays a line); then
# "#complete<TAB>1" when the input was one whole document.  Read by jq; a
# system without jq reads nothing (every figure unknown, and it says
# once what to install).  The initramfs needs none of this: it has
# neither smartctl nor nvme-cli (scripts/lib/initramfs-commands).
json_flat() {
	if ! command -v jq >/dev/null 2>&1; then
		cat >/dev/null
		if ! command -v once >/dev/null 2>&1 || once smart-no-jq; then
			printf '%s\n' "ssdstripe: jq is not installed: drive health is unknown (install jq; arrays are not affected)" >&2
		fi
		return 0
	fi
	# a document cut short (a tool killed or failing mid-way) is no
	# document: it must not pass for a healthy drive
	jq -rs 'if length == 1 then (.[0] | paths(type != "object" and type != "array") as $p
		| ($p | map(if type == "number" then "[\(.)]" else ".\(.)" end) | join("") | ltrimstr("."))
		+ "\t" + (getpath($p) | if type == "string" then tojson[1:-1] else tojson end)),
		"#complete\t1" else empty end' 2>/dev/null
}

# smart_disk DEV: the device node that answers for the drive holding DEV
# (a kernel block device name: nvme0n1, nvme0n1p2, sdb1), or nothing when
# DEV is no drive (dm, loop, md, virtio)
smart_disk() {
	local _sk
	_sk=/sys/class/block/$1
	[ -e "$_sk/partition" ] && _sk=$(readlink -f "$_sk/..")
	_sk=${_sk##*/}
	case $_sk in
	nvme*n* | sd[a-z]* | hd[a-z]*) [ -b "/dev/$_sk" ] && echo "/dev/$_sk" ;;
	esac
}

# smart_parse SMARTCTL_FLAT NVME_FLAT: the record from the two documents
# (json_flat output files; either may be missing or empty)
smart_parse() {
	smart_config
	awk -F '\t' -v wear_warn="$SMART_WEAR_WARN" -v spare_margin="$SMART_SPARE_MARGIN" '
	FILENAME == ARGV[1] { sc[$1] = $2 }
	FILENAME == ARGV[2] { nv[$1] = $2 }
	# newer nvme-cli: "critical_warning": {"value": N, ...}
	FILENAME == ARGV[2] && $1 == "critical_warning.value" { nv["critical_warning"] = $2 }
	function num(x) { return x ~ /^[0-9]+$/ }
	function add(what) { why = why (why == "" ? "" : ", ") what }
	END {
		src = ""
		# smartctl: only a document that read the drive counts (exit status
		# bits 0-1: bad command line, the device did not open)
		if (sc["#complete"] == 1 && num(sc["smartctl.exit_status"]) && int(sc["smartctl.exit_status"] / 1) % 4 == 0 &&
		    (("nvme_smart_health_information_log.critical_warning" in sc) ||
		     ("smart_status.passed" in sc)))
			src = "smartctl"
		if (nv["#complete"] != 1) delete nv
		if (("critical_warning" in nv))
			src = src (src == "" ? "" : "+") "nvme-cli"
		if (src == "") { print "source=none"; print "health=unknown"; exit }
		h = "nvme_smart_health_information_log."
		if ((h "critical_warning") in sc) {
			crit = sc[h "critical_warning"]
			wear = sc[h "percentage_used"]
			spare = sc[h "available_spare"]
			spare_t = sc[h "available_spare_threshold"]
			media = sc[h "media_errors"]
			unsafe = sc[h "unsafe_shutdowns"]
			poh = sc[h "power_on_hours"]
			temp = sc[h "temperature"]
			wtime = sc[h "warning_temp_time"]
			ctime = sc[h "critical_comp_time"]
		} else if ("smart_status.passed" in sc) {
			# ATA / SCSI: the overall self-assessment, and what attributes say
			crit = sc["smart_status.passed"] == "false" ? 1 : 0
			temp = sc["temperature.current"]
			poh = sc["power_on_time.hours"]
			for (k in sc) {
				if (k !~ /^ata_smart_attributes\.table\[[0-9]+\]\.id$/) continue
				pre = substr(k, 1, length(k) - 2)
				id = sc[k]
				if (id == 187) media = sc[pre "raw.value"]
				if (id == 174 || id == 192) unsafe = sc[pre "raw.value"]
				# wear: SSD_Life_Left, Media_Wearout_Indicator, Wear_Leveling_Count,
				# Percent_Lifetime_Remain (normalized, 100 = new)
				if ((id == 231 || id == 233 || id == 177 || id == 202) && wear == "")
					wear = 100 - sc[pre "value"]
			}
		}
		# nvme-cli: everything when smartctl is absent, the thermal counters always
		if ("critical_warning" in nv) {
			if (crit == "") {
				crit = nv["critical_warning"]
				wear = nv["percent_used"]
				spare = nv["avail_spare"]
				spare_t = nv["spare_thresh"]
				media = nv["media_errors"]
				unsafe = nv["unsafe_shutdowns"]
				poh = nv["power_on_hours"]
				if (num(nv["temperature"])) temp = nv["temperature"] - 273
				wtime = nv["warning_temp_time"]
				ctime = nv["critical_comp_time"]
			}
			if (num(nv["thm_temp1_trans_count"]))
				tcount = nv["thm_temp1_trans_count"] + nv["thm_temp2_trans_count"]
			if (num(nv["thm_temp1_total_time"]))
				tsecs = nv["thm_temp1_total_time"] + nv["thm_temp2_total_time"]
		}
		# nvme-cli 2.x may print percentages as "100%"
		sub(/%$/, "", wear); sub(/%$/, "", spare); sub(/%$/, "", spare_t)
		health = "ok"
		if (num(crit) && crit > 0) {
			health = "critical"
			if (((h "critical_warning") in sc) || ("critical_warning" in nv)) {
				c = crit + 0
				if (c % 2 >= 1) add("spare below threshold")
				if (c % 4 >= 2) add("temperature out of range")
				if (c % 8 >= 4) add("reliability degraded")
				if (c % 16 >= 8) add("media read-only")
				if (c % 32 >= 16) add("volatile memory backup failed")
				if (c % 64 >= 32) add("persistent memory region unreliable")
				if (c >= 64) add("unknown critical warning")
			} else {
				add("drive self-assessment failed")
			}
		}
		if (num(wear) && wear + 0 >= wear_warn + 0) add("wear " wear "%")
		# a threshold of 0: the drive does not report its spare (QEMU)
		if (num(spare) && num(spare_t) && spare_t > 0 && crit % 2 < 1 &&
		    spare + 0 <= spare_t + spare_margin)
			add("spare " spare "% near threshold " spare_t "%")
		if (num(media) && media > 0) add(media " media error" (media == 1 ? "" : "s"))
		if (health == "ok" && why != "") health = "warning"
		print "source=" src
		print "health=" health
		print "why=" why
		print "critical=" crit
		print "wear_pct=" wear
		print "spare_pct=" spare
		print "spare_threshold_pct=" spare_t
		print "media_errors=" media
		print "unsafe_shutdowns=" unsafe
		print "power_on_hours=" poh
		print "temperature_c=" temp
		print "warning_temp_minutes=" wtime
		print "critical_temp_minutes=" ctime
		print "throttle_count=" tcount
		print "throttle_seconds=" tsecs
	}' "$1" "$2"
}

# smart_record DISK: the record for a drive's device node, asked now
smart_record() {
	local _sr_t
	_sr_t=$(mktemp -d "${TMPDIR:-/tmp}/ssdstripe-smart.XXXXXX") || return 1
	: >"$_sr_t/sc" && : >"$_sr_t/nv"
	if command -v "$SMARTCTL" >/dev/null 2>&1; then
		# -H -A: health and the SMART/health log, nothing written; its exit
		# status is a bit mask, the document says what worked
		"$SMARTCTL" --json -H -A "$1" 2>/dev/null | json_flat >"$_sr_t/sc"
	fi
	case ${1##*/} in
	nvme*)
		if command -v "$NVME_CLI" >/dev/null 2>&1; then
			"$NVME_CLI" smart-log -o json "$1" 2>/dev/null | json_flat >"$_sr_t/nv"
		fi
		;;
	esac
	smart_parse "$_sr_t/sc" "$_sr_t/nv"
	rm -rf "$_sr_t"
}

# smart_config: SMART_CACHE, SMART_WEAR_WARN and SMART_SPARE_MARGIN from
# the environment (SSDSTRIPE_SMART_*), else $CONF, else the defaults; a
# value that is not a number is said once and the default used
smart_config() {
	local _sm_n _sm_v
	[ -z "${_sm_configured:-}" ] || return 0
	_sm_configured=1
	command -v conf_warn_once >/dev/null 2>&1 && conf_warn_once
	for _sm_k in CACHE:60 WEAR_WARN:90 SPARE_MARGIN:10; do
		_sm_n=${_sm_k%%:*}
		eval "_sm_v=\${SSDSTRIPE_SMART_$_sm_n:-}"
		if [ -z "$_sm_v" ] && command -v conf_value >/dev/null 2>&1; then
			_sm_v=$(conf_value "SMART_$_sm_n")
		fi
		case $_sm_v in
		'') _sm_v=${_sm_k#*:} ;;
		*[!0-9]*)
			printf "ssdstripe: SMART_%s '%s' is not a number: using %s\n" "$_sm_n" "$_sm_v" "${_sm_k#*:}" >&2
			_sm_v=${_sm_k#*:} ;;
		esac
		eval "SMART_$_sm_n=\$_sm_v"
	done
}

# smart_uptime: _sm_now = whole seconds since boot, without a fork (the
# cache lives in /run, which a boot empties)
smart_uptime() {
	read -r _sm_now _ 2>/dev/null </proc/uptime || _sm_now=0
	_sm_now=${_sm_now%.*}
}

# smart_read DEV: sets S_<key> for every record key of the drive holding
# DEV (a kernel block device name), from a cached answer not older than
# SMART_CACHE seconds (in $SSDSTRIPE_RUNDIR/smart, default /run/ssdstripe);
# a cache hit forks nothing but smart_disk's readlink for a partition
smart_read() {
	local _sm_d _sm_c _sm_f _sm_rec _sm_at _sm_l
	smart_config
	for _sm_k in $SMART_FIELDS; do eval "S_$_sm_k=''"; done
	# shellcheck disable=SC2034 # read by the tool that sources this
	S_source=none S_health=unknown
	_sm_d=$(smart_disk "$1")
	[ -n "$_sm_d" ] || return 0
	_sm_c=${SSDSTRIPE_RUNDIR:-/run/ssdstripe}/smart
	_sm_f=$_sm_c/${_sm_d##*/}
	smart_uptime
	_sm_rec='' _sm_at=''
	if [ "$SMART_CACHE" -gt 0 ] && [ -r "$_sm_f" ]; then
		{
			read -r _sm_at
			while IFS= read -r _sm_l; do _sm_rec="$_sm_rec$_sm_l
"; done
		} <"$_sm_f" 2>/dev/null
		_sm_at=${_sm_at#at=}
		case $_sm_at in
		'' | *[!0-9]*) _sm_rec='' ;;
		*) { [ $((_sm_now - _sm_at)) -lt "$SMART_CACHE" ] && [ "$_sm_at" -le "$_sm_now" ]; } ||
			_sm_rec='' ;;
		esac
	fi
	if [ -z "$_sm_rec" ]; then
		_sm_rec=$(smart_record "$_sm_d") || return 0
		# a cache that cannot be written only costs a drive query
		if [ "$SMART_CACHE" -gt 0 ] && mkdir -p "$_sm_c" 2>/dev/null &&
			printf 'at=%s\n%s\n' "$_sm_now" "$_sm_rec" >"$_sm_f.$$" 2>/dev/null; then
			mv -f "$_sm_f.$$" "$_sm_f" 2>/dev/null || rm -f "$_sm_f.$$"
		fi
	fi
	while IFS= read -r _sm_l; do
		_sm_k=${_sm_l%%=*}
		case " $SMART_FIELDS " in
		*" $_sm_k "*) eval "S_$_sm_k=\${_sm_l#*=}" ;;
		esac
	done <<EOF
$_sm_rec
EOF
}

# smart_throttled OLD_COUNT OLD_SECONDS COUNT SECONDS: "thermally throttled"
# (with for how long, when the drive counts time) when the drive's
# thermal-management counters moved between two readings, else nothing.
# Unknown (empty) readings never say throttled.
smart_throttled() {
	case "$1$2$3$4" in *[!0-9]*) return 0 ;; esac
	[ -n "$1" ] && [ -n "$3" ] || return 0
	if [ -n "$2" ] && [ -n "$4" ] && [ "$4" -gt "$2" ]; then
		echo "thermally throttled for $(($4 - $2)) s"
	elif [ "$3" -gt "$1" ]; then
		echo "thermally throttled"
	fi
}

# ---- the drive's fields in the member record (member.sh) ------------------
# The monitor's textfile carries them (status and detail, C: tool/smart.c
# and tool/member.c, show the same fields).
MEMBER_FIELDS="$MEMBER_FIELDS
drive|-|drive_health:S|sd|13:DRIVE:%-8s:str|10:DRIVE:%-8s:str|ssdstripe_member_drive_health:gauge:states=ok,warning,critical,unknown|Health the member's drive reports about itself (SMART): 1 for the current word, 0 for the others.
drive_why|-|drive_why:s|sd|-|-|-|
drive_source|-|drive_source:S|sd|-|-|-|
drive_critical|-|drive_critical_warning:N|sd|-|-|ssdstripe_member_drive_critical_warning:gauge:opt|NVMe critical-warning bits the drive sets (0: none; SATA: 1 when its self-assessment failed).
drive_wear|-|drive_wear_pct:N|sd|-|-|ssdstripe_member_drive_percentage_used:gauge:opt|Share of its rated endurance the drive says it has used, in percent (may pass 100).
drive_spare|-|drive_spare_pct:N|sd|-|-|ssdstripe_member_drive_available_spare:gauge:opt|Spare flash the drive has left, in percent.
drive_spare_threshold|-|drive_spare_threshold_pct:N|sd|-|-|ssdstripe_member_drive_available_spare_threshold:gauge:opt|Spare level under which the drive raises its own critical warning, in percent (0: not reported).
drive_media_errors|-|drive_media_errors:N|sd|-|-|ssdstripe_member_drive_media_errors_total:counter:opt|Media and data integrity errors the drive reports: data it could not recover.
drive_unsafe_shutdowns|-|drive_unsafe_shutdowns:N|sd|-|-|ssdstripe_member_drive_unsafe_shutdowns_total:counter:opt|Power losses without a clean shutdown the drive counted.
drive_power_on_hours|-|drive_power_on_hours:N|sd|-|-|ssdstripe_member_drive_power_on_seconds_total:counter:hours|Time the drive has been powered on, over its life.
drive_temperature|-|drive_temperature_c:N|sd|-|-|ssdstripe_member_drive_temperature_celsius:gauge:opt|Temperature the drive reports in its health log.
drive_warning_temp_minutes|-|drive_warning_temp_minutes:N|sd|-|-|ssdstripe_member_drive_warning_temperature_seconds_total:counter:minutes|Time the drive spent above its warning temperature.
drive_critical_temp_minutes|-|drive_critical_temp_minutes:N|sd|-|-|ssdstripe_member_drive_critical_temperature_seconds_total:counter:minutes|Time the drive spent above its critical temperature.
drive_throttle_count|-|drive_throttle_count:N|sd|-|-|ssdstripe_member_drive_thermal_throttles_total:counter:opt|Times the drive slowed itself down to cool off (NVMe thermal management, TMT1 + TMT2).
drive_throttle_seconds|-|drive_throttle_seconds:N|sd|-|-|ssdstripe_member_drive_thermal_throttle_seconds_total:counter:opt|Time the drive spent slowed down to cool off (NVMe thermal management, TMT1 + TMT2)."
MEMBER_GATHER="$MEMBER_GATHER smart_gather"

# smart_gather BLOCKSYS: the drive fields of the member being read
# (member_info), from the drive holding BLOCKSYS (/sys/class/block/X)
# shellcheck disable=SC2034,SC2154 # M_ read by name (MEMBER_FIELDS), S_ set by name
smart_gather() {
	smart_read "${1##*/}"
	M_drive=$S_health M_drive_why=$S_why M_drive_source=$S_source
	M_drive_critical=$S_critical M_drive_wear=$S_wear_pct M_drive_spare=$S_spare_pct
	M_drive_spare_threshold=$S_spare_threshold_pct M_drive_media_errors=$S_media_errors
	M_drive_unsafe_shutdowns=$S_unsafe_shutdowns M_drive_power_on_hours=$S_power_on_hours
	M_drive_temperature=$S_temperature_c M_drive_warning_temp_minutes=$S_warning_temp_minutes
	M_drive_critical_temp_minutes=$S_critical_temp_minutes
	M_drive_throttle_count=$S_throttle_count M_drive_throttle_seconds=$S_throttle_seconds
}

# ---- the monitor's drive events --------------------------------------------
# drive_watch ARRAY I STATE OLD_STATE ARRAYSTATE ARRAYSYS: the monitor's
# look at member I's drive at each poll (a cache hit but every SMART_CACHE
# seconds).  Fires
#   drive-health    when the drive's word (ok, warning, critical) changes,
#                   and at start when it is not ok; SSDSTRIPE_DETAIL says
#                   why (a drive that cannot be read now keeps its last word)
#   media-errors    when its media error count grows
#   drive-throttled when its thermal-management counters moved while the
#                   member stays slow ("slow: thermally throttled for 45 s")
# Sets DRIVE_THROTTLED (what a member-state event to slow adds) and raises
# _mo_rc for a drive that warns (5) or is critical (6).
# shellcheck disable=SC2154 # S_ set by name (smart_read)
drive_watch() {
	local _dw_b _dw_f _dw_oh _dw_om _dw_oc _dw_os
	_dw_b=$(readlink -f "$6/members/$2/block" 2>/dev/null)
	_dw_dev=${_dw_b##*/}
	smart_read "$_dw_dev"
	DRIVE_THROTTLED=''
	_dw_f=$TMPD/drive/$1.$2
	_dw_oh='' _dw_om=- _dw_oc=- _dw_os=-
	[ -r "$_dw_f" ] && read -r _dw_oh _dw_om _dw_oc _dw_os <"$_dw_f"
	case $S_health in
	critical) [ "$_mo_rc" -ge 6 ] || _mo_rc=6 ;;
	warning) [ "$_mo_rc" -ge 5 ] || _mo_rc=5 ;;
	unknown) return 0 ;;
	esac
	[ -d "$TMPD/drive" ] || mkdir -p "$TMPD/drive"
	echo "$S_health ${S_media_errors:--} ${S_throttle_count:--} ${S_throttle_seconds:--}" >"$_dw_f"
	_dw_a=$1 _dw_i=$2 _dw_as=$5 _dw_u=''
	if [ "$_dw_oh" != "$S_health" ] && { [ -n "$_dw_oh" ] || [ "$S_health" != ok ]; }; then
		drive_fire drive-health "${_dw_oh:-unknown}" "$S_health" "${S_why:-the drive reports no warning}"
	fi
	case "$_dw_om.${S_media_errors:--}" in
	*[!0-9.]* | *.) ;;
	*) if [ "$S_media_errors" -gt "$_dw_om" ]; then
		drive_fire media-errors "$_dw_om" "$S_media_errors" \
			"$((S_media_errors - _dw_om)) new media errors: the drive lost data"
	fi ;;
	esac
	[ "$_dw_oc" = - ] && _dw_oc=''
	[ "$_dw_os" = - ] && _dw_os=''
	DRIVE_THROTTLED=$(smart_throttled "$_dw_oc" "$_dw_os" "$S_throttle_count" "$S_throttle_seconds")
	if [ "$3" = slow ] && [ "$4" = slow ] && [ -n "$DRIVE_THROTTLED" ]; then
		drive_fire drive-throttled slow slow "slow: $DRIVE_THROTTLED"
	fi
}

# drive_fire EVENT OLD NEW DETAIL: fire EVENT for the member drive_watch is
# looking at (_dw_a, _dw_i, _dw_dev, _dw_as), with the array's uuid (asked
# once per look) and the drive's serial
drive_fire() {
	local _df_s
	[ -n "$_dw_u" ] || _dw_u=$(array_uuid "$_dw_a")
	_df_s=/sys/class/block/$_dw_dev
	[ -e "$_df_s/partition" ] && _df_s=$(readlink -f "$_df_s/..")
	drive_serial "$_df_s" || V=''
	FIRE_DETAIL=$4
	fire "$1" "$_dw_a" "$_dw_i" "$_dw_dev" "$2" "$3" "$_dw_as" "$_dw_u" "$V"
	FIRE_DETAIL=''
}
