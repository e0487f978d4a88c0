#!/bin/sh
# DESCRIPTION: seeded random table lines and messages: accepted ones round-trip, refused ones leave nothing
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Table and message fuzzing.  fuzz-table.awk makes seeded random table
# lines (valid, mutated, garbage) and message strings over ten member
# devices (4 NVMe disks, 4 small dm-linear slices, 2 null_blk with 4 KiB
# blocks).  Every line is either accepted and round-trips through dmsetup
# table (create again from the printed table prints the same table), or
# refused with a message and leaves no device.  Valid lines must be
# accepted and print the expected table; messages to live arrays succeed
# or are refused with a kernel message.  No kernel report in any case.
#
# SSD_FUZZ_SEED (default random) and SSD_FUZZ_COUNT (default 400) pick
# the run; a failure prints the seed, the case and how to reproduce it:
#   qemu/run.sh --tests 050 --guest-env SSD_FUZZ_SEED=S,SSD_FUZZ_COUNT=N
. /tests/integration/lib/common.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

seed=${SSD_FUZZ_SEED:-$(($(od -An -N4 -tu4 /dev/urandom)))}
count=${SSD_FUZZ_COUNT:-400}
log "seed $seed, $count table lines"
repro="reproduce: qemu/run.sh --tests 050 --guest-env SSD_FUZZ_SEED=$seed,SSD_FUZZ_COUNT=$count"

modprobe null_blk nr_devices=2 bs=4096 gb=1 || fail "null_blk unavailable"
slices 4 8192 >/dev/null
pool=''
add_pool() { # DEV LBS_SECTORS
	pool="$pool$1 $(cat "/sys/block/$(sysname "$1")/dev") $(sectors "$1") $2;"
}
for d in $(disks) /dev/mapper/ssl0 /dev/mapper/ssl1 /dev/mapper/ssl2 /dev/mapper/ssl3; do
	add_pool "$d" 1
done
add_pool /dev/nullb0 8
add_pool /dev/nullb1 8
awk -v seed="$seed" -v count="$count" -v msgs=$((count / 2)) -v pool="${pool%;}" \
	-f "$(dirname "$0")/fuzz-table.awk" >/tmp/fuzz.all || fail "generator failed"
grep '^msg ' /tmp/fuzz.all | cut -c7- >/tmp/fuzz.msgs
grep -v '^msg ' /tmp/fuzz.all >/tmp/fuzz.lines
nmsgs=$(wc -l </tmp/fuzz.msgs)

ndm() { _c=0; for _x in /sys/block/dm-*; do [ -e "$_x" ] && _c=$((_c + 1)); done; echo "$_c"; }
base=$(ndm)
n=0 acc=0 ref=0 msg_ok=0 msg_ref=0 mi=0 dmsetup_ref=0
line='' kind='' via=''
# The console would take thousands of refusal lines over a slow serial
# port: keep them in the ring buffer, read each case's share with
# dmesg -c and check it here.  Kernel reports still panic the guest.
loglevel=$(awk '{print $1}' /proc/sys/kernel/printk)
trap 'dmesg -n "$loglevel"' EXIT
dmesg -c >/dev/null
dmesg -n 1

bad() {
	printf '%s\n' "  fuzz case $n ($kind): [$line]" "  $*" | cut -c1-2000
	echo "  seed $seed; $repro"
	fail "seed $seed case $n ($kind): $*"
}
kcheck() { # kernel output of the step just done: no report of any kind
	case "$1" in
	*BUG:* | *WARNING:* | *KASAN* | *Oops* | *"general protection"* | \
	*"circular locking"* | *"recursive locking"* | *ODEBUG* | \
	*"list_add corruption"* | *"list_del corruption"* | *"unreferenced object"* | \
	*"non-static key"* | *"blocked for more than"*)
		printf '%s\n' "$1"
		bad "kernel report" ;;
	esac
}

