#!/bin/sh
# blktrace sees every bio the array sends a member as a remap (A) from the
# array before it is queued (Q): the per-chunk clones dm core remaps and
# the member bios gather builds itself alike, so btt and blkparse can
# follow a request from the array to its members.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

# shellcheck disable=SC2046 # one word per disk
set -- $(disks) || fail "disks missing"
[ $# -ge 4 ] || fail "needs 4 disks"
mk_array bt "$(stripe_table ssdstripe 65536 8 "$1" 0 "$2" 0 "$3" 0 "$4" 0)"

rm -rf /tmp/bt
mkdir -p /tmp/bt
blktrace -D /tmp/bt -d "$1" -d "$2" -d "$3" -d "$4" >/tmp/bt.log 2>&1 &
bt=$!
# blktrace is ready once its per-CPU files exist for every device
wait_until 20 sh -c "[ \$(ls /tmp/bt | wc -l) -ge 4 ]" || fail "blktrace did not start: $(cat /tmp/bt.log)"
sleep 1
# gathered reads and writes (256 KiB over 4 KiB chunks: one bio per member)
must dd if=/dev/urandom of=/dev/mapper/bt bs=256k count=8 oflag=direct
must dd if=/dev/mapper/bt of=/dev/null bs=256k count=8 iflag=direct
# per-chunk clones (one 4 KiB chunk each)
must dd if=/dev/mapper/bt of=/dev/null bs=4k count=64 iflag=direct
sleep 1
kill -INT "$bt"
wait "$bt"

for d in "$1" "$2" "$3" "$4"; do
	n=${d#/dev/}
	blkparse -q -D /tmp/bt -i "$n" -f '%a %S %n\n' >"/tmp/bt/$n.txt" 2>/dev/null ||
		fail "blkparse of $n failed"
	# A: remapped to this member (from the array); Q: queued on it
	awk '$1 == "Q" {print $2, $3}' "/tmp/bt/$n.txt" | sort >/tmp/bt/q
	awk '$1 == "A" {print $2, $3}' "/tmp/bt/$n.txt" | sort >/tmp/bt/a
	q=$(wc -l </tmp/bt/q) a=$(wc -l </tmp/bt/a)
	[ "$q" -ge 16 ] || fail "$n: only $q bios queued ($(head -n 3 "/tmp/bt/$n.txt"))"
	cmp -s /tmp/bt/q /tmp/bt/a ||
		fail "$n: $q bios queued, $a remaps from the array; differences (sector blocks): $(diff /tmp/bt/q /tmp/bt/a | grep '^[-+<>][^-+]' | head -n 4 | tr '\n' ';')"
	log "$n: $q bios queued, each with its remap"
done
rm_array bt
pass
