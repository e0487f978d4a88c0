# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe sanitize: erase every member of a stopped array with its
# drive's own erase command, all members or none.  The command is the C
# program's (tool/sanitize.c, the drives' commands in tool/erase.c); its
# help stays here with the others'.

help_sanitize() {
	cat <<EOF
usage: $PROG sanitize [--yes] [--force] [--method format|sanitize|ata] NAME

Erase every member of the stopped array NAME with its drive's own erase
command: the array's data, its labels and everything else on those drives
are gone for good.  For drives that leave (decommissioning, return, sale).
The members are found by their labels, as assemble finds them.  Each
drive's method is chosen from what the drive says it supports, crypto
erase first:
  NVMe  Sanitize crypto erase, Format NVM crypto erase, Sanitize block
        erase, Format NVM user data erase (the NVMe admin commands,
        through the kernel's ioctl)
  SATA  ATA enhanced security erase, else security erase (hdparm)
  --method format|sanitize|ata   only that command (its best action)

Nothing is erased unless every member can be; refused (exit 3), each
member named with what its drive supports:
  - the array is active (stop it first); a member is mounted, swap, held,
    or open by a process (a virtual machine's disk, a copy running);
  - a member is missing: --force erases the members present (the missing
    one keeps its data and its label);
  - a member is a partition, a dm, loop or md device, or a drive with no
    erase command (or not the one --method asks for);
  - a SATA drive whose security is frozen (suspend and resume the machine,
    or unplug and replug the drive), locked or enabled (a password set);
  - an NVMe drive whose erase would reach other namespaces (Sanitize acts
    on the whole drive; Format NVM too where the drive says so);
  - a member that carries another signature now (re-used).
Before erasing, a line per member: device, model, serial, method.  Without
--yes the array's name must be typed on the terminal (/dev/tty, else a
standard input that is one); no terminal, or another answer, refuses.
After: each drive's label block is read back (it must be gone) and its
first and last MiB are reported (zeros, or not: a crypto erase leaves
unreadable data); the history keeps a line per member.
Exit: 0 erased, 1 an erase or its check failed, 2 usage, 3 refused
(nothing erased), 4 no array of that name.
EOF
}
