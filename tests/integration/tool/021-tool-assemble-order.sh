#!/bin/sh
# DESCRIPTION: members are found by label in any order, and assembling writes nothing
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# Members are found by label in any order: an array created on the disks in
# a shuffled order assembles in that order from a differently shuffled
# device list, by name and by --scan, and data verifies each time.
# Assembling never writes to a member.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
wipe_labels "$d0" "$d1" "$d2" "$d3"
must ssdstripe create --name ord --chunk 32K "$d2" "$d0" "$d3" "$d1"
order="$(mm "$d2") $(mm "$d0") $(mm "$d3") $(mm "$d1") "
[ "$(array_members ord)" = "$order" ] || fail "created order $(array_members ord), wanted $order"
pat=$(pattern_file 8)
must dd if="$pat" of=/dev/mapper/ord bs=1M seek=1 conv=fsync
sum=$(md5sum <"$pat")
must ssdstripe stop ord

check() { # how
	[ "$(array_members ord)" = "$order" ] || fail "$1: member order $(array_members ord), wanted $order"
	[ "$(dd if=/dev/mapper/ord bs=1M skip=1 count=8 2>/dev/null | md5sum)" = "$sum" ] ||
		fail "$1: data differs"
	must ssdstripe stop ord
}
w0=$(writes_done "$d0" "$d1" "$d2" "$d3")
must ssdstripe assemble "$d1" "$d3" "$d0" "$d2"
check "assemble by devices"
must ssdstripe assemble ord
check "assemble by name"
must ssdstripe assemble --scan
check "assemble --scan"
w1=$(writes_done "$d0" "$d1" "$d2" "$d3")
[ "$w1" = "$w0" ] || fail "members saw $((w1 - w0)) writes during assembly (reads of the data only expected)"

# assembling an active array again changes nothing
must ssdstripe assemble "$d1" "$d3" "$d0" "$d2"
must ssdstripe assemble ord
out=$(ssdstripe assemble ord) || fail "second assemble failed"
echo "$out" | grep -q "already active" || fail "second assemble said: $out"
[ "$(dmsetup ls --target ssdstripe | grep -c .)" = 1 ] || fail "more than one array: $(dmsetup ls)"
must ssdstripe stop ord
pass
