#!/bin/sh
# DESCRIPTION: ten minutes of verified I/O, trims, live reloads and messages on two arrays sharing four SSDs
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: ssdstripe
# RUN: on-request
#
# Soak (make soak; not in make check): SSD_SOAK_SECS (default 600) of
# everything at once on two arrays sharing four NVMe members:
#   array A (raw): fio random writes with crc32c verify (verify_backlog),
#     random reads of a region written once before, random trims of a
#     third region; every ~15 s suspend / reload (thresholds changed
#     through the table) / resume, threshold and reset_stats messages,
#     status and sysfs reads;
#   array B (ext4): write files, check them, delete them, fstrim, again.
# Afterwards: fio without a single error or verify failure, the read
# region and every file as written, no error counted on any member,
# e2fsck clean, removal and module unload succeed.  On the debug kernel
# the runner then fails on any kmemleak report, run.sh on any other.
. /tests/integration/lib/common.sh
. /tests/integration/lib/faults.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

secs=${SSD_SOAK_SECS:-600}
S=1048576				# 512 MiB of each member per array
d0=$(disk 0) d1=$(disk 1) d2=$(disk 2) d3=$(disk 3)
[ "$(sectors "$d0")" -ge $((2 * S)) ] || skip "members smaller than 1 GiB"
table_a() { # [features...]
	stripe_table ssdstripe $((4 * S)) 128 "$d0" 0 "$d1" 0 "$d2" 0 "$d3" 0 ${1:+-- "$@"}
}
mk_array sa "$(table_a)"
mk_array sb "$(stripe_table ssdstripe $((4 * S)) 256 "$d3" "$S" "$d2" "$S" \
	"$d1" "$S" "$d0" "$S")"
top=/sys/block/$(dm_sysname sa)/ssdstripe

# array A: [0, 512M) writes+verify, [512M, 1G) read region, [1G, 2G) trims
R=64					# MiB of the read region that is checked
dd if="$(pattern_file "$R")" of=/dev/mapper/sa bs=1M seek=512 count="$R" \
	oflag=direct conv=fsync 2>/dev/null || fail "prefill failed"
timeout -s KILL $((secs + FAULT_BOUND)) fio --filename=/dev/mapper/sa \
	--direct=1 --ioengine=libaio --time_based --runtime="$secs" \
	--name=write --rw=randwrite --bs=4k --iodepth=8 --offset=0 --size=512M \
	--verify=crc32c --verify_backlog=256 \
	--name=read --rw=randread --bs=16k --iodepth=4 --offset=512M --size="${R}M" \
	--name=trim --rw=randtrim --bs=64k --iodepth=2 --offset=1G --size=1G \
	>/tmp/fio-soak.txt 2>&1 &
fio_pid=$!

mkfs.ext4 -q -E nodiscard /dev/mapper/sb >/dev/null 2>&1 || fail "mkfs.ext4 failed"
mkdir -p /mnt/sb
modprobe ext4 2>/dev/null	# busybox mount only tries loaded file systems
must mount -t ext4 /dev/mapper/sb /mnt/sb
pat=$(pattern_file 4)
want=$(md5sum <"$pat")

t_end=$(($(date +%s) + secs))
rounds=0 reloads=0
while [ "$(date +%s)" -lt "$t_end" ]; do
	rounds=$((rounds + 1))
	# array B: files, check, delete, trim
	i=0
	while [ $i -lt 8 ]; do
		cp "$pat" "/mnt/sb/f.$rounds.$i" || fail "write to ext4 failed"
		i=$((i + 1))
	done
	sync
	i=0
	while [ $i -lt 8 ]; do
		[ "$(md5sum <"/mnt/sb/f.$rounds.$i")" = "$want" ] || fail "f.$rounds.$i corrupted"
		i=$((i + 1))
	done
	rm -f /mnt/sb/f.*
	fstrim /mnt/sb || fail "fstrim failed"
	# array A: live table changes and messages under fio
	if [ $((rounds % 2)) = 0 ]; then
		v=$((5 + rounds % 5))	# never the default 4, which the table omits
		must dmsetup suspend sa
		must dmsetup reload sa --table "$(table_a slow_factor "$v" min_ios $((8 + rounds % 9)))"
		must dmsetup resume sa
		reloads=$((reloads + 1))
		dmsetup table sa | grep -q "slow_factor $v " || fail "reloaded table lost slow_factor: $(dmsetup table sa)"
	fi
	must dmsetup message sa 0 slow_windows $((1 + rounds % 5))
	must dmsetup message sa 0 reset_stats
	must dmsetup status sa
	cat "$top"/state "$top"/members/*/state "$top"/members/*/latency_histogram >/dev/null ||
		fail "sysfs unreadable"
	kill -0 "$fio_pid" 2>/dev/null || break
	sleep 5
done
log "$rounds rounds, $reloads live reloads; waiting for fio"

wait "$fio_pid"
rc=$?
[ "$rc" = 137 ] && fail "fio not done ${FAULT_BOUND}s after its runtime: a bio hangs"
grep -E 'err=|errors|verify' /tmp/fio-soak.txt | head -n 5
[ "$rc" = 0 ] || fail "fio exit $rc: $(grep -m 3 -E 'error|verify|err=' /tmp/fio-soak.txt)"
grep -qE 'verify failed|bad magic|io_u error' /tmp/fio-soak.txt && fail "fio reported failures"
grep -E '^ *write: IOPS|^ *read: IOPS|^ *trim: IOPS' /tmp/fio-soak.txt | sed 's/^/    /'

got=$(dd if=/dev/mapper/sa bs=1M skip=512 count="$R" iflag=direct 2>/dev/null | md5sum)
[ "$got" = "$(md5sum <"$(pattern_file "$R")")" ] || fail "read region changed"
for m in 0 1 2 3; do
	[ "$(cat "$top/members/$m/errors")" = 0 ] || fail "errors counted on member $m"
done
umount /mnt/sb
must e2fsck -fn /dev/mapper/sb
rm_array sa
rm_array sb
must rmmod dm_ssdstripe
pass "${secs}s: $rounds rounds, $reloads reloads, fio and files verified"
