#!/bin/sh
# A REQ_NOWAIT read (preadv2 with RWF_NOWAIT) whose buffers leave a gap at
# every virt boundary of its members: each per-chunk clone is cut to what
# its member takes in one request, segments and gaps included, not only
# sectors, so no member ends one with BLK_STS_AGAIN.  The members are
# null_blk devices with a page virt boundary, as NVMe has had (7.x's NVMe
# driver drops it where the controller takes SGLs, QEMU's among them).
# On a kernel without bio_split_rw_at() (6.1) only sectors can be
# counted: there the read says EAGAIN, as it does on the kernel's striped
# target, and the member counts a retry, never an error (documented in
# dm-ssdstripe.rst).
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

must modprobe null_blk nr_devices=2 gb=1 memory_backed=1 virt_boundary=1
d0=/dev/nullb0 d1=/dev/nullb1
wait_until 10 test -b $d1 || fail "null_blk devices did not appear"
for d in "$d0" "$d1"; do
	[ "$(cat "/sys/block/${d#/dev/}/queue/virt_boundary_mask")" != 0 ] ||
		fail "$d has no virt boundary (null_blk virt_boundary=1)"
done
mk_array gp "$(stripe_table ssdstripe 65536 128 "$d0" 0 "$d1" 0)"
m=/sys/block/$(dm_sysname gp)/ssdstripe/members
must dd if=/dev/urandom of=/dev/mapper/gp bs=1M count=1 oflag=direct

# Without RWF_NOWAIT the members split such a read themselves.
out=$(preadv-gaps /dev/mapper/gp 0 8 512) || fail "plain vectored read: $out"

if grep -qE ' (bio_split_rw_at|bio_split_io_at)$' /proc/kallsyms; then
	# 8 iovecs of 512 bytes inside chunk 0, then 8 across chunks 0 and 1;
	# preadv-gaps then reads the range once more, plainly, to compare: one
	# more member read inside a chunk, two across
	for at in 0 $((65536 - 2048)); do
		plain=1
		[ "$at" = 0 ] || plain=2
		must dmsetup message gp 0 reset_stats
		out=$(preadv-gaps /dev/mapper/gp $at 8 512 nowait) ||
			fail "RWF_NOWAIT vectored read at $at: $out (a member bio needed a split)"
		[ "$out" = "ok 4096" ] || fail "RWF_NOWAIT vectored read at $at: $out"
		for i in 0 1; do
			[ "$(cat "$m/$i/retries")" = 0 ] ||
				fail "read at $at: member $i retries $(cat "$m/$i/retries"), want 0"
			[ "$(cat "$m/$i/errors")" = 0 ] || fail "read at $at: member $i errors"
		done
		r0=$(cat "$m/0/read_ios") r1=$(cat "$m/1/read_ios")
		# one read per iovec: no member request may hold a gap
		[ $((r0 + r1)) = $((8 + plain)) ] ||
			fail "read at $at: member reads $r0 + $r1, want $((8 + plain)) (one per iovec, $plain for the plain read)"
		log "RWF_NOWAIT read of 8 gapped iovecs at $at: member reads $r0 $r1 (with $plain plain), 0 retries"
	done
else
	must dmsetup message gp 0 reset_stats
	out=$(preadv-gaps /dev/mapper/gp 0 8 512 nowait)
	[ "$out" = EAGAIN ] || fail "without bio_split_rw_at: RWF_NOWAIT vectored read said '$out', not EAGAIN"
	[ "$(cat "$m/0/retries")" -ge 1 ] || fail "without bio_split_rw_at: member 0 counted no retry"
	[ "$(cat "$m/0/errors")" = 0 ] || fail "without bio_split_rw_at: member 0 counted an error"
	log "no bio_split_rw_at: EAGAIN, member 0 retries $(cat "$m/0/retries"), 0 errors (documented)"
fi
rm_array gp
pass
