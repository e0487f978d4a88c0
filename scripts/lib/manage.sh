# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe stop, list, table and clear: the commands that act on arrays
# as a whole.  They are C now (tool/manage.c, tool/list.c,
# tool/tablecmd.c, tool/clear.c); their help stays here with every
# command's until 'help' moves too.

# ---- stop, list, table ------------------------------------------------
help_stop() {
	cat <<EOF
usage: $PROG stop NAME...
       $PROG stop --scan

Deactivate arrays (dmsetup remove).  The labels stay; assemble brings the
array back.  Refused while the array is mounted or open, or while a replace
of one of its members runs.

  --scan, -s  every active array, as 'mdadm --stop --scan': those in use
              are left, each named with why, and exit 1

Exit: 0 stopped, 1 failed or in use (an array left), 2 usage, 4 no such
array.
EOF
}
help_list() {
	cat <<EOF
usage: $PROG list

One line per array: active arrays, and arrays whose labels are on this
system's devices but that are not active.  Reads labels, writes nothing.
Columns: NAME STATE MEMBERS SIZE CHUNK UUID
MEMBERS of an inactive array: the members found (each counted once) of
those it has; a member claimed by two devices (a cloned disk, an older
label a replace left) gets a line on stderr saying what assemble does
with it.
STATE is the array state when active; inactive; or shadowed when a member's
label is shadowed by another signature (a file system, swap, a partition
table: the device was re-used), which assemble refuses; a line on stderr
names the device.  A line on stderr names each member that is missing
(of an inactive array) or gone (from an active one) by the drive its
labels record, and says what to do, or where that drive is now.
EOF
}
help_table() {
	cat <<EOF
usage: $PROG table NAME

Print the device-mapper table of array NAME: the live one if it is active,
else the one assemble would load, computed from the labels (read only).
A member that is missing is named by the drive its labels record, as
assemble names it.
Exit: 0, 3 incomplete or inconsistent set, 4 not found.
EOF
}

# ---- clear -------------------------------------------------------------
help_clear() {
	cat <<EOF
usage: $PROG clear NAME...

Forget the I/O errors of every member of array NAME, like 'zpool clear':
the kernel zeroes the error counters, and members that are erroring or
failed (but whose disk is still there) lose their errors.  Each is then
what its speed says: ok, or slow when its last speed verdict was slow -
slowness is no error, and a member that failed was often slow too (its
failing I/O took long).  An idle member keeps that verdict: it is ok again
once its I/O is judged fast (a few hundred reads or writes).  clear says
the array's state after it, and each member that is not ok with why.
Errors are kept until then on purpose: clear them once you have
understood them (backup, SMART).
Exit: 0 cleared (whatever the state after), 1 failed, 2 usage, 4 no such
array.
EOF
}
