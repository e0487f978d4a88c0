# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the rig's two runners share; sourced by qemu/run.sh and
# qemu/boot-root.sh so that both attach disks, take a guest slot and judge
# a console alike.  Needs $cache (the rig's cache directory).

# ---- disks ------------------------------------------------------------------
# nvme_drive_args DIR SERIAL...: QEMU arguments, one a line, for emulated
# NVMe SSDs backed by DIR/SERIAL.img, each in its own PCIe root port (so
# one can be hot-unplugged) and identified in the guest by its serial.
# discard=unmap: QEMU's default (ignore) would drop every TRIM.
nvme_drive_args() {
	local dir=$1 i=0 s
	shift
	for s in "$@"; do
		printf '%s\n' -drive "if=none,id=d$i,file=$dir/$s.img,format=raw,discard=unmap,cache=writeback" \
			-device "pcie-root-port,id=rp$i,bus=pcie.0,chassis=$((i + 1)),slot=$((i + 1))" \
			-device "nvme,id=nvme$i,bus=rp$i,serial=$s,drive=d$i"
		i=$((i + 1))
	done
}

# rig_monitor_cmd SOCKET CMD: one human-monitor command to the QEMU whose
# -monitor is the unix SOCKET; prints its answer on one line ("ok" when it
# had nothing to say)
rig_monitor_cmd() {
	python3 - "$1" "$2" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
time.sleep(0.3)
s.recv(65536)
s.sendall((sys.argv[2] + "\n").encode())
time.sleep(0.5)
out = s.recv(65536).decode(errors="replace")
print(" ".join(l.strip() for l in out.splitlines()[1:] if l.strip() != "(qemu)") or "ok")
PY
}

# ---- guest slots --------------------------------------------------------------
# A guest keeps about one host core busy (one vCPU runs the test, QEMU's
# I/O thread a little more), so two guests use a 2-core host fully and a
# third only slows all of them.  A runner takes one slot before it boots:
# $SSDSTRIPE_QEMU_SLOTS of them (default 1: one guest at a time, slot 0 is
# the historical $cache/qemu.lock).  make check runs its parts in two lanes
# with SSDSTRIPE_QEMU_SLOTS=2.  SSDSTRIPE_QEMU_LOCKED=1: the caller holds a
# slot already (check-debug's shards).
rig_slot_fd='' rig_slot_index=0
# rig_slot_take: block until a slot is free and hold it (fd in rig_slot_fd,
# its number in rig_slot_index)
rig_slot_take() {
	local slots=${SSDSTRIPE_QEMU_SLOTS:-1} i f fd said=''
	[ "${SSDSTRIPE_QEMU_LOCKED:-}" = 1 ] && return 0
	while :; do
		for ((i = 0; i < slots; i++)); do
			# shellcheck disable=SC2154 # the sourcing runner sets $cache
			f=$cache/qemu.lock
			[ "$i" = 0 ] || f=$cache/qemu.lock.$i
			exec {fd}>"$f"
			if flock -n "$fd"; then
				# shellcheck disable=SC2034 # for the sourcing runner
				rig_slot_fd=$fd rig_slot_index=$i
				[ -z "$said" ] || printf 'rig: got guest slot %s after %ss\n' "$i" "$(($(date +%s) - said))" >&2
				return 0
			fi
			exec {fd}>&-
		done
		if [ -z "$said" ]; then
			printf 'rig: all %s guest slot(s) busy (%s/qemu.lock*); waiting\n' "$slots" "$cache" >&2
			said=$(date +%s)
		fi
		sleep 2
	done
}
rig_slot_release() {
	[ -n "$rig_slot_fd" ] || return 0
	exec {rig_slot_fd}>&-
	rig_slot_fd=''
}

