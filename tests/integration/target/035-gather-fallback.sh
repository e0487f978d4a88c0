#!/bin/sh
# When a gathered bio cannot be had at once (GFP_NOWAIT), the request goes
# one chunk at a time instead, loses nothing, and gather_fallbacks counts
# it.  failslab fails every slab allocation of the test's own I/O that
# cannot sleep; Debian's kernels have no fault injection, so this runs on
# the debug kernel (make check-debug, qemu/debug-kernel.config) and says
# SKIP elsewhere.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"
fs=/sys/kernel/debug/failslab
[ -d "$fs" ] || skip "no failslab in this kernel (CONFIG_FAILSLAB): make check-debug runs this test"

# shellcheck disable=SC2046 # one word per disk
set -- $(disks) || fail "disks missing"
[ $# -ge 4 ] || fail "needs 4 disks"
# 4 members of 64 KiB: a 1 MiB request gives each member 4 chunks
mk_array gf "$(stripe_table ssdstripe 131072 128 "$1" 0 "$2" 0 "$3" 0 "$4" 0)"
top=/sys/block/$(dm_sysname gf)/ssdstripe
[ "$(cat "$top/gather_fallbacks")" = 0 ] || fail "a new array counts $(cat "$top/gather_fallbacks") fallbacks"
pat=$(pattern_file 8)

# only tasks that ask (make-it-fail), only allocations that cannot sleep
echo 1 >"$fs/task-filter"
echo Y >"$fs/ignore-gfp-wait"
echo 100 >"$fs/probability"
echo 0 >"$fs/interval"
echo -1 >"$fs/times"
echo 0 >"$fs/space"
echo 0 >"$fs/verbose"
# failing DD-ARGS...: dd with failslab on for it alone
failing() { sh -c 'echo 1 >/proc/self/make-it-fail && exec dd "$@" 2>&1' dd "$@"; }

out=$(failing if="$pat" of=/dev/mapper/gf bs=1M count=8 oflag=direct) ||
	fail "writes under failslab failed: $out"
fb=$(cat "$top/gather_fallbacks")
[ "$fb" -ge 8 ] || fail "8 writes of 1 MiB under failslab: gather_fallbacks $fb, want 8 or more"
r0=$(cat "$top/members/0/write_ios")
[ "$r0" -ge 16 ] || fail "under failslab member 0 saw $r0 writes, want one per chunk (16 or more)"
log "8 MiB written under failslab: gather_fallbacks $fb, member 0 writes $r0"
out=$(failing if=/dev/mapper/gf of=/tmp/gf.read bs=1M count=8 iflag=direct) ||
	fail "reads under failslab failed: $out"
[ "$(md5sum </tmp/gf.read)" = "$(md5sum <"$pat")" ] || fail "data read under failslab differs from what was written"
[ "$(cat "$top/gather_fallbacks")" -gt "$fb" ] || fail "reads under failslab counted no fallback"
echo 0 >"$fs/probability"

# memory back: gathered again, one bio per member per request, and the
# data verifies when read without fault injection too
must dmsetup message gf 0 reset_stats
[ "$(cat "$top/gather_fallbacks")" = 0 ] || fail "reset_stats left gather_fallbacks at $(cat "$top/gather_fallbacks")"
must dd if=/dev/mapper/gf of=/tmp/gf.read bs=1M count=8 iflag=direct
[ "$(md5sum </tmp/gf.read)" = "$(md5sum <"$pat")" ] || fail "data differs when read back"
[ "$(cat "$top/gather_fallbacks")" = 0 ] || fail "fallbacks without fault injection"
[ "$(cat "$top/members/0/read_ios")" = 8 ] || fail "member 0 read_ios $(cat "$top/members/0/read_ios"), want 8 (gathered)"
for i in 0 1 2 3; do
	[ "$(cat "$top/members/$i/errors")" = 0 ] || fail "member $i counted errors"
done
rm -f /tmp/gf.read
rm_array gf
pass
