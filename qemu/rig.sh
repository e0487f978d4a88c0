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
died_before_init() {
	local logf=$1 init_re=$2
	grep -q -E "$init_re" "$logf" && return 1
	grep -m1 -E 'BUG:|Oops|Kernel panic' "$logf" | tr -d '\r' |
		sed 's/^\[[ 0-9.]*\] //' | grep .
}