# ---- the console ----------------------------------------------------------------
# A console line matching this fails the run: the kernel's own reports, and
# those of the debug kernel's checkers (lockdep, debug objects, list
# debugging, kmemleak).  The kernel echoes its command line
# (hung_task_panic=...): callers drop those lines first.
console_bad_re='BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|KASAN|Kernel panic|UBSAN'
console_bad_re+='|possible circular locking|possible recursive locking|INFO: trying to register non-static key'
console_bad_re+='|DEBUG_LOCKS_WARN|ODEBUG:|list_add corruption|list_del corruption|unreferenced object'

# died_before_init LOG INIT_RE: when the guest's kernel died before its
# /init began (no line of LOG matches INIT_RE, and LOG has a report),
# print the kernel's first report and succeed.
#
# Such a kernel has run nothing of ours: the module, the tests, the tool
# and the initramfs all start from /init.  Its death is a bug of the kernel
# or of QEMU's TCG, and the runners boot once more, say so, and keep that
# console.  Seen so far: a KASAN report in the debug kernel's early boot,
# in rcu_is_watching from an interrupt during arch_cpu_finalize_init; and
# "Oops: int3" in sched_clock_cpu on Debian's 6.12, when the other vCPU
# ran into the breakpoint that text_poke_bp had already taken out again
# ("sched_clock: Marking stable" flips a static key 3.7 s into the boot);
# and "Oops: int3" on the debug kernel too, in run_timer_softirq.
# A kernel that hangs before /init is the same kind of failure: boot_watch
# stops it, and this reports it from LOG.hung.  Seen once: Debian's
# 7.2.13 (sid) stood still at "hpet0: 3 comparators" 1 s into the boot,
# until the run's timeout killed it 1800 s later (CI, 2026-11-28).
died_before_init() {
	local logf=$1 init_re=$2
	grep -q -E "$init_re" "$logf" && return 1
	if [ -s "$logf.hung" ]; then
		echo "no /init within $(sed -n 1p "$logf.hung") s; its last line: $(sed -n 2p "$logf.hung")"
		return 0
	fi
	grep -m1 -E 'BUG:|Oops|Kernel panic' "$logf" | tr -d '\r' |
		sed 's/^\[[ 0-9.]*\] //' | grep .
}

# boot_watch LOG INIT_RE SECS PID: when LOG has no line matching INIT_RE
# SECS seconds on and PID still runs, the kernel hung before /init: write
# SECS and the console's last line to LOG.hung and stop PID (QEMU, or the
# timeout(1) that runs it).  Runs beside the guest; ends on its own once
# /init has started or PID has ended.  A boot takes 3-15 s of guest time.
boot_watch() {
	local logf=$1 init_re=$2 secs=$3 pid=$4 i
	rm -f "$logf.hung"
	for ((i = 0; i < secs; i++)); do
		sleep 1
		kill -0 "$pid" 2>/dev/null || return 0
		grep -q -E "$init_re" "$logf" 2>/dev/null && return 0
	done
	{
		echo "$secs"
		tr -d '\r' <"$logf" | grep . | tail -n 1 | sed 's/^\[[ 0-9.]*\] //'
	} >"$logf.hung"
	kill "$pid" 2>/dev/null || true
}

