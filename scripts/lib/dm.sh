# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: device-mapper and the kernel's view of an array:
# the target, active arrays, their sysfs directory and state snapshot.

DM_UUID_PREFIX=SSDSTRIPE-

# ---- device-mapper -----------------------------------------------------
# active arrays: "name" per line (any device with an ssdstripe table)
active_arrays() {
	dmsetup ls --target ssdstripe 2>/dev/null | awk '$1 != "No" {print $1}'
}
dm_uuid() { dmsetup info -c --noheadings -o uuid "$1" 2>/dev/null; }
# array_uuid NAME: the UUID of the array's label (from its dm UUID), or
# nothing for a raw dmsetup array
array_uuid() {
	local _au
	_au=$(dm_uuid "$1")
	case $_au in "$DM_UUID_PREFIX"*) echo "${_au#"$DM_UUID_PREFIX"}" ;; esac
}
dm_sysdir() {
	local _dd
	_dd=$(dmsetup info -c --noheadings -o major,minor --separator : "$1" 2>/dev/null) || return 1
	_dd=$(readlink -f "/sys/dev/block/$(echo "$_dd" | tr -d ' ')") || return 1
	echo "$_dd"
}
# is_array NAME: NAME is an active array (a fixed string: a name given on
# the command line is never a pattern or an option to grep)
is_array() { active_arrays | grep -qxF -e "$1"; }

# snapshot SYSDIR: "array_state m0 m1 ...".  The array state is derived
# from the member states read, as the kernel derives it (the worst member
# state, ok -> optimal), so the two always agree.  Since sysfs ABI 3 a
# member may be stalled: reads or writes wait on it, none completes.
snapshot() {
	local _sp_n _sp_m _sp_w _sp_i _sp_s _sp_r _sp_a
	_sp_n=$(cat "$1/member_count" 2>/dev/null) || return 1
	_sp_m='' _sp_w=0 _sp_i=0
	while [ "$_sp_i" -lt "$_sp_n" ]; do
		_sp_s=$(cat "$1/members/$_sp_i/state") || return 1
		_sp_m="$_sp_m $_sp_s"
		_sp_r=$(state_rank "$_sp_s")
		[ "$_sp_r" -gt "$_sp_w" ] && _sp_w=$_sp_r
		_sp_i=$((_sp_i + 1))
	done
	case $_sp_w in
	0) _sp_a=optimal ;; 1) _sp_a=slow ;; 2) _sp_a=erroring ;; 3) _sp_a=stalled ;;
	*) _sp_a=failed ;;
	esac
	echo "$_sp_a$_sp_m"
}
# member state -> 0 ok, 1 slow, 2 erroring, 3 stalled, 4 failed (the
# kernel's order: a stall outranks errors, a failed member everything)
state_rank() {
	case $1 in ok) echo 0 ;; slow) echo 1 ;; erroring) echo 2 ;; stalled) echo 3 ;; *) echo 4 ;; esac
}
