# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: what list still reads of an active array's members
# in sh: whether a member's device is gone, and what the labels record of
# its drive (the member record, its fields and the monitor's textfile are
# C: tool/member.c, tool/metrics.c).

# member_gone MEMBERSYS: the member's device is gone: its block link leads
# nowhere, or to a device that is not the one the table holds (a pulled
# drive back under its old name)
member_gone() {
	[ -e "$1/block/dev" ] || return 0
	[ -n "${REC_DEVS-}" ] || return 1
	read_attr "$1/block/dev"
	case " $REC_DEVS " in *" $V "*) return 1 ;; esac
	return 0
}

# recorded_load ARRAYSYS UUID: REC_DRIVES = the member drives the labels of
# array UUID record (the highest generation's, read from the members still
# there), REC_DEVS the members' major:minor as the live table has them
# (ARRAYSYS's dm device); both empty for a raw dmsetup array (list's gone
# members; status and detail: C, tool/member.c)
recorded_load() {
	local _rd_g _rd_nm _rd_n _rd_d _rd_i _rd_m
	REC_DRIVES='' REC_DEVS='' _rd_g=-1
	[ -n "$2" ] || return 0
	_rd_nm=$(cat "$1/../dm/name" 2>/dev/null)
	[ -n "$_rd_nm" ] && REC_DEVS=$(dmsetup table "$_rd_nm" 2>/dev/null |
		awk '$3 == "ssdstripe" {for (i = 6; i < 6 + 2 * $4; i += 2) printf "%s ", $i; exit}')
	_rd_i=0
	read_attr "$1/member_count" 0
	_rd_n=$V
	while [ "$_rd_i" -lt "$_rd_n" ]; do
		_rd_m=$1/members/$_rd_i
		_rd_i=$((_rd_i + 1))
		member_gone "$_rd_m" && continue
		_rd_d=$(readlink -f "$_rd_m/block" 2>/dev/null) || continue
		_rd_d=$(devpath "${_rd_d##*/}") || continue
		read_label "$_rd_d" || continue
		[ "$L_UUID" = "$2" ] || continue
		[ "$L_GEN" -gt "$_rd_g" ] || continue
		_rd_g=$L_GEN REC_DRIVES=$L_DRIVES
	done
	return 0
}
REC_DRIVES='' REC_DEVS=''

# gone_note: GONE_NOTES gets a line for member M_INDEX (M_GONE set)
# when its device is gone: the drive its labels record, and what to do,
# or where the drive is now if it is back under another name
gone_note() {
	local _gn
	[ -n "$M_GONE" ] || return 0
	if [ -z "$REC_DRIVES" ] || ! drives_ident "$REC_DRIVES" "$M_INDEX"; then
		GONE_NOTES="$GONE_NOTES  member $M_INDEX is gone: reseat it, or replace it
"
		return 0
	fi
	ident_words
	_gn=$(ident_find | tr '\n' ' ')
	if [ -n "$_gn" ]; then
		GONE_NOTES="$GONE_NOTES  member $M_INDEX ($IW) is gone from the array; the drive is present again as ${_gn% }: stop the array and assemble it again (writes while it was gone failed)
"
	else
		GONE_NOTES="$GONE_NOTES  member $M_INDEX ($IW) is gone: reseat it, or replace it
"
	fi
}
GONE_NOTES=''



