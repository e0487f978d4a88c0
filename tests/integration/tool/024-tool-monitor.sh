#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: the monitor's hook and textfile see a failing member through the dm event
# KERNELS: all
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# ssdstripe monitor: with member 2 turned into an error target under load,
# the hook runs once per member state change with the member, its device,
# old and new state and an array state that agrees with the member states,
# the healthy members fire nothing, and the Prometheus textfile says the
# same.  The monitor polls only every 300 s here: it sees the change because
# the kernel's dm event wakes it.  monitor --once exits with the status code.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=131072
wipe_labels $(disks)
set -- $(slices 4 $S 2048)
must ssdstripe create --name mon "$@"
ssdstripe monitor --once >/dev/null || fail "monitor --once on a healthy array exited $?"

ev=/tmp/monitor.events prom=/tmp/monitor.prom
: >"$ev"
# shellcheck disable=SC2016 # expanded by the hook's shell
ssdstripe monitor --interval 300 --textfile "$prom" \
	--exec 'echo "$SSDSTRIPE_EVENT $SSDSTRIPE_ARRAY $SSDSTRIPE_MEMBER $SSDSTRIPE_DEVICE $SSDSTRIPE_OLD_STATE $SSDSTRIPE_STATE $SSDSTRIPE_ARRAY_STATE" >>'"$ev" \
	>/tmp/monitor.out 2>&1 &
mpid=$!
wait_until 30 test -s "$prom" || fail "no textfile 30 s after monitor started"
[ -s "$ev" ] && fail "hook fired on a healthy array: $(cat "$ev")"
grep -q '^ssdstripe_member_state{array="mon",uuid="[^"]*",member="2",serial="",state="ok"} 1$' "$prom" ||
	fail "textfile before the fault: $(cat "$prom")"

# member 2 starts failing every I/O
swap_table ssl2 "0 $S error"
fio --name=load --filename=/dev/mapper/mon --direct=1 --ioengine=libaio --iodepth=4 \
	--rw=randrw --bs=4k --time_based --runtime=6 --continue_on_error=all \
	>/dev/null 2>&1
# The hook fires as soon as a poll sees the change; the textfile is written
# at the end of that poll, which under TCG on a loaded host can take
# seconds.  Wait for both (30 s at most) before stopping the monitor (which
# kills hooks still running), so the checks below judge what it did, not
# where a fixed sleep cut it off.  Without the dm event the next poll would
# come 300 s after the first.
bad2='^ssdstripe_member_state\{array="mon",uuid="[^"]*",member="2",serial="",state="(erroring|failed)"\} 1$'
wait_until 30 grep -qE "$bad2" "$prom" || log "textfile still without the fault after 30 s"
wait_until 30 grep -q '^member-state mon 2 ' "$ev" || log "no hook for member 2 after 30 s"
kill "$mpid"
wait "$mpid" 2>/dev/null
log "events: $(tr '\n' ';' <"$ev")"
log "monitor said: $(tr '\n' ';' </tmp/monitor.out)"

dev2=$(sysname "$3")
grep -qE "^member-state mon 2 $dev2 ok (erroring|failed) (erroring|failed)$" "$ev" ||
	fail "no hook for member 2 going bad: $(cat "$ev")"
grep -qE "^member-state mon [013] " "$ev" && fail "hook fired for a healthy member: $(cat "$ev")"
# each line's array state must follow from its member state
while read -r _e _a _m _d _o new arr; do
	case $new/$arr in
	failed/failed | erroring/erroring | slow/slow | ok/*) ;;
	*) fail "inconsistent event: member $_m $new with array $arr" ;;
	esac
done <"$ev"
grep -qE "$bad2" "$prom" ||
	fail "textfile after the fault: $(grep member_state "$prom")"
grep -qE '^ssdstripe_member_errors_total\{array="mon",uuid="[^"]*",member="2",serial=""\} [1-9]' "$prom" ||
	fail "no errors in the textfile: $(grep errors "$prom")"
grep -q '^# TYPE ssdstripe_member_errors_total counter$' "$prom" || fail "no TYPE line: $(head "$prom")"
ssdstripe monitor --once >/dev/null
rc=$?
# 6 erroring, 7 failed (ABI v2 exit codes; 5 is slow)
case $rc in 6 | 7) ;; *) fail "monitor --once on a bad array exited $rc" ;; esac
ssdstripe status mon >/dev/null
[ $? = "$rc" ] || fail "status and monitor --once disagree"
# errors stay until cleared; the failing member idle, clear makes it ok
must ssdstripe clear mon
ssdstripe status mon >/dev/null || fail "status after clear exited $?: $(ssdstripe status mon)"
[ "$(cat "/sys/block/$(dm_sysname mon)/ssdstripe/members/2/errors")" = 0 ] || fail "clear left errors"
must ssdstripe stop mon
pass
