#!/bin/sh
# DESCRIPTION: write-zeroes zeroes exactly its range, and one of many chunks is one write per member
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# blkdiscard -z (write zeroes) reads back zeros in its range, data intact
# outside, for ranges with unaligned edges and across chunks; and one
# write-zeroes of many chunks reaches each member as ONE write (field 5 of
# the member's /sys/block/X/stat moves by exactly one), not one per chunk.
. /tests/integration/lib/common.sh
m=3 chunk=24
len=$((m * chunk * 200))
mk_stripe t011 $len $chunk $m 8 16
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

# As many whole stripes as the array accepts in one write-zeroes.
dm=$(dm_sysname t011)
arr_max=$(($(cat "/sys/block/$dm/queue/write_zeroes_max_bytes") / 512))
cs=$(cat "/sys/block/$dm/queue/chunk_sectors")
[ "$arr_max" -gt 0 ] || fail "array advertises no write-zeroes"
n=$((len < arr_max ? len : arr_max))
n=$((n - n % (m * chunk)))
[ "$n" -ge $((m * chunk * 8)) ] || fail "array write-zeroes limit $arr_max sectors is under 8 stripes"
before=$(disks_stat 5)
/usr/sbin/blkdiscard -z -o 0 -l $((n * 512)) $dev || fail "blkdiscard -z 0+$n failed"
after=$(disks_stat 5)
delta=$(vec_sub "$after" "$before")
log "one write-zeroes of $n sectors ($((n / chunk)) chunks): member writes delta $delta"
rm_array t011
if [ "$TARGET" = striped ]; then
	skip "striped (reference): member write delta [$delta]; one-bio rule is ssdstripe's"
fi
[ "$(echo "$delta" | wc -w)" -ge "$m" ] || fail "member write counts: '$delta'"
[ "$cs" = 0 ] || fail "array advertises chunk_sectors $cs (the block layer would cut write-zeroes there)"
i=0
for x in $delta; do
	[ $i -lt $m ] || break
	[ "$x" = 1 ] || fail "ssd$i got $x writes for one write-zeroes of $((n / chunk)) chunks (want 1): [$delta]"
	i=$((i + 1))
done
pass "content right; each member got exactly one write-zeroes"
