#!/bin/sh
# What per-member accounting costs: 4 KiB random reads at QD32 on four
# null_blk members, the same array with accounting on and with no_stats,
# alternated in one guest run, median of 3 runs each.  Prints the ratio;
# fails only on a gross regression (more than 10 % slower), because
# software emulation is noisier than the 2 % goal this is measured against.
. /tests/integration/lib.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

modprobe null_blk nr_devices=4 gb=1 queue_mode=2 irqmode=0 memory_backed=0 ||
	skip "no null_blk"
len=$((4 * 1024 * 1024 * 2))	# 4 x 1 GiB in sectors
devs=""
for i in 0 1 2 3; do devs="$devs /dev/nullb$i 0"; done
# shellcheck disable=SC2086
mk_array acc_on "$(stripe_table ssdstripe $len 128 $devs)"
# shellcheck disable=SC2086
mk_array acc_off "$(stripe_table ssdstripe $len 128 $devs -- no_stats)"

iops() { # DEVICE -> read IOPS
	fio --name=r --filename="$1" --direct=1 --ioengine=libaio --iodepth=32 \
		--rw=randread --bs=4k --time_based --runtime=4 --ramp_time=1 \
		--output-format=terse --terse-version=3 2>/dev/null |
		awk -F';' '{print $8}'
}
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

on1=$(iops /dev/mapper/acc_on); off1=$(iops /dev/mapper/acc_off)
off2=$(iops /dev/mapper/acc_off); on2=$(iops /dev/mapper/acc_on)
on3=$(iops /dev/mapper/acc_on); off3=$(iops /dev/mapper/acc_off)
on=$(median3 "$on1" "$on2" "$on3")
off=$(median3 "$off1" "$off2" "$off3")
log "IOPS with accounting: $on1 $on2 $on3, without: $off1 $off2 $off3"
if ! [ "${on:-0}" -gt 0 ] || ! [ "${off:-0}" -gt 0 ]; then
	fail "fio gave no IOPS"
fi
ratio=$(awk -v a="$on" -v b="$off" 'BEGIN {printf "%.3f", a / b}')
reads=$(cat "/sys/block/$(dm_sysname acc_on)/ssdstripe/members/0/read_ios")
[ "$reads" -gt 0 ] || fail "accounting on counted no reads"
[ "$(cat "/sys/block/$(dm_sysname acc_off)/ssdstripe/members/0/read_ios")" = 0 ] ||
	fail "no_stats still counted"
awk -v r="$ratio" 'BEGIN {exit !(r >= 0.90)}' ||
	fail "accounting costs too much: on/off = $ratio"
rm_array acc_on
rm_array acc_off
pass "accounting on/off IOPS ratio $ratio (median $on vs $off)"
