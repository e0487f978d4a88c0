# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: the on-disk label (Documentation/ssdstripe-label.rst):
# reading and checking one, and reading every device's.

MAGIC=SSDSTRIPE-LABEL
LABEL_VERSION=2			# what this tool writes (tool/label.h)
LABEL_READS='1 and 2'		# the versions it reads
LABEL_BLOCK=4096		# bytes; the label is the second 4 KiB block
DATA_OFFSET=2048		# sectors (1 MiB): data start on every member
TAIL=2048			# sectors left unused (and zeroed) at the end

# ---- label -------------------------------------------------------------
# label_text DEV: the label block without its NUL padding (empty if none)
label_text() {
	dd if="$1" bs=$LABEL_BLOCK skip=1 count=1 2>/dev/null | tr -d '\000'
}
sha256() { sha256sum | cut -d' ' -f1; }

# The label's fields, in the order of its text: KEY=value in the label,
# L_NAME-style variable in the tool.  read_label sets them (the tool's C
# part, tool/label.c, writes labels).  Version 2 added
# generation (GEN; 0 for a version 1 label) and, after the keys, one
# drive.K line per member K: the identity of its drive (ident.sh), which
# read_label gives as L_DRIVES, a "K=identity" line per member.
LABEL_KEYS='array_uuid:UUID name:NAME member_uuid:MEMBER index:INDEX count:COUNT
chunk_sectors:CHUNK data_offset:OFFSET data_sectors:DATA members:MEMBERS
created:CREATED generation:GEN state:STATE replacing:REPLACING
replaced_by:REPBY replaced_at:REPAT overprovision:OP'
# The keys a label carries only when they say something (replace): state
# (copying: an unfinished copy of the member, not assembled unless the
# newer labels record its drive: a switch cut short; replaced:
# a retired member, never assembled), replacing (the index of the member
# a replace is copying), replaced_by and replaced_at (on a retired one);
# overprovision (create --overprovision: the percentage of each member
# kept spare past its data, which data_sectors already leaves out; a tool
# that does not know the key assembles the array all the same).
# the fields' variables, empty until a label is read (read_label and
# label_rec set them by name, which shellcheck cannot follow)
# shellcheck disable=SC2034 # some are read only as fields of label records (awk)
L_UUID='' L_NAME='' L_MEMBER='' L_INDEX='' L_COUNT='' L_CHUNK='' L_OFFSET='' \
	L_DATA='' L_MEMBERS='' L_CREATED='' L_GEN='' L_STATE='' L_REPLACING='' \
	L_REPBY='' L_REPAT='' L_OP=''

# read_label DEV: sets L_* (and L_VERSION, L_DRIVES) from DEV's label.
# Returns 0 valid, 1 no label, 2 damaged (L_ERR says why), 3 unsupported
# version.
read_label() {
	local _rl_first _rl_body _rl_sum _rl_kv _rl_seen _rl_l _rl_k _rl_n _rl_i
	L_ERR='' L_TEXT='' L_VERSION='' L_DRIVES=''
	L_TEXT=$(label_text "$1") || return 1
	_rl_first=${L_TEXT%%"$NL"*}
	case $_rl_first in
	"$MAGIC 1" | "$MAGIC 2") L_VERSION=${_rl_first#"$MAGIC "} ;;
	"$MAGIC "*) L_ERR="label version ${_rl_first#"$MAGIC "} (this tool reads $LABEL_READS)"; return 3 ;;
	*) return 1 ;;
	esac
	_rl_body=$(printf '%s\n' "$L_TEXT" | sed '/^checksum=/,$d')
	_rl_sum=$(printf '%s\n' "$L_TEXT" | sed -n 's/^checksum=sha256://p')
	if [ -z "$_rl_sum" ] || [ "$(printf '%s\n' "$_rl_body" | sha256)" != "$_rl_sum" ]; then
		L_ERR="label checksum mismatch (damaged label)"
		return 2
	fi
	# every field in one pass, in the shell: a KEY's first line counts
	for _rl_kv in $LABEL_KEYS; do eval "L_${_rl_kv#*:}=''"; done
	_rl_seen=' '
	while IFS= read -r _rl_l; do
		_rl_k=${_rl_l%%=*}
		case $_rl_l in *=*) ;; *) continue ;; esac
		case $_rl_seen in *" $_rl_k "*) continue ;; esac
		case $_rl_k in
		drive.*)
			_rl_i=${_rl_k#drive.}
			case $_rl_i in '' | *[!0-9]* | 0?*) continue ;; esac
			L_DRIVES="$L_DRIVES$_rl_i=${_rl_l#*=}$NL"
			_rl_seen="$_rl_seen$_rl_k "
			continue ;;
		esac
		for _rl_kv in $LABEL_KEYS; do
			[ "${_rl_kv%%:*}" = "$_rl_k" ] || continue
			eval "L_${_rl_kv#*:}=\${_rl_l#*=}"
			_rl_seen="$_rl_seen$_rl_k "
			break
		done
	done <<EOF