# ---- the fabric rig: storage guests ---------------------------------------------
# A set of guests for NVMe over fabrics: N storage guests (same kernel and
# initramfs, /init in mode storage, qemu/fabric-init.sh) export their NVMe
# disks with nvmet over TCP, each to the test guest over a point-to-point
# link of its own: a QEMU socket netdev that the storage guest listens on at
# 127.0.0.1 and the test guest connects to.  Nothing else is addressed, on
# the host or in the guests (198.18.K.0/24 inside, fabric-init.sh).  Each
# storage guest has two vCPUs.  With one, its emulated NVMe drive (QEMU
# 7.2, bookworm) now and then left a few of nvmet's writes without a
# completion: the storage guest's driver timed them out after 30 s,
# aborted them (to no effect) and reset the controller 30 s later, so
# the test guest saw its NVMe/TCP I/O held for 61-62 s, a true stall of a
# member and a false alarm of the rig (3 holds in 10 rounds of 10 s of
# QD16 randrw, 2026-11-26; none in 20 rounds with two vCPUs).  An idle
# vCPU costs little under TCG.  run.sh --storage-hosts N starts a set for
# a test run or an interactive guest (--shell).
# What the link costs: QEMU writes each Ethernet frame to that host TCP
# connection as it comes, with Nagle's algorithm on, so the small last
# frame of a reply would wait for the peer's delayed ACK: a 4 KiB read at
# queue depth 1 took about 43 ms.  qemu/link-nodelay turns Nagle off on
# both ends of every link once the test guest's QEMU has connected
# (rig_link_nodelay).  The socket netdev's UDP mode (udp=, localaddr=)
# was tried and dropped: the host's socket buffer overflowed under
# fabric/002's ordinary load and lost frames, and TCP's retransmission
# backoff in the guest held a member's I/O for 5 s.  The tests judge
# health against peers on the same kind of link.
rig_storage_dirs=() rig_storage_ports=() rig_storage_pids=()

# rig_free_port: a TCP port on 127.0.0.1 that nothing listens on now
rig_free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# rig_storage_start WORK N DISKS SIZE MEM KERNEL INITRD TIMEOUT: boot storage
# guests 1..N in the background, each in WORK/storageK with DISKS disks of
# SIZE (serials stKd0, stKd1, ...), MEM MB, its console in
# WORK/storageK/console.log and its monitor at WORK/storageK/monitor.sock;
# returns when each one's QEMU listens for its link
rig_storage_start() {
	local work=$1 n=$2 disks=$3 size=$4 mem=$5 kernel=$6 initrd=$7 tmo=$8 k j dir port
	local -a serials drives q
	for ((k = 1; k <= n; k++)); do
		dir=$work/storage$k
		mkdir -p "$dir"
		# an earlier run's images go, however many it had
		rm -f "$dir"/st*d*.img
		serials=()
		for ((j = 0; j < disks; j++)); do
			truncate -s "$size" "$dir/st${k}d$j.img"
			serials+=("st${k}d$j")
		done
		mapfile -t drives < <(nvme_drive_args "$dir" "${serials[@]}")
		port=$(rig_free_port)
		# shellcheck disable=SC2054 # commas belong to QEMU option values
		q=(qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m "$mem"
			-nographic -no-reboot -nic none -pidfile "$dir/qemu.pid"
			-kernel "$kernel" -initrd "$initrd"
			-append "console=ttyS0 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1 panic=-1 mitigations=off ssdmode=storage ssdstorage=$k ssddisks=$disks ssdlinks=1"
			-monitor "unix:$dir/monitor.sock,server=on,wait=off"
			-netdev "socket,id=fab,listen=127.0.0.1:$port"
			-device "virtio-net-pci,netdev=fab,mac=$(rig_link_mac "$k" 02)"
			"${drives[@]}")
		rm -f "$dir/qemu.pid"
		timeout -k 10 "$tmo" "${q[@]}" </dev/null >"$dir/console.log" 2>&1 &
		rig_storage_pids+=("$!")
		rig_storage_dirs+=("$dir")
		rig_storage_ports+=("$port")
	done
	# the test guest's QEMU connects at its start: the listeners first
	for ((k = 1; k <= n; k++)); do
		port=${rig_storage_ports[k - 1]}
		for ((j = 0; j < 300; j++)); do
			[ -n "$(ss -Hltn "sport = :$port" 2>/dev/null)" ] && break
			kill -0 "${rig_storage_pids[k - 1]}" 2>/dev/null || break
			sleep 0.1
		done
		if [ -z "$(ss -Hltn "sport = :$port" 2>/dev/null)" ]; then
			printf 'rig: storage guest %s does not listen on 127.0.0.1:%s (console %s)\n' \
				"$k" "$port" "${rig_storage_dirs[k - 1]}/console.log" >&2
			tail -n 5 "${rig_storage_dirs[k - 1]}/console.log" >&2
			return 1
		fi
	done
}

