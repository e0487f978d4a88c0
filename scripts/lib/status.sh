# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# ssdstripe status: health and statistics of active arrays and their
# members, as a table or JSON.

# ---- status ------------------------------------------------------------
help_status() {
	cat <<EOF
usage: $PROG status [NAME...] [--json]

Health and statistics of active arrays and of each member: device, model and
serial where the system has them, state (ok, slow, erroring, failed), I/O,
errors, latency, discard totals and the NVMe temperature where hwmon has it.
The array state is its worst member's: optimal, slow, erroring or failed.
With no array active and none named it says "no active arrays" (--json:
an empty list) and exits 0: nothing is unhealthy.  Name the arrays you
expect to exist: a name that is not active exits 4.
'$PROG detail NAME' adds the creation time and the health thresholds.
Exit: 0 all optimal, 4 no such array, 5 one is slow, 6 one is erroring,
7 one has failed (the worst array shown decides).
EOF
}

# member_info ARRAYSYS I: sets M_* for member I
member_info() {
	_mi=$1/members/$2
	M_DEV=$(readlink -f "$_mi/block" 2>/dev/null)
	M_DEV=${M_DEV##*/}
	M_MODEL='' M_SERIAL='' M_FW='' M_TEMP=''
	_mi_b=/sys/class/block/$M_DEV
	[ -e "$_mi_b/partition" ] && _mi_b=$(readlink -f "$_mi_b/..")
	for _mi_f in "$_mi_b/device/model" "$_mi_b/device/device/model"; do
		[ -r "$_mi_f" ] && { M_MODEL=$(sed 's/[[:space:]]*$//' "$_mi_f"); break; }
	done
	for _mi_f in "$_mi_b/device/serial" "$_mi_b/device/device/serial" "$_mi_b/device/vpd_pg80"; do
		[ -r "$_mi_f" ] && { M_SERIAL=$(tr -d '\000' <"$_mi_f" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'); break; }
	done
	# NVMe: firmware_rev of the controller; SCSI/ATA: rev
	for _mi_f in "$_mi_b/device/firmware_rev" "$_mi_b/device/device/firmware_rev" "$_mi_b/device/rev"; do
		[ -r "$_mi_f" ] && { M_FW=$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' "$_mi_f"); break; }
	done
	for _mi_f in "$_mi_b"/device/hwmon*/temp1_input "$_mi_b"/device/hwmon/hwmon*/temp1_input \
		"$_mi_b"/device/device/hwmon/hwmon*/temp1_input; do
		[ -r "$_mi_f" ] || continue
		_mi_t=$(cat "$_mi_f" 2>/dev/null) || continue
		M_TEMP=$((_mi_t / 1000))
		break
	done
	M_read_ios=$(_mi_rd read_ios) M_write_ios=$(_mi_rd write_ios)
	M_flush_ios=$(_mi_rd flush_ios) M_discard_ios=$(_mi_rd discard_ios)
	M_write_zeroes_ios=$(_mi_rd write_zeroes_ios)
	M_read_sectors=$(_mi_rd read_sectors) M_write_sectors=$(_mi_rd write_sectors)
	M_discard_sectors=$(_mi_rd discard_sectors)
	M_errors=$(_mi_rd errors) M_read_errors=$(_mi_rd read_errors)
	M_write_errors=$(_mi_rd write_errors) M_flush_errors=$(_mi_rd flush_errors)
	M_discard_errors=$(_mi_rd discard_errors)
	M_inflight=$(_mi_rd inflight) M_latency_us=$(_mi_rd latency_us)
	M_retries=$(_mi_rd retries)
}
_mi_rd() { cat "$_mi/$1" 2>/dev/null || echo 0; }
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | tr -d '[:cntrl:]')"; }
# advice ARRAY STATE: what the admin should do (Documentation/dm-ssdstripe.rst)
advice() {
	case $2 in
	slow) say "  a member is slow: check its cooling, firmware and SMART/NVMe log" ;;
	erroring) say "  a member returned I/O errors: back up now, check its SMART/NVMe log," \
		"then '$PROG clear $1' once understood" ;;
	failed) say "  a member has failed: the array has lost data; restore from backup" ;;
	esac
}

