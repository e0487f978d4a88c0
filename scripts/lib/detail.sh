# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe detail: one active array's whole picture.  The command is C
# now (tool/detail.c); its help stays here with every command's until
# 'help' moves too.

# ---- detail ------------------------------------------------------------
help_detail() {
	cat <<EOF
usage: $PROG detail NAME [--json]
       $PROG detail --scan

One active array's whole picture, as 'mdadm --detail': name, uuid, creation
time (ISO 8601 UTC, from the members' labels; - for a raw dmsetup array),
array state, members, chunk and size; discard passdown, per-member
statistics and every health threshold (the live table's value, or the
target's default; a changed one says its default); then per member its
index, device, model, serial, size, state, errors, retries, recent mean
latency, what its drive says of its health (SMART: ok, warning,
critical or unknown; every figure in --json, with the drive its labels
record: recorded_id, recorded_serial, recorded_model) and how it is
reached (NVMe: transport pcie, tcp, rdma or fc, address, subsystem NQN;
--json adds its controller and the controller's state), a line for each
member whose device is gone (the drive its labels record: reseat it, or
replace it; or where it is now), for each fabric member whose controller
is not live or whose I/O would wait for ctrl_loss_tmo (fast_io_fail_tmo
off), and for each drive that is not ok.
--json prints the same as one object.  Reads only.
--scan prints an ARRAY line for every active array, for the configuration
file, as 'mdadm --detail --scan' does ($PROG config --scan is the same).
Exit: 0 (whatever the state: status exits by state), 2 usage, 4 no such
array.
EOF
}