# rig_link_nodelay: Nagle off on both ends of every link
# (qemu/link-nodelay), in the background, before the test guest's QEMU
# starts: it waits for the connections; a link it cannot set keeps Nagle
# (slower, as before) and says so on stderr
rig_link_nodelay() {
	[ "${#rig_storage_ports[@]}" -gt 0 ] || return 0
	"$(dirname "${BASH_SOURCE[0]}")/link-nodelay" "${rig_storage_ports[@]}" >&2 &
}

# rig_link_mac K END: the MAC of link K's NIC at END (01 the test guest, 02
# storage guest K); fabric-init.sh finds its links by them
rig_link_mac() { printf '52:54:00:5d:%02x:%s' "$1" "$2"; }

# rig_storage_net_args: the test guest's QEMU arguments, one a line: a NIC
# per storage guest, connected to its link
rig_storage_net_args() {
	local k
	for ((k = 1; k <= ${#rig_storage_ports[@]}; k++)); do
		printf '%s\n' -netdev "socket,id=fab$k,connect=127.0.0.1:${rig_storage_ports[k - 1]}" \
			-device "virtio-net-pci,netdev=fab$k,mac=$(rig_link_mac "$k" 01)"
	done
}

# rig_storage_cmd K WHAT: for the test guest (run.sh's measurement
# channel): ready (yes, no or failed), stop and cont (QEMU freezes storage
# guest K and lets it run again: a host that hangs, every vCPU and device
# at once), blocks (the 512-byte blocks its disk images hold on the host)
rig_storage_cmd() {
	local dir='' img out
	[ "$1" -ge 1 ] 2>/dev/null && dir=${rig_storage_dirs[$1 - 1]:-}
	[ -n "$dir" ] || { echo "error no storage guest $1"; return 0; }
	case $2 in
	ready)
		if grep -q 'ssdstripe-storage: ready' "$dir/console.log"; then echo yes
		elif grep -q 'ssdstripe-storage: FAILED' "$dir/console.log"; then echo failed
		else echo no; fi ;;
	stop | cont) rig_monitor_cmd "$dir/monitor.sock" "$2" ;;
	blocks)
		out=''
		for img in "$dir"/st*d*.img; do out="$out $(stat -c %b "$img")"; done
		echo "${out# }" ;;
	*) echo "error unknown storage command $2" ;;
	esac
}

# rig_storage_stop: end every storage guest (a storage guest never ends
# by itself) and check its console as the test guest's is checked; prints
# what is wrong with each, nothing when all are well
rig_storage_stop() {
	local k j dir pid
	for ((k = 1; k <= ${#rig_storage_dirs[@]}; k++)); do
		dir=${rig_storage_dirs[k - 1]} pid=${rig_storage_pids[k - 1]}
		# a frozen guest would not see its power button: let it run first
		rig_monitor_cmd "$dir/monitor.sock" cont >/dev/null 2>&1
		rig_monitor_cmd "$dir/monitor.sock" quit >/dev/null 2>&1
		for ((j = 0; j < 50; j++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		tr -d '\r' <"$dir/console.log" >"$dir/console.clean"
		grep -q 'ssdstripe-storage: ready' "$dir/console.clean" ||
			echo "storage guest $k never served (console $dir/console.log)"
		if grep -E "$console_bad_re" "$dir/console.clean" | grep -v -E 'Command line:|command line:' >"$dir/console-bad.txt"; then
			echo "storage guest $k console check FAILED ($dir/console.log):"
			head -n 10 "$dir/console-bad.txt"
		fi
	done
	rig_storage_dirs=() rig_storage_ports=() rig_storage_pids=()
}
