#!/bin/sh
# Guest-side test runner (busybox sh): runs the selected tests and prints
#   RESULT <group>/<NNN> PASS|FAIL|SKIP [<reason>] (<secs>s)
# for each.
#
#   runner.sh [--quick] [SELECTION]
#
# SELECTION (default all): comma separated all, GROUP or GROUP/NNN, as
# tests/integration/list takes it; --quick keeps the tests with QUICK: yes.
#
# A test is the file tests/integration/GROUP/NNN: GROUP one of target,
# health, tool, faults, stress, soak, fabric; NNN three digits, from 001 in each
# group; no extension.  busybox sh; it sources lib/common.sh and the
# helpers of its concern (lib/*.sh), proves one behaviour and ends with
# pass, fail "why" or skip "why".  It starts with this header, the fields
# in this order, each once, right after the #! line (a file-wide shellcheck
# directive may come between):
#
#   #!/bin/sh
#   # DESCRIPTION: one line: what the test proves
#   # KERNELS: all            (or some of: 6.12 6.1 sid)
#   # DEBUG: yes              (or no)
#   # QUICK: yes              (or no)
#   # TARGET: any             (or ssdstripe)
#   # RUN: always             (or on-request, last, alone)
#   # RIG: --disks 6          (RUN: alone only, and optional)
#   #
#   # Anything else worth saying, then the test.
#
# KERNELS  the Debian kernel series on which make check runs it
#          (tests/integration/check.sh --kernel SERIES)
# DEBUG    yes: make check-debug runs it; no: only with ALL=1
# QUICK    yes: under 30 s on Debian's 6.12, the guest alone on the host
#          (run.sh --quick picks these)
# TARGET   ssdstripe: skipped (SKIP, not PASS) when the rig tests the
#          kernel's striped target (run.sh --target striped, --no-module)
# RUN      always: in "all"; on-request: only when named (its group or
#          itself); last: after every other test of the run (it leaves
#          the guest changed, as faults/003 unplugs a disk); alone: in a
#          guest of its own, only when named by itself (check.sh boots
#          one for it, with the qemu/run.sh options of RIG: more disks, a
#          smaller disk).  Such a test may cut the power (host_powercut):
#          run.sh boots the guest again on the same disks and runs it
#          again with SSD_PHASE one higher (phase: 1 in the first boot)
# tests/integration/list reads the headers (for this runner, check.sh,
# check-debug and run.sh) and prints the table of them; a test whose header
# is not valid fails.  A test converted from the old NNN-name.sh layout:
# git mv it to GROUP/NNN (the next free number of its group), put the
# header after its #! line, source lib/common.sh (and lib/*.sh it needs)
# instead of lib.sh, and drop its own "[ "$TARGET" = ssdstripe ] || skip"
# (TARGET: ssdstripe says it).
#
# Golden output (blktests' NNN.out): a test may print what is
# deterministic about it with golden (lib/common.sh); when it passes, the
# runner compares that with GROUP/NNN.out beside it and fails it on a
# difference, printing the diff.  With UPDATE=1 on the host (ssdupdate=1
# here) it prints the output between GOLDEN-BEGIN and GOLDEN-END lines
# instead, and qemu/run.sh writes it back to GROUP/NNN.out.
. /tests/integration/lib/common.sh
quick=''
if [ "${1:-}" = --quick ]; then
	quick=--quick
	shift
fi
sel=${1:-all}
dir=$(dirname "$0")
per_test_timeout=${SSD_TEST_TIMEOUT:-300}
tab=$(printf '\t')

# the tests to run, a record each (list --fields)
if ! sh "$dir/list" --fields $quick "$sel" >/tmp/runner.tests 2>/tmp/runner.err; then
	echo "=== RUN selection"
	echo "RESULT selection FAIL $(head -n 1 /tmp/runner.err) (0s)"
fi

# kmemleak (debug kernel): forget what boot left, so a report at the end
# can only come from what the tests did.
kmemleak=/sys/kernel/debug/kmemleak
if [ -w "$kmemleak" ]; then
	echo scan >"$kmemleak"
	echo clear >"$kmemleak"
fi

