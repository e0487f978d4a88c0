# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe replace, as the monitor reads it: a replace in progress (its
# mirror under the array, its state file).  The command is C now
# (tool/replace.c); its help stays here with every command's until 'help'
# moves too, and these readers until the monitor moves.

REPLACE_RUN=/run/ssdstripe/replace

help_replace() {
	cat <<EOF
usage: $PROG replace [--background] [--force] [--ignore-read-errors] NAME OLD NEW
       $PROG replace --finish [--ignore-read-errors] NAME
       $PROG replace --abort NAME

Move member OLD of active array NAME onto the drive NEW while the array is
in use: the kernel's mirror target copies OLD onto NEW, every write the
array makes meanwhile goes to both, and when NEW holds everything the
array is switched onto it in one table reload.  NEW then carries the
member's label, the other members' labels record NEW's drive, and OLD's
label says it was replaced (reuse it after '$PROG wipe OLD').  The other
members keep their counters and health; NEW's start afresh.  Without
--background a progress line shows percent, rate and time left, and the
command returns when the array runs on NEW; status and detail show the
copy meanwhile.  Ctrl-C stops the replace: the array stays on OLD.  A HUP
(the terminal gone) does not: the copy goes on, its output to the log
below.  A copy that no process waits for (its process killed) is taken
over by the monitor service.

A drive error during the copy puts the array back on OLD, which holds
every acknowledged write (the mirror holds back a write a drive failed
until then): NEW failing stops the replace; OLD failing a write stops it
too (that write fails on OLD, as it would have without the replace); OLD
failing reads stops it and names the ranges it cannot give, or with
--ignore-read-errors copies around them.

NEW is checked as create checks a device: large enough, not in use nor
held open by another program, not a member of an array nor built on one,
on another drive than every other member, a physical block the chunk is
a multiple of, and carrying nothing (a file system, a partition table, a
label) unless --force.  NEW must have a serial number, a WWN or a
device-mapper uuid (no override): after a power cut assemble tells it
from OLD by the drive the labels record.  A power cut at any moment
leaves the array to come up at the next boot on OLD or on NEW, whichever
holds every acknowledged write, and a boot without NEW after the switch
has begun leaves it down rather than take OLD; a copy cut short starts
over ('replace NAME OLD NEW' again: the kernel keeps the copy's progress
in memory only).  While the array is suspended the command runs no other
program and touches no file system, so / may be on the array; the switch
is bounded (SSDSTRIPE_SWITCH_TIMEOUT, 60 s), past which it goes back to
OLD.

  --background         start the copy and return; a process of its own
                       waits for it and switches (its log:
                       $REPLACE_RUN/NAME.log)
  --finish             wait for the copy of NAME's replace and switch
                       (after an interrupted command, or --background);
                       after a power cut in the switch, writes the label
                       of a NEW that assemble took
  --abort              stop the copy and put the array back on OLD,
                       nothing lost; NEW's label is erased
  --ignore-read-errors OLD cannot be read everywhere: copy the rest (the
                       ranges it cannot give stay on OLD alone during the
                       copy and are copied block by block at the switch),
                       switch anyway, zero on NEW what OLD still cannot
                       give, and list it (member and array sectors, and
                       the files in them where debugfs can tell).  Without
                       it such a replace stops, names the ranges and
                       leaves the array on OLD.
  --force              take a NEW that carries something, that is on the
                       drive of another member, or whose physical block
                       the chunk is not a multiple of

Exit: 0 done (or started, with --background), 1 failed (the array is on
OLD, or on NEW if it said so), 2 usage, 3 refused, 4 no such array or
device.
EOF
}

# ---- the array as the kernel has it -------------------------------------
# rp_table NAME: RP_* of the live table of array NAME: RP_LINE (the
# table), RP_N members, RP_MM and RP_OFF (space-separated lists by index)
rp_table() {
	local _rt_i
	RP_LINE=$(dmsetup table "$1" 2>/dev/null) || return 1
	set -f
	# shellcheck disable=SC2086 # the table's words
	set -- $RP_LINE
	set +f
	[ "${3:-}" = ssdstripe ] || return 1
	RP_N=$4
	shift 5
	RP_MM='' RP_OFF='' _rt_i=0
	while [ "$_rt_i" -lt "$RP_N" ]; do
		RP_MM="$RP_MM $1" RP_OFF="$RP_OFF $2"
		shift 2
		_rt_i=$((_rt_i + 1))
	done
}
# rp_word LIST I: the I-th (0-based) word of LIST
rp_word() { echo "$1" | awk -v i="$2" '{print $(i + 1)}'; }
# mm_dev MAJ:MIN: the /dev path of a block device (dm devices by name)
mm_dev() {
	local _md
	_md=$(readlink -f "/sys/dev/block/$1" 2>/dev/null) || return 1
	devpath "${_md##*/}"
}

# The mirror of a replace: a dm device whose uuid names the array, so that
# nothing takes it for an array or a member (candidates skips SSDSTRIPE-*)
rp_mirror_uuid() { echo "${DM_UUID_PREFIX}REPLACE-$1"; }
# rp_mirror_of UUID: the name of array UUID's replace mirror, if any
rp_mirror_of() {
	dmsetup info -c --noheadings -o name,uuid --separator ' ' 2>/dev/null |
		awk -v u="$(rp_mirror_uuid "$1")" '$2 == u {print $1; exit}'
}