$_rl_body
EOF
	# version 1 knew no generation and no drives
	[ "$L_VERSION" = 1 ] && L_GEN=0 L_DRIVES=''
	for _rl_n in "$L_INDEX" "$L_COUNT" "$L_CHUNK" "$L_OFFSET" "$L_DATA" "$L_GEN"; do
		case $_rl_n in
		'' | *[!0-9]*) L_ERR="label field missing or not a number"; return 2 ;;
		esac
	done
	# an optional number: absent, or a percentage create would write
	case $L_OP in '' | [1-9] | [1-4][0-9] | 50) ;; *) L_ERR="label field overprovision is not a percentage from 1 to 50"; return 2 ;; esac
	if [ -z "$L_UUID" ] || [ -z "$L_NAME" ] || [ -z "$L_MEMBER" ] || [ -z "$L_MEMBERS" ]; then
		L_ERR="label field missing"
		return 2
	fi
	return 0
}

# label_magic DEV: DEV's label block starts as ours (valid or not)
label_magic() { label_text "$1" | head -n 1 | grep -q "^$MAGIC "; }

# A label record: what collect found on one device, a line of fields
# separated by | in the order of LABEL_FIELDS: the device, the label's
# fields (LABEL_KEYS, in their order; empty for a damaged label), its
# version, the device's size in sectors, and for a device whose label is
# shadowed by another signature, what that is.  DEV comes first (grep
# "^DEV|" finds a device's record); everything else reads records by
# field name: label_rec in the shell, label_awk in awk.  Records live in
# $TMPD only, so their order is free to follow LABEL_KEYS.
LABEL_FIELDS=DEV
for _lf in $LABEL_KEYS; do LABEL_FIELDS="$LABEL_FIELDS ${_lf#*:}"; done
LABEL_FIELDS="$LABEL_FIELDS VERSION SIZE WHAT"
LABEL_VARS='' LABEL_AWK='' _lf_i=0
for _lf in $LABEL_FIELDS; do
	_lf_i=$((_lf_i + 1))
	LABEL_VARS="$LABEL_VARS L_$_lf"
	LABEL_AWK="$LABEL_AWK -v $_lf=$_lf_i"
	eval "LABEL_COL_$_lf=$_lf_i"	# for sort -k
done

# label_rec LINE: sets L_* from a label record
label_rec() {
	# shellcheck disable=SC2086,SC2229 # the variable names are words
	IFS='|' read -r $LABEL_VARS <<EOF
$1
EOF
}
# label_record: the L_* fields as a label record line
label_record() {
	local _lr _lr_f
	_lr=$L_DEV
	for _lr_f in $LABEL_FIELDS; do
		[ "$_lr_f" = DEV ] || eval "_lr=\"\$_lr|\${L_$_lr_f-}\""
	done
	printf '%s\n' "$_lr"
}
# label_awk [-v VAR=VALUE]... PROGRAM FILE...: awk over label records,
# whose fields the program names $UUID, $NAME, ... (LABEL_FIELDS)
label_awk() {
	# shellcheck disable=SC2086 # the -v options are words
	awk -F'|' $LABEL_AWK "$@"
}
# has_shadowed UUID: a member of array UUID carries another signature now
has_shadowed() {
	label_awk -v u="$1" '$UUID == u {f = 1} END {exit !f}' "$TMPD/shadowed"
}

# collect DEV...: read every label into label records: valid ones in
# $TMPD/labels; labelled devices that carry another signature now (a file
# system, swap, a partition table, md, LVM: re-used since the array was
# made) in $TMPD/shadowed, never taken; damaged labels in $TMPD/damaged as
# "dev|reason".  The drives the valid labels record go to $TMPD/idents as
# "UUID GEN K identity" lines (rec_ident reads them).
collect() {
	local _co _co_rc _co_kv
	tmpdir
	: >"$TMPD/labels"
	: >"$TMPD/damaged"
	: >"$TMPD/shadowed"
	: >"$TMPD/idents"
	for _co in "$@"; do
		read_label "$_co"
		_co_rc=$?
		[ "$_co_rc" = 1 ] && continue
		L_DEV=$_co L_SIZE='' L_WHAT=''
		if shadowed "$_co"; then
			if [ "$_co_rc" != 0 ]; then
				for _co_kv in $LABEL_KEYS; do eval "L_${_co_kv#*:}=''"; done
				L_VERSION=''
			fi
			L_WHAT=$SHADOW
			label_record >>"$TMPD/shadowed"
			continue
		fi
		case $_co_rc in
		0)
			L_SIZE=$(devsize "$_co")
			label_record >>"$TMPD/labels"
			idents_add ;;
		2 | 3) printf '%s|%s\n' "$_co" "$L_ERR" >>"$TMPD/damaged" ;;
		esac
	done
}
# idents_add: the drives of the label just read, to $TMPD/idents
idents_add() {
	local _ia
	while IFS= read -r _ia; do
		[ -n "$_ia" ] && printf '%s %s %s %s\n' "$L_UUID" "$L_GEN" "${_ia%%=*}" "${_ia#*=}"
	done >>"$TMPD/idents" <<EOF
$L_DRIVES
EOF
}
