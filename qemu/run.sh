#!/bin/bash
# Boot a Debian kernel in QEMU (TCG) with emulated NVMe SSDs and run the
# dm-ssdstripe integration tests (or the demo) inside it.
#
#   qemu/run.sh [--kernel 6.12|6.1|sid|debug] [--tests SELECTION] [--quick] [--demo]
#               [--shell] [--disks N] [--disk-size SIZE] [--timeout SECS] [--target striped]
#               [--module KO] [--no-module] [--log FILE] [--mem MB]
#               [--test-timeout SECS] [--guest-env VAR=VALUE,...] [--shard NAME]
#               [--append 'KERNEL ARGS'] [--storage-hosts N [--storage-disks M]
#               [--storage-disk-size SIZE] [--storage-mem MB]] [--sh-tool COMMIT]
#
# --tests takes all (the default), GROUP or GROUP/NNN, comma separated
# (tests/integration/list; all leaves out RUN: on-request tests); --quick
# keeps the tests whose header says QUICK: yes.
# UPDATE=1 in the environment: a test whose golden output differs from its
# GROUP/NNN.out (or has none yet) passes, and its output is written to
# tests/integration/GROUP/NNN.out here (tests/integration/runner.sh).
# --append adds to the kernel command line (debugging the rig, e.g. an
# rdinit= that does not exist shows what a kernel that dies before /init
# does to a run: it is booted once more, and said so).
# --shard NAME keeps this run's files (module build, initramfs, disk images)
# apart, under run/<abi>-NAME, so that tests/integration/check-debug can run
# two guests at once; with SSDSTRIPE_QEMU_LOCKED=1 the caller holds the QEMU
# lock.
# --storage-hosts N boots N storage guests first (the fabric rig, qemu/rig.sh):
# each exports its M NVMe disks (--storage-disks, default 1, as large as
# --disk-size) with nvmet over TCP on a point-to-point link of its own to the
# test guest (QEMU socket netdevs on 127.0.0.1; 198.18.K.1 and .2 inside);
# they end with the test guest, and their consoles are checked as its is.
# --sh-tool COMMIT puts the sh tool of that commit (scripts/ssdstripe and
# scripts/lib, from git) into the guest as /usr/lib/ssdstripe-sh/ssdstripe.sh,
# for a test that compares the C program with it (tool/029's CPU cost).
# --kernel debug boots the KASAN/lockdep/kmemleak kernel of qemu/debug-kernel
# (built once, cached); the guest then also fails on any kmemleak report.
# Steps: fetch the kernel image (qemu/fetch-kernel.sh), build dm-ssdstripe.ko
# against the matching headers (in a copy of the tree under the cache), build
# the initramfs, create sparse raw images, boot, collect RESULT lines, check the
# console for BUG/WARNING/oops/hung tasks.  Exit 0 only if everything passed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${SSDSTRIPE_CACHE:-/var/tmp/ssdstripe}
# shellcheck source=qemu/rig.sh
. "$here/rig.sh"

series=6.12 tests=all quick='' mode=tests disks=4 disk_size=2G timeout='' target='' bench=full
module='' no_module='' sh_tool='' logfile='' mem='' test_timeout='' guest_env='' shard='' append='' boot_limit=''
storage_hosts=0 storage_disks=1 storage_disk_size='' storage_mem=512
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) series=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--demo) mode=demo; shift ;;
	--bench) mode=bench; bench=${2:-full}; shift 2 ;;
	--shell) mode=shell; shift ;;
	--disks) disks=$2; shift 2 ;;
	--disk-size) disk_size=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--target) target=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	--no-module) no_module=1; shift ;;
	--log) logfile=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--test-timeout) test_timeout=$2; shift 2 ;;
	--guest-env) guest_env=$2; shift 2 ;;
	--shard) shard=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--storage-hosts) storage_hosts=$2; shift 2 ;;
	--storage-disks) storage_disks=$2; shift 2 ;;
	--storage-disk-size) storage_disk_size=$2; shift 2 ;;
	--storage-mem) storage_mem=$2; shift 2 ;;
	--sh-tool) sh_tool=$2; shift 2 ;;
	-h|--help) sed -n '2,35p' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done

