# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
#
# How the rig reads a guest's serial console; sourced by qemu/run.sh and
# qemu/boot-root.sh so that both judge a console alike.

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
