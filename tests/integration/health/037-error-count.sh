#!/bin/sh
# One error count per member: sysfs errors, the count dmsetup status
# prints and the tool's ERRORS are the same number, with accounting on
# and with no_stats; reset_stats leaves it alone (errors are evidence,
# only clear_errors forgets them) and clear_errors zeroes all three.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=16384				# 8 MiB per member
d0=$(disk 0)
must dmsetup create ec_m1 --table "0 $S error"
dmsetup mknodes ec_m1

# counts ARRAY: "sysfs status tool" errors of member 1
counts() {
	_top=/sys/block/$(dm_sysname "$1")/ssdstripe
	_st=$(dmsetup status "$1" | awk '{print $(9 + $4 + 5 * 1 + 3)}')
	_tool=$(ssdstripe status --json "$1" |
		jq -r '.arrays[0].members[1].errors' 2>/dev/null)
	echo "$(cat "$_top/members/1/errors") $_st $_tool"
}
# expect ARRAY N WHAT: member 1's errors are N in all three places
expect() {
	_c=$(counts "$1")
	[ "$_c" = "$2 $2 $2" ] || fail "$3: member 1 errors (sysfs, dmsetup status, tool) are $_c, want $2 in each"
	log "$3: member 1 errors $_c"
}

for feat in "" "1 no_stats"; do
	what=${feat:-accounting on}
	mk_array ec "0 $((2 * S)) ssdstripe 2 128 $d0 0 /dev/mapper/ec_m1 0${feat:+ $feat}"
	top=/sys/block/$(dm_sysname ec)/ssdstripe
	# chunk 1, 3 and 5 are member 1's: 3 writes and 2 reads that fail
	for c in 1 3 5; do
		dd if=/dev/zero of=/dev/mapper/ec bs=64k seek=$c count=1 oflag=direct 2>/dev/null &&
			fail "$what: a write to member 1 succeeded"
	done
	for c in 1 3; do
		dd if=/dev/mapper/ec of=/dev/null bs=64k skip=$c count=1 iflag=direct 2>/dev/null &&
			fail "$what: a read of member 1 succeeded"
	done
	# O_DIRECT, one 64 KiB bio each: the count is exact
	expect ec 5 "$what"
	[ "$(cat "$top/members/1/write_errors") $(cat "$top/members/1/read_errors")" = "3 2" ] ||
		fail "$what: write/read errors $(cat "$top/members/1/write_errors") $(cat "$top/members/1/read_errors"), want 3 2"
	[ "$(cat "$top/members/0/errors")" = 0 ] || fail "$what: member 0 counted errors"
	wait_state "$top" 1 "erroring|failed" 10
	must dmsetup message ec 0 reset_stats
	expect ec 5 "$what, after reset_stats"
	must dmsetup message ec 0 clear_errors
	expect ec 0 "$what, after clear_errors"
	rm_array ec
done
must dmsetup remove ec_m1
pass
