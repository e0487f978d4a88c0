# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: how a member is reached.  An NVMe member is a
# namespace of a controller on some transport: pcie for a local SSD, tcp,
# rdma or fc for one that another host exports (NVMe over fabrics,
# Documentation/ssdstripe-fabric.rst).  The transport, the address and the
# subsystem NQN are in every member record (the textfile's
# ssdstripe_member_info; status and detail, C: tool/fabric.c, read them
# the same way and say under the table when a fabric member's controller
# is not live, and detail when its I/O would wait for the whole
# ctrl_loss_tmo because fast_io_fail_tmo is off).
MEMBER_FIELDS="$MEMBER_FIELDS
transport|-|transport:s|sd|14:TRANSPORT:%-9s:str|11:TRANSPORT:%-9s:str|info:transport|
address|-|address:s|sd|15:ADDRESS:%-21s:str|12:ADDRESS:%-21s:str|info:address|
subsysnqn|-|subsysnqn:s|sd|16:NQN:%s:str|13:NQN:%s:str|info:subsysnqn|
controller|-|controller:s|sd|-|-|-|
controller_state|-|controller_state:s|sd|-|-|-|"
MEMBER_GATHER="$MEMBER_GATHER fabric_gather"

# fabric_ctrl_of BLOCKSYS: V = the sysfs directory of the controller that
# serves the NVMe namespace BLOCKSYS (/sys/class/block/nvme4n1), false for
# anything else.  A namespace of a multipath head (fabrics: nvmet's
# subsystems are multi-controller) hangs below its subsystem, whose
# controllers are links in it: the first live one, else the first.
fabric_ctrl_of() {
	local _fco_1 _fco
	V=''
	[ -e "$1/nsid" ] || return 1
	if [ -r "$1/device/transport" ]; then
		V=$1/device
		return 0
	fi
	_fco_1=''
	for _fco in "$1"/device/nvme[0-9]*; do
		[ -r "$_fco/transport" ] || continue
		[ -n "$_fco_1" ] || _fco_1=$_fco
		if read_attr "$_fco/state" && [ "$V" = live ]; then
			V=$_fco
			return 0
		fi
	done
	V=$_fco_1
	[ -n "$V" ]
}

# fabric_address ADDRESS: V = the controller's address file as host:port
# (traddr=198.18.1.2,trsvcid=4420,src_addr=... reads 198.18.1.2:4420; an
# IPv6 traddr in brackets); a PCIe address as it is
fabric_address() {
	local _fa_a _fa_s _fa_ifs _fa_w
	case $1 in
	*traddr=*) ;;
	*) V=$1; return 0 ;;
	esac
	_fa_a='' _fa_s='' _fa_ifs=$IFS
	IFS=,
	for _fa_w in $1; do
		case $_fa_w in
		traddr=*) _fa_a=${_fa_w#traddr=} ;;
		trsvcid=*) _fa_s=${_fa_w#trsvcid=} ;;
		esac
	done
	IFS=$_fa_ifs
	case $_fa_a in *:*:*) [ -z "$_fa_s" ] || _fa_a="[$_fa_a]" ;; esac
	V=$_fa_a${_fa_s:+:$_fa_s}
}

# fabric_gather BLOCKSYS: the transport fields of the member being read
# (member_info)
# shellcheck disable=SC2034 # M_ read by name (MEMBER_FIELDS)
fabric_gather() {
	local _fg_c
	M_transport='' M_address='' M_subsysnqn='' M_controller='' M_controller_state=''
	fabric_ctrl_of "$1" || return 0
	_fg_c=$V
	# a namespace's own device link leads to its controller (nvme0)
	case $_fg_c in */device) _fg_c=$(readlink -f "$_fg_c") ;; esac
	M_controller=${_fg_c##*/}
	read_attr "$_fg_c/transport" && M_transport=$V
	if read_attr "$_fg_c/address"; then
		fabric_address "$V"
		M_address=$V
	fi
	read_attr "$_fg_c/subsysnqn" && M_subsysnqn=$V
	read_attr "$_fg_c/state" && M_controller_state=$V
	return 0
}
