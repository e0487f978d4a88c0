# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe assemble: the command is the program's (tool/assemble.c), and
# so are the set rules it shares with list, table and sanitize
# (tool/labelset.c); its help stays here.

# ---- assemble ----------------------------------------------------------
help_assemble() {
	cat <<EOF
usage: $PROG assemble [--timeout SECS] NAME...
       $PROG assemble [--timeout SECS] --scan
       $PROG assemble [--timeout SECS] DEV...
       $PROG assemble --boot [--timeout SECS]
       $PROG assemble --boot-late [--timeout SECS]
       $PROG assemble --incremental [--export] DEV

Activate arrays from the labels on their members.  Never writes to a member.
Members are found by label, in any order.  A set that is incomplete (after
waiting), has two devices claiming one member, mixes arrays, disagrees about
the member order or the geometry is refused with a message naming the device.
A missing member is named by the drive its labels record (model and serial)
with what to do: reseat it, or replace it; when that drive is present under
another name, the name and what keeps it out (no label, another array's
label, in use).  Only when the recorded drive of every missing member is
there without its label does it print the 'create --assume-clean' command
that writes the labels back.
A labelled device that carries another signature now (blkid -p finds a file
system, swap, a partition table, md or LVM: it was re-used) is never taken:
its array is refused at once, naming the device and what it carries, and
--scan still assembles the other arrays.

  NAME...     the arrays of these names, from all block devices
  --scan      every complete array found
  DEV...      exactly these devices, which must form one whole array (an
              incomplete list is refused at once, naming the missing member)
  --boot      the arrays chosen by the kernel command line
              (ssdstripe.assemble=all|none|NAME[,NAME...]) or else $CONF
              (BOOT all | BOOT none | BOOT NAME...; default all);
              timeout from ssdstripe.timeout= or TIMEOUT in the file
  --boot-late what ssdstripe-assemble.service runs: the arrays $CONF
              lists (ARRAY NAME | ARRAY uuid=UUID, and BOOT names), waiting
              for their members; with AUTO yes (the default) every other
              complete array too, without waiting.  Nothing with
              ssdstripe.assemble=none.  The exit status is the listed
              arrays' alone: 0 when they are all active (or none is
              listed); refusals of other arrays are reported but do
              not fail it
  --incremental DEV
              what the udev rule runs for a device that appeared: if DEV
              carries a label of an array that boot may assemble (listed,
              or AUTO yes) and completes it, activate that array; else
              nothing (exit 0).  --export prints the array (udev variables
              SSDSTRIPE_ASSEMBLE_UUID, _NAME, _DEVICES) instead, and for
              any labelled device that is not held what was decided:
              SSDSTRIPE_ASSEMBLE_RESULT=complete, incomplete, active or
              not-listed
  --timeout   seconds to wait for missing members (default 10, --boot and
              --boot-late: TIMEOUT, 30).  A NAME that no label on any
              device carries is not waited for while udev brings up no
              device (its queue is empty): it fails at once (exit 4); a
              member that comes later is assembled by udev's rule
              (--incremental) anyway.  --boot waits the whole timeout.

Arrays already active are left alone.
Exit: 0 all active, 1 failed, 2 usage, 3 refused, 4 nothing found.
EOF
}
