# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: assemble --incremental, what the udev rule runs for
# each block device that appears: one device at a time, its array
# activated (or handed to a unit, --export) when the boot policy
# (bootpolicy.sh) allows it and its last member has come.  As mdadm keeps
# Incremental.c apart from Assemble.c.

# assemble_incremental DEV [export]: --incremental, what the udev rule runs
# for every block device that appears or changes.  Cheap when DEV has no
# label (one 4 KiB read) or is held already.  When DEV's array is allowed
# at boot (listed, or AUTO yes) and complete with it, activates it; with
# export (--export, from udev) prints SSDSTRIPE_ASSEMBLE_UUID,
# SSDSTRIPE_ASSEMBLE_NAME and SSDSTRIPE_ASSEMBLE_DEVICES for udev to hand
# to a systemd unit instead, and every message goes to stderr.  For every
# labelled device that is not held, export also prints what was decided,
# SSDSTRIPE_ASSEMBLE_RESULT (complete, incomplete, active, not-listed): the
# udev database then says why a disk's array was or was not assembled, and
# a disk without it was never looked at (or the tool failed).
assemble_incremental() {
	local _in_s _in_h _in_u _in_n
	_in_out=1
	if [ -n "${2:-}" ]; then
		exec 3>&1 1>&2
		_in_out=3
	fi
	[ -z "$CMDLINE_NONE" ] || return 0
	_in_s=$(sysdir "$1") || die 4 "$1: no such block device"
	for _in_h in "$_in_s"/holders/*; do [ -e "$_in_h" ] && return 0; done
	case $(cat "$_in_s/dm/uuid" 2>/dev/null) in "$DM_UUID_PREFIX"*) return 0 ;; esac
	read_label "$1"
	case $? in
	0) ;;
	1) return 0 ;;
	*) warn "$1: $L_ERR"; return 3 ;;
	esac
	if ! boot_allowed "$L_NAME" "$L_UUID"; then
		say "$1: member $L_INDEX of array $L_NAME, which $CONF does not list (AUTO no): left alone"
		incremental_result not-listed
		return 0
	fi
	if [ -n "$(active_name_of_uuid "$L_UUID")" ]; then
		incremental_result active
		return 0
	fi
	_in_u=$L_UUID _in_n=$L_NAME
	tmpdir
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	if has_shadowed "$_in_u"; then
		refuse_shadowed "$_in_u"
		return 3
	fi
	check_set "$_in_u" 2>"$TMPD/why"
	case $? in
	0) ;;
	4)
		say "array $_in_n: $(plural $(($(wc -l <"$TMPD/set"))) member) of $L_COUNT present, waiting for $(missing_words "$_in_u")"
		incremental_result incomplete
		return 0 ;;
	*) cat "$TMPD/why" >&2; return 3 ;;
	esac
	if [ "$_in_out" = 3 ]; then
		printf 'SSDSTRIPE_ASSEMBLE_UUID=%s\nSSDSTRIPE_ASSEMBLE_NAME=%s\nSSDSTRIPE_ASSEMBLE_DEVICES=%s\n' \
			"$_in_u" "$_in_n" "${ORDERED# }" >&3
		incremental_result complete
		return 0
	fi
	activate "$_in_u"
}

# incremental_result WORD: with --export, SSDSTRIPE_ASSEMBLE_RESULT=WORD
incremental_result() {
	[ "$_in_out" = 3 ] || return 0
	printf 'SSDSTRIPE_ASSEMBLE_RESULT=%s\n' "$1" >&3
}
