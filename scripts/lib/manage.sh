# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe stop, list, table and clear: the commands that act on arrays
# as a whole.  stop and clear are C now (tool/manage.c, tool/clear.c);
# their help stays here with every command's until 'help' moves too.

# ---- stop, list, table ------------------------------------------------
help_stop() {
	cat <<EOF
usage: $PROG stop NAME...
       $PROG stop --scan

Deactivate arrays (dmsetup remove).  The labels stay; assemble brings the
array back.  Refused while the array is mounted or open, or while a replace
of one of its members runs.

  --scan, -s  every active array, as 'mdadm --stop --scan': those in use
              are left, each named with why, and exit 1

Exit: 0 stopped, 1 failed or in use (an array left), 2 usage, 4 no such
array.
EOF
}
help_list() {
	cat <<EOF
usage: $PROG list

One line per array: active arrays, and arrays whose labels are on this
system's devices but that are not active.  Reads labels, writes nothing.
Columns: NAME STATE MEMBERS SIZE CHUNK UUID
MEMBERS of an inactive array: the members found (each counted once) of
those it has; a member claimed by two devices (a cloned disk, an older
label a replace left) gets a line on stderr saying what assemble does
with it.
STATE is the array state when active; inactive; or shadowed when a member's
label is shadowed by another signature (a file system, swap, a partition
table: the device was re-used), which assemble refuses; a line on stderr
names the device.  A line on stderr names each member that is missing
(of an inactive array) or gone (from an active one) by the drive its
labels record, and says what to do, or where that drive is now.
EOF
}
opt_list() { _li_x=${_li_x:-$2}; }
cmd_list() {
	local _li_s _li_u _li_l _li_n _li_c _li_w
	_li_x=''
	opts opt_list '' "$@"
	[ -z "$_li_x" ] || usage_die "list takes no arguments ('$_li_x')"
	tmpdir
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	printf '%-16s %-9s %7s %10s %9s %s\n' NAME STATE MEMBERS SIZE CHUNK UUID
	for nm in $(active_arrays); do
		_li_s=$(dm_sysdir "$nm")
		_li_u=$(dm_uuid "$nm")
		_li_u=${_li_u#"$DM_UUID_PREFIX"}
		printf '%-16s %-9s %7s %10s %9s %s\n' "$nm" "$(snapshot "$_li_s/ssdstripe" | cut -d' ' -f1)" \
			"$(cat "$_li_s/ssdstripe/member_count" 2>/dev/null || echo '?')" \
			"$(human "$(cat "$_li_s/size")")" \
			"$(human "$(cat "$_li_s/ssdstripe/chunk_sectors" 2>/dev/null || echo 0)")" "${_li_u:--}"
		list_gone "$nm" "$_li_s/ssdstripe" "$_li_u"
	done
	# the geometry from any member: labelled, or shadowed (same fields)
	label_awk '$UUID != ""' "$TMPD/labels" "$TMPD/shadowed" |
		sort -t'|' -k"$LABEL_COL_UUID,$LABEL_COL_UUID" -u | while IFS= read -r _li_l; do
		label_rec "$_li_l"
		[ -n "$(active_name_of_uuid "$L_UUID")" ] && continue
		# members found: distinct slots (a cloned disk or a label left by
		# a replace claims a slot twice; retired labels and unfinished
		# copies are no members), and whether a slot is claimed twice
		have=$(label_awk -v u="$L_UUID" '$UUID == u && $STATE != "copying" && $STATE != "replaced" {
			c[$INDEX]++ } END { for (k in c) { n++; if (c[k] > 1) d++ } print n + 0, d + 0 }' "$TMPD/labels")
		dups=${have#* } have=${have% *}
		st=inactive
		has_shadowed "$L_UUID" && st=shadowed
		printf '%-16s %-9s %7s %10s %9s %s\n' "$L_NAME" "$st" "$have/$L_COUNT" \
			"$(human $((L_DATA * L_COUNT)))" "$(human "$L_CHUNK")" "$L_UUID"
		[ "$st" = inactive ] || continue
		[ "$have" -lt "$L_COUNT" ] || [ "$dups" != 0 ] || continue
		_li_n=$L_NAME _li_u=$L_UUID
		check_set "$_li_u" 2>"$TMPD/why"
		_li_c=$?
		# a slot claimed twice: what assemble says of it (which label
		# loses, or the refusal of a tie)
		if [ "$dups" != 0 ]; then
			while IFS= read -r _li_w; do warn "$_li_w"; done <"$TMPD/losers.$_li_u"
			[ "$_li_c" = 3 ] && cat "$TMPD/why" >&2
		fi
		[ "$_li_c" = 4 ] && missing_members "$_li_n" "$_li_u" ""
	done
	while IFS= read -r _li_l; do
		label_rec "$_li_l"
		warn "$L_DEV: ${L_NAME:+member $L_INDEX of array $L_NAME: }label shadowed by $L_WHAT (assemble refuses it)"
	done <"$TMPD/shadowed"
	return 0
}

# list_gone NAME ARRAYSYS UUID: a line on stderr for each member of active
# array NAME whose device is gone (gone_note's)
list_gone() {
	local _lg_n _lg_l
	_lg_n=$(cat "$2/member_count" 2>/dev/null) || return 0
	recorded_load "$2" "$3"
	GONE_NOTES='' M_INDEX=0
	while [ "$M_INDEX" -lt "$_lg_n" ]; do
		M_GONE=''
		member_gone "$2/members/$M_INDEX" && M_GONE=1
		gone_note
		M_INDEX=$((M_INDEX + 1))
	done
	printf '%s' "$GONE_NOTES" | while IFS= read -r _lg_l; do
		warn "array $1: ${_lg_l#  }"
	done
	REC_DRIVES='' REC_DEVS=''
}

help_table() {
	cat <<EOF
usage: $PROG table NAME

Print the device-mapper table of array NAME: the live one if it is active,
else the one assemble would load, computed from the labels (read only).
A member that is missing is named by the drive its labels record, as
assemble names it.
Exit: 0, 3 incomplete or inconsistent set, 4 not found.
EOF
}
opt_table() { _tb_n=$2 _tb_k=$((_tb_k + 1)); }
cmd_table() {
	_tb_n='' _tb_k=0
	opts opt_table '' "$@"
	[ "$_tb_k" -le 1 ] || usage_die "table takes one array name"
	[ -n "$_tb_n" ] || usage_die "table needs an array name"
	set -- "$_tb_n"
	if is_array "$1"; then
		dmsetup table "$1"
		return $?
	fi
	valid_name "$1" || usage_die "invalid array name '$1'"
	tmpdir
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	u=$(label_awk -v n="$1" '$NAME == n {print $UUID}' "$TMPD/labels" | sort -u)
	[ -n "$u" ] || die 4 "no array called $1"
	[ "$(echo "$u" | wc -l)" = 1 ] || die 3 "two different arrays are called $1"
	# a member that carries another signature now is not this array's
	if has_shadowed "$u"; then
		refuse_shadowed "$u"
		die 3 "array $1: a member carries another signature now: no table"
	fi
	check_set "$u"
	case $? in
	0) set_table ;;
	4)
		missing_members "$1" "$u" ""
		die 3 "array $1 is incomplete (member$MISSING not found): no table" ;;
	*) die 3 "array $1 is inconsistent: no table" ;;
	esac
}

# ---- clear -------------------------------------------------------------
help_clear() {
	cat <<EOF
usage: $PROG clear NAME...

Forget the I/O errors of every member of array NAME, like 'zpool clear':
the kernel zeroes the error counters, and members that are erroring or
failed (but whose disk is still there) lose their errors.  Each is then
what its speed says: ok, or slow when its last speed verdict was slow -
slowness is no error, and a member that failed was often slow too (its
failing I/O took long).  An idle member keeps that verdict: it is ok again
once its I/O is judged fast (a few hundred reads or writes).  clear says
the array's state after it, and each member that is not ok with why.
Errors are kept until then on purpose: clear them once you have
understood them (backup, SMART).
Exit: 0 cleared (whatever the state after), 1 failed, 2 usage, 4 no such
array.
EOF
}
