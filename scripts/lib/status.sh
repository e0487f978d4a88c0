# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe status: health and statistics of active arrays and their
# members, as a table or JSON.  The command is C now (tool/status.c); its
# help stays here with every command's until 'help' moves too.

# ---- status ------------------------------------------------------------
help_status() {
	cat <<EOF
usage: $PROG status [NAME...] [--json]

Health and statistics of active arrays and of each member: device, model and
serial where the system has them (for a member whose device is gone: the
drive its labels record, and a line under the table says what to do, or
where the drive is now), state (ok, slow, erroring, stalled, failed), I/O,
errors, latency, discard totals, the NVMe temperature where hwmon has it and
what the drive says of its own health (DRIVE: ok, warning, critical or
unknown, from the NVMe health log or smartctl, kept SMART_CACHE s, default
60; a line says why for each drive that is not ok), and how an NVMe member
is reached:
its transport (pcie, or tcp, rdma, fc for a namespace another host
exports), address and subsystem NQN (a line says when a fabric member's
controller is not live: its storage host or the link is down).  The array
state is its worst member's: optimal, slow, erroring, stalled or failed;
the array's line
adds a drive that is critical or warns ("array fast: optimal, drive
critical on member 1 (nvme1n1, serial S): replace it, ...").
With no array active and none named it says "no active arrays" (--json:
an empty list) and exits 0: nothing is unhealthy.  Name the arrays you
expect to exist: a name that is not active exits 4.
'$PROG detail NAME' adds the creation time and the health thresholds.
Exit: 0 all optimal, 4 no such array, 5 one is slow or a drive warns,
6 one is erroring or stalled or a drive is critical, 7 one has failed (the worst
decides).
EOF
}
