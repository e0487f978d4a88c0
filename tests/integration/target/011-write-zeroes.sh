#!/bin/sh
# blkdiscard -z (write zeroes) reads back zeros in its range, data intact
# outside, for ranges with unaligned edges and across chunks.
. /tests/integration/lib.sh
m=3 chunk=24
args='' i=0
while [ $i -lt $m ]; do args="$args $(disk $i) $((i * 16 + 8))"; i=$((i + 1)); done
len=$((m * chunk * 200))
# shellcheck disable=SC2086
mk_array t011 "$(stripe_table "$TARGET" $len $chunk $args)"
dev=/dev/mapper/t011
pat=$(pattern_file 8)
dd if="$pat" of=/tmp/expect bs=512 count=$len 2>/dev/null
dd if=/tmp/expect of=$dev bs=64k conv=fsync 2>/dev/null
for r in "1 5" "$((chunk - 1)) 3" "100 $((chunk * m * 7 + 5))" "$((len - chunk * 4 - 3)) $((chunk * 4 + 3))"; do
	# shellcheck disable=SC2086
	set -- $r
	/usr/sbin/blkdiscard -z -o $(($1 * 512)) -l $(($2 * 512)) $dev || fail "blkdiscard -z $1+$2 failed"
	dd if=/dev/zero of=/tmp/expect bs=512 seek="$1" count="$2" conv=notrunc 2>/dev/null
done
cmp /tmp/expect $dev || fail "content differs after write-zeroes"
echo 3 >/proc/sys/vm/drop_caches
cmp /tmp/expect $dev || fail "content differs after write-zeroes (after dropping caches)"
rm_array t011
pass
