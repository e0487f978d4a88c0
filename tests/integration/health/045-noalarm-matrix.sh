#!/bin/sh
# DESCRIPTION: no false alarm under polled io_uring, mixed 4 KiB and 1 MiB I/O, or fsync-heavy ext4
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# No false alarm under ordinary load, three workloads on four members, each
# on a fresh array: no member leaves ok, no error is counted, no health log
# line and no dm event.  Each case also proves it exercised what it names.
#  polled  io_uring hipri reads and writes; the rig loads nvme with one poll
#          queue, so the array's queue polls (queue/io_poll 1)
#  mixed   4 KiB and 1 MiB random reads and writes at once (a member's
#          latency depends on the sizes it happens to get)
#  fsync   ext4 whose whole journal sits in one chunk, so on one member,
#          under fsync-per-write: that member gets every commit (FUA and
#          flushes) on top of its share of the data, and must stay ok
. /tests/integration/lib/common.sh
. /tests/integration/lib/health.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=262144			# 128 MiB per member
secs=$(health_secs 6)
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
# array NAME CHUNK: a fresh 4-member array
array() {
	# shellcheck disable=SC2046 # feature words
	mk_array "$1" "$(stripe_table ssdstripe $((4 * S)) "$2" "$d0" 0 "$d1" 0 "$d2" 0 "$d3" 0 $(health_opts))"
}
# run_fio OUT ARGS...: fio, time based, failing the test on any error
run_fio() {
	_o=$1
	shift
	fio --name=m --runtime="$secs" --time_based --group_reporting "$@" >"$_o" 2>&1 ||
		fail "fio exit $?: $(tail -n 5 "$_o")"
	grep -qE 'err= *[1-9]' "$_o" && fail "fio saw errors: $(grep err= "$_o")"
	log "$(grep -m 2 -E 'IOPS=' "$_o" | tr -s ' ' | tr '\n' ' ')"
}

# ---- polled -------------------------------------------------------------
array mp 128
dm=$(dm_sysname mp)
[ "$(cat "/sys/block/$dm/queue/io_poll")" = 1 ] ||
	fail "the array does not poll (queue/io_poll $(cat "/sys/block/$dm/queue/io_poll"); members $(cat "/sys/block/$(sysname "$d0")/queue/io_poll")): the rig's nvme has no poll queue"
# Polled I/O completes without an interrupt: the members' NVMe queue
# interrupts (/proc/interrupts, nvmeNqM) must stay far below their I/Os.
nvme_irqs() {
	awk '$NF ~ /^nvme[0-9]+q[0-9]+$/ {for (i = 2; i < NF; i++) if ($i ~ /^[0-9]+$/) s += $i}
		END {print s + 0}' /proc/interrupts
}
member_ios() {
	for _d in "$d0" "$d1" "$d2" "$d3"; do
		echo $(($(disk_stat "$_d" 1) + $(disk_stat "$_d" 5)))
	done | awk '{s += $1} END {print s + 0}'
}
kmsg_mark 045p
ev0=$(dm_events mp)
i0=$(nvme_irqs) o0=$(member_ios)
run_fio /tmp/fio-045p.txt --filename=/dev/mapper/mp --ioengine=io_uring --hipri \
	--direct=1 --iodepth=32 --rw=randrw --bs=4k
irqs=$(($(nvme_irqs) - i0)) ios=$(($(member_ios) - o0))
sleep "$(health_secs 2)"
log "member I/Os $ios, NVMe queue interrupts $irqs"
[ "$ios" -gt 1000 ] || fail "only $ios member I/Os"
[ $((irqs * 50)) -lt "$ios" ] || fail "$irqs interrupts for $ios member I/Os: the I/O was not polled"
no_alarm mp 045p "$ev0" "io_uring hipri"
rm_array mp

# ---- mixed 4 KiB and 1 MiB ------------------------------------------------
array mm 256
kmsg_mark 045m
ev0=$(dm_events mm)
run_fio /tmp/fio-045m.txt --filename=/dev/mapper/mm --ioengine=libaio --direct=1 \
	--iodepth=16 --rw=randrw --bssplit=4k/50:1m/50
sleep "$(health_secs 2)"
# both sizes reached the members: a mean member read between 4 KiB and a
# member's share of 1 MiB (gathered, a 1 MiB read is one 256 KiB read
# on each of the 4 members)
top=/sys/block/$(dm_sysname mm)/ssdstripe/members/0
mean=$(($(cat "$top/read_sectors") / $(cat "$top/read_ios")))
log "member 0's mean read: $mean sectors"
if [ "$mean" -le 8 ] || [ "$mean" -ge 512 ]; then
	fail "member 0's mean read is $mean sectors: not a mix of 4 KiB and 1 MiB"
fi
no_alarm mm 045m "$ev0" "mixed 4K/1M"
rm_array mm

# ---- fsync-heavy ext4, journal on one member --------------------------------
chunk=32768			# 16 MiB
array mf $chunk
mkfs.ext4 -q -F -b 4096 -J size=4 /dev/mapper/mf || fail "mkfs.ext4 failed"
# the journal's first and last block (4 KiB), as array sectors
jfirst=$(debugfs -R 'bmap <8> 0' /dev/mapper/mf 2>/dev/null)
jlast=$(debugfs -R 'bmap <8> 1023' /dev/mapper/mf 2>/dev/null)
if [ -z "$jfirst" ] || [ -z "$jlast" ]; then fail "debugfs found no journal blocks"; fi
jm=$(((jfirst * 8 / chunk) % 4))
if [ $((jfirst * 8 / chunk)) != $(((jlast * 8 + 7) / chunk)) ]; then
	fail "the journal (blocks $jfirst-$jlast) is not in one chunk"
fi
log "journal in blocks $jfirst-$jlast: member $jm"
mkdir -p /mnt/mf
mount -t ext4 /dev/mapper/mf /mnt/mf || fail "mount failed"
kmsg_mark 045f
ev0=$(dm_events mf)
w0=$(for d in "$d0" "$d1" "$d2" "$d3"; do disk_stat "$d" 5; done | tr '\n' ' ')
run_fio /tmp/fio-045f.txt --directory=/mnt/mf --ioengine=psync --rw=randwrite \
	--bs=4k --size=8m --numjobs=4 --fsync=1
w1=$(for d in "$d0" "$d1" "$d2" "$d3"; do disk_stat "$d" 5; done | tr '\n' ' ')
sleep "$(health_secs 2)"
umount /mnt/mf
writes=$(vec_sub "$w1" "$w0")
log "member writes during the run: $writes"
no_alarm mf 045f "$ev0" "ext4 fsync, journal on member $jm"
# shellcheck disable=SC2086 # one count per member
set -- $writes
[ $# = 4 ] || fail "member write counts: '$writes'"
jw=$(eval echo "\${$((jm + 1))}")
[ "$jw" -gt 0 ] || fail "the journal's member $jm got no write"
for w in "$@"; do
	[ "$w" -le "$jw" ] || fail "the journal's member $jm got $jw writes, another $w: the case was not exercised ($writes)"
done
rm_array mf
pass "polled, mixed 4K/1M and ext4 fsync (journal on member $jm, writes $writes): all ok, no error, no event"
