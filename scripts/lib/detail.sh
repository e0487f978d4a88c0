# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe detail: one active array's whole picture.

# ---- detail ------------------------------------------------------------
help_detail() {
	cat <<EOF
usage: $PROG detail NAME [--json]
       $PROG detail --scan

One active array's whole picture, as 'mdadm --detail': name, uuid, creation
time (ISO 8601 UTC, from the members' labels; - for a raw dmsetup array),
array state, members, chunk and size; discard passdown, per-member
statistics and every health threshold (the live table's value, or the
target's default; a changed one says its default); then per member its
index, device, model, serial, size, state, errors, retries, recent mean
latency, what its drive says of its health (SMART: ok, warning,
critical or unknown; every figure in --json, with the drive its labels
record: recorded_id, recorded_serial, recorded_model) and how it is
reached (NVMe: transport pcie, tcp, rdma or fc, address, subsystem NQN;
--json adds its controller and the controller's state), a line for each
member whose device is gone (the drive its labels record: reseat it, or
replace it; or where it is now), for each fabric member whose controller
is not live or whose I/O would wait for ctrl_loss_tmo (fast_io_fail_tmo
off), and for each drive that is not ok.
--json prints the same as one object.  Reads only.
--scan prints an ARRAY line for every active array, for the configuration
file, as 'mdadm --detail --scan' does ($PROG config --scan is the same).
Exit: 0 (whatever the state: status exits by state), 2 usage, 4 no such
array.
EOF
}

# The health thresholds, in the order of ssdstripe_tunables in
# dm-ssdstripe/ssdstripe-target.c ('dmsetup table' prints a threshold only
# when it differs from its default).  Their defaults are the module's,
# read-only in MODULE_PARAMS (since target 1.5.0; test tool/012 checks
# detail against them).
TUNABLES='health_window_ms slow_factor slow_min_latency_us slow_windows
recover_windows min_ios fail_windows stall_ms'
MODULE_PARAMS=/sys/module/dm_ssdstripe/parameters
# tunable_default NAME: the module's default of threshold NAME; nothing
# from a module older than 1.5.0, which does not say
tunable_default() {
	local _td
	_td=''
	[ -r "$MODULE_PARAMS/$1" ] && read -r _td <"$MODULE_PARAMS/$1"
	case $_td in '' | *[!0-9]*) ;; *) echo "$_td" ;; esac
}

# table_features NAME: the feature words of the live table, one per line
# after "discard_passdown 0|1" and "stats 0|1", as "threshold value"
table_features() {
	dmsetup table "$1" 2>/dev/null | awk '$3 == "ssdstripe" {
		i = 6 + 2 * $4; pd = 1; st = 1
		for (j = i + 1; j <= i + $i && j <= NF; j++) {
			w = tolower($j)
			if (w == "no_discard_passdown") pd = 0
			else if (w == "no_stats") st = 0
			else { print w, $(j + 1); j++ }
		}
		print "discard_passdown", pd; print "stats", st; exit
	}'
}

opt_detail() {
	case $1 in
	--json) json=1 ;;
	--scan) _de_scan=1 ;;
	'') [ -z "$nm" ] || usage_die "detail takes one array name"; nm=$2 ;;
	esac
}
cmd_detail() {
	local _de_first
	json='' nm='' _de_scan=''
	opts opt_detail '--json --scan' "$@"
	if [ -n "$_de_scan" ]; then
		[ -z "$nm$json" ] || usage_die "--scan goes alone: it prints an ARRAY line for every active array"
		conf_scan
		return 0
	fi
	[ -n "$nm" ] || usage_die "detail needs an array name"
	is_array "$nm" || die 4 "$nm is not an active ssdstripe array"
	array_info "$nm" d || die 1 "$nm has no sysfs statistics (not the first target of its table?)"
	s=$A_SYS snap=$A_SNAP astate=$A_STATE
	DRIVE_NOTES='' GONE_NOTES='' DRIVE_CRIT='' DRIVE_WARN=''
	FABRIC_NOTES='' FABRIC_SAY=all
	if [ -n "$json" ]; then
		printf '{"version":1,%s,"thresholds":{' "$(array_json d)"
	else
		# the rows first: the state line says what the drives say
		tmpdir
		member_columns d
		# shellcheck disable=SC2086 # the member states are words
		members_out "$s" d "" ${snap#* } >"$TMPD/rows"
		say "array $nm"
		array_rows
	fi
	_de_first=1
	for k in $TUNABLES; do
		def=$(tunable_default "$k")
		v=$(array_feat "$k")
		if [ -n "$json" ]; then
			[ -n "$_de_first" ] || printf ','
			printf '"%s":%s' "$k" "${v:-${def:-null}}"
		elif [ -n "$v" ]; then
			printf '  %-20s %s (default %s)\n' "$k" "$v" "${def:-unknown}"
		else
			printf '  %-20s %s\n' "$k" "${def:-unknown (module older than 1.5.0)}"
		fi
		_de_first=''
	done
	if [ -n "$json" ]; then
		printf '},"replace":%s,"scrub":%s,"members":[' "$(replace_json "$nm")" "$(scrub_json "$nm")"
		# shellcheck disable=SC2086 # the member states are words
		members_out "$s" d "$json" ${snap#* }
		printf ']}\n'
	else
		advice "$nm" "$astate"
		replace_say "$nm"
		scrub_say "$nm"
		member_row header
		cat "$TMPD/rows"
	fi
	FABRIC_SAY=''
	[ -n "$json" ] || printf '%s' "$GONE_NOTES$FABRIC_NOTES$DRIVE_NOTES"
	return 0
}
