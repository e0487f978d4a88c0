# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: block devices: their /dev names and sysfs
# attributes, a drive's serial.

# ---- devices -----------------------------------------------------------
# devpath NAME: /dev path of a kernel block device name, dm devices by their
# /dev/mapper name (what people gave and will recognise in messages)
devpath() {
	local _dp
	if [ -r "/sys/class/block/$1/dm/name" ]; then
		_dp=/dev/mapper/$(cat "/sys/class/block/$1/dm/name")
		[ -b "$_dp" ] && { echo "$_dp"; return 0; }
	fi
	[ -b "/dev/$1" ] && echo "/dev/$1"
}

# read_attr FILE [DEFAULT]: V = FILE's first line; DEFAULT ('') and false
# when it cannot be read.  The shell reads it: no process per attribute.
read_attr() {
	V=''
	{ IFS= read -r V || [ -n "$V" ]; } 2>/dev/null <"$1" && return 0
	V=${2-}
	return 1
}
# trim: V without the white space around it
trim() { V=${V#"${V%%[![:space:]]*}"}; V=${V%"${V##*[![:space:]]}"}; }
# sysfs_word FILE: V = FILE's printable text, trimmed; false if none (a
# VPD page starts with binary bytes: the C locale's printable ASCII only)
sysfs_word() {
	[ -r "$1" ] || return 1
	case $1 in
	*/vpd_pg80) V=$(LC_ALL=C tr -cd ' -~' <"$1" 2>/dev/null) ;;
	*) read_attr "$1" ;;
	esac
	trim
	[ -n "$V" ]
}
# drive_serial SYSDIR: V = the serial number of the drive whose sysfs
# directory (a whole disk's) is SYSDIR; false where it has none (dm, loop)
drive_serial() {
	local _ds
	for _ds in "$1/device/serial" "$1/device/device/serial" "$1/serial" "$1/device/vpd_pg80"; do
		sysfs_word "$_ds" && return 0
	done
	V=''
	return 1
}
