// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: every help text (help.h).  Each command's text is a template
 * as the sh library's help_COMMAND heredocs were written: $NAME and
 * ${NAME} are the values of help_var (the program, the configuration
 * file, the defaults and the places a command keeps its files, some from
 * the environment as the commands read them), $$ is a $.  The main help
 * lists each command's usage lines, taken from its text and wrapped at 78
 * columns as the sh's help_main did.  tests/help compares every text with
 * tests/help.expected, which the sh tool's texts were, byte for byte.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "geometry.h"
#include "help.h"
#include "histlog.h"
#include "opts.h"
#include "out.h"

/* the monitor's and scrub's defaults (monitor.sh, scrub.sh) */
#define MON_INTERVAL "10"
#define MON_EXEC_TIMEOUT "60"
#define HOOK_KILL_GRACE "5"
#define SCRUB_RATE "64"

/* the commands, in the order help and the man page list them: the tool's
 * one list of its commands (tests/command-list), each with its text */
static const struct help {
	const char *cmd, *text;
} helps[] = {
	{ "create",
	  "usage: $PROG create [--name NAME] [--chunk SIZE] [--overprovision PCT] [--trim]\n"
	  "                 [--force] DEV...\n"
	  "       $PROG create --assume-clean --name NAME [--chunk SIZE]\n"
	  "                 [--overprovision PCT] [--force] DEV...\n"
	  "\n"
	  "Make a new array of the given devices, in the given order: write a label to\n"
	  "each member and activate /dev/mapper/NAME.  The data starts 1 MiB into each\n"
	  "member; every member contributes as much as the smallest one, in whole\n"
	  "chunks, and create prints what each member gives.  Options may come\n"
	  "anywhere on the line; -- ends them.\n"
	  "\n"
	  "  --name NAME    array name, also its /dev/mapper name (default: ss0, ss1, ...)\n"
	  "  --chunk SIZE   chunk size: 64K, 1M, 1G, 128s (sectors); a plain number is\n"
	  "                 KiB (default $DEFAULT_CHUNK); at least 4 KiB, at most\n"
	  "                 what the smallest member holds; a power of two and a\n"
	  "                 multiple of 4 KiB and of every member's physical block\n"
	  "                 size unless --force (see the refusals)\n"
	  "  --overprovision PCT\n"
	  "                 leave PCT % (1 to 50) of every member's space past the\n"
	  "                 label area unused, at its end, as spare area for the\n"
	  "                 drive: discarded once here, so the drive knows it is\n"
	  "                 free, and recorded in the labels (assemble keeps the\n"
	  "                 geometry; replace discards the same area on the new\n"
	  "                 member).  A drive that cannot discard gets the space only\n"
	  "                 if it was never written (secure-erase it first: sanitize)\n"
	  "  --trim         discard every member completely first, showing progress\n"
	  "  --force        use devices that carry a label, a file system, swap, a\n"
	  "                 partition table or partitions (all lost: labels left inside\n"
	  "                 the partitions are wiped, the kernel drops the partitions),\n"
	  "                 and accept a wasteful geometry or chunk, one member\n"
	  "                 or two members on one drive (all below);\n"
	  "                 mounted, open or held devices are always refused\n"
	  "  --assume-clean the devices already are array NAME, in this order, and\n"
	  "                 some lost their label: write back the missing labels (same\n"
	  "                 array and member uuids), rewrite the others with the next\n"
	  "                 generation and every member's drive, write nothing but\n"
	  "                 these label blocks, and activate.\n"
	  "                 Refused unless the devices that kept a label say they are\n"
	  "                 these members of NAME, with this many members, the chunk\n"
	  "                 given (if any), every device large enough for a member's\n"
	  "                 data where the labels put it (after a replace the\n"
	  "                 smallest may differ from create's), no\n"
	  "                 other device carries the array's label, no device given\n"
	  "                 carries anything else now, and each device given for a\n"
	  "                 lost member is the drive the labels record for it (its\n"
	  "                 WWN/id, else serial and model, and its size): a blank disk\n"
	  "                 is not the lost member.  --force writes where the labels\n"
	  "                 record another drive, no drive that can be told (a dm or\n"
	  "                 loop device without an id) or no drive at all (labels of\n"
	  "                 version 1), and says what was recorded and what it found.\n"
	  "                 With no label left at all it needs --force and --chunk and\n"
	  "                 writes new labels (new uuids; get the order right); an\n"
	  "                 array made with --overprovision needs it again then.  With\n"
	  "                 labels left, --overprovision, if given, must be theirs\n"
	  "\n"
	  "Refused without --force (exit 3), every such device named on a line:\n"
	  "  - a device carrying data (see --force);\n"
	  "  - a member leaving unused more than one chunk, or more than 5 % of the\n"
	  "    smallest member (mixed sizes, a chunk too big for the members);\n"
	  "  - two members on one physical drive (the same serial or WWN);\n"
	  "  - a chunk that is not a multiple of 4 KiB or of a member's physical\n"
	  "    block size (the drive reads and rewrites a page at every chunk\n"
	  "    boundary), or not a power of two (on Debian's 6.12 kernel XFS over a\n"
	  "    3 x 12 KiB stripe crashed with slab corruption under xfstests\n"
	  "    generic/251, on the kernel's striped target too);\n"
	  "  - one member (an array of one device stripes nothing).\n"
	  "Every label records every member's drive (WWN or serial, model, size)\n"
	  "and a generation; an array whose labels would not fit the 4 KiB label\n"
	  "block (many members with long identities) is refused.\n"
	  "\n"
	  "Exit: 0 created, 1 failed, 2 usage, 3 refused (device in use or holds data,\n"
	  "wasteful geometry or chunk, one member, one drive twice), 4 a device not\n"
	  "found.\n" },
	{ "assemble",
	  "usage: $PROG assemble [--timeout SECS] NAME...\n"
	  "       $PROG assemble [--timeout SECS] --scan\n"
	  "       $PROG assemble [--timeout SECS] DEV...\n"
	  "       $PROG assemble --boot [--timeout SECS]\n"
	  "       $PROG assemble --boot-late [--timeout SECS]\n"
	  "       $PROG assemble --incremental [--export] DEV\n"
	  "\n"
	  "Activate arrays from the labels on their members.  Never writes to a member.\n"
	  "Members are found by label, in any order.  A set that is incomplete (after\n"
	  "waiting), has two devices claiming one member, mixes arrays, disagrees about\n"
	  "the member order or the geometry is refused with a message naming the device.\n"
	  "A missing member is named by the drive its labels record (model and serial)\n"
	  "with what to do: reseat it, or replace it; when that drive is present under\n"
	  "another name, the name and what keeps it out (no label, another array's\n"
	  "label, in use).  Only when the recorded drive of every missing member is\n"
	  "there without its label does it print the 'create --assume-clean' command\n"
	  "that writes the labels back.\n"
	  "A labelled device that carries another signature now (blkid -p finds a file\n"
	  "system, swap, a partition table, md or LVM: it was re-used) is never taken:\n"
	  "its array is refused at once, naming the device and what it carries, and\n"
	  "--scan still assembles the other arrays.\n"
	  "\n"
	  "  NAME...     the arrays of these names, from all block devices\n"
	  "  --scan      every complete array found\n"
	  "  DEV...      exactly these devices, which must form one whole array (an\n"
	  "              incomplete list is refused at once, naming the missing member)\n"
	  "  --boot      the arrays chosen by the kernel command line\n"
	  "              (ssdstripe.assemble=all|none|NAME[,NAME...]) or else $CONF\n"
	  "              (BOOT all | BOOT none | BOOT NAME...; default all);\n"
	  "              timeout from ssdstripe.timeout= or TIMEOUT in the file\n"
	  "  --boot-late what ssdstripe-assemble.service runs: the arrays $CONF\n"
	  "              lists (ARRAY NAME | ARRAY uuid=UUID, and BOOT names), waiting\n"
	  "              for their members; with AUTO yes (the default) every other\n"
	  "              complete array too, without waiting.  Nothing with\n"
	  "              ssdstripe.assemble=none.  The exit status is the listed\n"
	  "              arrays' alone: 0 when they are all active (or none is\n"
	  "              listed); refusals of other arrays are reported but do\n"
	  "              not fail it\n"
	  "  --incremental DEV\n"
	  "              what the udev rule runs for a device that appeared: if DEV\n"
	  "              carries a label of an array that boot may assemble (listed,\n"
	  "              or AUTO yes) and completes it, activate that array; else\n"
	  "              nothing (exit 0).  --export prints the array (udev variables\n"
	  "              SSDSTRIPE_ASSEMBLE_UUID, _NAME, _DEVICES) instead, and for\n"
	  "              any labelled device that is not held what was decided:\n"
	  "              SSDSTRIPE_ASSEMBLE_RESULT=complete, incomplete, active or\n"
	  "              not-listed\n"
	  "  --timeout   seconds to wait for missing members (default 10, --boot and\n"
	  "              --boot-late: TIMEOUT, 30).  A NAME that no label on any\n"
	  "              device carries is not waited for while udev brings up no\n"
	  "              device (its queue is empty): it fails at once (exit 4); a\n"
	  "              member that comes later is assembled by udev's rule\n"
	  "              (--incremental) anyway.  --boot waits the whole timeout.\n"
	  "\n"
	  "Arrays already active are left alone.\n"
	  "Exit: 0 all active, 1 failed, 2 usage, 3 refused, 4 nothing found.\n" },
	{ "stop",
	  "usage: $PROG stop NAME...\n"
	  "       $PROG stop --scan\n"
	  "\n"
	  "Deactivate arrays (dmsetup remove).  The labels stay; assemble brings the\n"
	  "array back.  Refused while the array is mounted or open, or while a replace\n"
	  "of one of its members runs.\n"
	  "\n"
	  "  --scan, -s  every active array, as 'mdadm --stop --scan': those in use\n"
	  "              are left, each named with why, and exit 1\n"
	  "\n"
	  "Exit: 0 stopped, 1 failed or in use (an array left), 2 usage, 4 no such\n"
	  "array.\n" },
	{ "wipe",
	  "usage: $PROG wipe [--force] DEV...\n"
	  "\n"
	  "Erase the ssdstripe label of each device, as mdadm --zero-superblock does\n"
	  "for md: zero the 4 KiB label block (bytes 4096-8191), read it back from the\n"
	  "device to check it is gone, and touch nothing else.  Other signatures on\n"
	  "the device (a file system, swap, a partition table) are left alone.\n"
	  "Damaged labels and labels of another version are erased too.\n"
	  "\n"
	  "Every device is checked before any is written, and held open with\n"
	  "O_EXCL from its check to its write:\n"
	  "  - a member of an active array is refused, naming the array (stop it\n"
	  "    first); so is a device that is mounted, used as swap or held, or\n"
	  "    that another program holds open exclusively;\n"
	  "  - a device without an ssdstripe label is refused (exit 4); with --force\n"
	  "    it is left alone with a message (exit 0).\n"
	  "\n"
	  "Exit: 0 wiped, 1 failed (write or verify), 2 usage, 3 refused (in use),\n"
	  "4 no label.\n" },
	{ "sanitize",
	  "usage: $PROG sanitize [--yes] [--force] [--method format|sanitize|ata] NAME\n"
	  "\n"
	  "Erase every member of the stopped array NAME with its drive's own erase\n"
	  "command: the array's data, its labels and everything else on those drives\n"
	  "are gone for good.  For drives that leave (decommissioning, return, sale).\n"
	  "The members are found by their labels, as assemble finds them.  Each\n"
	  "drive's method is chosen from what the drive says it supports, crypto\n"
	  "erase first:\n"
	  "  NVMe  Sanitize crypto erase, Format NVM crypto erase, Sanitize block\n"
	  "        erase, Format NVM user data erase (the NVMe admin commands,\n"
	  "        through the kernel's ioctl)\n"
	  "  SATA  ATA enhanced security erase, else security erase (hdparm)\n"
	  "  --method format|sanitize|ata   only that command (its best action)\n"
	  "\n"
	  "Nothing is erased unless every member can be; refused (exit 3), each\n"
	  "member named with what its drive supports:\n"
	  "  - the array is active (stop it first); a member is mounted, swap, held,\n"
	  "    or open by a process (a virtual machine's disk, a copy running);\n"
	  "  - a member is missing: --force erases the members present (the missing\n"
	  "    one keeps its data and its label);\n"
	  "  - a member is a partition, a dm, loop or md device, or a drive with no\n"
	  "    erase command (or not the one --method asks for);\n"
	  "  - a SATA drive whose security is frozen (suspend and resume the machine,\n"
	  "    or unplug and replug the drive), locked or enabled (a password set);\n"
	  "  - an NVMe drive whose erase would reach other namespaces (Sanitize acts\n"
	  "    on the whole drive; Format NVM too where the drive says so);\n"
	  "  - a member that carries another signature now (re-used).\n"
	  "Before erasing, a line per member: device, model, serial, method.  Without\n"
	  "--yes the array's name must be typed on the terminal (/dev/tty, else a\n"
	  "standard input that is one); no terminal, or another answer, refuses.\n"
	  "After: each drive's label block is read back (it must be gone) and its\n"
	  "first and last MiB are reported (zeros, or not: a crypto erase leaves\n"
	  "unreadable data); the history keeps a line per member.\n"
	  "Exit: 0 erased, 1 an erase or its check failed, 2 usage, 3 refused\n"
	  "(nothing erased), 4 no array of that name.\n" },
	{ "list",
	  "usage: $PROG list\n"
	  "\n"
	  "One line per array: active arrays, and arrays whose labels are on this\n"
	  "system's devices but that are not active.  Reads labels, writes nothing.\n"
	  "Columns: NAME STATE MEMBERS SIZE CHUNK UUID\n"
	  "MEMBERS of an inactive array: the members found (each counted once) of\n"
	  "those it has; a member claimed by two devices (a cloned disk, an older\n"
	  "label a replace left) gets a line on stderr saying what assemble does\n"
	  "with it.\n"
	  "STATE is the array state when active; inactive; or shadowed when a member's\n"
	  "label is shadowed by another signature (a file system, swap, a partition\n"
	  "table: the device was re-used), which assemble refuses; a line on stderr\n"
	  "names the device.  A line on stderr names each member that is missing\n"
	  "(of an inactive array) or gone (from an active one) by the drive its\n"
	  "labels record, and says what to do, or where that drive is now.\n" },
	{ "table",
	  "usage: $PROG table NAME\n"
	  "\n"
	  "Print the device-mapper table of array NAME: the live one if it is active,\n"
	  "else the one assemble would load, computed from the labels (read only).\n"
	  "A member that is missing is named by the drive its labels record, as\n"
	  "assemble names it.\n"
	  "Exit: 0, 3 incomplete or inconsistent set, 4 not found.\n" },
	{ "examine",
	  "usage: $PROG examine DEV...\n"
	  "\n"
	  "Print the label of each device (read only), its creation time also in\n"
	  "ISO 8601 UTC, and whether the label is shadowed: the device carries another\n"
	  "signature now (a file system, swap, a partition table), and assemble\n"
	  "refuses it.  Then, for a label of version 2, a line per member: the drive\n"
	  "the label records for it (model and serial) and where that drive is now:\n"
	  "this device, another device (with what its label says), or not found.\n"
	  "Exit: 0, 3 damaged label, 4 no label.\n" },
	{ "status",
	  "usage: $PROG status [NAME...] [--json]\n"
	  "\n"
	  "Health and statistics of active arrays and of each member: device, model and\n"
	  "serial where the system has them (for a member whose device is gone: the\n"
	  "drive its labels record, and a line under the table says what to do, or\n"
	  "where the drive is now), state (ok, slow, erroring, stalled, failed), I/O,\n"
	  "errors, latency, discard totals, the NVMe temperature where hwmon has it and\n"
	  "what the drive says of its own health (DRIVE: ok, warning, critical or\n"
	  "unknown, from the NVMe health log or smartctl, kept SMART_CACHE s, default\n"
	  "60; a line says why for each drive that is not ok), and how an NVMe member\n"
	  "is reached:\n"
	  "its transport (pcie, or tcp, rdma, fc for a namespace another host\n"
	  "exports), address and subsystem NQN (a line says when a fabric member's\n"
	  "controller is not live: its storage host or the link is down).  The array\n"
	  "state is its worst member's: optimal, slow, erroring, stalled or failed;\n"
	  "the array's line\n"
	  "adds a drive that is critical or warns (\"array fast: optimal, drive\n"
	  "critical on member 1 (nvme1n1, serial S): replace it, ...\").\n"
	  "With no array active and none named it says \"no active arrays\" (--json:\n"
	  "an empty list) and exits 0: nothing is unhealthy.  Name the arrays you\n"
	  "expect to exist: a name that is not active exits 4.\n"
	  "'$PROG detail NAME' adds the creation time and the health thresholds.\n"
	  "Exit: 0 all optimal, 4 no such array, 5 one is slow or a drive warns,\n"
	  "6 one is erroring or stalled or a drive is critical, 7 one has failed (the worst\n"
	  "decides).\n" },
	{ "detail",
	  "usage: $PROG detail NAME [--json]\n"
	  "       $PROG detail --scan\n"
	  "\n"
	  "One active array's whole picture, as 'mdadm --detail': name, uuid, creation\n"
	  "time (ISO 8601 UTC, from the members' labels; - for a raw dmsetup array),\n"
	  "array state, members, chunk and size; discard passdown, per-member\n"
	  "statistics and every health threshold (the live table's value, or the\n"
	  "target's default; a changed one says its default); then per member its\n"
	  "index, device, model, serial, size, state, errors, retries, recent mean\n"
	  "latency, what its drive says of its health (SMART: ok, warning,\n"
	  "critical or unknown; every figure in --json, with the drive its labels\n"
	  "record: recorded_id, recorded_serial, recorded_model) and how it is\n"
	  "reached (NVMe: transport pcie, tcp, rdma or fc, address, subsystem NQN;\n"
	  "--json adds its controller and the controller's state), a line for each\n"
	  "member whose device is gone (the drive its labels record: reseat it, or\n"
	  "replace it; or where it is now), for each fabric member whose controller\n"
	  "is not live or whose I/O would wait for ctrl_loss_tmo (fast_io_fail_tmo\n"
	  "off), and for each drive that is not ok.\n"
	  "--json prints the same as one object.  Reads only.\n"
	  "--scan prints an ARRAY line for every active array, for the configuration\n"
	  "file, as 'mdadm --detail --scan' does ($PROG config --scan is the same).\n"
	  "Exit: 0 (whatever the state: status exits by state), 2 usage, 4 no such\n"
	  "array.\n" },
	{ "iostat",
	  "usage: $PROG iostat [-w] [--json] [NAME...] [INTERVAL [COUNT]]\n"
	  "\n"
	  "A report per INTERVAL seconds (COUNT of them; without COUNT until\n"
	  "interrupted; without INTERVAL one report of the next second) for each\n"
	  "array named (all active arrays when none is), a row per member and one\n"
	  "for all of them:\n"
	  "  r/s w/s        reads and writes sent to the member per second\n"
	  "  rMB/s wMB/s    megabytes (10^6 bytes) read and written per second\n"
	  "  mean p50 p99   completion latency in microseconds of the reads and\n"
	  "                 writes completed in the interval, estimated from the\n"
	  "                 member's latency histogram (power-of-two buckets; within\n"
	  "                 a bucket linearly, as Prometheus's histogram_quantile;\n"
	  "                 >1048576 when it fell in the last, unbounded one)\n"
	  "  qd             requests in flight at the end of the interval (inflight)\n"
	  "  err retry      errors and retried completions in the interval\n"
	  "  state          the member's state, the array's on its own line\n"
	  "A member far slower than its peers stands out in p50 and p99 first: that\n"
	  "is what the health rule 'slow' judges (ssdstripe status).  The 'all' row\n"
	  "adds the members' requests (an array request split over members counts\n"
	  "once per member) and merges their histograms.\n"
	  "-w prints each member's histogram for the interval instead: completions\n"
	  "per latency bucket, as 'zpool iostat -w'.\n"
	  "--json prints one object per interval, on one line.\n"
	  "Each report reads each member file once and runs no other program: 5\n"
	  "reports at 1 s took 0.16 s of CPU in the test rig's emulated guest.\n"
	  "Reads only.\n"
	  "Exit: 0, 2 usage, 4 no such array.\n" },
	{ "clear",
	  "usage: $PROG clear NAME...\n"
	  "\n"
	  "Forget the I/O errors of every member of array NAME, like 'zpool clear':\n"
	  "the kernel zeroes the error counters, and members that are erroring or\n"
	  "failed (but whose disk is still there) lose their errors.  Each is then\n"
	  "what its speed says: ok, or slow when its last speed verdict was slow -\n"
	  "slowness is no error, and a member that failed was often slow too (its\n"
	  "failing I/O took long).  An idle member keeps that verdict: it is ok again\n"
	  "once its I/O is judged fast (a few hundred reads or writes).  clear says\n"
	  "the array's state after it, and each member that is not ok with why.\n"
	  "Errors are kept until then on purpose: clear them once you have\n"
	  "understood them (backup, SMART).\n"
	  "Exit: 0 cleared (whatever the state after), 1 failed, 2 usage, 4 no such\n"
	  "array.\n" },
	{ "replace",
	  "usage: $PROG replace [--background] [--force] [--ignore-read-errors] NAME OLD NEW\n"
	  "       $PROG replace --finish [--ignore-read-errors] NAME\n"
	  "       $PROG replace --abort NAME\n"
	  "\n"
	  "Move member OLD of active array NAME onto the drive NEW while the array is\n"
	  "in use: the kernel's mirror target copies OLD onto NEW, every write the\n"
	  "array makes meanwhile goes to both, and when NEW holds everything the\n"
	  "array is switched onto it in one table reload.  NEW then carries the\n"
	  "member's label, the other members' labels record NEW's drive, and OLD's\n"
	  "label says it was replaced (reuse it after '$PROG wipe OLD').  The other\n"
	  "members keep their counters and health; NEW's start afresh.  Without\n"
	  "--background a progress line shows percent, rate and time left, and the\n"
	  "command returns when the array runs on NEW; status and detail show the\n"
	  "copy meanwhile.  Ctrl-C stops the replace: the array stays on OLD.  A HUP\n"
	  "(the terminal gone) does not: the copy goes on, its output to the log\n"
	  "below.  A copy that no process waits for (its process killed) is taken\n"
	  "over by the monitor service.\n"
	  "\n"
	  "A drive error during the copy puts the array back on OLD, which holds\n"
	  "every acknowledged write (the mirror holds back a write a drive failed\n"
	  "until then): NEW failing stops the replace; OLD failing a write stops it\n"
	  "too (that write fails on OLD, as it would have without the replace); OLD\n"
	  "failing reads stops it and names the ranges it cannot give, or with\n"
	  "--ignore-read-errors copies around them.\n"
	  "\n"
	  "NEW is checked as create checks a device: large enough, not in use nor\n"
	  "held open by another program, not a member of an array nor built on one,\n"
	  "on another drive than every other member, a physical block the chunk is\n"
	  "a multiple of, and carrying nothing (a file system, a partition table, a\n"
	  "label) unless --force.  NEW must have a serial number, a WWN or a\n"
	  "device-mapper uuid (no override): after a power cut assemble tells it\n"
	  "from OLD by the drive the labels record.  A power cut at any moment\n"
	  "leaves the array to come up at the next boot on OLD or on NEW, whichever\n"
	  "holds every acknowledged write, and a boot without NEW after the switch\n"
	  "has begun leaves it down rather than take OLD; a copy cut short starts\n"
	  "over ('replace NAME OLD NEW' again: the kernel keeps the copy's progress\n"
	  "in memory only).  While the array is suspended the command runs no other\n"
	  "program and touches no file system, so / may be on the array; the switch\n"
	  "is bounded (SSDSTRIPE_SWITCH_TIMEOUT, 60 s), past which it goes back to\n"
	  "OLD.\n"
	  "\n"
	  "  --background         start the copy and return; a process of its own\n"
	  "                       waits for it and switches (its log:\n"
	  "                       $REPLACE_RUN/NAME.log)\n"
	  "  --finish             wait for the copy of NAME's replace and switch\n"
	  "                       (after an interrupted command, or --background);\n"
	  "                       after a power cut in the switch, writes the label\n"
	  "                       of a NEW that assemble took\n"
	  "  --abort              stop the copy and put the array back on OLD,\n"
	  "                       nothing lost; NEW's label is erased\n"
	  "  --ignore-read-errors OLD cannot be read everywhere: copy the rest (the\n"
	  "                       ranges it cannot give stay on OLD alone during the\n"
	  "                       copy and are copied block by block at the switch),\n"
	  "                       switch anyway, zero on NEW what OLD still cannot\n"
	  "                       give, and list it (member and array sectors, and\n"
	  "                       the files in them where debugfs can tell).  Without\n"
	  "                       it such a replace stops, names the ranges and\n"
	  "                       leaves the array on OLD.\n"
	  "  --force              take a NEW that carries something, that is on the\n"
	  "                       drive of another member, or whose physical block\n"
	  "                       the chunk is not a multiple of\n"
	  "\n"
	  "Exit: 0 done (or started, with --background), 1 failed (the array is on\n"
	  "OLD, or on NEW if it said so), 2 usage, 3 refused, 4 no such array or\n"
	  "device.\n" },
	{ "scrub",
	  "usage: $PROG scrub [--rate MB] [--background] NAME...\n"
	  "       $PROG scrub [--rate MB] --all\n"
	  "       $PROG scrub --stop NAME\n"
	  "\n"
	  "Reads every member's data region of each array named (--all: every active\n"
	  "array, one after the other), with direct reads of 1 MiB, at up to MB\n"
	  "megabytes per second in all (--rate, default $SCRUB_RATE): what md's\n"
	  "'check' and ZFS's scrub do.  A RAID-0 has no copy to repair from: a\n"
	  "scrub finds sectors a drive can no longer read before a file system or a\n"
	  "replace does, while the rest can still be saved.  Each unreadable range\n"
	  "is said with its member's data sectors and the array sectors it holds\n"
	  "(and, for ext4, the files, where debugfs can tell), kept in\n"
	  "$SCRUB_RUN/NAME.bad and in the history.  status and detail show a\n"
	  "running scrub's progress and time left, and the last one's result (since\n"
	  "boot; the history keeps them all).  Ctrl-C, or --stop, stops it.\n"
	  "--background leaves the scan to a process of its own.  Reads only: it\n"
	  "writes to no member.  ssdstripe-scrub.timer (off until enabled) runs\n"
	  "'scrub --all' monthly.\n"
	  "Exit: 0 every member read (or started, with --background; or stopped), 1\n"
	  "unreadable sectors found or the scan failed, 2 usage, 3 refused (a scrub\n"
	  "or a replace of the array runs), 4 no such array.\n" },
	{ "monitor",
	  "usage: $PROG monitor [--exec CMD] [--exec-timeout SECS] [--textfile PATH]\n"
	  "                         [--interval SECS] [--config] [--once]\n"
	  "\n"
	  "Watch every active array.  On each member state change (and at start for\n"
	  "members that are not ok), when an array appears or goes, and when a\n"
	  "member's drive changes what it says of its health, print a line and run\n"
	  "CMD with sh -c, with\n"
	  "  SSDSTRIPE_EVENT (member-state, array-added, array-removed; drive-health:\n"
	  "    the drive's word ok, warning or critical changed; media-errors: its\n"
	  "    media error count grew; drive-throttled: its thermal throttling\n"
	  "    counters moved while the member stays slow),\n"
	  "  SSDSTRIPE_ARRAY, SSDSTRIPE_UUID, SSDSTRIPE_MEMBER, SSDSTRIPE_DEVICE,\n"
	  "  SSDSTRIPE_SERIAL, SSDSTRIPE_OLD_STATE, SSDSTRIPE_STATE, SSDSTRIPE_ARRAY_STATE,\n"
	  "  SSDSTRIPE_DETAIL (why, in words: \"reliability degraded\"; \"slow:\n"
	  "    thermally throttled for 45 s\" when a member turns slow while its\n"
	  "    drive throttles)\n"
	  "in its environment.  Hooks run in the background, each in a session of its\n"
	  "own, and never hold up the monitor: one still running after --exec-timeout\n"
	  "SECS (default $MON_EXEC_TIMEOUT) is killed with TERM, and with KILL $HOOK_KILL_GRACE s later.\n"
	  "TERM, INT or HUP stop the monitor: it kills the hooks still running and\n"
	  "exits 0 (130 on INT, 129 on HUP).\n"
	  "\n"
	  "--textfile writes Prometheus metrics for node_exporter's textfile collector\n"
	  "(atomically, at every poll).  Arrays are polled every --interval SECS\n"
	  "(default $MON_INTERVAL) and at once on a dm event (every member state change\n"
	  "raises one).  --config takes what the command line does not give from\n"
	  "$CONF: MONITOR_EXEC, MONITOR_EXEC_TIMEOUT, MONITOR_TEXTFILE,\n"
	  "MONITOR_INTERVAL (ssdstripe-monitor.service runs monitor --config).\n"
	  "--once polls once, waits for its hooks and exits with the status exit code.\n"
	  "Exit: 2 bad usage, a textfile that cannot be written included;\n"
	  "--once: 0 optimal, 5 slow or a drive warns, 6 erroring, stalled or a drive is\n"
	  "critical, 7 failed.\n" },
	{ "config",
	  "usage: $PROG config [--check] [FILE]\n"
	  "       $PROG config --scan\n"
	  "\n"
	  "--check (the default) reads the configuration file (FILE, else\n"
	  "$CONF or $$SSDSTRIPE_CONF) and says each problem with its line: an\n"
	  "unknown keyword (with the one meant, when one is close), a value that is\n"
	  "not what its keyword takes, a second line for a keyword that counts once,\n"
	  "a second word on an ARRAY line; and what is done instead.  The boot\n"
	  "paths, monitor and every command that reads the file say the same on\n"
	  "stderr, and go on with what is done instead, except monitor --config,\n"
	  "which does not start.  Reads only.\n"
	  "--scan prints an ARRAY line for every active array (its uuid, its name\n"
	  "after a #), as 'mdadm --detail --scan' does; detail --scan is the same:\n"
	  "  $PROG config --scan >>$CONF\n"
	  "Exit: 0 no problem (or no file: the defaults apply), 1 problems, 2 usage,\n"
	  "4 FILE does not exist.\n" },
	{ "history",
	  "usage: $PROG history [NAME...] [--json]\n"
	  "\n"
	  "What was done to the arrays and what the monitor saw, oldest first, as\n"
	  "'zpool history' and 'zpool events' show it: create, assemble (by hand, by\n"
	  "udev, at boot: the initramfs's lines wait in /run until the real root\n"
	  "can keep them), stop, wipe, clear, replace (started, finished, stopped),\n"
	  "and every event of the monitor (a member's state change, an array that\n"
	  "appeared or went).  Each line: the time (UTC), the event, the array (and\n"
	  "the first 8 digits of its uuid), the member and its drive's serial where\n"
	  "one is concerned, and what happened (for a command, the command line).\n"
	  "With NAMEs, only the lines of those arrays (by name or uuid): an array\n"
	  "renamed, or stopped and assembled under another name, keeps its uuid.\n"
	  "Kept in $HIST_DIR/history.log ($$SSDSTRIPE_HISTORY_DIR), rotated at\n"
	  "$HIST_MAX bytes, $HIST_KEEP older files kept (history.log.1 ...).\n"
	  "--json prints one object per line.  Reads only.\n"
	  "Exit: 0 (no history yet too), 2 usage.\n" },
};
#define NHELPS (sizeof(helps) / sizeof(helps[0]))

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* help_var: the value of $NAME (LEN bytes) in the texts, into BUF; NULL
 * when there is none */
