# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe scrub: a read-only surface scan of every member's data region,
# at a rate that leaves the array usable, as md's "check" and ZFS's scrub;
# a RAID-0 has no copy to repair from, so a scrub finds latent unreadable
# sectors before a file system (or a replace) does, and names them.  The
# command is C now (tool/scrub.c); its help stays here with every
# command's until 'help' moves too.

SCRUB_RUN=${SSDSTRIPE_RUNDIR:-/run/ssdstripe}/scrub
SCRUB_RATE=64	# MB/s, the default --rate

# ---- scrub -------------------------------------------------------------
help_scrub() {
	cat <<EOF
usage: $PROG scrub [--rate MB] [--background] NAME...
       $PROG scrub [--rate MB] --all
       $PROG scrub --stop NAME

Reads every member's data region of each array named (--all: every active
array, one after the other), with direct reads of 1 MiB, at up to MB
megabytes per second in all (--rate, default $SCRUB_RATE): what md's
'check' and ZFS's scrub do.  A RAID-0 has no copy to repair from: a
scrub finds sectors a drive can no longer read before a file system or a
replace does, while the rest can still be saved.  Each unreadable range
is said with its member's data sectors and the array sectors it holds
(and, for ext4, the files, where debugfs can tell), kept in
$SCRUB_RUN/NAME.bad and in the history.  status and detail show a
running scrub's progress and time left, and the last one's result (since
boot; the history keeps them all).  Ctrl-C, or --stop, stops it.
--background leaves the scan to a process of its own.  Reads only: it
writes to no member.  ssdstripe-scrub.timer (off until enabled) runs
'scrub --all' monthly.
Exit: 0 every member read (or started, with --background; or stopped), 1
unreadable sectors found or the scan failed, 2 usage, 3 refused (a scrub
or a replace of the array runs), 4 no such array.
EOF
}
