# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe create: make a new array, or write lost labels back
# (--assume-clean).

DEFAULT_CHUNK_KIB=64

# ---- create ------------------------------------------------------------
help_create() {
	cat <<EOF
usage: $PROG create [--name NAME] [--chunk SIZE] [--overprovision PCT] [--trim]
                 [--force] DEV...
       $PROG create --assume-clean --name NAME [--chunk SIZE]
                 [--overprovision PCT] [--force] DEV...

Make a new array of the given devices, in the given order: write a label to
each member and activate /dev/mapper/NAME.  The data starts 1 MiB into each
member; every member contributes as much as the smallest one, in whole
chunks, and create prints what each member gives.  Options may come
anywhere on the line; -- ends them.

  --name NAME    array name, also its /dev/mapper name (default: ss0, ss1, ...)
  --chunk SIZE   chunk size: 64K, 1M, 1G, 128s (sectors); a plain number is
                 KiB (default ${DEFAULT_CHUNK_KIB}K); at least 4 KiB, at most
                 what the smallest member holds; a power of two and a
                 multiple of 4 KiB and of every member's physical block
                 size unless --force (see the refusals)
  --overprovision PCT
                 leave PCT % (1 to 50) of every member's space past the
                 label area unused, at its end, as spare area for the
                 drive: discarded once here, so the drive knows it is
                 free, and recorded in the labels (assemble keeps the
                 geometry; replace discards the same area on the new
                 member).  A drive that cannot discard gets the space only
                 if it was never written (secure-erase it first: sanitize)
  --trim         discard every member completely first, showing progress
  --force        use devices that carry a label, a file system, swap, a
                 partition table or partitions (all lost: labels left inside
                 the partitions are wiped, the kernel drops the partitions),
                 and accept a wasteful geometry or chunk, one member
                 or two members on one drive (all below);
                 mounted, open or held devices are always refused
  --assume-clean the devices already are array NAME, in this order, and
                 some lost their label: write back the missing labels (same
                 array and member uuids), rewrite the others with the next
                 generation and every member's drive, write nothing but
                 these label blocks, and activate.
                 Refused unless the devices that kept a label say they are
                 these members of NAME, with this many members, the chunk
                 given (if any), every device large enough for a member's
                 data where the labels put it (after a replace the
                 smallest may differ from create's), no
                 other device carries the array's label, no device given
                 carries anything else now, and each device given for a
                 lost member is the drive the labels record for it (its
                 WWN/id, else serial and model, and its size): a blank disk
                 is not the lost member.  --force writes where the labels
                 record another drive, no drive that can be told (a dm or
                 loop device without an id) or no drive at all (labels of
                 version 1), and says what was recorded and what it found.
                 With no label left at all it needs --force and --chunk and
                 writes new labels (new uuids; get the order right); an
                 array made with --overprovision needs it again then.  With
                 labels left, --overprovision, if given, must be theirs

Refused without --force (exit 3), every such device named on a line:
  - a device carrying data (see --force);
  - a member leaving unused more than one chunk, or more than 5 % of the
    smallest member (mixed sizes, a chunk too big for the members);
  - two members on one physical drive (the same serial or WWN);
  - a chunk that is not a multiple of 4 KiB or of a member's physical
    block size (the drive reads and rewrites a page at every chunk
    boundary), or not a power of two (on Debian's 6.12 kernel XFS over a
    3 x 12 KiB stripe crashed with slab corruption under xfstests
    generic/251, on the kernel's striped target too);
  - one member (an array of one device stripes nothing).
Every label records every member's drive (WWN or serial, model, size)
and a generation; an array whose labels would not fit the 4 KiB label
block (many members with long identities) is refused.

Exit: 0 created, 1 failed, 2 usage, 3 refused (device in use or holds data,
wasteful geometry or chunk, one member, one drive twice), 4 a device not
found.
EOF
}