static const char *help_var(const char *name, size_t len, char *buf, size_t blen)
{
#define IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
	if (IS("PROG"))
		return PROG;
	if (IS("CONF"))
		return conf_path();
	if (IS("DEFAULT_CHUNK"))
		return DEFAULT_CHUNK;
	if (IS("HIST_DIR"))
		return env_or("SSDSTRIPE_HISTORY_DIR", "/var/log/ssdstripe");
	if (IS("HIST_MAX"))
		return env_or("SSDSTRIPE_HISTORY_MAX", "1048576");
	if (IS("HIST_KEEP")) {
		snprintf(buf, blen, "%d", HIST_KEEP);
		return buf;
	}
	if (IS("MON_INTERVAL"))
		return MON_INTERVAL;
	if (IS("MON_EXEC_TIMEOUT"))
		return MON_EXEC_TIMEOUT;
	if (IS("HOOK_KILL_GRACE"))
		return HOOK_KILL_GRACE;
	if (IS("REPLACE_RUN"))
		return "/run/ssdstripe/replace";
	if (IS("SCRUB_RATE"))
		return SCRUB_RATE;
	if (IS("SCRUB_RUN")) {
		snprintf(buf, blen, "%s/scrub", env_or("SSDSTRIPE_RUNDIR", "/run/ssdstripe"));
		return buf;
	}
	return NULL;
#undef IS
}