log() { printf 'run: %s\n' "$*" >&2; }
# failures before the guest ran still end with the summary line make check reads
die() { log "error: $*"; [ "$mode" = tests ] && echo "0 passed, 1 failed"; exit 1; }

# what --tests names must exist (the guest's runner reads the same headers)
if [ "$mode" = tests ]; then
	picked=$(sh "$repo/tests/integration/list" ${quick:+--quick} "$tests") ||
		die "--tests $tests: see tests/integration/list"
	[ -n "$picked" ] || die "--tests $tests${quick:+ --quick} selects no test"
fi

mkdir -p "$cache"
# The debug kernel builds (once, for up to an hour) before we queue for QEMU.
if [ "$series" = debug ]; then
	abi=$("$here/debug-kernel") || die "cannot build the debug kernel"
fi
# sid's first fetch makes its build root (minutes): not while holding the lock
if [ "$series" = sid ]; then
	"$here/fetch-kernel.sh" sid >/dev/null || die "cannot fetch kernel sid"
fi
# a guest slot on this machine (shared cores; rig.sh).  A guest in another
# slot than 0 keeps its files apart, as a shard does: another run of the
# same kernel may be using slot 0's.
rig_slot_take
[ "$rig_slot_index" = 0 ] || shard=${shard:+$shard-}slot$rig_slot_index

"$repo/scripts/need-debs" qemu-system-x86_64:qemu-system-x86 || die "cannot install QEMU"

if [ "$series" = debug ]; then
	kdir=$(cat "$cache/kernels/$abi/kdir")
	# KASAN and lockdep under TCG: several times slower, twice the memory
	: "${timeout:=5400}" "${mem:=2048}" "${test_timeout:=1200}"
	boot_limit=900
else
	abi=$("$here/fetch-kernel.sh" "$series") || die "cannot fetch kernel $series"
	kdir="/usr/src/linux-headers-$abi"
	# headers that are not on this host (sid: in its build root)
	[ -f "$cache/kernels/$abi/kdir" ] && kdir=$(cat "$cache/kernels/$abi/kdir")
fi
: "${timeout:=1800}" "${mem:=1024}" "${test_timeout:=300}"
# seconds for the kernel to reach our /init before boot_watch calls it
# hung ($SSDSTRIPE_BOOT_LIMIT: to try that path)
: "${boot_limit:=${SSDSTRIPE_BOOT_LIMIT:-300}}"
kroot="$cache/kernels/$abi"
work="$cache/run/$abi${shard:+-$shard}"
mkdir -p "$work"

# ---- build cache ------------------------------------------------------------
# The module and the initramfs of one tree and kernel are built once and
# kept (a day) under $cache/built, keyed by the tree's contents: the guests
# check.sh boots one after the other (RUN: alone tests) and runs of an
# unchanged tree start at once.  Two runs building one key at the same
# time both build; the first to finish publishes it.
built=$cache/built
mkdir -p "$built"
find "$built" -mindepth 1 -maxdepth 1 -mmin +1440 -exec rm -rf {} + 2>/dev/null || true
tree_key=$(tar -C "$repo" --exclude=.git --exclude-vcs-ignores --sort=name --mtime=@0 \
	--owner=0 --group=0 --numeric-owner -cf - . 2>/dev/null | sha256sum | cut -c1-16)
# publish FILE NAME: keep FILE as $built/NAME (atomically)
publish() {
	cp "$1" "$built/.$2.$$" && mv -f "$built/.$2.$$" "$built/$2"
}

