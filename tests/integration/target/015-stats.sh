#!/bin/sh
# DESCRIPTION: per-member counters count exactly what each member got; messages set thresholds or are refused
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# Per-member counters count exactly what went to each member: chunk-sized
# direct writes split evenly, a large read gathered into one I/O per
# member (with the sectors of all its chunks), io_uring's too where the
# kernel allows, one discard per member, a flush
# per member; reset_stats zeroes them; thresholds change by message and
# show in the table; bad messages are refused.
. /tests/integration/lib/common.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

d0=$(disk 0) d1=$(disk 1)
mk_array st "$(stripe_table ssdstripe 65536 8 "$d0" 0 "$d1" 4096)"
m=/sys/block/$(dm_sysname st)/ssdstripe/members
val() { cat "$m/$1/$2"; }

# 256 writes of one 4 KiB chunk each: 128 per member.
must dd if=/dev/urandom of=/dev/mapper/st bs=4k count=256 oflag=direct
for i in 0 1; do
	[ "$(val $i write_ios)" = 128 ] || fail "member $i write_ios $(val $i write_ios)"
	[ "$(val $i write_sectors)" = 1024 ] || fail "member $i write_sectors $(val $i write_sectors)"
done
# Large reads are gathered: each 256 KiB read (64 chunks) is one read of
# 128 KiB on each member, so 4 reads per member, with all 1024 sectors.
must dd if=/dev/mapper/st of=/dev/null bs=256k count=4 iflag=direct
for i in 0 1; do
	[ "$(val $i read_ios)" = 4 ] || fail "member $i read_ios $(val $i read_ios), want 4 (one per gathered read)"
	[ "$(val $i read_sectors)" = 1024 ] || fail "member $i read_sectors $(val $i read_sectors)"
	[ "$(val $i errors)" = 0 ] || fail "member $i errors"
	[ "$(val $i retries)" = 0 ] || fail "member $i retries $(val $i retries)"
	[ "$(val $i inflight)" = 0 ] || fail "member $i inflight $(val $i inflight)"
	hist=$(awk '{s += $2} END {print s}' "$m/$i/latency_histogram")
	[ "$hist" = 132 ] || fail "member $i histogram holds $hist completions, want 132"
done

# dmsetup status: dm-stripe's letters, then array state and 5 counts each
# (reads, writes, discards, errors, latency_us).
# shellcheck disable=SC2046
set -- $(dmsetup status st)
[ "$7 $8 $9 ${10}" = "1 AA optimal 5" ] || fail "status: $(dmsetup status st)"
[ "${11} ${12} ${13} ${14}" = "4 128 0 0" ] ||
	fail "status counts: $(dmsetup status st)"

must /usr/sbin/blkdiscard /dev/mapper/st
for i in 0 1; do
	[ "$(val $i discard_ios)" = 1 ] || fail "member $i discard_ios $(val $i discard_ios)"
	[ "$(val $i discard_sectors)" = 32768 ] || fail "member $i discard_sectors $(val $i discard_sectors)"
done

# fsync of the array device sends one empty flush to every member.
must dd if=/dev/zero of=/dev/mapper/st bs=4k count=1 conv=fsync
for i in 0 1; do
	[ "$(val $i flush_ios)" -ge 1 ] || fail "member $i saw no flush"
done

must dmsetup message st 0 reset_stats
for i in 0 1; do
	for f in read_ios write_ios discard_ios read_sectors errors retries; do
		[ "$(val $i $f)" = 0 ] || fail "member $i $f not reset"
	done
done

