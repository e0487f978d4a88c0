# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe examine: print a device's label.  The command is C now
# (tool/examine.c); its help stays here with every command's until 'help'
# moves too.

help_examine() {
	cat <<EOF
usage: $PROG examine DEV...

Print the label of each device (read only), its creation time also in
ISO 8601 UTC, and whether the label is shadowed: the device carries another
signature now (a file system, swap, a partition table), and assemble
refuses it.  Then, for a label of version 2, a line per member: the drive
the label records for it (model and serial) and where that drive is now:
this device, another device (with what its label says), or not found.
Exit: 0, 3 damaged label, 4 no label.
EOF
}