# ---- module --------------------------------------------------------------
if [ -z "$module" ] && [ -z "$no_module" ] && [ "$target" != striped ]; then
	if [ -d "$repo/dm-ssdstripe" ] && [ -e "$repo/Makefile" ]; then
		if [ -e "$built/$abi-$tree_key.ko" ]; then
			module=$built/$abi-$tree_key.ko
			log "dm-ssdstripe.ko of this tree for $abi: built before ($module)"
		else
			bdir="$cache/build/$abi${shard:+-$shard}"
			log "building dm-ssdstripe.ko against $kdir (in $bdir)"
			"$repo/scripts/need-debs" make:make gcc:gcc || die "cannot install make and gcc"
			rm -rf "$bdir"
			mkdir -p "$bdir"
			tar -C "$repo" --exclude=.git -cf - . | tar -C "$bdir" -xf -
			(cd "$bdir" && { make KDIR="$kdir" clean >/dev/null 2>&1 || true; } &&
			 make KDIR="$kdir" >"$work/module-build.log" 2>&1) ||
				{ tail -n 30 "$work/module-build.log" >&2; die "module build failed (log: $work/module-build.log)"; }
			module="$bdir/dm-ssdstripe/dm-ssdstripe.ko"
			[ -e "$module" ] || module=$(find "$bdir" -name dm-ssdstripe.ko | head -n 1)
			[ -n "$module" ] || die "build produced no dm-ssdstripe.ko"
			[ -n "$tree_key" ] && publish "$module" "$abi-$tree_key.ko"
		fi
	else
		log "no dm-ssdstripe sources in $repo: testing the kernel's striped target instead"
		target=striped
	fi
fi
[ -n "$no_module" ] && [ -z "$target" ] && target=striped

perf=''
[ "$mode" = bench ] && perf=1	# the benchmark profiles map and end_io
sh_dir=''
if [ -n "$sh_tool" ]; then
	sh_rev=$(git -C "$repo" rev-parse --verify -q "$sh_tool^{commit}") ||
		die "--sh-tool $sh_tool: no such commit in $repo (a clone with its history is needed)"
	sh_dir=$work/sh-tool
	rm -rf "$sh_dir"
	mkdir -p "$sh_dir"
	git -C "$repo" archive "$sh_rev" scripts/ssdstripe scripts/lib VERSION | tar -x -C "$sh_dir" ||
		die "--sh-tool $sh_tool: cannot export its scripts/"
fi
initrd_key=$( (cat "$here/build-initramfs.sh" ${module:+"$module"}; echo "${sh_rev:-}") | sha256sum | cut -c1-16)
initrd_name=$abi-$tree_key-$initrd_key${perf:+-perf}.cpio.gz
if [ -n "$tree_key" ] && [ -e "$built/$initrd_name" ]; then
	initrd=$built/$initrd_name
	log "initramfs of this tree for $abi: built before ($initrd)"
else
	initrd="$work/initramfs.cpio.gz"
	"$here/build-initramfs.sh" --abi "$abi" --out "$initrd" ${module:+--module "$module"} ${perf:+--perf} \
		${sh_dir:+--sh-tool "$sh_dir"} ||
		die "initramfs build failed"
	[ -n "$tree_key" ] && publish "$initrd" "$initrd_name"
fi

# ---- disks ---------------------------------------------------------------
images=()
serials=()
for ((i = 0; i < disks; i++)); do
	img="$work/ssd$i.img"
	rm -f "$img"
	truncate -s "$disk_size" "$img"
	images+=("$img")
	serials+=("ssd$i")
done
mapfile -t drive_args < <(nvme_drive_args "$work" "${serials[@]}")

