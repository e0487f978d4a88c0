#!/bin/sh
# DESCRIPTION: the sysfs directory lives exactly as long as a live ssdstripe table; the module unloads after
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# /sys/block/dm-N/ssdstripe: every ABI file present and read-only, member
# links right, swapped on reload + resume (not on reload alone), kept over
# suspend/resume, gone with a non-ssdstripe table and on remove; the module
# unloads afterwards, also in a create / read sysfs / remove / rmmod loop
# (on the debug kernel, CONFIG_DEBUG_KOBJECT_RELEASE delays every kobject
# release: unloading must wait for them, or the console shows it).
. /tests/integration/lib/common.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

files="block state read_ios write_ios flush_ios discard_ios write_zeroes_ios
read_sectors write_sectors discard_sectors write_zeroes_sectors errors
read_errors write_errors flush_errors discard_errors write_zeroes_errors
retries inflight latency_us latency_histogram"

d0=$(disk 0) d1=$(disk 1) d2=$(disk 2)
mk_array hs "$(stripe_table ssdstripe 49152 128 "$d0" 2048 "$d1" 2048 "$d2" 2048)"
dm=$(dm_sysname hs)
top=/sys/block/$dm/ssdstripe
[ -d "$top" ] || fail "no $top"
[ "$(cat "$top/member_count")" = 3 ] || fail "member_count $(cat "$top/member_count")"
[ "$(cat "$top/chunk_sectors")" = 128 ] || fail "chunk_sectors"
[ "$(cat "$top/state")" = optimal ] || fail "array state $(cat "$top/state")"
for f in chunk_sectors member_count state; do
	[ "$(stat -c %a "$top/$f")" = 444 ] || fail "$f mode $(stat -c %a "$top/$f")"
done
for i in 0 1 2; do
	for f in $files; do
		[ -e "$top/members/$i/$f" ] || fail "missing members/$i/$f"
		[ "$f" = block ] && continue
		[ "$(stat -c %a "$top/members/$i/$f")" = 444 ] ||
			fail "members/$i/$f mode $(stat -c %a "$top/members/$i/$f")"
	done
	want=$(sysname "$(disk "$i")")
	got=$(basename "$(readlink -f "$top/members/$i/block")")
	[ "$got" = "$want" ] || fail "members/$i/block -> $got, want $want"
	[ "$(cat "$top/members/$i/state")" = ok ] || fail "member $i not ok"
done
[ "$(wc -l <"$top/members/0/latency_histogram")" = 18 ] ||
	fail "histogram lines: $(wc -l <"$top/members/0/latency_histogram")"

# A loaded but inactive table must leave the live directory alone.
must dmsetup reload hs --table "$(stripe_table ssdstripe 32768 64 "$d1" 0 "$d2" 0)"
[ "$(cat "$top/member_count")" = 3 ] || fail "inactive table replaced sysfs"
must dmsetup resume hs
[ "$(cat "$top/member_count")" = 2 ] || fail "reload+resume did not swap sysfs"
[ -e "$top/members/2" ] && fail "stale members/2 after swap"
[ "$(basename "$(readlink -f "$top/members/0/block")")" = "$(sysname "$d1")" ] ||
	fail "swapped member 0 link"

must dmsetup suspend hs
must dmsetup resume hs
[ -d "$top" ] || fail "suspend/resume lost the directory"

must dmsetup reload hs --table "0 32768 linear $d0 0"
must dmsetup resume hs
[ -e "$top" ] && fail "directory kept under a linear table"
must dmsetup reload hs --table "$(stripe_table ssdstripe 32768 8 "$d2" 0)"
must dmsetup resume hs
[ "$(cat "$top/member_count")" = 1 ] || fail "directory not back after reload"

rm_array hs
left=$(find /sys/devices -name ssdstripe -type d 2>/dev/null)
[ -z "$left" ] || fail "left behind: $left"
must rmmod dm_ssdstripe

n=0
while [ $n -lt 5 ]; do
	must modprobe dm-ssdstripe
	mk_array hs "$(stripe_table ssdstripe 49152 128 "$d0" 2048 "$d1" 2048 "$d2" 2048)"
	top=/sys/block/$(dm_sysname hs)/ssdstripe
	cat "$top/state" "$top/members/1/state" >/dev/null || fail "round $n: sysfs unreadable"
	rm_array hs
	must rmmod dm_ssdstripe
	n=$((n + 1))
done
pass "sysfs lifetime right; $n create/remove/rmmod rounds"