cmd_status() {
	json='' names=''
	while [ $# -gt 0 ]; do
		case $1 in
		--json) json=1; shift ;;
		-h | --help) help_status; exit 0 ;;
		-*) usage_die "unknown option $1" ;;
		*) names="$names $1"; shift ;;
		esac
	done
	if [ -z "$names" ]; then
		names=$(active_arrays)
		if [ -z "$names" ]; then
			if [ -n "$json" ]; then printf '{"version":1,"arrays":[]}\n'; else say "no active arrays"; fi
			return 0
		fi
	else
		for nm in $names; do is_array "$nm" || die 4 "$nm is not an active ssdstripe array"; done
	fi
	_su_rc=0 _su_first=1
	[ -n "$json" ] && printf '{"version":1,"arrays":['
	for nm in $names; do
		s=$(dm_sysdir "$nm")/ssdstripe
		if [ ! -d "$s" ]; then
			warn "$nm has no sysfs statistics (not the first target of its table?)"
			continue
		fi
		snap=$(snapshot "$s")
		astate=${snap%% *}
		rc=$(state_rc "$astate")
		[ "$rc" -gt "$_su_rc" ] && _su_rc=$rc
		n=$(cat "$s/member_count")
		chunk=$(cat "$s/chunk_sectors")
		size=$(cat "$s/../size")
		u=$(dm_uuid "$nm")
		case $u in "$DM_UUID_PREFIX"*) u=${u#"$DM_UUID_PREFIX"} ;; *) u='' ;; esac
		if [ -n "$json" ]; then
			[ -n "$_su_first" ] || printf ','
			_su_first=''
			printf '{"name":%s,"uuid":%s,"state":%s,"member_count":%s,"chunk_sectors":%s,"size_sectors":%s,"members":[' \
				"$(json_str "$nm")" "$(if [ -n "$u" ]; then json_str "$u"; else echo null; fi)" \
				"$(json_str "$astate")" "$n" "$chunk" "$size"
		else
			say "array $nm: $astate, $(plural "$n" member), chunk $(human "$chunk"), $(human "$size")${u:+, uuid $u}"
			advice "$nm" "$astate"
			printf '  %-2s %-14s %-20s %-12s %-8s %10s %10s %6s %8s %10s %10s %5s\n' \
				'#' DEVICE MODEL SERIAL STATE READS WRITES ERRORS LAT_US DISCARDS TRIMMED TEMP
		fi
		i=0
		for st in ${snap#* }; do
			member_info "$s" "$i"
			M_state=$st
			if [ -n "$json" ]; then
				[ "$i" = 0 ] || printf ','
				printf '{"index":%s,"device":%s,"model":%s,"serial":%s,"state":%s' "$i" \
					"$(json_str "$M_DEV")" "$(if [ -n "$M_MODEL" ]; then json_str "$M_MODEL"; else echo null; fi)" \
					"$(if [ -n "$M_SERIAL" ]; then json_str "$M_SERIAL"; else echo null; fi)" "$(json_str "$M_state")"
				printf ',"read_ios":%s,"write_ios":%s,"flush_ios":%s,"discard_ios":%s' \
					"$M_read_ios" "$M_write_ios" "$M_flush_ios" "$M_discard_ios"
				printf ',"write_zeroes_ios":%s,"read_sectors":%s,"write_sectors":%s' \
					"$M_write_zeroes_ios" "$M_read_sectors" "$M_write_sectors"
				printf ',"discard_sectors":%s,"errors":%s,"read_errors":%s,"write_errors":%s' \
					"$M_discard_sectors" "$M_errors" "$M_read_errors" "$M_write_errors"
				printf ',"flush_errors":%s,"discard_errors":%s,"retries":%s,"inflight":%s,"latency_us":%s' \
					"$M_flush_errors" "$M_discard_errors" "$M_retries" "$M_inflight" "$M_latency_us"
				printf ',"temperature_c":%s}' "${M_TEMP:-null}"
			else
				printf '  %-2s %-14s %-20.20s %-12.12s %-8s %10s %10s %6s %8s %10s %10s %5s\n' "$i" \
					"$(prettyname "$M_DEV")" "${M_MODEL:--}" "${M_SERIAL:--}" "$M_state" "$M_read_ios" \
					"$M_write_ios" "$M_errors" "$M_latency_us" "$M_discard_ios" \
					"$(human "$M_discard_sectors")" "$(if [ -n "$M_TEMP" ]; then echo "${M_TEMP}C"; else echo -; fi)"
			fi
			i=$((i + 1))
		done
		[ -n "$json" ] && printf ']}'
	done
	[ -n "$json" ] && printf ']}\n'
	return "$_su_rc"
}
