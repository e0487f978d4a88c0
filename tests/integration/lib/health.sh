# shellcheck shell=sh
# Helpers of the health and fault tests (after lib/common.sh): their
# timing on the debug kernel, waiting for a state, nothing in flight, and
# the no-false-alarm verdict.

# Health tests on the debug kernel.  There the whole guest completes a few
# dozen I/Os a second (7 per member with one other guest on the host, 2 with
# two), and healthy latencies grow to tens of ms, so a 1 s window judged on
# 16 I/Os sees nothing and a 40 ms dm-delay is not 4 times its peers.  The
# health tests therefore use, there only: 4 s windows judged on 4 I/Os
# and a 20 s stall_ms (health_opts, table feature words to append to
# stripe_table's arguments), a 400 ms delay (slow_delay_ms), and 4 times
# the load and idle time (health_secs N).  On Debian's kernels all are the
# defaults.
health_opts() { if debug_kernel; then echo "-- health_window_ms 4000 min_ios 4 stall_ms 20000"; fi; }
slow_delay_ms() { if debug_kernel; then echo 400; else echo 40; fi; }
# the stall_ms and health_window_ms health_opts leaves (the defaults, on
# Debian's kernels), in ms
stall_ms() { if debug_kernel; then echo 20000; else echo 5000; fi; }
window_ms() { if debug_kernel; then echo 4000; else echo 1000; fi; }
health_secs() { if debug_kernel; then echo $(($1 * 4)); else echo "$1"; fi; }
# wait_state TOP MEMBER STATES SECS: until members/MEMBER/state is one of
# STATES ("erroring|failed"); fails the test after SECS seconds
wait_state() {
	_i=0
	while :; do
		_s=$(cat "$1/members/$2/state")
		case "|$3|" in *"|$_s|"*) return 0 ;; esac
		_i=$((_i + 1))
		[ "$_i" -gt "$4" ] && fail "member $2 is $_s, not $3, after $4 s"
		sleep 1
	done
}
# all_quiet TOP NMEMBERS: nothing in flight on any member
all_quiet() {
	_k=0
	while [ "$_k" -lt "$2" ]; do
		[ "$(cat "$1/members/$_k/inflight")" = 0 ] ||
			fail "member $_k still has $(cat "$1/members/$_k/inflight") bios in flight"
		_k=$((_k + 1))
	done
}
# dm_events NAME: the array's dm event counter (what "dmsetup wait" waits on)
dm_events() { dmsetup info -c --noheadings -o events "$1" | tr -d ' '; }
# no_alarm NAME MARK EVENTS0 WHAT: the no-false-alarm verdict after a
# workload on array NAME (kmsg_mark MARK and dm_events EVENTS0 taken before
# it): every member ok with 0 errors, the array optimal, no health log line
# and no dm event since.  WHAT names the workload in the reasons.
no_alarm() {
	_top=/sys/block/$(dm_sysname "$1")/ssdstripe
	log "$4: states $(cat "$_top"/members/*/state | tr '\n' ' ')array $(cat "$_top/state");" \
		"errors $(cat "$_top"/members/*/errors | tr '\n' ' ')retries $(cat "$_top"/members/*/retries | tr '\n' ' ')"
	for _m in "$_top"/members/*; do
		[ "$(cat "$_m/state")" = ok ] || fail "$4: member ${_m##*/} is $(cat "$_m/state")"
		[ "$(cat "$_m/errors")" = 0 ] || fail "$4: member ${_m##*/} counted $(cat "$_m/errors") errors"
	done
	[ "$(cat "$_top/state")" = optimal ] || fail "$4: array is $(cat "$_top/state")"
	_l=$(dmesg_since "$2" | grep -E 'I/O error on member|member [0-9]+ \(.*\) .* -> ' | head -n 1)
	[ -z "$_l" ] || fail "$4: logged: $_l"
	[ "$(dm_events "$1")" = "$3" ] || fail "$4: $(($(dm_events "$1") - $3)) dm events raised on a healthy array"
}