static bool name_char(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

bool help_expand(FILE *f, const char *t)
{
	char buf[4096];
	bool ok = true;

	while (*t) {
		const char *name, *end, *v;
		bool brace;

		if (*t != '$') {
			end = strchrnul(t, '$');
			fwrite(t, 1, (size_t)(end - t), f);
			t = end;
			continue;
		}
		if (t[1] == '$') {
			fputc('$', f);
			t += 2;
			continue;
		}
		brace = t[1] == '{';
		name = end = t + 1 + brace;
		while (name_char(*end, end == name))
			end++;
		v = end > name && (!brace || *end == '}') ?
			help_var(name, (size_t)(end - name), buf, sizeof(buf)) : NULL;
		if (!v) {
			/* a $ before no name is a $; a name without a value is
			 * printed as written (the tests find it) */
			fputc('$', f);
			t++;
			if (end > name)
				ok = false;
			continue;
		}
		fputs(v, f);
		t = end + brace;
	}
	return ok;
}

static const struct help *help_of_cmd(const char *cmd)
{
	size_t i;

	for (i = 0; i < NHELPS; i++)
		if (!strcmp(helps[i].cmd, cmd))
			return &helps[i];
	return NULL;
}

bool help_is_command(const char *word)
{
	return help_of_cmd(word) != NULL;
}

const char *help_command_at(size_t i)
{
	return i < NHELPS ? helps[i].cmd : NULL;
}

const char *help_template(const char *cmd)
{
	const struct help *h = help_of_cmd(cmd);

	return h ? h->text : NULL;
}

bool help_print(FILE *f, const char *cmd)
{
	const struct help *h = help_of_cmd(cmd);

	if (!h)
		return false;
	help_expand(f, h->text);
	return true;
}

/* the expanded text of CMD (malloc'd) */
static char *help_text(const char *cmd)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (!f)
		die(EX_FAILED, "out of memory");
	help_print(f, cmd);
	fclose(f);
	return s;
}

