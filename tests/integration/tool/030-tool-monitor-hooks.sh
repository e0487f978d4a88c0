#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: the monitor runs for months: hooks in the background under a timeout, every metric, a clean stop
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# ssdstripe monitor, fit to run for months: an unwritable --textfile is
# refused at start (exit 2, not a message at every poll); on a healthy
# array no hook fires; every metric has HELP and TYPE, samples carry the
# stable labels (array uuid, member index, serial) and ssdstripe_member_info
# the serials the rig gives (ssd0..ssdN), model and firmware from sysfs;
# every counter of status --json is a metric.  Hooks run in the background:
# one that ignores TERM is killed with KILL after --exec-timeout and the
# grace while the textfile keeps being refreshed; TERM to the monitor is a
# clean stop (exit 0) that kills the hook still running and leaves no dm
# event waiter behind;
# --config reads the MONITOR_* keys of the configuration file.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

# running hook processes (the hook's "sleep 271"), dm event waiters
hook_procs() { ps -o pid,args | awk '$2 == "sleep" && $3 == 271 && NF == 3 {print $1}'; }
waiters() { ps -o pid,args | awk '$2 == "dmsetup" && $3 == "wait" {print $1}'; }
# (for wait_until, which runs a command again: a $(...) in its arguments
# would be expanded once)
# shellcheck disable=SC2317 # called through wait_until
gone() { ! kill -0 "$1" 2>/dev/null; }
# shellcheck disable=SC2317
hook_runs() { [ -n "$(hook_procs)" ]; }
# shellcheck disable=SC2317
waiting() { [ -n "$(waiters)" ]; }
up() { cut -d. -f1 /proc/uptime; }
# in tenths of a second: the refresh gaps are compared, not fixed
up10() { awk '{ printf "%d\n", $1 * 10 }' /proc/uptime; }
prom=/tmp/hk.prom ev=/tmp/hk.events
ino() { stat -c %i "$prom" 2>/dev/null; }
# refreshes N SECS: the textfile is replaced (a new inode) N times in SECS
refreshes() {
	_n=0 _last=$(ino) _end=$(($(up) + $2))
	while [ "$_n" -lt "$1" ]; do
		[ "$(up)" -le "$_end" ] || return 1
		sleep 0.2
		_i=$(ino)
		[ "$_i" != "$_last" ] && _n=$((_n + 1)) _last=$_i
	done
}

# a textfile that cannot be written: refused at once (timeout: the old
# monitor said "can't create" at every poll, forever)
mkdir -p /mnt/ro
must mount -t tmpfs -o ro none /mnt/ro
refused 2 "cannot write the textfile /mnt/ro/x.prom: .*Read-only" \
	timeout 20 ssdstripe monitor --textfile /mnt/ro/x.prom
umount /mnt/ro
refused 2 "cannot write the textfile /nonexistent/x.prom" \
	timeout 20 ssdstripe monitor --interval 1 --textfile /nonexistent/x.prom

set -- $(disks) || fail "disks missing"
wipe_labels "$@"
must ssdstripe create --name hk "$@"
uuid=$(ssdstripe examine "$1" | sed -n 's/^  array_uuid=//p')
[ -n "$uuid" ] || fail "no array_uuid from examine"

: >"$ev"
# array-added: a hook that ignores TERM (KILL must follow); any other: a
# plain one.  The trailing ':' keeps sh from exec'ing sleep: killing the
# hook's sh alone would leave the sleep running.
# shellcheck disable=SC2016 # expanded by the hook's shell
hook='echo "$SSDSTRIPE_EVENT $SSDSTRIPE_ARRAY" >>'"$ev"'
[ "$SSDSTRIPE_EVENT" = array-added ] && trap "" TERM
sleep 271; :'
ssdstripe monitor --interval 1 --exec-timeout 2 --textfile "$prom" --exec "$hook" \
	>/tmp/hk.out 2>/tmp/hk.err &
mpid=$!
wait_until 30 test -s "$prom" || fail "no textfile 30 s after monitor started: $(cat /tmp/hk.err)"
# silent side: polls of a healthy array, no hook
refreshes 1 30 || fail "textfile not refreshed in 30 s at --interval 1"
# the idle refresh period, measured here so that the hung-hook phase below
# is judged against this guest's own speed (a starved guest polls slower)
t0=$(up10)
refreshes 3 60 || fail "textfile not refreshed 3 times in 60 s at --interval 1"
idle=$((($(up10) - t0) / 3))
log "idle: a textfile refresh every $idle/10 s"
[ -s "$ev" ] && fail "hook fired on a healthy array: $(cat "$ev")"
[ -n "$(hook_procs)" ] && fail "a hook runs on a healthy array"

