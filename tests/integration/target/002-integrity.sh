#!/bin/sh
# DESCRIPTION: fio verifies mixed-size random writes on 14 geometries, and io_uring's on 4 KiB chunks
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: any
# RUN: always
#
# Data integrity: fio random writes with mixed block sizes (512B..4MiB,
# unaligned to the chunk) verified with crc32c, over many geometries:
# 1..8 members, chunks 8..2048 sectors (pow2 and not), non-zero offsets.
# Every write and verify read that spans chunks is one that ssdstripe
# gathers into one bio per member.
# Overlapping writes are serialized (serialize_overlap): with blockalign
# fio writes may overlap, and two in flight at once land in any order.
. /tests/integration/lib/common.sh

MB=${INTEGRITY_MB:-$(scaled 32)}	# array size per geometry (8 on the debug kernel)
nd=$(ndisks)
# members chunk_sectors offset_base
geoms="
1 8 2048
2 8 0
2 24 4096
3 128 2056
4 16 8
4 8 2048
4 384 8192
4 2048 1024
5 64 24
6 56 0
7 1024 2048
8 8 0
8 256 512
3 1000 80
"
slice_sz=$((64 * 2048))     # 64 MiB slices when members > disks
total=$((MB * 2048))
n=0 failed=''
for g in $(echo "$geoms" | tr ' ' ','); do
	[ -n "$g" ] || continue
	m=${g%%,*}; rest=${g#*,}; chunk=${rest%%,*}; obase=${rest#*,}
	# per member share: multiple of chunk, about total/m
	per=$((total / m / chunk * chunk))
	[ "$per" -ge "$chunk" ] || per=$chunk
	len=$((per * m))
	args=''
	if [ "$m" -le "$nd" ]; then
		args=$(member_args "$m" "$obase" 8)
	else
		i=0
		for s in $(slices "$m" "$slice_sz" 1048576); do
			args="$args $s $((obase + i * 8))"
			i=$((i + 1))
		done
	fi
	# shellcheck disable=SC2086
	table=$(stripe_table "$TARGET" "$len" "$chunk" $args)
	mk_array t002 "$table"
	n=$((n + 1))
	log "geometry $n: $m members, chunk $chunk sectors, $((len / 2048)) MiB"
	if ! fio --name=integrity --filename=/dev/mapper/t002 --direct=1 \
		--ioengine=libaio --iodepth=8 --rw=randwrite \
		--bssplit=512/10:4k/15:12k/10:36k/10:64k/10:132k/10:512k/10:1m/10:2m/5:4m/10 \
		--blockalign=512 --offset=512 --size=$(((len - 1) * 512)) \
		--verify=crc32c --verify_fatal=1 --do_verify=1 --verify_backlog=32 \
		--serialize_overlap=1 --randrepeat=0 --output=/tmp/fio.out >/dev/null 2>&1; then
		tail -n 30 /tmp/fio.out
		failed="$failed $m/$chunk"
	elif grep -q 'err= *[1-9]' /tmp/fio.out; then
		failed="$failed $m/$chunk"
	else
		log "  fio: $(grep -E '^ +(WRITE|READ):' /tmp/fio.out | sed 's/,.*io=/ io=/; s/,.*//' | tr -s ' ' | tr '\n' ' ')"
	fi
	rm_array t002
	rm_slices
done
[ -z "$failed" ] || fail "fio verify failed for geometries (members/chunk):$failed"

# io_uring on 4 members with 4 KiB chunks: its bios carry REQ_NOWAIT,
# and with --hipri they are polled.  Polled ones are cut at chunk ends (a
# polled one split at a chunk oopsed in NVMe before REQ_DRV was cleared);
# REQ_NOWAIT ones are gathered only where every member bio fits its queue
# unsplit, cut at chunk ends otherwise (gathered regardless, a request
# whose member bio needed a split failed with EAGAIN here).  The 512-byte
# offsets and sizes make both kinds.
if [ "$nd" -ge 4 ]; then
	len=$((MB * 2048 / 32 * 32))
	for mode in nowait polled; do
		hipri=''
		[ $mode = polled ] && hipri=--hipri
		mk_array t002 "$(stripe_table "$TARGET" "$len" 8 "$(disk 0)" 8 "$(disk 1)" 8 "$(disk 2)" 8 "$(disk 3)" 8)"
		# shellcheck disable=SC2086 # hipri: one word or none
		if ! fio --name=uring --filename=/dev/mapper/t002 --direct=1 \
			--ioengine=io_uring $hipri --iodepth=16 --rw=randwrite \
			--bssplit=512/10:4k/20:36k/20:132k/20:1m/20:4m/10 \
			--blockalign=512 --size=$((len * 512)) \
			--verify=crc32c --verify_fatal=1 --do_verify=1 --verify_backlog=32 \
			--serialize_overlap=1 --randrepeat=0 --output=/tmp/fio.out >/dev/null 2>&1 ||
			grep -q 'err= *[1-9]' /tmp/fio.out; then
			tail -n 30 /tmp/fio.out
			failed="$failed io_uring-$mode"
		else
			log "io_uring $mode: $(grep -E '^ +(WRITE|READ):' /tmp/fio.out | sed 's/,.*io=/ io=/; s/,.*//' | tr -s ' ' | tr '\n' ' ')"
		fi
		rm_array t002
	done
fi
[ -z "$failed" ] || fail "fio verify failed for:$failed"
pass "$n geometries verified, and io_uring (nowait, polled) on 4 x 4 KiB"