# ---- host measurement channel ---------------------------------------------
# virtio-serial port org.ssdstripe.measure backed by a FIFO pair; the guest
# writes "measure <seq>" and we answer "<seq> <blocks of ssd0> <blocks of ssd1>..."
fifo="$work/measure"
rm -f "$fifo.in" "$fifo.out"
mkfifo "$fifo.in" "$fifo.out"
monitor=$work/monitor.sock
measure_server() {
	local cmd seq ans img
	exec 3<"$fifo.out" 4>"$fifo.in"
	while IFS=' ' read -r cmd seq <&3; do
		cmd=${cmd//$'\r'/}
		case "$cmd" in
		measure)
			ans=$seq
			for img in "${images[@]}"; do ans="$ans $(stat -c %b "$img")"; done ;;
		fsblock) ans="$seq $(stat -f -c %S "$work")" ;;
		storage-ready[0-9]* | storage-stop[0-9]* | storage-cont[0-9]* | storage-blocks[0-9]*)
			# the fabric rig's storage guest K (rig_storage_cmd)
			k=${cmd##*[!0-9]} w=${cmd#storage-}
			ans="$seq $(rig_storage_cmd "$k" "${w%"$k"}")" ;;
		unplug[0-9]*)
			# Surprise for the guest: pull SSD K out of its PCIe slot.
			ans="$seq $(rig_monitor_cmd "$monitor" "device_del nvme${cmd#unplug}")" ;;
		powercut)
			# the guest asks for a power cut (tests of RUN: alone, in
			# phases): QEMU is killed at once; the loop below boots
			# again, phase + 1, on the same disks
			: >"$work/powercut"
			kill -9 "$(cat "$work/qemu.pid" 2>/dev/null)" 2>/dev/null
			ans="$seq ok" ;;
		critwarn[0-9]*.[0-9]*)
			# critwarnK.V: SSD K's controller reports NVMe critical-warning
			# bits V in its SMART/health log (0 clears them)
			k=${cmd#critwarn} k=${k%%.*}
			ans="$seq $(rig_monitor_cmd "$monitor" "qom-set /machine/peripheral/nvme$k smart_critical_warning ${cmd#*.}")" ;;
		*) ans="$seq error unknown command" ;;
		esac
		printf '%s\n' "$ans" >&4
	done
}