# every metric has HELP and TYPE before its samples; counters end in _total
awk '/^# HELP / { help[$3] = 1; next }
	/^# TYPE / { type[$3] = $4; next }
	/^#/ || /^$/ { next }
	{ m = $0; sub(/[{ ].*/, "", m)
	  if (!(m in help) || !(m in type)) { print "no HELP or TYPE for " m; bad = 1 }
	  if ((m ~ /_total$/) != (type[m] == "counter")) { print m " has TYPE " type[m]; bad = 1 } }
	END { exit bad }' "$prom" >/tmp/hk.awk || fail "$(head -n 3 /tmp/hk.awk)"
i=0
for d in "$@"; do
	dev=${d#/dev/}
	fw=$(sed 's/^[[:space:]]*//; s/[[:space:]]*$//' "/sys/block/$dev/device/firmware_rev")
	l="array=\"hk\",uuid=\"$uuid\",member=\"$i\",serial=\"ssd$i\""
	grep -qE "^ssdstripe_member_info\{$l,device=\"$dev\",model=\"[^\"]*QEMU[^\"]*\",firmware=\"$fw\"\} 1$" "$prom" ||
		fail "no info metric for member $i ($dev, firmware $fw): $(grep member_info "$prom")"
	grep -qF "ssdstripe_member_state{$l,state=\"ok\"} 1" "$prom" ||
		fail "member $i state: $(grep member_state "$prom" | head -n 4)"
	i=$((i + 1))
done
grep -qF "ssdstripe_array_state{array=\"hk\",uuid=\"$uuid\",state=\"optimal\"} 1" "$prom" ||
	fail "array state: $(grep array_state "$prom")"
# every number status --json has per member is a metric
j=$(ssdstripe status --json hk) || fail "status --json exited $?"
for k in $(echo "$j" | jq -r '.arrays[0].members[0] | to_entries[] | select(.value | type == "number") | .key'); do
	case $k in
	index) continue ;;
	read_ios) m=reads_total ;; write_ios) m=writes_total ;; flush_ios) m=flushes_total ;;
	discard_ios) m=discards_total ;; write_zeroes_ios) m=write_zeroes_total ;;
	read_sectors) m=read_bytes_total ;; write_sectors) m=written_bytes_total ;;
	discard_sectors) m=discarded_bytes_total ;; latency_us) m=latency_seconds ;;
	temperature_c) m=temperature_celsius ;; inflight) m=inflight ;;
	# what the drive says (scripts/lib/smart.sh)
	drive_critical_warning) m=$k ;; drive_wear_pct) m=drive_percentage_used ;;
	drive_spare_pct) m=drive_available_spare ;;
	drive_spare_threshold_pct) m=drive_available_spare_threshold ;;
	drive_unsafe_shutdowns) m=drive_unsafe_shutdowns_total ;;
	drive_power_on_hours) m=drive_power_on_seconds_total ;;
	drive_temperature_c) m=drive_temperature_celsius ;;
	drive_warning_temp_minutes) m=drive_warning_temperature_seconds_total ;;
	drive_critical_temp_minutes) m=drive_critical_temperature_seconds_total ;;
	drive_throttle_count) m=drive_thermal_throttles_total ;;
	drive_throttle_seconds) m=drive_thermal_throttle_seconds_total ;;
	*errors | retries) m=${k}_total ;;
	*) fail "status --json has $k, no metric is known for it" ;;
	esac
	grep -qE "^ssdstripe_member_$m\{array=\"hk\",uuid=\"$uuid\",member=\"0\",serial=\"ssd0\"\} [0-9.]+$" "$prom" ||
		fail "status --json has $k, the textfile no ssdstripe_member_$m: $(grep -c . "$prom") lines"
done
# the same count on an idle array
w=$(echo "$j" | jq -r '.arrays[0].members[0].write_sectors')
grep -qx "ssdstripe_member_written_bytes_total{array=\"hk\",uuid=\"$uuid\",member=\"0\",serial=\"ssd0\"} $((w * 512))" "$prom" ||
	fail "written bytes: json $w sectors, textfile $(grep '^ssdstripe_member_written_bytes_total.*member="0"' "$prom")"

# an event: a raw dmsetup array appears (on the last MiB of ssd0, which
# the array leaves unused); its hook ignores TERM and hangs
must dmsetup create hkz --table "0 2048 linear $1 $(($(sectors "$1") - 2048))"
must dmsetup create hkraw --table "0 2048 ssdstripe 1 8 /dev/mapper/hkz 0"
wait_until 30 grep -qx 'array-added hkraw' "$ev" || fail "no hook for the new array: $(cat /tmp/hk.out /tmp/hk.err)"
wait_until 10 hook_runs || fail "the hook does not run: $(cat /tmp/hk.err)"
# while the hook hangs the monitor goes on: no gap between two refreshes
# is much longer than an idle one (a monitor that waited for its hook
# would leave a gap of the whole 7 s the hook takes to die)
t0=$(up) n=0 last=$(ino) at=$(up10) gap=0
while [ -n "$(hook_procs)" ]; do
	[ $(($(up) - t0)) -le 60 ] || fail "hook still running 60 s on (--exec-timeout 2): $(cat /tmp/hk.err)"
	i=$(ino) now=$(up10)
	if [ "$i" != "$last" ]; then
		n=$((n + 1)) last=$i
		[ $((now - at)) -gt "$gap" ] && gap=$((now - at))
		at=$now
	fi
	sleep 0.2
