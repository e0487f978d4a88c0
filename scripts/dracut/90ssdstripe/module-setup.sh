#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dracut module ssdstripe (installed as
# /usr/lib/dracut/modules.d/90ssdstripe/): dm-ssdstripe.ko, dmsetup, the
# ssdstripe tool with the programs it runs and /etc/ssdstripe.conf in the
# initramfs, and an initqueue hook that assembles the arrays once udev has
# settled.
# shellcheck disable=SC2154 # moddir, hostonly: set by dracut

# the list of programs the tool runs (make install writes its TOOLLIBDIR here)
SSDSTRIPE_INSTALLED_LIBDIR=/usr/lib/ssdstripe

# called by dracut
check() {
	require_binaries dmsetup ssdstripe || return 1
	[[ -r $SSDSTRIPE_INSTALLED_LIBDIR/initramfs-commands ]] || return 1
	if [[ $hostonly ]]; then
		# only where an active ssdstripe array is on this host
		local u
		for u in /sys/block/dm-*/dm/uuid; do
			[[ -r $u ]] && [[ $(<"$u") == SSDSTRIPE-* ]] && return 0
		done
		return 255
	fi
	return 0
}

# called by dracut
depends() {
	echo dm
	return 0
}

# called by dracut
installkernel() {
	hostonly='' instmods dm-mod dm-ssdstripe
}

# called by dracut
install() {
	# what the tool runs (the one list, shared with the initramfs-tools hook)
	local c opt need=() may=()
	while read -r c opt _; do
		[[ -z $c || $c == '#'* ]] && continue
		if [[ $opt == optional ]]; then may+=("$c"); else need+=("$c"); fi
	done <"$SSDSTRIPE_INSTALLED_LIBDIR/initramfs-commands"
	inst_multiple ssdstripe "${need[@]}"
	((${#may[@]} == 0)) || inst_multiple -o "${may[@]}"
	[[ -r /etc/ssdstripe.conf ]] && inst_simple /etc/ssdstripe.conf
	inst_hook initqueue/settled 50 "$moddir/ssdstripe-assemble.sh"
	dracut_need_initqueue
}
