# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: a member's record and the one list of its fields, from
# which the monitor's Prometheus textfile is written.  status and detail
# (C: tool/member.c) write theirs from the same fields in the same order:
# the json, in, status and detail columns say how, and tool/member.c's
# field list must agree with them.
#
# MEMBER_FIELDS has a line per field, in the order of the JSON objects and
# of the metrics; its columns, separated by |:
#   name     the field's variable, M_<name>, set by member_info
#   source   sysfs: the kernel's members/<i>/<name> (0 if absent);
#            -: member_info or a gatherer sets it
#   json     KEY:KIND, - for none; KIND n number, N number or null when
#            empty, s string or null when empty, S string
#   in       the --json objects that carry it: s status, d detail
#   status   its column in the status table: POSITION:HEADER:FORMAT:SHOW,
#            - for none; SHOW num (as is), str (- when empty), rec (str;
#            for a member whose device is gone, M_R<name>: what its labels
#            recorded), dev (the device's name; "(gone)"), human (sectors
#            as 1.5 GiB), size (human; - when the device is gone), temp
#            (42C or -)
#   detail   its column in the detail table, as status
#   metric   Prometheus: NAME:TYPE:UNIT (UNIT - as is, bytes from sectors,
#            seconds from microseconds, ms: seconds from milliseconds,
#            minutes and hours: seconds from
#            them and no sample when empty, opt: no sample when empty), or
#            NAME:TYPE:state (one sample per member state),
#            NAME:TYPE:states=A,B,C (one sample per word), key:LABEL (a label of
#            every member sample), info:LABEL (a label of
#            ssdstripe_member_info), - for none
#   help     the metric's HELP text
# Another concern adds fields by appending lines to MEMBER_FIELDS and a
# function to MEMBER_GATHER that sets their M_ variables; member_info calls
# it for each member after its own pass.
MEMBER_FIELDS='INDEX|-|index:n|sd|1:#:%-2s:num|1:#:%-2s:num|key:member|
DEV|-|device:S|sd|2:DEVICE:%-14s:dev|2:DEVICE:%-14s:dev|info:device|
MODEL|-|model:s|sd|3:MODEL:%-20.20s:rec|3:MODEL:%-20.20s:rec|info:model|
SERIAL|-|serial:s|sd|4:SERIAL:%-12.12s:rec|4:SERIAL:%-12.12s:rec|key:serial|
FW|-|-||-|-|info:firmware|
SIZE|-|size_sectors:n|d|-|5:SIZE:%10s:size|-|
RID|-|recorded_id:s|sd|-|-|-|
RSERIAL|-|recorded_serial:s|sd|-|-|-|
RMODEL|-|recorded_model:s|sd|-|-|-|
state|-|state:S|sd|5:STATE:%-8s:num|6:STATE:%-8s:num|ssdstripe_member_state:gauge:state|Member state (ok, slow, erroring, stalled, failed): 1 for the current one, 0 for the others.
read_ios|sysfs|read_ios:n|s|6:READS:%10s:num|-|ssdstripe_member_reads_total:counter:-|Read requests sent to the member (read_ios).
write_ios|sysfs|write_ios:n|s|7:WRITES:%10s:num|-|ssdstripe_member_writes_total:counter:-|Write requests sent to the member (write_ios).
flush_ios|sysfs|flush_ios:n|s|-|-|ssdstripe_member_flushes_total:counter:-|Flush requests sent to the member (flush_ios).
discard_ios|sysfs|discard_ios:n|s|10:DISCARDS:%10s:num|-|ssdstripe_member_discards_total:counter:-|Discard requests sent to the member (discard_ios).
write_zeroes_ios|sysfs|write_zeroes_ios:n|s|-|-|ssdstripe_member_write_zeroes_total:counter:-|Write-zeroes requests sent to the member (write_zeroes_ios).
read_sectors|sysfs|read_sectors:n|s|-|-|ssdstripe_member_read_bytes_total:counter:bytes|Bytes read from the member (read_sectors).
write_sectors|sysfs|write_sectors:n|s|-|-|ssdstripe_member_written_bytes_total:counter:bytes|Bytes written to the member (write_sectors).
discard_sectors|sysfs|discard_sectors:n|s|11:TRIMMED:%10s:human|-|ssdstripe_member_discarded_bytes_total:counter:bytes|Bytes discarded on the member (discard_sectors).
write_zeroes_sectors|sysfs|write_zeroes_sectors:n|s|-|-|ssdstripe_member_zeroed_bytes_total:counter:bytes|Bytes zeroed on the member by write-zeroes requests (write_zeroes_sectors).
errors|sysfs|errors:n|sd|8:ERRORS:%6s:num|7:ERRORS:%6s:num|ssdstripe_member_errors_total:counter:-|I/O errors of the member, every operation (errors); kept until cleared.
read_errors|sysfs|read_errors:n|s|-|-|ssdstripe_member_read_errors_total:counter:-|Read errors of the member (read_errors).
write_errors|sysfs|write_errors:n|s|-|-|ssdstripe_member_write_errors_total:counter:-|Write errors of the member (write_errors).
flush_errors|sysfs|flush_errors:n|s|-|-|ssdstripe_member_flush_errors_total:counter:-|Flush errors of the member (flush_errors).
discard_errors|sysfs|discard_errors:n|s|-|-|ssdstripe_member_discard_errors_total:counter:-|Discard errors of the member (discard_errors).
write_zeroes_errors|sysfs|write_zeroes_errors:n|s|-|-|ssdstripe_member_write_zeroes_errors_total:counter:-|Write-zeroes errors of the member (write_zeroes_errors).
retries|sysfs|retries:n|sd|-|8:RETRIES:%7s:num|ssdstripe_member_retries_total:counter:-|Requests the member completed as retry or would-block, not counted as errors (retries).
inflight|sysfs|inflight:n|s|-|-|ssdstripe_member_inflight:gauge:-|Requests in flight on the member.
latency_us|sysfs|latency_us:n|sd|9:LAT_US:%8s:num|9:LAT_US:%8s:num|ssdstripe_member_latency_seconds:gauge:seconds|Recent mean completion latency of the member.
waiting_ms|sysfs|waiting_ms:n|sd|-|-|ssdstripe_member_waiting_seconds:gauge:ms|How long reads or writes have waited on the member with none completing (0 while it completes I/O); stalled from stall_ms on.
stalls|sysfs|stalls:n|sd|-|-|ssdstripe_member_stalls_total:counter:-|Times the member stalled: reads or writes waited stall_ms with none completing (stalls).
TEMP|-|temperature_c:N|s|12:TEMP:%5s:temp|-|ssdstripe_member_temperature_celsius:gauge:opt|Drive temperature from hwmon, where the kernel has one.'
MEMBER_GATHER=''