/* append: S and WORD, SEP between them when S is not empty (malloc'd) */
static char *append(char *s, const char *sep, const char *word, size_t wlen)
{
	char *r = xasprintf("%s%s%.*s", s ? s : "", s && *s ? sep : "", (int)wlen, word);

	free(s);
	return r;
}

/*
 * usage_lines: the usage lines of CMD's text, each on one line ("ssdstripe
 * create [--name NAME] ..."), a line indented under one that goes on with
 * [ or -- joined to it; handed to EACH
 */
static void usage_lines(const char *cmd, void (*each)(const char *line, FILE *f), FILE *f)
{
	char *text = help_text(cmd), *p = text, *nl, *u = NULL;
	char *pfx = xasprintf("%s %s", PROG, cmd);
	size_t pl = strlen(pfx);

	for (; *p; p = nl + 1) {
		const char *l = p;
		size_t ind;
		bool last;

		nl = strchrnul(p, '\n');
		last = !*nl;
		*nl = 0;
		if (!strncmp(l, "usage:", 6))
			l += 6;
		l += strspn(l, " ");
		if (!strcmp(l, pfx) || (!strncmp(l, pfx, pl) && l[pl] == ' ')) {
			if (u)
				each(u, f);
			free(u);
			u = xstrdup(l);
		} else if (u && (ind = strspn(p, " ")) > 0 &&
			   (p[ind] == '[' || !strncmp(p + ind, "--", 2))) {
			u = append(u, " ", l, strlen(l));
		} else {
			break;
		}
		if (last)
			break;
	}
	if (u)
		each(u, f);
	free(u);
	free(pfx);
	free(text);
}