# a run of one test (check.sh's RUN: alone ones) keeps its console apart
# from the suite's, in the same work directory
if [ -z "$logfile" ]; then
	logfile=$work/console-$mode.log
	case $mode:$tests in
	tests:*,*) ;;
	tests:*/*) logfile=$work/console-tests-${tests//\//-}.log ;;
	esac
fi
: >"$logfile"
cmdline="console=ttyS0 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1 panic=-1"
cmdline+=" mitigations=off ssdmode=$mode ssdtests=$tests${quick:+ ssdquick=1} ssddisks=$disks ssdbench=$bench"
cmdline+=" ssdtesttimeout=$test_timeout${guest_env:+ ssdenv=$guest_env}"
[ "$storage_hosts" -gt 0 ] && cmdline+=" ssdlinks=$storage_hosts"
[ -n "$target" ] && cmdline+=" ssdtarget=$target"
if [ "${UPDATE:-}" = 1 ]; then cmdline+=" ssdupdate=1"; fi
# The debug kernel's boot-time W+X page-table walk runs under KASAN for
# 20-30 s of a starved vCPU when other guests share the host: with the
# default threshold that is a soft lockup (seen with three debug guests on
# two cores).  Lockups of over 120 s still fail the run.
[ "$series" = debug ] && cmdline+=" watchdog_thresh=60"
[ -n "$append" ] && cmdline+=" $append"

# qemu_cmd PHASE: the QEMU command line (qemu[]) of boot PHASE: a test
# that asks for a power cut runs again in the next phase, on the same disks
qemu_cmd() {
	# shellcheck disable=SC2054  # commas belong to QEMU option values
	qemu=(qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m "$mem"
		-nographic -no-reboot -nic none -pidfile "$work/qemu.pid"
		-kernel "$kroot/boot/vmlinuz-$abi" -initrd "$initrd" -append "$cmdline ssdphase=$1"
		-monitor "unix:$monitor,server=on,wait=off"
		-device virtio-serial-pci,id=vser
		-chardev "pipe,id=meas,path=$fifo"
		-device "virtserialport,bus=vser.0,chardev=meas,name=org.ssdstripe.measure"
		"${drive_args[@]}" "${net_args[@]}")
}

# the fabric rig: storage guests first, their links listening for ours
net_args=()
if [ "$storage_hosts" -gt 0 ]; then
	: "${storage_disk_size:=$disk_size}"
	log "$storage_hosts storage guest(s), $storage_disks NVMe x $storage_disk_size each, ${storage_mem} MB, 2 vCPUs"
	trap 'rig_storage_stop >/dev/null 2>&1' EXIT
	rig_storage_start "$work" "$storage_hosts" "$storage_disks" "$storage_disk_size" "$storage_mem" \
		"$kroot/boot/vmlinuz-$abi" "$initrd" $((timeout + 120)) || die "storage guests did not start"
	mapfile -t net_args < <(rig_storage_net_args)
fi

log "kernel $abi, $disks NVMe x $disk_size, mode $mode, tests $tests${quick:+ (quick)}, target ${target:-ssdstripe}"
log "console log: $logfile"
boot_failures=0 phase=1 cuts=''
rm -f "$work/powercut" "$logfile.phases"
while :; do
	start=$(date +%s)
	qemu_cmd "$phase"
	measure_server &
	mpid=$!
	rig_link_nodelay
	if [ "$mode" = shell ]; then
		"${qemu[@]}" | tee "$logfile"
		rc=0
	else
		set +e
		timeout -k 10 "$timeout" "${qemu[@]}" </dev/null >"$logfile" 2>&1 &
		qpid=$!
		boot_watch "$logfile" '^ssdstripe-guest: kernel' "$boot_limit" "$qpid" &
		wpid=$!
		# live progress
		if [ "$mode" = demo ]; then
			tail -n +1 -f --pid="$qpid" "$logfile" 2>/dev/null |
				sed -u -n 's/\r$//; s/^DEMO //p' &
		else
			tail -n +1 -f --pid="$qpid" "$logfile" 2>/dev/null |
				grep --line-buffered -E '^(RESULT|=== RUN|ssdstripe-guest:|BENCH-PROGRESS)|^  ' &
		fi
		tpid=$!
		wait "$qpid"
		rc=$?
		kill "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
		sleep 0.5
		kill "$tpid" 2>/dev/null
		wait "$tpid" 2>/dev/null
		set -e
	fi
	kill "$mpid" 2>/dev/null || true
	wait "$mpid" 2>/dev/null || true
	# A kernel that dies before our /init prints its first line: boot once
	# more (rig.sh says why); a second such failure, or any failure after
	# /init started, fails the run as always.
	if [ "$mode" != shell ] && [ "$boot_failures" = 0 ] &&
		early=$(died_before_init "$logfile" '^ssdstripe-guest: kernel'); then
		boot_failures=1
		cp "$logfile" "$logfile.boot-failure"
		boot_note="the kernel died or hung before /init ran ($early); booted again, that console is $logfile.boot-failure"
		log "BOOT FAILURE: $boot_note"
		: >"$logfile"
		continue
	fi
	# A power cut the guest asked for: boot again on the same disks, in
	# the next phase; what each boot printed is kept, in order
	if [ -e "$work/powercut" ]; then
		rm -f "$work/powercut"
		cat "$logfile" >>"$logfile.phases"
		echo "=== POWER CUT at the end of phase $phase" >>"$logfile.phases"
		log "power cut in phase $phase (the guest asked for it); phase $((phase + 1)) boots on the same disks"
		cuts="$cuts $phase"
		phase=$((phase + 1))
		if [ "$phase" -le 12 ]; then
			: >"$logfile"
			continue
		fi
		log "more than 11 power cuts in one run: stopping"
		rc=1
	fi
	break
done
if [ -e "$logfile.phases" ]; then
	cat "$logfile" >>"$logfile.phases"
	mv "$logfile.phases" "$logfile"
fi
end=$(date +%s)
elapsed=$((end - start))
storage_bad=''
if [ "$storage_hosts" -gt 0 ]; then
	storage_bad=$(rig_storage_stop)
	trap - EXIT
fi
[ "$mode" = shell ] && exit 0

# ---- verdict ---------------------------------------------------------------
failed=0
tr -d '\r' <"$logfile" >"$logfile.clean"
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	log "TIMEOUT: guest killed after ${timeout}s"
	failed=1
elif [ "$rc" != 0 ]; then
	log "qemu exited with status $rc"
	failed=1
fi
if [ -s "$logfile.hung" ] && hung=$(died_before_init "$logfile" '^ssdstripe-guest: kernel'); then
	log "BOOT FAILURE: the kernel hung before /init ran ($hung); stopped"
	failed=1
fi
if ! grep -q '^ssdstripe-guest: done' "$logfile.clean"; then
	log "guest did not finish its run"
	failed=1
fi
# the kernel echoes its command line (hung_task_panic=...): not a finding
if grep -E "$console_bad_re" "$logfile.clean" | grep -v -E 'Command line:|command line:' >"$work/console-bad.txt"; then
	log "console check FAILED:"
	head -n 20 "$work/console-bad.txt" >&2
	failed=1
fi
if [ -n "$storage_bad" ]; then
	printf '%s\n' "$storage_bad" | sed 's/^/run: /' >&2
	failed=1
fi

# golden_write: UPDATE=1: each test's golden output that the runner sent
# (GOLDEN-BEGIN NAME, "GOLDEN NAME|line"..., GOLDEN-END NAME COUNT) becomes
# tests/integration/NAME.out
golden_write() {
	local name count f got n=0
	while read -r _ name count; do
		f=$repo/tests/integration/$name
		if [ ! -f "$f" ]; then
			log "UPDATE=1: golden output of $name, which is no test here"
			failed=1
			continue
		fi
		got=$(mktemp)
		awk -v p="GOLDEN $name|" 'index($0, p) == 1 { print substr($0, length(p) + 1) }' \
			"$logfile.clean" >"$got"
		if [ "$(wc -l <"$got")" != "$count" ]; then
			log "UPDATE=1: $name sent $count lines of golden output, the console has $(wc -l <"$got"): $f.out left as it was"
			rm -f "$got"
			failed=1
			continue
		fi
		chmod 0644 "$got"
		mv "$got" "$f.out"
		log "UPDATE=1: wrote tests/integration/$name.out (git diff shows what changed)"
		n=$((n + 1))
	done < <(grep '^GOLDEN-END ' "$logfile.clean" || true)
	[ "$n" -gt 0 ] || log "UPDATE=1: every golden output was as its .out file says; nothing written"
}
if [ "$mode" = tests ] && [ "${UPDATE:-}" = 1 ]; then
	golden_write
fi

[ "$boot_failures" = 0 ] || log "note: $boot_note"
if [ "$mode" = tests ]; then
	echo
	echo "=== dm-ssdstripe integration tests on $abi (target ${target:-ssdstripe}), ${elapsed}s ==="
	grep '^RESULT ' "$logfile.clean" | sed 's/^RESULT //' || true
	npass=$(grep -c '^RESULT [^ ]* PASS' "$logfile.clean" || true)
	nfail=$(grep -c '^RESULT [^ ]* FAIL' "$logfile.clean" || true)
	nskip=$(grep -c '^RESULT [^ ]* SKIP' "$logfile.clean" || true)
	[ "$nskip" -gt 0 ] && echo "$nskip skipped"
	# a test that began and never said how it ended (a guest that died
	# with it, a RESULT line that did not start a line) is a failure
	lost=$(awk '/^=== RUN / { r[$3] = 1 } /^RESULT / { delete r[$2] }
		END { for (t in r) printf "%s ", t }' "$logfile.clean")
	if [ -n "$lost" ]; then
		echo "no result: $lost"
		nfail=$((nfail + $(echo "$lost" | wc -w)))
	fi
	if [ "$npass" = 0 ] && [ "$nfail" = 0 ]; then
		log "no test results in the console log"
		failed=1
	fi
	# a broken run (timeout, console finding, guest died) counts as one more failure
	if [ "$failed" != 0 ]; then
		echo "run failed (timeout, console check or unfinished guest), see $logfile"
		nfail=$((nfail + 1))
	fi
	echo "$npass passed, $nfail failed"
	[ "$nfail" = 0 ] && [ "$failed" = 0 ]
	exit $?
else
	echo "$mode finished in ${elapsed}s (console log $logfile)"
	if [ "$mode" = bench ] && ! grep -q '^BENCH-DONE' "$logfile.clean"; then
		log "the benchmark did not finish"
		failed=1
	fi
	exit "$failed"
fi
