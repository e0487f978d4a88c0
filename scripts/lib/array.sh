# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: an array's record and the one list of its fields,
# beside the members' (member.sh): the monitor's Prometheus textfile is
# written from it; status and detail (C: tool/array.c) write the same
# fields as its json, in and detail columns say.
#
# ARRAY_FIELDS has a line per field, in the order of the JSON objects and
# of the metrics; its columns, separated by |:
#   name     the field's variable, A_<name>, set by array_info
#   json     KEY:KIND, - for none; KIND n number, s string or null when
#            empty, S string, b true or false (from 1 or 0)
#   in       the --json objects and what array_info reads for: s status,
#            d detail, m the monitor
#   detail   its row in detail: LABEL:SHOW, - for none; SHOW str (as is,
#            - when empty), state (with what the drives say: drive_head),
#            sectors (1.5 GiB (N sectors)), onoff, op (no row for 0)
#   metric   Prometheus, as in MEMBER_FIELDS: NAME:TYPE:UNIT, or
#            NAME:TYPE:states=A,B,C; - for none
#   help     the metric's HELP text
ARRAY_FIELDS='NAME|name:S|sdm|-|-|
UUID|uuid:s|sdm|uuid:str|-|
CREATED|created:s|d|created:str|-|
STATE|state:S|sdm|state:state|ssdstripe_array_state:gauge:states=optimal,slow,erroring,stalled,failed|Array state (optimal, slow, erroring, stalled, failed): 1 for the current one, 0 for the others.
COUNT|member_count:n|sdm|members:str|ssdstripe_array_members:gauge:-|Number of members of the array.
CHUNK|chunk_sectors:n|sdm|chunk:sectors|ssdstripe_array_chunk_bytes:gauge:bytes|Chunk (stripe unit) size of the array in bytes.
SIZE|size_sectors:n|sdm|size:sectors|ssdstripe_array_size_bytes:gauge:bytes|Size of the array in bytes.
OP|overprovision_percent:n|d|spare area:op|-|
PD|discard_passdown:b|d|discard passdown:onoff|-|
STATS|stats:b|d|statistics:onoff|-|'

# array_info NAME KIND: the A_* fields of active array NAME that KIND (m:
# the monitor) reads, and A_SYS (its sysfs directory) and A_SNAP
# (snapshot: the state and the member states).  False when NAME has no
# statistics directory or its state cannot be read.
# shellcheck disable=SC2034 # the A_ fields are read by name (ARRAY_FIELDS)
array_info() {
	A_NAME=$1 A_SYS=$(dm_sysdir "$1")/ssdstripe
	[ -d "$A_SYS" ] || return 1
	A_SNAP=$(snapshot "$A_SYS") || return 1
	A_STATE=${A_SNAP%% *}
	A_COUNT=$(cat "$A_SYS/member_count") A_CHUNK=$(cat "$A_SYS/chunk_sectors")
	A_SIZE=$(cat "$A_SYS/../size") A_UUID=$(array_uuid "$1")
	return 0
}

# array_prom LABELS: the array's samples, each labelled LABELS
array_prom() {
	local _ap_n _ap_m _ap_v
	while IFS='|' read -r _ap_n _ _ _ _ap_m _; do
		[ "$_ap_m" != - ] || continue
		_ap_v=''
		eval "_ap_v=\${A_$_ap_n-}"
		prom_sample "${_ap_m%%:*}" "$1" "${_ap_m##*:}" "$_ap_v"
	done <<EOF
$ARRAY_FIELDS
EOF
}
# array_metric_defs: "NAME TYPE HELP" of every array metric, for
# metric_defs
array_metric_defs() {
	local _ad_m _ad_h _ad_t
	while IFS='|' read -r _ _ _ _ _ad_m _ad_h; do
		[ "$_ad_m" != - ] || continue
		_ad_t=${_ad_m#*:}
		printf '%s %s %s\n' "${_ad_m%%:*}" "${_ad_t%%:*}" "$_ad_h"
	done <<EOF
$ARRAY_FIELDS
EOF
}