# shellcheck disable=SC2034 # the M_ fields are read by name (MEMBER_FIELDS)
# member_info ARRAYSYS I [STATE]: sets M_<name> of every field of member I
# in one pass (M_state = STATE, as the caller's snapshot has it); M_GONE
# is 1 when its device is gone (pulled, removed), and the M_R* fields are
# what the labels recorded for it (REC_DRIVES; the sh part loads none
# now: status, detail and list read them in C, tool/member.c)
member_info() {
	local _mi _mi_b _mi_f _mi_n _mi_src _mi_g
	_mi=$1/members/$2
	M_INDEX=$2 M_state=${3-}
	M_DEV=$(readlink -f "$_mi/block" 2>/dev/null)
	M_DEV=${M_DEV##*/}
	M_MODEL='' M_SERIAL='' M_FW='' M_TEMP='' M_GONE='' M_RID='' M_RSERIAL='' M_RMODEL=''
	member_gone "$_mi" && M_GONE=1 M_DEV=''
	if [ -n "$REC_DRIVES" ] && drives_ident "$REC_DRIVES" "$2"; then
		M_RID=$I_ID M_RSERIAL=$I_SERIAL M_RMODEL=$I_MODEL
	fi
	read_attr "/sys/class/block/$M_DEV/size" 0
	M_SIZE=$V
	_mi_b=/sys/class/block/$M_DEV
	[ -e "$_mi_b/partition" ] && _mi_b=$(readlink -f "$_mi_b/..")
	for _mi_f in "$_mi_b/device/model" "$_mi_b/device/device/model"; do
		[ -r "$_mi_f" ] && { read_attr "$_mi_f"; M_MODEL=${V%"${V##*[![:space:]]}"}; break; }
	done
	drive_serial "$_mi_b" && M_SERIAL=$V
	# NVMe: firmware_rev of the controller; SCSI/ATA: rev
	for _mi_f in "$_mi_b/device/firmware_rev" "$_mi_b/device/device/firmware_rev" "$_mi_b/device/rev"; do
		[ -r "$_mi_f" ] && { read_attr "$_mi_f"; trim; M_FW=$V; break; }
	done
	for _mi_f in "$_mi_b"/device/hwmon*/temp1_input "$_mi_b"/device/hwmon/hwmon*/temp1_input \
		"$_mi_b"/device/device/hwmon/hwmon*/temp1_input; do
		[ -r "$_mi_f" ] || continue
		read_attr "$_mi_f" || continue
		M_TEMP=$((V / 1000))
		break
	done
	while IFS='|' read -r _mi_n _mi_src _; do
		[ "$_mi_src" = sysfs ] || continue
		read_attr "$_mi/$_mi_n" 0
		eval "M_$_mi_n=\$V"
	done <<EOF
$MEMBER_FIELDS
EOF
	for _mi_g in $MEMBER_GATHER; do "$_mi_g" "$_mi_b"; done
}

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

REC_DRIVES='' REC_DEVS=''

# prom_escape VALUE: PE = VALUE as a Prometheus label value: \ " and a
# newline escaped, by the shell (awks disagree on backslashes in gsub:
# mawk, Debian's awk, left a \ as it was)
prom_escape() {
	local _pe _pe_r _pe_c
	PE=$1
	case $1 in *[\\\"]* | *"$NL"*) ;; *) return 0 ;; esac
	PE='' _pe=$1
	while [ -n "$_pe" ]; do
		_pe_r=${_pe#?}
		_pe_c=${_pe%"$_pe_r"}
		_pe=$_pe_r
		case $_pe_c in
		\\) PE="$PE\\\\" ;;
		\") PE="$PE\\\"" ;;
		"$NL") PE="$PE\\n" ;;
		*) PE="$PE$_pe_c" ;;
		esac
	done
}

