# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# ssdstripe examine: print a device's label.

help_examine() {
	cat <<EOF
usage: $PROG examine DEV...

Print the label of each device (read only), its creation time also in
ISO 8601 UTC, and whether the label is shadowed: the device carries another
signature now (a file system, swap, a partition table), and assemble
refuses it.
Exit: 0, 3 damaged label, 4 no label.
EOF
}
cmd_examine() {
	case ${1:-} in -h | --help) help_examine; exit 0 ;; '') usage_die "examine needs a device" ;; esac
	tmpdir
	_ex_rc=0
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
			done ;;
		1) warn "$c has no ssdstripe label"; _ex_rc=4; continue ;;
		*) warn "$c: $L_ERR"; _ex_rc=3 ;;
		esac
		if shadowed "$c"; then
			say "  shadowed: $c carries $SHADOW now; assemble refuses it ('$PROG wipe $c' drops the label)"
		fi
	done
	return "$_ex_rc"
}