members_max_kb() { # KB|restore: the members' max_sectors_kb
	for d in "$d0" "$d1"; do
		q=/sys/block/${d#/dev/}/queue/max_sectors_kb
		if [ "$1" = restore ]; then
			must sh -c "cat /tmp/015.${d#/dev/} >$q"
		else
			cat "$q" >"/tmp/015.${d#/dev/}"
			must sh -c "echo $1 >$q"
		fi
	done
}
uring_reads() { # ARRAY BS: 1 MiB of io_uring reads of BS at QD1
	must fio --name=nowait --filename="/dev/mapper/$1" --direct=1 --ioengine=io_uring \
		--rw=read --bs="$2" --size=1m --iodepth=1 --invalidate=0 --output=/tmp/fio.out
	grep -q 'err= *0' /tmp/fio.out || fail "io_uring reads on $1: $(grep 'err=' /tmp/fio.out)"
}

# io_uring's reads carry REQ_NOWAIT.  Where the block layer can tell that a
# member bio fits its queue unsplit (bio_split_rw_at, or bio_split_io_at
# behind it), they are gathered too: fio's buffers are page aligned, so
# each 256 KiB read is one read per member.  Where it cannot (6.1), they
# go one chunk at a time: 32 reads per member each.
must dd if=/dev/urandom of=/dev/mapper/st bs=256k count=4 oflag=direct
must dmsetup message st 0 reset_stats
if grep -qE ' (bio_split_rw_at|bio_split_io_at)$' /proc/kallsyms; then
	want=4 how=gathered
else
	want=128 how="per chunk (no bio_split_rw_at in this kernel)"
fi
uring_reads st 256k
for i in 0 1; do
	[ "$(val $i read_ios)" = $want ] ||
		fail "io_uring: member $i read_ios $(val $i read_ios), want $want ($how)"
	[ "$(val $i read_sectors)" = 1024 ] || fail "io_uring: member $i read_sectors $(val $i read_sectors)"
	[ "$(val $i retries)" = 0 ] || fail "io_uring: member $i retries $(val $i retries)"
done
log "io_uring 256 KiB reads: $want reads per member ($how)"
# A member bio that would outgrow its queue's max_sectors is not built: the
# request is gathered up to there, the rest next (two reads per member for
# each 256 KiB read with 64 KiB members), not sent one chunk at a time.
if [ $want = 4 ]; then
	members_max_kb 64
	must dmsetup message st 0 reset_stats
	uring_reads st 256k
	members_max_kb restore
	for i in 0 1; do
		[ "$(val $i read_ios)" = 8 ] ||
			fail "io_uring, 64 KiB members: member $i read_ios $(val $i read_ios), want 8"
	done
fi
# A read inside one chunk that is larger than its member takes at once: an
# io_uring one is cut to what the member takes (two reads of 64 KiB), not
# ended by the member queue with BLK_STS_AGAIN (a retry) and done again
# from io_uring's worker (every kernel).
mk_array st3 "$(stripe_table ssdstripe 65536 512 "$d0" 65536 "$d1" 65536)"
members_max_kb 64
uring_reads st3 128k
members_max_kb restore
m3=/sys/block/$(dm_sysname st3)/ssdstripe/members
for i in 0 1; do
	[ "$(cat "$m3/$i/retries")" = 0 ] ||
		fail "io_uring, 128 KiB in a 256 KiB chunk, 64 KiB members: member $i retries $(cat "$m3/$i/retries"), want 0"
	[ "$(cat "$m3/$i/read_ios")" = 8 ] ||
		fail "io_uring, 128 KiB in a 256 KiB chunk, 64 KiB members: member $i read_ios $(cat "$m3/$i/read_ios"), want 8"
done
rm_array st3

must dmsetup message st 0 slow_factor 6
must dmsetup message st 0 min_ios 32
table=$(dmsetup table st)
case $table in
*" 4 slow_factor 6 min_ios 32") ;;
*) fail "thresholds not in table: $table" ;;
esac
# The printed table re-creates the same device.
must dmsetup create st2 --table "$table"
[ "$(dmsetup table st2)" = "$table" ] || fail "round trip: $(dmsetup table st2)"
must dmsetup remove st2

# clear_errors on a healthy array changes nothing
must dmsetup message st 0 clear_errors
[ "$(cat "$m/../state")" = optimal ] || fail "clear_errors: array $(cat "$m/../state")"
must dmsetup message st 0 fail_windows 5
must dmsetup message st 0 fail_windows 3
for bad in "slow_factor 1" "slow_factor x" "min_ios" "frobnicate" "reset_stats now" \
	"clear_errors now" "fail_windows 0"; do
	# shellcheck disable=SC2086
	dmsetup message st 0 $bad 2>/dev/null && fail "message '$bad' accepted"
done
[ "$(dmsetup table st)" = "$table" ] || fail "refused message changed the table"
rm_array st
pass
