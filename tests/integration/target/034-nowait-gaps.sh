#!/bin/sh
# A REQ_NOWAIT read (preadv2 with RWF_NOWAIT) whose buffers leave a gap at
# every NVMe virt boundary: each per-chunk clone is cut to what its member
# takes in one request, segments and gaps included, not only sectors, so
# no member ends one with BLK_STS_AGAIN.  On a kernel without
# bio_split_rw_at() (6.1) only sectors can be counted: there the read says
# EAGAIN, as it does on the kernel's striped target, and the member counts
# a retry, never an error (documented in dm-ssdstripe.rst).
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

d0=$(disk 0) d1=$(disk 1)
for d in "$d0" "$d1"; do
	[ "$(cat "/sys/block/${d#/dev/}/queue/virt_boundary_mask")" != 0 ] ||
		fail "$d has no virt boundary: this test needs NVMe members"
done
mk_array gp "$(stripe_table ssdstripe 65536 128 "$d0" 0 "$d1" 0)"
m=/sys/block/$(dm_sysname gp)/ssdstripe/members
must dd if=/dev/urandom of=/dev/mapper/gp bs=1M count=1 oflag=direct

# Without RWF_NOWAIT the members split such a read themselves.
out=$(preadv-gaps /dev/mapper/gp 0 8 512) || fail "plain vectored read: $out"

if grep -qE ' (bio_split_rw_at|bio_split_io_at)$' /proc/kallsyms; then
	# 8 iovecs of 512 bytes inside chunk 0; then 8 across chunks 0 and 1
	for at in 0 $((65536 - 2048)); do
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
		[ $((r0 + r1)) = 8 ] || fail "read at $at: member reads $r0 + $r1, want 8 (one per iovec)"
		log "RWF_NOWAIT read of 8 gapped iovecs at $at: member reads $r0 $r1, 0 retries"
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
