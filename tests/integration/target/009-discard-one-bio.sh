#!/bin/sh
# DESCRIPTION: a 1 GiB discard reaches each member as one bio, and max_discard is the members' sum
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# A 1 GiB discard of the array reaches each member as ONE bio: the member's
# discard I/O counter (field 12 of /sys/block/X/stat) moves by exactly one,
# and the array advertises max_discard = members x (member limit rounded
# down to a chunk multiple).
. /tests/integration/lib/common.sh
m=4 chunk=128
reset_disks
per=$((384 * 2048))   # 384 MiB per member, 1.5 GiB array
mk_stripe t009 $((m * per)) $chunk $m 0 8
dm=$(dm_sysname t009)
mem_max=$(cat "/sys/block/$(sysname "$(disk 0)")/queue/discard_max_bytes")
arr_max=$(cat "/sys/block/$dm/queue/discard_max_bytes")
cb=$((chunk * 512))
want_max=$((m * (mem_max / cb * cb)))
log "member discard_max_bytes $mem_max, array $arr_max (expected $want_max)"

before=$(disks_stat 12)
abefore=$(disk_stat /dev/mapper/t009 12)
/usr/sbin/blkdiscard -o 0 -l $((1024 * 1024 * 1024)) /dev/mapper/t009 || fail "blkdiscard failed"
after=$(disks_stat 12)
aafter=$(disk_stat /dev/mapper/t009 12)
delta=$(vec_sub "$after" "$before")
log "member discard ios delta: $delta; array: $((aafter - abefore))"
rm_array t009

if [ "$TARGET" = striped ]; then
	skip "striped (reference): member discard delta [$delta], max_discard $arr_max; one-bio rule is ssdstripe's"
fi
[ "$arr_max" = "$want_max" ] || fail "array discard_max_bytes $arr_max, expected $want_max"
i=0
for x in $delta; do
	[ $i -lt $m ] || break
	[ "$x" = 1 ] || fail "ssd$i got $x discard requests for one 1 GiB discard (want 1): [$delta]"
	i=$((i + 1))
done
pass "each member got exactly one discard"
