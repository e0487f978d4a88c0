#!/bin/sh
# io_uring (REQ_NOWAIT) I/O on members that are partitions starting off a
# physical-block boundary (a 512e disk partitioned at sector 2049): the
# block layer applies a member's limits at the whole disk's sector, after
# the partition remap, so the target must judge what a member takes there
# too.  Otherwise a member bio it thought fitting still needs a split, the
# member ends it with BLK_STS_AGAIN, and io_uring sees -EAGAIN or redoes it
# (retries).  Both partitions live on one scsi_debug disk with 4 KiB
# physical blocks and 64 KiB max_sectors_kb: a 64 KiB piece at a partition
# sector that is a multiple of 8 is 128 sectors at a whole-disk sector
# that is 1 past one, and only 127 fit there.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

must modprobe scsi_debug dev_size_mb=96 physblk_exp=3 sector_size=512
# no udev here to load the disk driver for the new SCSI device
must modprobe sd_mod
sd=''
for _i in $(seq 50); do
	for b in /sys/block/sd*; do
		[ -e "$b/device/model" ] || continue
		[ "$(_trim <"$b/device/model")" = scsi_debug ] && sd=${b##*/}
	done
	[ -n "$sd" ] && [ -b "/dev/$sd" ] && break
	sleep 0.2
done
[ -n "$sd" ] || fail "scsi_debug disk did not appear"
[ "$(cat "/sys/block/$sd/queue/physical_block_size")" = 4096 ] ||
	fail "scsi_debug disk has physical blocks of $(cat "/sys/block/$sd/queue/physical_block_size"), not 4096"

# le32 N: N as 4 little-endian bytes (printf escapes)
le32() {
	for _s in 0 8 16 24; do printf '\\%03o' $((($1 >> _s) & 255)); done
}
# An MBR with two Linux partitions at odd sectors (2049 and 94209).
p1=2049 p2=94209 psz=90000
{
	# shellcheck disable=SC2059 # the escapes are the data
	for start in $p1 $p2; do printf "\\000\\376\\377\\377\\203\\376\\377\\377$(le32 "$start")$(le32 $psz)"; done
	dd if=/dev/zero bs=16 count=2 2>/dev/null
	printf '\125\252'
} >/tmp/019.mbr
[ "$(wc -c </tmp/019.mbr)" = 66 ] || fail "MBR tail is $(wc -c </tmp/019.mbr) bytes, not 66"
must dd if=/tmp/019.mbr of="/dev/$sd" bs=1 seek=446 conv=notrunc,fsync
must blockdev --rereadpt "/dev/$sd"
wait_until 10 test -b "/dev/${sd}2" || fail "partitions of /dev/$sd did not appear"
[ "$(cat "/sys/block/$sd/${sd}1/start")" = $p1 ] || fail "partition 1 starts at $(cat "/sys/block/$sd/${sd}1/start")"
[ "$(cat "/sys/block/$sd/${sd}2/start")" = $p2 ] || fail "partition 2 starts at $(cat "/sys/block/$sd/${sd}2/start")"
echo 64 >"/sys/block/$sd/queue/max_sectors_kb" || fail "cannot set max_sectors_kb"

# 2 members of 64 KiB chunks, data from each partition's sector 0
len=$((2 * (psz / 128) * 128))
mk_array pt "$(stripe_table ssdstripe $len 128 "/dev/${sd}1" 0 "/dev/${sd}2" 0)"
m=/sys/block/$(dm_sysname pt)/ssdstripe/members

# uring NAME ARGS...: a verified io_uring job on the array; fio must pass
uring() {
	_n=$1
	shift
	fio --eta=never --name="$_n" --filename=/dev/mapper/pt --direct=1 --ioengine=io_uring \
		--iodepth=16 --size=24m --randseed=19 "$@" --output="/tmp/019.$_n" ||
		fail "io_uring $_n: fio failed: $(grep -E 'err=|error|verify' "/tmp/019.$_n" | head -n 3)"
	grep -q 'err= *0' "/tmp/019.$_n" || fail "io_uring $_n: $(grep 'err=' "/tmp/019.$_n")"
	for _i in 0 1; do
		[ "$(cat "$m/$_i/retries")" = 0 ] ||
			fail "io_uring $_n: member $_i ($sd$((_i + 1))) retries $(cat "$m/$_i/retries"), want 0: a member bio needed a split"
		[ "$(cat "$m/$_i/errors")" = 0 ] ||
			fail "io_uring $_n: member $_i counted $(cat "$m/$_i/errors") errors"
	done
	log "io_uring $_n: reads $(cat "$m/0/read_ios") $(cat "$m/1/read_ios")," \
		"writes $(cat "$m/0/write_ios") $(cat "$m/1/write_ios"), 0 retries"
	must dmsetup message pt 0 reset_stats
}
# across chunks (gathered where the kernel can tell a bio fits; 128 KiB
# gives each member one 64 KiB piece)
uring gathered --rw=randwrite --bs=128k --verify=crc32c --do_verify=1
# one chunk each (per-chunk clones cut to what the member takes)
uring chunk --rw=randread --bs=64k
# every size from 4 KiB to 256 KiB, written and verified
uring mixed --rw=randwrite --bsrange=4k-256k --verify=crc32c --do_verify=1
rm_array pt
pass
