# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe wipe: erase our label, and only ours.  The command is C now
# (tool/wipe.c); its help stays here with every command's until 'help'
# moves too.

# ---- wipe --------------------------------------------------------------
help_wipe() {
	cat <<EOF
usage: $PROG wipe [--force] DEV...

Erase the ssdstripe label of each device, as mdadm --zero-superblock does
for md: zero the 4 KiB label block (bytes 4096-8191), read it back from the
device to check it is gone, and touch nothing else.  Other signatures on
the device (a file system, swap, a partition table) are left alone.
Damaged labels and labels of another version are erased too.

Every device is checked before any is written, and held open with
O_EXCL from its check to its write:
  - a member of an active array is refused, naming the array (stop it
    first); so is a device that is mounted, used as swap or held, or
    that another program holds open exclusively;
  - a device without an ssdstripe label is refused (exit 4); with --force
    it is left alone with a message (exit 0).

Exit: 0 wiped, 1 failed (write or verify), 2 usage, 3 refused (in use),
4 no label.
EOF
}
