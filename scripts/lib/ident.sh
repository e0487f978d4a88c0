# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: a member's drive identity (Documentation/ssdstripe-
# label.rst, "Drive identity") as a version 2 label records it, parsed
# back for the M_R* fields of member_info.  Reading a device's identity,
# matching it and naming it in messages is the program's (tool/ident.c).
#
# An identity, as variables: I_* for what a label recorded (ident_parse);
# each a set of
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

# ident_parse LINE: I_* of a label's identity line (unknown words before
# model: are ignored: a later version may add some); the whole identity,
# of which member_info reads ID, SERIAL and MODEL
# shellcheck disable=SC2034 # SIZE, TYPE and PART: the identity whole
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

# drives_ident DRIVES K: I_* = member K's line of DRIVES (a label's
# drive.K lines, as "K=identity" lines); false when there is none
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