# refused WHAT KERNEL_TEXT: dmsetup exited non-zero (output in
# /tmp/fz.out, kernel log of the step in $k).  If the kernel refused
# (dmsetup reports a failed ioctl) it must have said why; dmsetup may
# also refuse on its own (a start that is no number, a word that looks
# like an option), but never silently.  Sets via=kernel|dmsetup.
refused() {
	if grep -q ioctl /tmp/fz.out; then
		via=kernel
		case "$k" in
		*"$2"*) ;;
		*) bad "$1 refused by the kernel without a message: $(cat /tmp/fz.out)" ;;
		esac
	else
		via=dmsetup
		dmsetup_ref=$((dmsetup_ref + 1))
		[ -s /tmp/fz.out ] || bad "$1 refused by dmsetup without a word"
	fi
}

while IFS= read -r c; do
	n=$((n + 1))
	kind=${c%% *}
	rest=${c#* }
	if [ "$kind" = valid ]; then
		want=${rest%%|*} line=${rest#*|}
	else
		want='' line=${rest#- }
	fi
	if dmsetup create fz --table "$line" >/tmp/fz.out 2>&1; then
		k=$(dmesg -c)
		kcheck "$k"
		acc=$((acc + 1))
		t1=$(dmsetup table fz) || bad "dmsetup table failed"
		is_ss=1
		case "$t1" in
		"0 "*" ssdstripe "*) ;;
		# a wild line may name another target (error, linear, ...)
		*)
			if [ "$kind" != wild ] || [ -z "$t1" ]; then
				bad "accepted, but the table is [$t1]"
			fi
			is_ss='' ;;
		esac
		if [ -n "$want" ]; then
			case "$t1" in
			"$want" | "$want "*) ;;
			*) bad "table [$t1] does not start [$want]" ;;
			esac
		fi
		# two messages to the live array
		for _ in ${is_ss:+1 2}; do
			mi=$((mi % nmsgs + 1))
			m=$(sed -n "${mi}p" /tmp/fuzz.msgs)
			set -f	# messages hold * and ?: split into words, no globbing
			# shellcheck disable=SC2086
			dmsetup message fz 0 $m >/tmp/fz.out 2>&1
			r=$?
			set +f
			k=$(dmesg -c)
			if [ "$r" = 0 ]; then
				msg_ok=$((msg_ok + 1))
			else
				msg_ref=$((msg_ref + 1))
				case "$m" in
				# dm core's own messages (@stats_..., @cancel_deferred_remove)
				@*) refused "message [$m]" "device-mapper: " ;;
				*) refused "message [$m]" "ssdstripe: " ;;
				esac
			fi
			kcheck "$k"
		done
		t1=$(dmsetup table fz)
		[ $((acc % 8)) = 0 ] && dd if=/dev/mapper/fz of=/dev/null bs=4096 count=2 \
			iflag=direct 2>/dev/null
		dmsetup remove fz || bad "cannot remove"
		dmsetup create fz --table "$t1" >/tmp/fz.out 2>&1 ||
			bad "the printed table [$t1] is refused: $(cat /tmp/fz.out)"
		t2=$(dmsetup table fz)
		[ "$t2" = "$t1" ] || bad "round trip [$t1] -> [$t2]"
		dmsetup remove fz || bad "cannot remove"
		kcheck "$(dmesg -c)"
	else
		k=$(dmesg -c)
		kcheck "$k"
		ref=$((ref + 1))
		[ "$kind" = valid ] && bad "valid line refused: $(cat /tmp/fz.out) $k"
		refused "the line" "device-mapper: table: "
		if [ "$kind" = mutant ] && [ "$via" = dmsetup ]; then
			bad "dmsetup refused a line with a good prefix itself: $(cat /tmp/fz.out)"
		fi
		[ -e /dev/mapper/fz ] && bad "device left behind"
		[ "$(ndm)" = "$base" ] || bad "dm device left behind: $(dmsetup ls)"
	fi
	[ $((n % 250)) = 0 ] && log "$n lines: $acc accepted, $ref refused"
done </tmp/fuzz.lines

dmsetup info fz >/dev/null 2>&1 && bad "fz still exists"
rm_slices
[ "$(ndm)" = 0 ] || fail "dm devices left: $(dmsetup ls)"
must rmmod null_blk
must rmmod dm_ssdstripe
pass "seed $seed: $n lines, $acc accepted and round-tripped, $ref refused; messages $msg_ok ok, $msg_ref refused ($dmsetup_ref refusals by dmsetup itself)"