/* count of C in the LEN bytes of S */
static int count(const char *s, size_t len, char c)
{
	int n = 0;

	while (len--)
		n += *s++ == c;
	return n;
}

/*
 * main_line: a usage line as the main help shows it: without the
 * program's name, cut into groups (a word, or a bracket and what it
 * holds; an operand stays with the group before it), wrapped at 78
 * columns between groups, a line going on under the command's word
 */
static void main_line(const char *line, FILE *f)
{
	const char *p = strchr(line, ' '), *w;
	char **t = NULL, *g = NULL, *out;
	size_t m = 0, i, wl;
	int d = 0;

	p = p ? p + 1 : "";
	for (;;) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		w = p;
		wl = strcspn(w, " \t");
		p = w + wl;
		g = append(g, " ", w, wl);
		d += count(w, wl, '[') - count(w, wl, ']');
		if (d > 0)
			continue;
		if (m >= 2 && g[0] != '[' && g[0] != '-') {
			t[m - 1] = append(t[m - 1], " ", g, strlen(g));
			free(g);
		} else {
			t = realloc(t, (m + 1) * sizeof(*t));
			if (!t)
				die(EX_FAILED, "out of memory");
			t[m++] = g;
		}
		g = NULL;
		d = 0;
	}
	if (g) {
		t = realloc(t, (m + 1) * sizeof(*t));
		if (!t)
			die(EX_FAILED, "out of memory");
		t[m++] = g;
	}
	out = xasprintf("  %s", m ? t[0] : "");
	for (i = 1; i < m; i++) {
		if (strlen(out) + 1 + strlen(t[i]) > 78) {
			fprintf(f, "%s\n", out);
			free(out);
			out = xasprintf("  %*s %s", (int)strlen(t[0]), "", t[i]);
		} else {
			out = append(out, " ", t[i], strlen(t[i]));
		}
	}
	fprintf(f, "%s\n", out);
	free(out);
	for (i = 0; i < m; i++)
		free(t[i]);
	free(t);
}