done
now=$(up10)
[ $((now - at)) -gt "$gap" ] && gap=$((now - at))
log "hook killed after about $(($(up) - t0)) s; $n textfile refreshes meanwhile, longest gap $gap/10 s (idle $idle/10 s)"
[ "$n" -ge 1 ] || fail "the textfile was not refreshed while the hook hung"
[ "$gap" -le $((3 * idle + 20)) ] ||
	fail "a gap of $gap/10 s between refreshes while the hook hung; $idle/10 s when idle"
grep -qF 'ssdstripe_array_state{array="hkraw",uuid="",state="optimal"} 1' "$prom" ||
	fail "no raw array in the textfile: $(grep array_state "$prom")"
grep -qE 'hook for array-added hkraw \(pid [0-9]+\) still running after 2 s: killing it \(TERM\)' /tmp/hk.err ||
	fail "no word of the timeout: $(cat /tmp/hk.err)"
grep -qE 'hook for array-added hkraw \(pid [0-9]+\) still running 5 s after TERM: killing it \(KILL\)' /tmp/hk.err ||
	fail "no word of KILL: $(cat /tmp/hk.err)"

# TERM: a clean stop (exit 0), its dm event waiters gone
kill "$mpid"
wait_until 15 gone "$mpid" || fail "monitor still running 15 s after TERM"
wait "$mpid"
rc=$?
[ "$rc" = 0 ] || fail "monitor exited $rc on TERM, not 0: $(cat /tmp/hk.err)"
[ -z "$(waiters)" ] || fail "dmsetup wait still running after the monitor ended"
log "monitor said: $(tr '\n' ';' </tmp/hk.err)"

# the monitor stops (TERM) while a hook runs: the hook goes with it (a
# long --exec-timeout here, so that only the stop can end the hook)
# Its first poll must have seen hkraw before hkraw goes: a waiter alone
# may be hk's while the poll still reads hkraw (slower since the first
# poll also asks every drive for its health); the textfile is written
# once a poll is done.
rm -f /tmp/hk3.prom
ssdstripe monitor --interval 1 --exec-timeout 120 --exec "$hook" --textfile /tmp/hk3.prom \
	>/tmp/hk.out 2>/tmp/hk.err &
mpid=$!
wait_until 30 grep -q 'array="hkraw"' /tmp/hk3.prom ||
	fail "the monitor has not seen hkraw 30 s after it started: $(cat /tmp/hk.err)"
wait_until 30 waiting || fail "no dmsetup wait 30 s after the monitor started"
must dmsetup remove hkraw
wait_until 30 grep -qx 'array-removed hkraw' "$ev" || fail "no hook for the removed array: $(cat /tmp/hk.err)"
wait_until 10 hook_runs || fail "the hook does not run: $(cat /tmp/hk.err)"
log "before TERM: $(ps -o pid,ppid,pgid,args | awk '$4 == "sleep" || $4 == "sh" || $5 == "/usr/sbin/ssdstripe"' | tr '\n' ';')"
kill "$mpid"
wait_until 15 gone "$mpid" || fail "monitor still running 15 s after TERM"
wait "$mpid"
rc=$?
log "monitor said: $(tr '\n' ';' </tmp/hk.err)"
[ "$rc" = 0 ] || fail "monitor exited $rc on TERM, not 0"
[ -z "$(hook_procs)" ] || fail "hook still running after the monitor ended: pid $(hook_procs)"
[ -z "$(waiters)" ] || fail "dmsetup wait still running after the monitor ended"
grep -qE 'stopping: killing the hook for array-removed hkraw \(pid [0-9]+\)' /tmp/hk.err ||
	fail "no word of the hook killed at the end: $(tr '\n' ';' </tmp/hk.err)"

# --config: the MONITOR_* keys of the configuration file
printf 'BOOT none\nMONITOR_TEXTFILE /tmp/hk2.prom\nMONITOR_INTERVAL 1\n' >/tmp/hk.conf
SSDSTRIPE_CONF=/tmp/hk.conf ssdstripe monitor --config --once >/dev/null ||
	fail "monitor --config --once exited $?"
grep -qF "ssdstripe_array_state{array=\"hk\",uuid=\"$uuid\",state=\"optimal\"} 1" /tmp/hk2.prom ||
	fail "--config wrote no textfile at MONITOR_TEXTFILE"
must ssdstripe stop hk
must dmsetup remove hkz
pass
