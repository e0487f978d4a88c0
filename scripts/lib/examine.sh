# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe examine: print a device's label.

help_examine() {
	cat <<EOF
usage: $PROG examine DEV...

Print the label of each device (read only), its creation time also in
ISO 8601 UTC, and whether the label is shadowed: the device carries another
signature now (a file system, swap, a partition table), and assemble
refuses it.  Then, for a label of version 2, a line per member: the drive
the label records for it (model and serial) and where that drive is now:
this device, another device (with what its label says), or not found.
Exit: 0, 3 damaged label, 4 no label.
EOF
}
# examine_drives DEV: after read_label DEV, a line per member its label
# records a drive for: the drive, and where it is now
examine_drives() {
	local _ed_uuid _ed_index _ed_drives _ed_l _ed_k _ed_w _ed_at _ed_r _ed_n _ed_d _ed_s
	if [ "$L_VERSION" = 1 ]; then
		say "  (a label of version 1 records no member's drive)"
		return 0
	fi
	_ed_uuid=$L_UUID _ed_index=$L_INDEX _ed_drives=$L_DRIVES
	while IFS= read -r _ed_l; do
		[ -n "$_ed_l" ] || continue
		_ed_k=${_ed_l%%=*}
		ident_parse "${_ed_l#*=}"
		ident_words
		_ed_w=$IW
		if [ "$_ed_k" = "$_ed_index" ]; then
			ident_of "$1" || ident_none
			if ident_match; then
				_ed_at="this device"
			elif ident_known; then
				ident_full
				_ed_r=$IW
				ident_full D
				_ed_at="this device, but its label records another drive for it ($_ed_r; this is $IW): a copy of the label?"
			else
				_ed_at="this device (nothing recorded identifies it)"
			fi
		elif ! ident_known; then
			_ed_at="nothing recorded identifies it"
		else
			_ed_at=''
			for _ed_n in $(ident_find); do
				_ed_d=$(devpath "$_ed_n") || _ed_d=/dev/$_ed_n
				read_label "$_ed_d"
				case $? in
				0)
					if [ "$L_UUID" = "$_ed_uuid" ] && [ "$L_INDEX" = "$_ed_k" ]; then
						_ed_s=$_ed_d
					else
						_ed_s="$_ed_d, which carries a label of array $L_NAME (member $L_INDEX)"
					fi ;;
				1) _ed_s="$_ed_d, without a label" ;;
				*) _ed_s="$_ed_d, its label damaged ($L_ERR)" ;;
				esac
				_ed_at="$_ed_at${_ed_at:+; }$_ed_s"
			done
			[ -n "$_ed_at" ] || _ed_at="not found: reseat it, or replace it"
		fi
		say "  member $_ed_k ($_ed_w): $_ed_at"
	done <<EOF
$_ed_drives
EOF
}

opt_examine() { _ex_devs="$_ex_devs $2"; }
cmd_examine() {
	local _ex_rc
	_ex_devs=''
	opts opt_examine '' "$@"
	[ -n "$_ex_devs" ] || usage_die "examine needs a device"
	tmpdir
	_ex_rc=0
	# the operands as given: a * in one is no glob
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $_ex_devs
	set +f
	for d in "$@"; do
		c=$(canon "$d") || { warn "$d: not a block device"; _ex_rc=4; continue; }
		read_label "$c"
		case $? in
		0)
			say "$c:"
			printf '%s\n' "$L_TEXT" | while IFS= read -r l; do
				case $l in
				created=*[!0-9]* | created=) say "  $l" ;;
				created=*) say "  $l ($(iso_time "${l#created=}"))" ;;
				*) say "  $l" ;;
				esac
			done
			case $L_STATE in
			replaced)
				say "  retired: member $L_INDEX of array $L_NAME until it was replaced${L_REPBY:+ by $L_REPBY}${L_REPAT:+ on $(iso_time "$L_REPAT")}; assemble never takes it ('$PROG wipe $c' frees it)" ;;
			copying)
				say "  an unfinished copy of member $L_INDEX of array $L_NAME (a replace onto it): assemble never takes it ('$PROG replace' starts the copy over, '$PROG wipe $c' frees it)" ;;
			esac
			examine_drives "$c" ;;
		1) warn "$c has no ssdstripe label"; _ex_rc=4; continue ;;
		*) warn "$c: $L_ERR"; _ex_rc=3 ;;
		esac
		if shadowed "$c"; then
			say "  shadowed: $c carries $SHADOW now; assemble refuses it ('$PROG wipe $c' drops the label)"
		fi
	done
	return "$_ex_rc"
}