void help_main(FILE *f)
{
	size_t i;

	fprintf(f, "usage: %s COMMAND [ARGS]\n\nCommands:\n", PROG);
	for (i = 0; i < NHELPS; i++)
		usage_lines(helps[i].cmd, main_line, f);
	help_expand(f,
		    "  help [COMMAND], --version\n"
		    "\n"
		    "'$PROG COMMAND --help' describes each command.  Options may come anywhere\n"
		    "on a command's line; -- ends them (what follows is names or devices).\n"
		    "Exit codes: 0 ok, 1 failed, 2 usage, 3 refused, 4 not found;\n"
		    "status and monitor --once: 5 slow, 6 erroring or stalled, 7 failed array.\n");
}

int help_cmd(int argc, char **argv)
{
	const char *w = argc > 0 ? argv[0] : "";
	char *list = NULL;
	size_t i;

	if (!*w || !strcmp(w, "help") || !strcmp(w, "-h") || !strcmp(w, "--help")) {
		help_main(stdout);
		return EX_OK;
	}
	if (help_print(stdout, w))
		return EX_OK;
	for (i = 0; i < NHELPS; i++)
		list = append(list, " ", helps[i].cmd, strlen(helps[i].cmd));
	warn("'%s' is no command; the commands are: %s ('%s help' shows their usage)", w, list, PROG);
	free(list);
	return EX_USAGE;
}
