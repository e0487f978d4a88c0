#!/bin/sh
# No false stall: I/O that waits but moves, or waits where a stall is not
# judged, never makes a member stalled.  Each case runs past stall_ms and
# proves it exercised what it names; after each, no member counts a stall
# and no "-> stalled" line was logged.
#  slow      a member under dm-delay: slow, never stalled (it completes)
#  suspend   the array itself suspended for longer than stall_ms, under
#            load (dm core holds the I/O above the target)
#  discard   a whole-array blkdiscard whose discards take longer than
#            stall_ms (dm-delay on writes; discards are not watched)
#  flush     an fsync whose flushes take longer than stall_ms (dm-delay on
#            flushes only)
#  idle      an idle array for longer than stall_ms
# io_uring at QD 128 on shallow queues is 042's case (no_alarm there
# covers stalled too).
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=131072			# 64 MiB per member
stall=$(stall_ms) win=$(window_ms)
long=$((stall + 2 * win))	# ms: past stall_ms and a window either side
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
# array NAME DEV1: 4 members, member 1 is DEV1
array() {
	# shellcheck disable=SC2046 # feature words
	mk_array "$1" "$(stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 "$2" 0 "$d2" 0 "$d3" 0 $(health_opts))"
}
# no_stall NAME MARK WHAT: no member of NAME stalled since kmsg_mark MARK
no_stall() {
	_top=/sys/block/$(dm_sysname "$1")/ssdstripe
	for _m in "$_top"/members/*; do
		[ "$(cat "$_m/stalls")" = 0 ] || fail "$3: member ${_m##*/} counted $(cat "$_m/stalls") stalls"
		[ "$(cat "$_m/state")" != stalled ] || fail "$3: member ${_m##*/} is stalled"
	done
	_l=$(dmesg_since "$2" | grep -E -- '-> stalled' | head -n 1)
	[ -z "$_l" ] || fail "$3: logged $_l"
	log "$3: states $(cat "$_top"/members/*/state | tr '\n' ' ')stalls $(cat "$_top"/members/*/stalls | tr '\n' ' ')"
}
# secs MS: whole seconds, rounded up
secs() { echo $((($1 + 999) / 1000)); }

# ---- slow but moving ---------------------------------------------------------
must dmsetup create ns_slow --table "0 $S delay $d1 0 $(slow_delay_ms)"
array ns /dev/mapper/ns_slow
kmsg_mark 039s
fio --eta=never --name=s --filename=/dev/mapper/ns --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randrw --bs=4k --time_based --runtime="$(($(secs "$long") + 4))" \
	--output=/tmp/fio-039s.txt || fail "fio failed: $(tail -n 3 /tmp/fio-039s.txt)"
top=/sys/block/$(dm_sysname ns)/ssdstripe
[ "$(cat "$top/members/1/state")" = slow ] || fail "slow: member 1 is $(cat "$top/members/1/state"), not slow: the case was not exercised"
no_stall ns 039s "slow member (dm-delay $(slow_delay_ms) ms)"
rm_array ns
must dmsetup remove ns_slow

# ---- the array suspended under load --------------------------------------
array ns "$d1"
kmsg_mark 039p
fio --eta=never --name=p --filename=/dev/mapper/ns --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randread --bs=4k --time_based --runtime="$(($(secs "$long") + 6))" \
	--output=/tmp/fio-039p.txt &
fio_pid=$!
sleep 2
must dmsetup suspend ns
sleep "$(secs "$long")"
top=/sys/block/$(dm_sysname ns)/ssdstripe
held=$(awk '{s += $1} END {print s}' "$top"/members/*/inflight)
must dmsetup resume ns
wait "$fio_pid" || fail "fio failed: $(tail -n 3 /tmp/fio-039p.txt)"
[ "$held" = 0 ] || fail "suspend: $held I/Os in flight on members while suspended"
no_stall ns 039p "array suspended $(secs "$long") s under load"
rm_array ns

# ---- discards that take longer than stall_ms -----------------------------------
for d in "$d0" "$d1" "$d2" "$d3"; do
	n=ns_${d#/dev/}
	# reads at once, writes (and so discards and flushes) after $long ms
	must dmsetup create "$n" --table "0 $S delay $d 0 0 $d 0 $long"
done
# shellcheck disable=SC2046 # feature words
mk_array ns "$(stripe_table ssdstripe $((4 * S)) 128 "/dev/mapper/ns_${d0#/dev/}" 0 \
	"/dev/mapper/ns_${d1#/dev/}" 0 "/dev/mapper/ns_${d2#/dev/}" 0 \
	"/dev/mapper/ns_${d3#/dev/}" 0 $(health_opts))"
top=/sys/block/$(dm_sysname ns)/ssdstripe
kmsg_mark 039d
t0=$(date +%s)
must /usr/sbin/blkdiscard /dev/mapper/ns
took=$(($(date +%s) - t0))
[ "$took" -ge $((long / 1000)) ] || fail "discard: blkdiscard took ${took}s, not past stall_ms: the case was not exercised"
[ "$(cat "$top/members/0/discard_ios")" -ge 1 ] || fail "discard: member 0 saw no discard"
no_stall ns 039d "whole-array blkdiscard of ${took}s"
rm_array ns
for d in "$d0" "$d1" "$d2" "$d3"; do must dmsetup remove "ns_${d#/dev/}"; done

# ---- flushes that take longer than stall_ms -------------------------------------
# reads and writes at once, flushes after $long ms
must dmsetup create ns_fl --table "0 $S delay $d1 0 0 $d1 0 0 $d1 0 $long"
array ns /dev/mapper/ns_fl
top=/sys/block/$(dm_sysname ns)/ssdstripe
kmsg_mark 039f
t0=$(date +%s)
must dd if=/dev/zero of=/dev/mapper/ns bs=64k count=8 conv=fsync
took=$(($(date +%s) - t0))
[ "$took" -ge $((long / 1000)) ] || fail "flush: the fsync took ${took}s, not past stall_ms: the case was not exercised"
[ "$(cat "$top/members/1/flush_ios")" -ge 1 ] || fail "flush: member 1 saw no flush"
no_stall ns 039f "fsync with ${took}s flushes"

# ---- idle -------------------------------------------------------------------
kmsg_mark 039i
sleep "$(secs "$long")"
no_stall ns 039i "idle $(secs "$long") s"
rm_array ns
must dmsetup remove ns_fl
pass
