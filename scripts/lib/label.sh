# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# ssdstripe library: the on-disk label (Documentation/ssdstripe-label.rst):
# reading, checking and making one, and reading every device's.

MAGIC=SSDSTRIPE-LABEL
LABEL_VERSION=1
LABEL_BLOCK=4096		# bytes; the label is the second 4 KiB block
DATA_OFFSET=2048		# sectors (1 MiB): data start on every member
TAIL=2048			# sectors left unused (and zeroed) at the end

# ---- label -------------------------------------------------------------
# label_text DEV: the label block without its NUL padding (empty if none)
label_text() {
	dd if="$1" bs=$LABEL_BLOCK skip=1 count=1 2>/dev/null | tr -d '\000'
}
sha256() { sha256sum | cut -d' ' -f1; }

# read_label DEV: sets L_* from DEV's label.  Returns 0 valid, 1 no label,
# 2 damaged (L_ERR says why), 3 unsupported version.
read_label() {
	L_ERR='' L_TEXT=''
	L_TEXT=$(label_text "$1") || return 1
	_rl_first=$(printf '%s\n' "$L_TEXT" | sed -n 1p)
	case $_rl_first in
	"$MAGIC $LABEL_VERSION") ;;
	"$MAGIC "*) L_ERR="label version ${_rl_first#"$MAGIC "} (this tool reads $LABEL_VERSION)"; return 3 ;;
	*) return 1 ;;
	esac
	_rl_body=$(printf '%s\n' "$L_TEXT" | sed '/^checksum=/,$d')
	_rl_sum=$(printf '%s\n' "$L_TEXT" | sed -n 's/^checksum=sha256://p')
	if [ -z "$_rl_sum" ] || [ "$(printf '%s\n' "$_rl_body" | sha256)" != "$_rl_sum" ]; then
		L_ERR="label checksum mismatch (damaged label)"
		return 2
	fi
	_rl_get() { printf '%s\n' "$_rl_body" | sed -n "s/^$1=//p" | head -n 1; }
	L_UUID=$(_rl_get array_uuid)
	L_NAME=$(_rl_get name)
	L_MEMBER=$(_rl_get member_uuid)
	L_INDEX=$(_rl_get index)
	L_COUNT=$(_rl_get count)
	L_CHUNK=$(_rl_get chunk_sectors)
	L_OFFSET=$(_rl_get data_offset)
	L_DATA=$(_rl_get data_sectors)
	L_MEMBERS=$(_rl_get members)
	L_CREATED=$(_rl_get created)
	for _rl_n in "$L_INDEX" "$L_COUNT" "$L_CHUNK" "$L_OFFSET" "$L_DATA"; do
		case $_rl_n in
		'' | *[!0-9]*) L_ERR="label field missing or not a number"; return 2 ;;
		esac
	done
	if [ -z "$L_UUID" ] || [ -z "$L_NAME" ] || [ -z "$L_MEMBER" ] || [ -z "$L_MEMBERS" ]; then
		L_ERR="label field missing"
		return 2
	fi
	return 0
}

# label_block NAME UUID MEMBER_UUID INDEX COUNT CHUNK OFFSET DATA MEMBERS
# [CREATED]: the label text (CREATED defaults to now)
label_block() {
	_lb_body=$(printf '%s %s\narray_uuid=%s\nname=%s\nmember_uuid=%s\nindex=%s\ncount=%s\nchunk_sectors=%s\ndata_offset=%s\ndata_sectors=%s\nmembers=%s\ncreated=%s' \
		"$MAGIC" "$LABEL_VERSION" "$2" "$1" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "${10:-$(date +%s)}")
	printf '%s\nchecksum=sha256:%s\n' "$_lb_body" "$(printf '%s\n' "$_lb_body" | sha256)"
}

newuuid() { cat /proc/sys/kernel/random/uuid; }

# label_magic DEV: DEV's label block starts as ours (valid or not)
label_magic() { label_text "$1" | head -n 1 | grep -q "^$MAGIC "; }
zero_label() { zero_range "$1" $((LABEL_BLOCK / 512)) $((LABEL_BLOCK / 512)); }

# collect DEV...: read every label into $TMPD/labels, one line per device:
#   dev|array_uuid|name|member_uuid|index|count|chunk|offset|data|members|size
# damaged labels go to $TMPD/damaged as "dev|reason"; labelled devices
# that carry another signature now (a file system, swap, a partition table,
# md, LVM: re-used since the array was made) go to $TMPD/shadowed as
# "dev|what|array_uuid|name|index|count|chunk|data" and are never taken
collect() {
	tmpdir
	: >"$TMPD/labels"
	: >"$TMPD/damaged"
	: >"$TMPD/shadowed"
	for _co in "$@"; do
		read_label "$_co"
		_co_rc=$?
		[ "$_co_rc" = 1 ] && continue
		if shadowed "$_co"; then
			_co_sig=$SHADOW
			[ "$_co_rc" = 0 ] || L_UUID='' L_NAME='' L_INDEX=''
			[ "$_co_rc" = 0 ] || L_COUNT='' L_CHUNK='' L_DATA=''
			printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$_co" "$_co_sig" "$L_UUID" "$L_NAME" \
				"$L_INDEX" "$L_COUNT" "$L_CHUNK" "$L_DATA" >>"$TMPD/shadowed"
			continue
		fi
		case $_co_rc in
		0) printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$_co" "$L_UUID" "$L_NAME" \
			"$L_MEMBER" "$L_INDEX" "$L_COUNT" "$L_CHUNK" "$L_OFFSET" "$L_DATA" \
			"$L_MEMBERS" "$(devsize "$_co")" >>"$TMPD/labels" ;;
		2 | 3) printf '%s|%s\n' "$_co" "$L_ERR" >>"$TMPD/damaged" ;;
		esac
	done
}
