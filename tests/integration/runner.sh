#!/bin/sh
# Guest-side test runner: runs the tests in the group folders of
# /tests/integration (GROUP/NNN-name.sh, groups.conf) in the order of
# their numbers, whatever their group, and prints one
#   RESULT <name> PASS|FAIL|SKIP <reason>
# line per test.  Argument: "all" (every group but those groups.conf marks
# on-request) or a comma list of name prefixes (001,040 or 900: any group).
. /tests/integration/lib/common.sh
sel=${1:-all}
dir=$(dirname "$0")
per_test_timeout=${SSD_TEST_TIMEOUT:-300}

# group_when GROUP: its <when> in groups.conf; "every" if not listed
group_when() {
	_w=$(awk -v g="$1" '$1 == g { print $2; exit }' "$dir/groups.conf" 2>/dev/null)
	echo "${_w:-every}"
}
# selected NAME GROUP
selected() {
	if [ "$sel" = all ]; then
		[ "$(group_when "$2")" != on-request ]
		return
	fi
	for p in $(echo "$sel" | tr ',' ' '); do
		case "$1" in "$p"*) return 0 ;; esac
	done
	return 1
}

# Every test, in the order of its file name (001 ... 099 ... 900), from
# all groups; one left at the top, outside any group, is a failure.
tests=$(for t in "$dir"/*/[0-9][0-9][0-9]-*.sh "$dir"/[0-9][0-9][0-9]-*.sh; do
	[ -e "$t" ] && echo "${t##*/} $t"
done | sort | cut -d' ' -f2)

# kmemleak (debug kernel): forget what boot left, so a report at the end
# can only come from what the tests did.
kmemleak=/sys/kernel/debug/kmemleak
if [ -w "$kmemleak" ]; then
	echo scan >"$kmemleak"
	echo clear >"$kmemleak"
fi

for t in $tests; do
	name=$(basename "$t" .sh)
	group=$(basename "$(dirname "$t")")
	[ "$t" = "$dir/$name.sh" ] && group=''
	selected "$name" "$group" || continue
	echo "=== RUN $name"
	if [ -z "$group" ]; then
		echo "RESULT $name FAIL not in a group folder of tests/integration (see groups.conf) (0s)"
		continue
	fi
	export SSD_REASON_FILE="/tmp/reason.$name"
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