# golden_send: the test's golden output on the console, for run.sh to
# write back (UPDATE=1).  The kernel's console messages are held back
# meanwhile, so that none lands inside a line.
golden_send() {
	_lvl=$(awk '{print $1}' /proc/sys/kernel/printk)
	dmesg -n 1
	echo "GOLDEN-BEGIN $name"
	awk -v n="$name" '{print "GOLDEN " n "|" $0}' "$SSD_GOLDEN"
	echo "GOLDEN-END $name $(wc -l <"$SSD_GOLDEN")"
	dmesg -n "$_lvl"
}
# golden_verdict: a test that printed golden output, or has a NNN.out,
# passes only if the two are the same (sets st and reason)
golden_verdict() {
	_want=$t.out
	[ -e "$_want" ] || [ -e "$SSD_GOLDEN" ] || return 0
	if [ -e "$SSD_GOLDEN.skip" ]; then
		echo "  golden output not compared: $(head -n 1 "$SSD_GOLDEN.skip")"
		return 0
	fi
	if [ "$st" = FAIL ] && [ -e "$_want" ] && [ -e "$SSD_GOLDEN" ] &&
		! cmp -s "$_want" "$SSD_GOLDEN"; then
		echo "  its golden output so far, against $name.out:"
		diff -u -L "$name.out" -L "printed by $name" "$_want" "$SSD_GOLDEN" |
			head -n 40 | sed 's/^/    /'
	fi
	[ "$st" = PASS ] || return 0
	if [ ! -e "$SSD_GOLDEN" ]; then
		st=FAIL reason="printed no golden output to compare with $name.out"
		return 0
	fi
	[ -e "$_want" ] && cmp -s "$_want" "$SSD_GOLDEN" && return 0
	if [ "${SSD_UPDATE:-}" = 1 ]; then
		golden_send
		reason="${reason:+$reason; }golden output sent for $name.out (UPDATE=1)"
	elif [ -e "$_want" ]; then
		diff -u -L "$name.out" -L "printed by $name" "$_want" "$SSD_GOLDEN" | sed 's/^/    /'
		st=FAIL reason="output differs from $name.out (diff above; UPDATE=1 rewrites it)"
	else
		sed 's/^/    /' "$SSD_GOLDEN"
		st=FAIL reason="printed golden output, but there is no $name.out (UPDATE=1 writes it)"
	fi
}

# a for loop, not while read: the tests keep the console as their stdin
# shellcheck disable=SC2013 # names have no blanks
for name in $(cut -f1 /tmp/runner.tests); do
	rec=$(awk -F'\t' -v n="$name" '$1 == n' /tmp/runner.tests)
	echo "=== RUN $name"
	# name, ok, kernels, debug, quick, target, run; or name, invalid, why
	IFS=$tab read -r _ state f3 _ _ needs _ <<EOF
$rec
EOF
	if [ "$state" != ok ]; then
		echo "RESULT $name FAIL invalid header: $f3 (0s)"
		continue
	fi
	if [ "$needs" = ssdstripe ] && [ "$TARGET" != ssdstripe ]; then
		echo "RESULT $name SKIP ssdstripe-only test (TARGET: ssdstripe), the target under test is $TARGET (0s)"
		continue
	fi
	t=$dir/$name
	tag=$(echo "$name" | tr / -)
	export SSD_TEST="$name" SSD_REASON_FILE="/tmp/reason.$tag" SSD_GOLDEN="/tmp/golden.$tag"
	rm -f "$SSD_REASON_FILE" "$SSD_REASON_FILE.failed" "$SSD_GOLDEN" "$SSD_GOLDEN".*
	kmsg_mark "begin $name"
	t0=$(date +%s)
	timeout "$per_test_timeout" sh "$t"
	rc=$?
	t1=$(date +%s)
	reason=$(head -n 1 "$SSD_REASON_FILE" 2>/dev/null)
	case $rc in
	0) st=PASS ;;
	77) st=SKIP ;;
	124|143) st=FAIL; reason="timeout after ${per_test_timeout}s ${reason}" ;;
	*) st=FAIL; [ -n "$reason" ] || reason="exit status $rc" ;;
	esac
	# fail() in a subshell (a command substitution) the test went past
	if [ "$st" != FAIL ] && [ -e "$SSD_REASON_FILE.failed" ]; then
		st=FAIL reason="in a subshell: $(head -n 1 "$SSD_REASON_FILE.failed")"
	fi
	golden_verdict
	cleanup_all
	left=$(dmsetup ls 2>/dev/null | grep -v '^No devices found')
	[ -n "$left" ] && echo "  warning: devices left after cleanup: $left"
	# on a line of its own, whatever the test left unended on the
	# console (a progress line without its newline): run.sh counts lines
	# that start with RESULT
	printf '\nRESULT %s %s %s(%ss)\n' "$name" "$st" "${reason:+$reason }" $((t1 - t0))
done

# After everything is removed and unloaded: two scans (an object must stay
# unreferenced across both to be reported), then any report fails the run.
if [ -w "$kmemleak" ]; then
	echo "=== RUN kmemleak"
	t0=$(date +%s)
	cleanup_all
	sleep 5
	echo scan >"$kmemleak"
	sleep 5
	echo scan >"$kmemleak"
	cat "$kmemleak" >/tmp/kmemleak.txt
	n=$(grep -c '^unreferenced object' /tmp/kmemleak.txt)
	if [ "$n" -gt 0 ]; then
		head -n 200 /tmp/kmemleak.txt
		echo "RESULT kmemleak FAIL $n unreferenced objects ($(($(date +%s) - t0))s)"
	else
		echo "RESULT kmemleak PASS ($(($(date +%s) - t0))s)"
	fi
fi
