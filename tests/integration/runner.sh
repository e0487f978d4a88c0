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
# health, tool, faults, stress, soak; NNN three digits, from 001 in each
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
#   # RUN: always             (or on-request, last)
#   #
#   # Anything else worth saying, then the test.
#
# KERNELS  the Debian kernel series on which make check runs it
#          (tests/integration/check.sh --kernel SERIES)
# DEBUG    yes: make check-debug runs it; no: only with ALL=1
# QUICK    yes: under 30 s on Debian's 6.12 (run.sh --quick picks these)
# TARGET   ssdstripe: skipped (SKIP, not PASS) when the rig tests the
#          kernel's striped target (run.sh --target striped, --no-module)
# RUN      always: in "all"; on-request: only when named (its group or
#          itself); last: after every other test of the run (it leaves
#          the guest changed, as faults/003 unplugs a disk)
# tests/integration/list reads the headers (for this runner, check.sh,
# check-debug and run.sh) and prints the table of them; a test whose header
# is not valid fails.  A test converted from the old NNN-name.sh layout:
# git mv it to GROUP/NNN (the next free number of its group), put the
# header after its #! line, source lib/common.sh (and lib/*.sh it needs)
# instead of lib.sh, and drop its own "[ "$TARGET" = ssdstripe ] || skip"
# (TARGET: ssdstripe says it).
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

# a for loop, not while read: the tests keep the console as their stdin
# shellcheck disable=SC2013 # names have no blanks
for name in $(cut -f1 /tmp/runner.tests); do
	rec=$(awk -F'\t' -v n="$name" '$1 == n' /tmp/runner.tests)
	echo "=== RUN $name"
	# name, ok, kernels, debug, quick, target, run; or name, invalid, why
	IFS=$tab read -r _ state f3 _ _ target _ <<EOF
$rec
EOF
	if [ "$state" != ok ]; then
		echo "RESULT $name FAIL invalid header: $f3 (0s)"
		continue
	fi
	if [ "$target" = ssdstripe ] && [ "$TARGET" != ssdstripe ]; then
		echo "RESULT $name SKIP ssdstripe-only test (TARGET: ssdstripe), the target under test is $TARGET (0s)"
		continue
	fi
	t=$dir/$name
	tag=$(echo "$name" | tr / -)
	export SSD_TEST="$name" SSD_REASON_FILE="/tmp/reason.$tag"
	rm -f "$SSD_REASON_FILE" "$SSD_REASON_FILE.failed"
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
	cleanup_all
	left=$(dmsetup ls 2>/dev/null | grep -v '^No devices found')
	[ -n "$left" ] && echo "  warning: devices left after cleanup: $left"
	echo "RESULT $name $st ${reason:+$reason }($((t1 - t0))s)"
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
