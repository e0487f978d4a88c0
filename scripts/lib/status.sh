# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe status: health and statistics of active arrays and their
# members, as a table or JSON.

# ---- status ------------------------------------------------------------
help_status() {
	cat <<EOF
usage: $PROG status [NAME...] [--json]

Health and statistics of active arrays and of each member: device, model and
serial where the system has them (for a member whose device is gone: the
drive its labels record, and a line under the table says what to do, or
where the drive is now), state (ok, slow, erroring, stalled, failed), I/O,
errors, latency, discard totals, the NVMe temperature where hwmon has it and
what the drive says of its own health (DRIVE: ok, warning, critical or
unknown, from smartctl or nvme-cli, kept SMART_CACHE s, default 60; a line
says why for each drive that is not ok), and how an NVMe member is reached:
its transport (pcie, or tcp, rdma, fc for a namespace another host
exports), address and subsystem NQN (a line says when a fabric member's
controller is not live: its storage host or the link is down).  The array
state is its worst member's: optimal, slow, erroring, stalled or failed;
the array's line
adds a drive that is critical or warns ("array fast: optimal, drive
critical on member 1 (nvme1n1, serial S): replace it, ...").
With no array active and none named it says "no active arrays" (--json:
an empty list) and exits 0: nothing is unhealthy.  Name the arrays you
expect to exist: a name that is not active exits 4.
'$PROG detail NAME' adds the creation time and the health thresholds.
Exit: 0 all optimal, 4 no such array, 5 one is slow or a drive warns,
6 one is erroring or stalled or a drive is critical, 7 one has failed (the worst
decides).
EOF
}

# advice ARRAY STATE: what the admin should do (Documentation/dm-ssdstripe.rst)
advice() {
	case $2 in
	slow) say "  a member is slow: check its cooling, firmware and SMART/NVMe log" ;;
	erroring) say "  a member returned I/O errors: back up now, check its SMART/NVMe log," \
		"then '$PROG clear $1' once understood" ;;
	stalled) say "  a member stopped completing I/O: reads or writes are waiting on it, not lost" \
		"yet; check its cable, the drive, the fabric link" ;;
	failed) say "  a member has failed: the array has lost data; restore from backup" ;;
	esac
}

opt_status() {
	case $1 in
	--json) json=1 ;;
	'') names="$names $2" ;;
	esac
}
cmd_status() {
	local _su_rc _su_first _su_dh
	json='' names=''
	opts opt_status '--json' "$@"
	# the operands as given: a * in one is no glob
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $names
	set +f
	if [ $# = 0 ]; then
		set -f
		# shellcheck disable=SC2046 # the active arrays' names
		set -- $(active_arrays)
		set +f
		if [ $# = 0 ]; then
			if [ -n "$json" ]; then printf '{"version":1,"arrays":[]}\n'; else say "no active arrays"; fi
			return 0
		fi
	else
		for nm in "$@"; do is_array "$nm" || die 4 "$nm is not an active ssdstripe array"; done
	fi
	_su_rc=0 _su_first=1
	[ -n "$json" ] || tmpdir
	[ -n "$json" ] || member_columns s
	[ -n "$json" ] && printf '{"version":1,"arrays":['
	for nm in "$@"; do
		DRIVE_NOTES='' DRIVE_RC=0 GONE_NOTES='' DRIVE_CRIT='' DRIVE_WARN=''
		FABRIC_NOTES='' FABRIC_SAY=state
		if ! array_info "$nm" s; then
			warn "$nm has no sysfs statistics (not the first target of its table?)"
			continue
		fi
		s=$A_SYS snap=$A_SNAP astate=$A_STATE
		rc=$(state_rc "$astate")
		[ "$rc" -gt "$_su_rc" ] && _su_rc=$rc
		if [ -n "$json" ]; then
			[ -n "$_su_first" ] || printf ','
			_su_first=''
			printf '{%s,"replace":%s,"scrub":%s,"members":[' "$(array_json s)" \
				"$(replace_json "$nm")" "$(scrub_json "$nm")"
		fi
		if [ -n "$json" ]; then
			# shellcheck disable=SC2086 # the member states are words
			members_out "$s" s "$json" ${snap#* }
			printf ']}'
		else
			# the rows first: the header says what the drives say
			# shellcheck disable=SC2086 # the member states are words
			members_out "$s" s "" ${snap#* } >"$TMPD/rows"
			# a drive's words end with "replace it": a ; after them
			_su_dh=$(drive_head)
			_su_dh=${_su_dh:+$_su_dh;}
			say "array $nm: $astate${_su_dh:-,} $(plural "$A_COUNT" member), chunk $(human "$A_CHUNK"), $(human "$A_SIZE")${A_UUID:+, uuid $A_UUID}"
			advice "$nm" "$astate"
			replace_say "$nm"
			scrub_say "$nm"
			member_row header
			cat "$TMPD/rows"
		fi
		FABRIC_SAY=''
		[ -n "$json" ] || printf '%s' "$GONE_NOTES$FABRIC_NOTES$DRIVE_NOTES"
		# a drive's own warning counts even while the I/O is fine
		[ "$DRIVE_RC" -gt "$_su_rc" ] && _su_rc=$DRIVE_RC
	done
	[ -n "$json" ] && printf ']}\n'
	return "$_su_rc"
}
