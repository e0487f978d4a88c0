# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The fabric part of the rig's /init (busybox sh; sourced by qemu/init,
# installed as /fabric-init.sh).  qemu/rig.sh links the test guest to each
# storage guest K (1..N) by a point-to-point QEMU socket on 127.0.0.1, and
# gives both ends of link K a virtio NIC with a MAC that names it:
# 52:54:00:5d:KK:01 in the test guest, 52:54:00:5d:KK:02 in storage guest
# K (KK two hex digits).  Inside the guests each link is its own subnet of
# the benchmarking range (RFC 2544, 198.18.0.0/15): 198.18.K.1/24 is the
# test guest, 198.18.K.2/24 storage guest K.  No other address is used,
# and no route leads anywhere else.

FABRIC_PORT=4420
# fabric_nqn K: the NQN of storage guest K's subsystem
fabric_nqn() { echo "nqn.2026-11.org.ssdstripe.rig:storage$1"; }

# fabric_links END N: the N rig NICs up with their addresses; END is 01
# in the test guest, 02 in a storage guest.  Prints one line per link.
fabric_links() {
	modprobe virtio_net 2>/dev/null
	_fl_i=0 _fl_up=0
	# the NICs show up a little after the module loads
	while [ "$_fl_up" -lt "$2" ] && [ "$_fl_i" -lt 100 ]; do
		_fl_up=0
		for _fl_n in /sys/class/net/*; do
			_fl_mac=$(cat "$_fl_n/address" 2>/dev/null)
			case $_fl_mac in
			52:54:00:5d:??:"$1") ;;
			*) continue ;;
			esac
			_fl_k=${_fl_mac#52:54:00:5d:}
			_fl_k=$((0x${_fl_k%%:*}))
			_fl_dev=${_fl_n##*/} _fl_a=198.18.$_fl_k.${1#0}
			_fl_up=$((_fl_up + 1))
			ip -o -4 addr show dev "$_fl_dev" | grep -q " $_fl_a/" && continue
			ip link set "$_fl_dev" up
			ip addr add "$_fl_a/24" dev "$_fl_dev"
			echo "ssdstripe-fabric: link $_fl_k is $_fl_dev, $_fl_a/24"
		done
		_fl_i=$((_fl_i + 1))
		[ "$_fl_up" -ge "$2" ] || sleep 0.1
	done
	[ "$_fl_up" -ge "$2" ] && return 0
	echo "ssdstripe-fabric: $_fl_up of $2 rig NICs (MAC 52:54:00:5d:*:$1) appeared"
	return 1
}

# fabric_serve K: storage guest K exports every NVMe namespace it has
# with nvmet over TCP on 198.18.K.2:4420, in one subsystem
# (fabric_nqn K), namespace J+1 the disk with serial stKdJ; each
# namespace's serial, model and UUID fixed, so that the test guest's
# drive identity of it is the same on every boot.  Any host may connect
# (attr_allow_any_host: the rig has one host; a real storage host lists
# its hosts, see Documentation/ssdstripe-fabric.rst).
fabric_serve() {
	_fs_k=$1
	modprobe configfs
	mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
	if ! modprobe nvmet || ! modprobe nvmet-tcp; then
		echo "ssdstripe-storage: no nvmet"
		return 1
	fi
	_fs_nqn=$(fabric_nqn "$_fs_k")
	_fs_s=/sys/kernel/config/nvmet/subsystems/$_fs_nqn
	mkdir "$_fs_s" || return 1
	echo 1 >"$_fs_s/attr_allow_any_host"
	echo "rigst$_fs_k" >"$_fs_s/attr_serial"
	echo "ssdstripe rig storage $_fs_k" >"$_fs_s/attr_model"
	_fs_j=0
	while :; do
		_fs_d=''
		for _fs_c in /sys/class/nvme/nvme*; do
			[ "$(tr -d ' ' <"$_fs_c/serial")" = "st${_fs_k}d$_fs_j" ] || continue
			for _fs_n in "$_fs_c"/nvme*n1; do [ -e "$_fs_n" ] && _fs_d=/dev/${_fs_n##*/}; done
		done
		[ -n "$_fs_d" ] || break
		_fs_ns=$_fs_s/namespaces/$((_fs_j + 1))
		mkdir "$_fs_ns"
		echo "$_fs_d" >"$_fs_ns/device_path"
		# a UUID from the subsystem and the disk: the same on every boot
		_fs_u=$(echo "$_fs_nqn st${_fs_k}d$_fs_j" | md5sum | cut -c1-32)
		echo "$_fs_u" | sed 's/^\(........\)\(....\)\(....\)\(....\)/\1-\2-\3-\4-/' >"$_fs_ns/device_uuid"
		echo 1 >"$_fs_ns/enable" || return 1
		echo "ssdstripe-storage: namespace $((_fs_j + 1)) is $_fs_d (st${_fs_k}d$_fs_j)"
		_fs_j=$((_fs_j + 1))
	done
	[ "$_fs_j" -gt 0 ] || { echo "ssdstripe-storage: no disk to export"; return 1; }
	_fs_p=/sys/kernel/config/nvmet/ports/1
	mkdir "$_fs_p"
	echo tcp >"$_fs_p/addr_trtype"
	echo ipv4 >"$_fs_p/addr_adrfam"
	echo "198.18.$_fs_k.2" >"$_fs_p/addr_traddr"
	echo "$FABRIC_PORT" >"$_fs_p/addr_trsvcid"
	ln -s "$_fs_s" "$_fs_p/subsystems/$_fs_nqn" || return 1
	echo "ssdstripe-storage: serving $_fs_nqn on 198.18.$_fs_k.2:$FABRIC_PORT"
}

# fabric_host: the test guest as an NVMe over fabrics host: its host NQN
# and the transport modules (nvme connect needs /etc/nvme/hostnqn)
fabric_host() {
	mkdir -p /etc/nvme
	# nvme gen-hostnqn reads the DMI product UUID, all zeros under QEMU
	_fh=$(cat /proc/sys/kernel/random/uuid)
	[ -s /etc/nvme/hostnqn ] || echo "nqn.2014-08.org.nvmexpress:uuid:$_fh" >/etc/nvme/hostnqn
	[ -s /etc/nvme/hostid ] || echo "$_fh" >/etc/nvme/hostid
	modprobe nvme-tcp
	modprobe sch_netem 2>/dev/null
	return 0
}
