# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe wipe: erase our label, and only ours.

# ---- wipe --------------------------------------------------------------
help_wipe() {
	cat <<EOF
usage: $PROG wipe [--force] DEV...

Erase the ssdstripe label of each device, as mdadm --zero-superblock does
for md: zero the 4 KiB label block (bytes 4096-8191), read it back from the
device to check it is gone, and touch nothing else.  Other signatures on
the device (a file system, swap, a partition table) are left alone.
Damaged labels and labels of another version are erased too.

Every device is checked before any is written:
  - a member of an active array is refused, naming the array (stop it
    first); so is a device that is mounted, used as swap or held;
  - a device without an ssdstripe label is refused (exit 4); with --force
    it is left alone with a message (exit 0).

Exit: 0 wiped, 1 failed (write or verify), 2 usage, 3 refused (in use),
4 no label.
EOF
}
opt_wipe() {
	case $1 in
	--force) force=1 ;;
	'') args="$args $2" ;;
	esac
}
cmd_wipe() {
	local _wi_rc _wi_s _wi_arr _wi_h _wi_n _wi_u _wi_i _wi_what _wi_other
	force='' args=''
	opts opt_wipe '--force|-f' "$@"
	[ -n "$args" ] || usage_die "wipe needs a device"
	tmpdir
	_wi_rc=0 todo='' mms=''
	find_blkid
	# the operands as given: a * in one is no glob
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $args
	set +f
	for d in "$@"; do
		c=$(canon "$d") || { warn "$d: not a block device"; [ "$_wi_rc" -ge 4 ] || _wi_rc=4; continue; }
		mm=$(majmin "$c")
		case " $mms " in *" $mm "*) continue ;; esac
		mms="$mms $mm"
		_wi_s=$(sysdir "$c")
		_wi_arr=''
		for _wi_h in "$_wi_s"/holders/*; do
			[ -e "$_wi_h/dm/uuid" ] || continue
			case $(cat "$_wi_h/dm/uuid") in
			"$DM_UUID_PREFIX"*) _wi_arr=$(cat "$_wi_h/dm/name") ;;
			esac
		done
		if [ -n "$_wi_arr" ]; then
			warn "refusing $c: it is a member of active array $_wi_arr (stop the array first)"
			_wi_rc=3
			continue
		fi
		if why=$(busy_dir "$_wi_s"); then
			warn "refusing $c: it is in use ($why)"
			_wi_rc=3
			continue
		fi
		if ! label_magic "$c"; then
			if [ -n "$force" ]; then
				say "$c has no ssdstripe label; nothing to wipe (--force)"
			else
				warn "$c has no ssdstripe label; nothing to wipe (--force ignores this)"
				[ "$_wi_rc" -ge 4 ] || _wi_rc=4
			fi
			continue
		fi
		todo="$todo $c"
	done
	[ "$_wi_rc" = 0 ] || die "$_wi_rc" "wipe refused; nothing was written"
	for c in $todo; do
		_wi_n='' _wi_u='' _wi_i=''
		if read_label "$c"; then
			_wi_what="member $L_INDEX of array $L_NAME, uuid $L_UUID"
			_wi_n=$L_NAME _wi_u=$L_UUID _wi_i=$L_INDEX
		else
			_wi_what=${L_ERR:-damaged label}
		fi
		_wi_other=$(foreign_signature "$c") || _wi_other=''
		zero_label "$c" || die 1 "cannot wipe the label of $c"
		# read it back from the device, not from the page cache
		command -v blockdev >/dev/null 2>&1 && blockdev --flushbufs "$c" 2>/dev/null
		[ -z "$(label_text "$c")" ] || die 1 "$c: the label block is not zero after wiping it"
		say "wiped the ssdstripe label of $c ($_wi_what)${_wi_other:+; $_wi_other left alone}"
		history_add wiped "$_wi_n" "$_wi_u" "$_wi_i" "" "the label of ${c#/dev/} ($_wi_what) (${HIST_CMD:-})"
	done
	return 0
}
