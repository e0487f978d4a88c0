#!/bin/sh
# dm-ssdstripe demo.
#
# On the host (`make demo`, or `sh qemu/demo.sh [--kernel 6.1]`): boots a
# Debian kernel in QEMU with 4 emulated NVMe SSDs and runs this same script
# inside the guest, where it does what an administrator would: makes a
# RAID-0 array with `ssdstripe create` (showing the equivalent dmsetup
# line beside it), looks at it with `ssdstripe detail`, puts ext4 on it,
# writes and deletes data, runs fstrim, shows how much space TRIM gave back
# on every SSD (measured on the host, on each SSD's image file), then
# `ssdstripe status` and `ssdstripe stop`.  With the kernel's striped
# target (--target striped) the tool does not apply and it uses dmsetup.
if [ "${1:-}" != --guest ]; then
	exec bash "$(dirname "$0")/run.sh" --demo "$@"
fi

# ---------------------------------------------------------------- guest side
# shellcheck disable=SC1091 # lib/ is at /tests/integration in the guest
. /tests/integration/lib/common.sh
say() { echo "DEMO $*"; }
mib() { echo $(($1 / 2048)); }   # 512-byte blocks -> MiB

say "================================================================"
say "dm-ssdstripe demo: RAID-0 over 4 NVMe SSDs with TRIM pass-through"
say "kernel $(uname -r), device-mapper target '$TARGET'"
say "================================================================"
[ "$TARGET" = ssdstripe ] && modprobe dm-ssdstripe
say ""
say "The 4 emulated SSDs (found by serial number, not by name):"
i=0
for d in $(disks); do
	say "  ssd$i = $d  $(($(sectors "$d") / 2048)) MiB, discard max $(($(cat "/sys/block/$(sysname "$d")/queue/discard_max_bytes") / 1048576)) MiB"
	i=$((i + 1))
done
reset_disks

# shellcheck disable=SC2046 # the 4 disks are words
set -- $(disks)
# run CMD...: show it as typed at a root prompt, then its output
run() {
	say "   # $*"
	"$@" 2>&1 | sed 's/^/DEMO     /'
}
say ""
if [ "$TARGET" = ssdstripe ]; then
	say "1. Create the array with the ssdstripe tool: it checks that the SSDs hold"
	say "   nothing, writes a small label to each (so 'ssdstripe assemble' finds"
	say "   them again in any order) and activates /dev/mapper/demo:"
	run ssdstripe create --name demo --chunk 64K "$@"
	[ -b /dev/mapper/demo ] || { say "ssdstripe create failed"; exit 1; }
	# the live table names members by major:minor; show their paths
	t=$(ssdstripe table demo)
	for d in "$@"; do t=$(echo "$t" | sed "s| $(mm "$d") | $d |"); done
	say "   The same array by hand, without labels (the table dm-stripe takes):"
	say "   # dmsetup create demo --table \"$t\""
	say ""
	say "   What the array is made of:"
	run ssdstripe detail demo
else
	chunk=128    # 64 KiB chunks
	per=$((256 * 2048))
	table="0 $((4 * per)) $TARGET 4 $chunk $1 0 $2 0 $3 0 $4 0"
	say "1. Create the array (one dmsetup line, same grammar as dm-stripe):"
	say "   dmsetup create demo --table \"$table\""
	dmsetup create demo --table "$table" || { say "dmsetup create failed"; exit 1; }
fi
say "   -> /dev/mapper/demo, $(($(sectors /dev/mapper/demo) / 2048)) MiB;" \
	"it accepts discards up to $(($(cat "/sys/block/$(sysname /dev/mapper/demo)/queue/discard_max_bytes") / 1048576)) MiB in one request"

say ""
say "2. mkfs.ext4 and mount WITHOUT the discard option (trim happens later, by fstrim)"
mkfs.ext4 -q -F -E nodiscard /dev/mapper/demo || { say "mkfs failed"; exit 1; }
mkdir -p /mnt/demo
mount -t ext4 -o nodiscard /dev/mapper/demo /mnt/demo || { say "mount failed"; exit 1; }

b0=$(host_blocks)
say ""
say "3. Write 256 MiB of files"
pat=$(pattern_file 8)
i=0
while [ $i -lt 32 ]; do dd if="$pat" of=/mnt/demo/file.$i bs=1M count=8 2>/dev/null; i=$((i + 1)); done
sync
b1=$(host_blocks)
say "4. Delete them (the SSDs still hold the blocks: nobody told them)"
rm -f /mnt/demo/file.*
sync
b2=$(host_blocks)
say "5. fstrim /mnt/demo  (util-linux; the array passes the TRIM to every SSD)"
/sbin/fstrim -v /mnt/demo | sed 's/^/DEMO    /'
b3=$(host_blocks)

say ""
say "Space used on each SSD, as its image file on the host sees it (MiB):"
say "            after mkfs   after write   after rm   after fstrim   freed by TRIM"
i=0 ok=1
while [ $i -lt 4 ]; do
	v0=$(echo "$b0" | cut -d' ' -f$((i + 1))); v1=$(echo "$b1" | cut -d' ' -f$((i + 1)))
	v2=$(echo "$b2" | cut -d' ' -f$((i + 1))); v3=$(echo "$b3" | cut -d' ' -f$((i + 1)))
	say "$(printf '  ssd%d  %12d  %12d  %9d  %13d  %14d' $i "$(mib "$v0")" "$(mib "$v1")" "$(mib "$v2")" "$(mib "$v3")" "$(mib $((v2 - v3)))")"
	[ $((v2 - v3)) -ge $((200 * 2048 / 4)) ] || ok=0
	i=$((i + 1))
done
if [ $ok = 1 ]; then
	say "Each SSD got back its quarter of the 256 MiB: the TRIM reached all four."
else
	say "Some SSD did not get its space back: TRIM did not reach it!"
fi

umount /mnt/demo
say ""
say "6. A short fio run on the raw array (emulated SSDs, software CPU: numbers are only illustrative)"
fio --name=demo --filename=/dev/mapper/demo --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randread --bs=4k --size=256M --runtime=5 --time_based --output-format=terse \
	--terse-version=3 2>/dev/null | awk -F';' '{printf "DEMO    4 KiB random read:  %d IOPS, %.1f MiB/s\n", $8, $7 / 1024}'
fio --name=demo --filename=/dev/mapper/demo --direct=1 --ioengine=libaio --iodepth=4 \
	--rw=write --bs=1m --size=256M --runtime=5 --time_based --output-format=terse \
	--terse-version=3 2>/dev/null | awk -F';' '{printf "DEMO    1 MiB sequential write: %.1f MiB/s\n", $48 / 1024}'
if [ "$TARGET" = ssdstripe ]; then
	say ""
	say "7. Per-SSD health and statistics (state, I/O, errors, latency, what TRIM reached):"
	run ssdstripe status demo
	say "   The same from the kernel: /sys/block/$(sysname /dev/mapper/demo)/ssdstripe/ (sysfs), and"
	say "   # dmsetup status demo"
	say "   $(dmsetup status demo)"
	say ""
	say "8. Stop the array (the labels stay; 'ssdstripe assemble demo' brings it back):"
	run ssdstripe stop demo
else
	dmsetup remove demo
fi
say ""
say "Done."
