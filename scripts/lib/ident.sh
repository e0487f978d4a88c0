# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: a member's drive identity (Documentation/ssdstripe-
# label.rst, "Drive identity"): what sysfs says a device is, the compact
# line a version 2 label records for every member, whether a device is the
# drive a label recorded, where such a drive is now, and how messages name
# it.
#
# An identity, as variables: D_* for a device now (ident_of), I_* for what
# a label recorded (ident_parse); each a set of
#   SIZE    the device's size in sectors (a partition's own)
#   TYPE    nvme, scsi, dm, loop, md or other
#   ID      the namespace's or disk's wwid (NVMe eui./nguid/uuid/nvme.,
#           SCSI naa./t10.), dm-uuid:UUID of a dm device that has one;
#           empty for none
#   SERIAL  the drive's serial (device/serial, VPD page 80); empty: none
#   PART    the partition number of a partition member, else empty
#   MODEL   the drive's model (device/model), printable ASCII, trimmed
# The label line: "size:S type:T id:ID serial:SERIAL [part:N] model:MODEL",
# with "none" for an empty ID or SERIAL; ID and SERIAL are words (white
# space made _), the model is the rest of the line.

# ident_clean SEP: V as printable ASCII, every run of white space (and of
# anything else) one SEP, trimmed.  No process for the usual characters.
ident_clean() {
	local _icl _icl_ifs _icl_w
	case $V in
	*[!A-Za-z0-9\ ._:/+,\(\)-]*) V=$(printf '%s' "$V" | LC_ALL=C tr -c '!-~' ' ') ;;
	esac
	_icl='' _icl_ifs=$IFS
	IFS=' '
	set -f
	for _icl_w in $V; do _icl="$_icl${_icl:+$1}$_icl_w"; done
	set +f
	IFS=$_icl_ifs
	V=$_icl
}

ident_none() { D_SIZE='' D_TYPE=other D_ID='' D_SERIAL='' D_PART='' D_MODEL=''; }

# ident_of DEV: D_* of block device DEV (a /dev path, or its sysfs
# directory); false when it has no sysfs directory
ident_of() {
	local _io _io_f
	ident_none
	if [ -d "$1" ]; then
		_io=$1
	else
		_io=$(sysdir "$1") || return 1
	fi
	read_attr "$_io/size" || return 1
	D_SIZE=$V
	# a partition: its own size and number, its disk's identity
	if [ -e "$_io/partition" ]; then
		read_attr "$_io/partition"
		D_PART=$V
		_io=$_io/..
	fi
	if [ -d "$_io/dm" ]; then
		D_TYPE=dm
		read_attr "$_io/dm/uuid" && [ -n "$V" ] && { ident_clean _; D_ID=dm-uuid:$V; }
		return 0
	fi
	if [ -d "$_io/loop" ]; then D_TYPE=loop; return 0; fi
	if [ -d "$_io/md" ]; then D_TYPE=md; return 0; fi
	if [ -e "$_io/nsid" ]; then
		D_TYPE=nvme
	elif [ -e "$_io/device/vendor" ] && [ -e "$_io/device/model" ]; then
		D_TYPE=scsi
	fi
	for _io_f in "$_io/wwid" "$_io/device/wwid"; do
		sysfs_word "$_io_f" && { ident_clean _; D_ID=$V; break; }
	done
	drive_serial "$_io" && { ident_clean _; D_SERIAL=$V; }
	for _io_f in "$_io/device/model" "$_io/device/device/model"; do
		[ -r "$_io_f" ] && { read_attr "$_io_f"; ident_clean ' '; D_MODEL=$V; break; }
	done
	return 0
}

# ident_line: the label's identity line of D_*
ident_line() {
	printf 'size:%s type:%s id:%s serial:%s%s model:%s\n' "${D_SIZE:-0}" "$D_TYPE" \
		"${D_ID:-none}" "${D_SERIAL:-none}" "${D_PART:+ part:$D_PART}" "$D_MODEL"
}

# ident_parse LINE: I_* of a label's identity line (unknown words before
# model: are ignored: a later version may add some)
ident_parse() {
	local _ip _ip_w
	I_SIZE='' I_TYPE=other I_ID='' I_SERIAL='' I_PART='' I_MODEL='' _ip=$1
	while [ -n "$_ip" ]; do
		case $_ip in
		model:*) I_MODEL=${_ip#model:}; break ;;
		*' '*) _ip_w=${_ip%% *} _ip=${_ip#* } ;;
		*) _ip_w=$_ip _ip='' ;;
		esac
		case $_ip_w in
		size:*) I_SIZE=${_ip_w#*:} ;;
		type:*) I_TYPE=${_ip_w#*:} ;;
		id:*) I_ID=${_ip_w#*:} ;;
		serial:*) I_SERIAL=${_ip_w#*:} ;;
		part:*) I_PART=${_ip_w#*:} ;;
		esac
	done
	[ "$I_ID" = none ] && I_ID=''
	[ "$I_SERIAL" = none ] && I_SERIAL=''
	return 0
}

# ident_known: I_* identifies a device (an id, or a serial)
ident_known() { [ -n "$I_ID" ] || [ -n "$I_SERIAL" ]; }

# ident_match: the device of D_* is the one I_* recorded: the recorded id if
# there is one, else serial and model; the partition and the size as well
ident_match() {
	ident_known || return 1
	[ "$D_SIZE" = "$I_SIZE" ] && [ "$D_PART" = "$I_PART" ] || return 1
	if [ -n "$I_ID" ]; then
		[ "$D_ID" = "$I_ID" ]
	else
		[ "$D_SERIAL" = "$I_SERIAL" ] && [ "$D_MODEL" = "$I_MODEL" ]
	fi
}

# ident_words [D]: IW = the identity I_* (D_* with D) in words, as messages
# name a member's drive: "Samsung SSD 990 PRO, serial S6Z2NJ0W",
# "a device-mapper device, no serial", "..., partition 2" (the tool's own
# callers name I_*; tests/label/run gives D)
# shellcheck disable=SC2120
ident_words() {
	local _iw_t _iw_id _iw_s _iw_p _iw_m
	if [ "${1:-}" = D ]; then
		_iw_t=$D_TYPE _iw_id=$D_ID _iw_s=$D_SERIAL _iw_p=$D_PART _iw_m=$D_MODEL
	else
		_iw_t=$I_TYPE _iw_id=$I_ID _iw_s=$I_SERIAL _iw_p=$I_PART _iw_m=$I_MODEL
	fi
	if [ -n "$_iw_s" ]; then
		IW="${_iw_m:+$_iw_m, }serial $_iw_s"
	else
		case $_iw_t in
		dm) IW="a device-mapper device${_iw_id:+ (${_iw_id#dm-uuid:})}, no serial" ;;
		loop) IW="a loop device, no serial" ;;
		md) IW="an md device, no serial" ;;
		*) IW="${_iw_m:-a device}, no serial" ;;
		esac
	fi
	[ -n "$_iw_p" ] && IW="$IW, partition $_iw_p"
	return 0
}

# drives_ident DRIVES K: I_* = member K's line of DRIVES (L_DRIVES form,
# "K=identity" lines); false when there is none
drives_ident() {
	local _dx_l
	while IFS= read -r _dx_l; do
		[ "${_dx_l%%=*}" = "$2" ] || continue
		ident_parse "${_dx_l#*=}"
		return 0
	done <<EOF
$1
EOF
	return 1
}

