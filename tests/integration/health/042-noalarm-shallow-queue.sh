#!/bin/sh
# DESCRIPTION: no false alarm from io_uring at QD 128 on 4-request queues, whose retries are counted
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# No false alarm: io_uring at queue depth 128 on members with nr_requests
# 4 (a shallow queue, as a SATA SSD's NCQ).  REQ_NOWAIT bios that find no
# free tag complete with BLK_STS_AGAIN and io_uring retries them: fio sees
# no error, so neither may health.  Every member stays ok with 0 errors,
# the array optimal, no "I/O error on member" is logged, and the retried
# completions show in 'retries' (so the test proves they happened).
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=262144			# 128 MiB per member
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
saved=''
for d in "$d0" "$d1" "$d2" "$d3"; do
	q=/sys/block/${d##*/}/queue/nr_requests
	saved="$saved $(cat "$q")"
	echo 4 >"$q" || fail "cannot set $q to 4"
done
restore() {
	# shellcheck disable=SC2086 # one value per member
	set -- $saved
	for d in "$d0" "$d1" "$d2" "$d3"; do
		echo "$1" >"/sys/block/${d##*/}/queue/nr_requests"
		shift
	done
}

# shellcheck disable=SC2046 # feature words
mk_array sq "$(stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 "$d1" 0 "$d2" 0 "$d3" 0 $(health_opts))"
top=/sys/block/$(dm_sysname sq)/ssdstripe
kmsg_mark 042
ev0=$(dm_events sq)

fio --name=sq --filename=/dev/mapper/sq --ioengine=io_uring --direct=1 \
	--iodepth=128 --numjobs=2 --rw=randread --bs=4k --runtime=10 \
	--time_based --group_reporting >/tmp/fio-042.txt 2>&1
rc=$?
restore
sleep "$(health_secs 2)"

log "fio exit $rc: $(grep -m 1 -E 'IOPS=' /tmp/fio-042.txt)"
[ "$rc" = 0 ] || fail "fio exit $rc: $(tail -n 5 /tmp/fio-042.txt)"
grep -qE 'err= *[1-9]' /tmp/fio-042.txt && fail "fio saw errors: $(grep err= /tmp/fio-042.txt)"
no_alarm sq 042 "$ev0" "io_uring QD 128"
retries=0
for m in 0 1 2 3; do
	retries=$((retries + $(cat "$top/members/$m/retries")))
done
# Without retries the test proves nothing: say so rather than pass.
[ "$retries" -gt 0 ] ||
	fail "no BLK_STS_AGAIN completion (retries 0 on every member): the rig did not exercise the case"

rm_array sq
pass "io_uring QD 128 on nr_requests 4: $retries retried completions, no error, all ok"