# member_prom LABELS: the member_info fields as Prometheus samples, every
# one labelled LABELS (the array's) and the member's key labels; HELP and
# TYPE come from metric_defs
member_prom() {
	local _mp_l _mp_i _mp_n _mp_m _mp_v
	_mp_l=$1 _mp_i=''
	while IFS='|' read -r _mp_n _ _ _ _ _ _mp_m _; do
		case $_mp_m in key:* | info:*) ;; *) continue ;; esac
		eval "prom_escape \"\${M_$_mp_n-}\""
		case $_mp_m in
		key:*) _mp_l="$_mp_l,${_mp_m#key:}=\"$PE\"" ;;
		*) _mp_i="$_mp_i,${_mp_m#info:}=\"$PE\"" ;;
		esac
	done <<EOF
$MEMBER_FIELDS
EOF
	printf 'ssdstripe_member_info{%s%s} 1\n' "$_mp_l" "$_mp_i"
	while IFS='|' read -r _mp_n _ _ _ _ _ _mp_m _; do
		case $_mp_m in - | key:* | info:*) continue ;; esac
		_mp_v=''
		eval "_mp_v=\${M_$_mp_n-}"
		prom_sample "${_mp_m%%:*}" "$_mp_l" "${_mp_m##*:}" "$_mp_v"
	done <<EOF
$MEMBER_FIELDS
EOF
}
# prom_sample NAME LABELS UNIT VALUE: the samples of metric NAME for VALUE,
# labelled LABELS, UNIT as the metric column of MEMBER_FIELDS and
# ARRAY_FIELDS says (state: one sample per member state, states=A,B,C:
# one per word)
prom_sample() {
	local _ps_ss _ps_ifs _ps_s _ps_b
	case $3 in
	state | states=*)
		_ps_ss=${3#states=}
		[ "$_ps_ss" != "$3" ] || _ps_ss=ok,slow,erroring,stalled,failed
		_ps_ifs=$IFS IFS=,
		for _ps_s in $_ps_ss; do
			_ps_b=0
			[ "$4" = "$_ps_s" ] && _ps_b=1
			printf '%s{%s,state="%s"} %d\n' "$1" "$2" "$_ps_s" "$_ps_b"
		done
		IFS=$_ps_ifs ;;
	minutes) [ -z "$4" ] || printf '%s{%s} %s\n' "$1" "$2" $(($4 * 60)) ;;
	hours) [ -z "$4" ] || printf '%s{%s} %s\n' "$1" "$2" $(($4 * 3600)) ;;
	bytes) printf '%s{%s} %s\n' "$1" "$2" $(($4 * 512)) ;;
	seconds) printf '%s{%s} %d.%06d\n' "$1" "$2" $(($4 / 1000000)) $(($4 % 1000000)) ;;
	ms) printf '%s{%s} %d.%03d\n' "$1" "$2" $(($4 / 1000)) $(($4 % 1000)) ;;
	opt) [ -z "$4" ] || printf '%s{%s} %s\n' "$1" "$2" "$4" ;;
	*) printf '%s{%s} %s\n' "$1" "$2" "$4" ;;
	esac
}

# member_metric_defs: "NAME TYPE HELP" of every member metric but
# ssdstripe_member_info, for metric_defs
member_metric_defs() {
	local _md_m _md_h _md_t
	while IFS='|' read -r _ _ _ _ _ _ _md_m _md_h; do
		case $_md_m in - | key:* | info:*) continue ;; esac
		_md_t=${_md_m#*:}
		printf '%s %s %s\n' "${_md_m%%:*}" "${_md_t%%:*}" "$_md_h"
	done <<EOF
$MEMBER_FIELDS
EOF
}
