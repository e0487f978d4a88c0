#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dracut module ssdstripe (installed as
# /usr/lib/dracut/modules.d/90ssdstripe/): dm-ssdstripe.ko, dmsetup, the
# ssdstripe tool with its library and /etc/ssdstripe.conf in the
# initramfs, and an initqueue hook that assembles the arrays once udev has
# settled.
# shellcheck disable=SC2154 # moddir, hostonly: set by dracut

# the tool's library (make install writes its TOOLLIBDIR here)
SSDSTRIPE_INSTALLED_LIBDIR=/usr/lib/ssdstripe

# called by dracut
check() {
	require_binaries dmsetup ssdstripe || return 1
	[[ -r $SSDSTRIPE_INSTALLED_LIBDIR/common.sh ]] || return 1
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
	inst_multiple dmsetup ssdstripe awk sed grep dd od tr cut sort uniq wc \
		head tail stat readlink mktemp sha256sum date sleep cat rm mkdir mv
	local f
	for f in "$SSDSTRIPE_INSTALLED_LIBDIR"/*.sh; do
		inst_simple "$f" || return 1
	done
	# util-linux blkid -p: assemble refuses re-used members (busybox's cannot probe)
	inst_multiple -o blkid
	[[ -r /etc/ssdstripe.conf ]] && inst_simple /etc/ssdstripe.conf
	inst_hook initqueue/settled 50 "$moddir/ssdstripe-assemble.sh"
	dracut_need_initqueue
}
