# shellcheck shell=sh
# Helpers of the fabric tests (after lib/common.sh): the storage guests of
# the fabric rig (qemu/run.sh --storage-hosts N, qemu/rig.sh), NVMe/TCP
# connections to them, and their links.  Storage guest K serves subsystem
# fabric_nqn K on 198.18.K.2:4420 over link K, whose end here is
# 198.18.K.1 (qemu/fabric-init.sh); nothing else is ever addressed.
# shellcheck disable=SC1091 # qemu/fabric-init.sh, put there by build-initramfs.sh
. /fabric-init.sh

# The NVMe/TCP timeouts Documentation/ssdstripe-fabric.rst recommends for
# array members, in seconds: keep-alive 5 (the kernel's default: a dead
# link is seen within 1.5 times that), I/O fails 10 s after the link is
# lost (fast_io_fail_tmo; without it I/O waits for ctrl_loss_tmo), the
# controller tries again every 2 s (reconnect_delay) and never gives up
# (ctrl_loss_tmo -1: the member's device stays, and works again when the
# host is back).
FABRIC_KATO=5 FABRIC_FAST_IO_FAIL=10 FABRIC_RECONNECT=2 FABRIC_CTRL_LOSS=-1

# storage_ready K: yes when storage guest K serves (the host reads its
# console), no while it boots, failed when it could not
storage_ready() { _host_query "storage-ready$1"; }
# wait_storage K: until storage guest K serves; fails the test after 300 s
wait_storage() {
	_ws=0
	while :; do
		_wsr=$(storage_ready "$1") || fail "no answer from the host about storage guest $1"
		case $_wsr in
		yes) return 0 ;;
		failed) fail "storage guest $1 could not serve its disks (its console says why)" ;;
		esac
		_ws=$((_ws + 2))
		[ "$_ws" -lt 300 ] || fail "storage guest $1 not serving after 300 s ($_wsr)"
		sleep 2
	done
}
# storage_stop K, storage_cont K: QEMU freezes storage guest K (stop: every
# vCPU and device, as a host that hangs) and lets it run again (cont)
storage_stop() { _host_query "storage-stop$1"; }
storage_cont() { _host_query "storage-cont$1"; }
# storage_blocks K: 512-byte blocks storage guest K's disk images hold on
# the host (one number per disk)
storage_blocks() { _host_query "storage-blocks$1"; }

# fabric_connect K: connect to storage guest K's subsystem with nvme-cli
# and the recommended timeouts; nvme-cli 2.3 (Debian 12) has no option for
# fast_io_fail_tmo, so it is written to the controller's sysfs file, as the
# guide's udev rule does.  Prints the controller's name (nvme4).
fabric_connect() {
	_fc_nqn=$(fabric_nqn "$1")
	must nvme connect -t tcp -a "198.18.$1.2" -s "$FABRIC_PORT" -n "$_fc_nqn" \
		--keep-alive-tmo="$FABRIC_KATO" --reconnect-delay="$FABRIC_RECONNECT" \
		--ctrl-loss-tmo="$FABRIC_CTRL_LOSS"
	_fc_c=$(fabric_ctrl "$1") || fail "no controller of $_fc_nqn after nvme connect"
	echo "$FABRIC_FAST_IO_FAIL" >"/sys/class/nvme/$_fc_c/fast_io_fail_tmo" ||
		fail "cannot set fast_io_fail_tmo of $_fc_c"
	# the namespaces appear a little after the connect (an async scan)
	wait_until 30 fabric_dev "$1" >/dev/null || fail "no namespace of $_fc_nqn after nvme connect"
	echo "$_fc_c"
}
# fabric_ctrl K: the live controller (nvme4) of storage guest K's subsystem
fabric_ctrl() {
	_fq=$(fabric_nqn "$1")
	for _fcc in /sys/class/nvme/nvme*; do
		[ -e "$_fcc/subsysnqn" ] || continue
		[ "$(cat "$_fcc/subsysnqn")" = "$_fq" ] || continue
		[ "$(cat "$_fcc/state")" = deleting ] && continue
		echo "${_fcc##*/}"
		return 0
	done
	return 1
}
# fabric_dev K [NSID]: the block device of namespace NSID (default 1) of
# storage guest K's subsystem: the multipath head (/dev/nvme4n1), which
# stays while a path comes and goes
fabric_dev() {
	_fq=$(fabric_nqn "$1")
	for _fds in /sys/class/nvme-subsystem/nvme-subsys*; do
		[ "$(cat "$_fds/subsysnqn" 2>/dev/null)" = "$_fq" ] || continue
		for _fdn in "$_fds"/nvme*n*; do
			# the paths below the head (nvme4c4n1) are hidden
			case ${_fdn##*/} in nvme*c*n*) continue ;; esac
			[ -e "$_fdn/nsid" ] || continue
			[ "$(cat "$_fdn/nsid")" = "${2:-1}" ] || continue
			echo "/dev/${_fdn##*/}"
			return 0
		done
	done
	# without native multipath the namespace hangs below its controller
	_fdc=$(fabric_ctrl "$1") || return 1
	for _fdn in /sys/class/nvme/"$_fdc"/nvme*n*; do
		case ${_fdn##*/} in nvme*c*n*) continue ;; esac
		[ "$(cat "$_fdn/nsid" 2>/dev/null)" = "${2:-1}" ] && { echo "/dev/${_fdn##*/}"; return 0; }
	done
	return 1
}
# fabric_disconnect K: drop the connection to storage guest K
fabric_disconnect() { must nvme disconnect -n "$(fabric_nqn "$1")"; }
# link_dev K: the network interface of link K here (eth1)
link_dev() {
	_lm=$(printf '52:54:00:5d:%02x:01' "$1")
	for _ln in /sys/class/net/*; do
		[ "$(cat "$_ln/address" 2>/dev/null)" = "$_lm" ] && { echo "${_ln##*/}"; return 0; }
	done
	return 1
}
# fabric_rig N: this guest has N storage guests (skips the test otherwise)
# and each of them serves
fabric_rig() {
	[ "${SSDSTRIPE_LINKS:-0}" -ge "$1" ] ||
		skip "needs $1 storage guests (RIG: --storage-hosts $1), this guest has ${SSDSTRIPE_LINKS:-0}"
	_fr=1
	while [ "$_fr" -le "$1" ]; do
		wait_storage "$_fr"
		_fr=$((_fr + 1))
	done
}
