#!/bin/sh
# DESCRIPTION: suspend, reload and resume cycles under fio's verified writes lose nothing
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# suspend / reload / resume cycles while fio writes and verifies: no I/O
# errors, and a full verify pass afterwards is clean.  blockalign=512 turns
# fio's random map off, so writes may overlap: serialize_overlap keeps two
# overlapping writes from being in flight at once, whose order no device
# promises (verify would then blame whichever landed first).
. /tests/integration/lib/common.sh
m=4 chunk=64
len=$((m * 32 * 2048))
# shellcheck disable=SC2046 # DEV OFFSET pairs
table=$(stripe_table "$TARGET" $len $chunk $(member_args $m 4096 8))
mk_array t012 "$table"
job="--name=srr --filename=/dev/mapper/t012 --direct=1 --ioengine=libaio --iodepth=16
 --rw=randwrite --bssplit=4k/40:16k/20:64k/20:256k/20 --blockalign=512 --size=$((len * 512))
 --verify=crc32c --verify_fatal=1 --randseed=1234 --serialize_overlap=1"
# shellcheck disable=SC2086
fio $job --do_verify=1 --verify_backlog=16 --output=/tmp/fio012.out >/dev/null 2>/tmp/fio012.err &
fpid=$!
cycles=0
sleep 1
while kill -0 $fpid 2>/dev/null; do
	dmsetup suspend t012 || fail "suspend failed"
	dmsetup reload t012 --table "$table" || fail "reload failed"
	dmsetup resume t012 || fail "resume failed"
	# reload while live, resume swaps
	dmsetup reload t012 --table "$table" || fail "live reload failed"
	dmsetup resume t012 || fail "resume (swap) failed"
	cycles=$((cycles + 1))
	sleep 0.3
done
wait $fpid
rc=$?
# fio's own error lines (EIO, EAGAIN, bad verify header) go to stderr
[ $rc = 0 ] || { head -n 20 /tmp/fio012.err; tail -n 20 /tmp/fio012.out; fail "fio failed (rc $rc) during $cycles suspend/reload cycles"; }
grep -q 'err= *[1-9]' /tmp/fio012.out && fail "fio reported errors"
[ $cycles -ge 3 ] || fail "only $cycles cycles happened while fio ran"
# shellcheck disable=SC2086
fio $job --verify_only --output=/tmp/fio012v.out >/dev/null 2>&1 || { tail -n 20 /tmp/fio012v.out; fail "verify pass failed"; }
dmesg_since "begin 012-suspend-reload" | grep -iE 'I/O error|critical' && fail "I/O errors in dmesg"
rm_array t012
pass "$cycles cycles"
