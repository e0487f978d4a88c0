# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe scrub: a read-only surface scan of every member's data region,
# at a rate that leaves the array usable, as md's "check" and ZFS's scrub;
# a RAID-0 has no copy to repair from, so a scrub finds latent unreadable
# sectors before a file system (or a replace) does, and names them.

SCRUB_RUN=${SSDSTRIPE_RUNDIR:-/run/ssdstripe}/scrub
SCRUB_RATE=64	# MB/s, the default --rate
SCRUB_STEP=2048	# sectors read at a time (1 MiB)

# scrub_info NAME: the scrub of NAME now or last (since boot): SI_STATE
# (running, finished, stopped, failed; empty: none since boot), SI_PCT and
# SI_PID (its process).  status and detail (C: tool/inprog.c) read the same
# file for the rest (eta, bad, rate, end).
scrub_info() {
	local _si_f _si_k _si_v
	SI_STATE='' SI_PCT='' SI_PID=''
	_si_f=$SCRUB_RUN/$1.state
	[ -r "$_si_f" ] || return 1
	while IFS='=' read -r _si_k _si_v; do
		case $_si_k in
		state) SI_STATE=$_si_v ;; pct) SI_PCT=$_si_v ;; pid) SI_PID=$_si_v ;;
		esac
	done <"$_si_f"
	# a scrub whose process is gone without saying how it ended
	if [ "$SI_STATE" = running ] && ! kill -0 "${SI_PID:-0}" 2>/dev/null; then
		SI_STATE=failed
	fi
	return 0
}

# scrub_state KEY=VALUE...: the scrub's state file rewritten (atomically)
scrub_state() {
	local _ss
	{
		echo "pid=$$"
		for _ss in "$@"; do echo "$_ss"; done
	} >"$SCRUB_RUN/$nm.state.new" && mv -f "$SCRUB_RUN/$nm.state.new" "$SCRUB_RUN/$nm.state"
}

# scrub_now: SC_NOW, centiseconds since boot
scrub_now() {
	read -r SC_NOW _ </proc/uptime
	SC_NOW=${SC_NOW%.*}${SC_NOW#*.}
}

# scrub_stopped: scrub_run's end on Ctrl-C or --stop: where it stopped
# kept in the state, said, and in the history
scrub_stopped() {
	local _sp
	_sp=$((_sr_done * 100 / _sr_total))
	scrub_state state=stopped "pct=$_sp" "bad=$_sr_bad" "rate=$_sr_rate" "end=$(date +%s)"
	say "scrub of $nm stopped at $_sp%"
	history_add scrub-stopped "$nm" "$(array_uuid "$nm")" "" "" "at $_sp%, $(plural "$_sr_bad" "unreadable range") found"
}

# scrub_run NAME RATE: read every member's data region; the ranges that
# cannot be read are said and kept in $SCRUB_RUN/NAME.bad
scrub_run() {
	local _sr_per _sr_t0 _sr_said _sr_k _sr_mm _sr_dev _sr_off _sr_at _sr_n _sr_f _sr_l _sr_a _sr_el _sr_want _sr_pct _sr_eta _sr_files
	nm=$1 _sr_rate=$2
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	_sr_per=$((RP_LEN / RP_N)) _sr_total=$((RP_LEN)) _sr_done=0 _sr_bad=0
	: >"$SCRUB_RUN/$nm.bad"
	scrub_now
	_sr_t0=$SC_NOW _sr_said=0
	trap 'scrub_stopped; exit 130' INT TERM
	scrub_state state=running pct=0 bad=0 "rate=$_sr_rate"
	history_add scrub-started "$nm" "$(array_uuid "$nm")" "" "" "every member's data region, up to $_sr_rate MB/s (${HIST_CMD:-})"
	_sr_k=0
	for _sr_mm in $RP_MM; do
		_sr_dev=$(mm_dev "$_sr_mm") || die 1 "member $_sr_k of $nm ($_sr_mm) has no device node"
		_sr_off=$(rp_word "$RP_OFF" "$_sr_k")
		_sr_at=0
		while [ "$_sr_at" -lt "$_sr_per" ]; do
			_sr_n=$SCRUB_STEP
			[ $((_sr_at + _sr_n)) -gt "$_sr_per" ] && _sr_n=$((_sr_per - _sr_at))
			rp_bad_in "$_sr_dev" $((_sr_off + _sr_at)) "$_sr_n" "$_sr_off" >"$SCRUB_RUN/$nm.piece"
			if [ -s "$SCRUB_RUN/$nm.piece" ]; then
				while read -r _sr_f _sr_l; do
					_sr_a=$(rp_array_ranges "$_sr_k" "$_sr_f" "$_sr_l" | tr '\n' ' ')
					echo "$_sr_k ${_sr_dev#/dev/} $_sr_f-$_sr_l ${_sr_a% }" >>"$SCRUB_RUN/$nm.bad"
					say "scrub $nm: member $_sr_k (${_sr_dev#/dev/}) cannot read its data sectors $_sr_f-$_sr_l (array sectors ${_sr_a% })"
					_sr_bad=$((_sr_bad + 1))
				done <"$SCRUB_RUN/$nm.piece"
			fi
			_sr_at=$((_sr_at + _sr_n)) _sr_done=$((_sr_done + _sr_n))
			# the rate: ahead of it, wait; the state every 64 MiB
			scrub_now
			_sr_el=$((SC_NOW - _sr_t0))
			_sr_want=$((_sr_done * 512 / 10000 / _sr_rate))	# centiseconds at the rate
			if [ "$_sr_want" -gt $((_sr_el + 100)) ]; then
				sleep $(((_sr_want - _sr_el) / 100))
				scrub_now
				_sr_el=$((SC_NOW - _sr_t0))
			fi
			if [ $((_sr_done - _sr_said)) -ge 131072 ] || [ "$_sr_done" = "$_sr_total" ]; then
				_sr_said=$_sr_done
				_sr_pct=$((_sr_done * 100 / _sr_total))
				_sr_eta=$(((_sr_total - _sr_done) * (_sr_el / 100 + 1) / _sr_done))
				scrub_state state=running "pct=$_sr_pct" "eta=$_sr_eta" "bad=$_sr_bad" "rate=$_sr_rate"
				[ -n "${SCRUB_QUIET:-}" ] || say "scrub $nm: $_sr_pct% (member $_sr_k), ${_sr_eta}s left, $(plural "$_sr_bad" "unreadable range")"
			fi
		done
		_sr_k=$((_sr_k + 1))
	done
	rm -f "$SCRUB_RUN/$nm.piece"
	trap - INT TERM
	scrub_state state=finished pct=100 "bad=$_sr_bad" "rate=$_sr_rate" "end=$(date +%s)"
	if [ "$_sr_bad" = 0 ]; then
		say "scrub of $nm finished: every member's data region read without error"
		history_add scrub-finished "$nm" "$(array_uuid "$nm")" "" "" "no unreadable sector"
		return 0
	fi
	_sr_files=$(rp_files "/dev/mapper/$nm" "$(awk '{for (i = 4; i <= NF; i++) print $i}' "$SCRUB_RUN/$nm.bad")" | tr '\n' ' ')
	say "scrub of $nm finished: $(plural "$_sr_bad" "unreadable range") (listed above and in $SCRUB_RUN/$nm.bad): the data there is lost${_sr_files:+; files in them: $_sr_files}"
	say "restore what they hold from backup; a drive with unreadable sectors is failing: '$PROG replace --ignore-read-errors $nm OLD NEW' moves the array off it"
	history_add scrub-finished "$nm" "$(array_uuid "$nm")" "" "" "$(plural "$_sr_bad" "unreadable range"): $(awk '{printf "%smember %s data sectors %s (array %s)", (NR > 1 ? "; " : ""), $1, $3, $4}' "$SCRUB_RUN/$nm.bad")"
	return 1
}

# ---- scrub -------------------------------------------------------------
help_scrub() {
	cat <<EOF
usage: $PROG scrub [--rate MB] [--background] NAME...
       $PROG scrub [--rate MB] --all
       $PROG scrub --stop NAME

Reads every member's data region of each array named (--all: every active
array, one after the other), with direct reads of 1 MiB, at up to MB
megabytes per second in all (--rate, default $SCRUB_RATE): what md's
'check' and ZFS's scrub do.  A RAID-0 has no copy to repair from: a
scrub finds sectors a drive can no longer read before a file system or a
replace does, while the rest can still be saved.  Each unreadable range
is said with its member's data sectors and the array sectors it holds
(and, for ext4, the files, where debugfs can tell), kept in
$SCRUB_RUN/NAME.bad and in the history.  status and detail show a
running scrub's progress and time left, and the last one's result (since
boot; the history keeps them all).  Ctrl-C, or --stop, stops it.
--background leaves the scan to a process of its own.  Reads only: it
writes to no member.  ssdstripe-scrub.timer (off until enabled) runs
'scrub --all' monthly.
Exit: 0 every member read (or started, with --background; or stopped), 1
unreadable sectors found or the scan failed, 2 usage, 3 refused (a scrub
or a replace of the array runs), 4 no such array.
EOF
}

opt_scrub() {
	case $1 in
	--rate)
		case $2 in '' | *[!0-9]* | 0*) usage_die "--rate is a whole number of MB/s, 1 or more, not '$2'" ;; esac
		_sc_rate=$2 ;;
	--background) _sc_bg=1 ;;
	--stop) _sc_stop=1 ;;
	--all) _sc_all=1 ;;
	'') _sc_names="$_sc_names $2" ;;
	esac
}
cmd_scrub() {
	local _sc_n _sc_i _sc_u _sc_rc
	_sc_rate=$SCRUB_RATE _sc_bg='' _sc_stop='' _sc_all='' _sc_names=''
	opts opt_scrub '--rate= --background --stop --all' "$@"
	mkdir -p "$SCRUB_RUN" || die 1 "cannot make $SCRUB_RUN"
	if [ -n "$_sc_stop" ]; then
		[ -z "$_sc_all$_sc_bg" ] || usage_die "--stop goes with array names alone"
		[ -n "$_sc_names" ] || usage_die "--stop needs an array name"
		for _sc_n in $_sc_names; do
			if ! scrub_info "$_sc_n" || [ "$SI_STATE" != running ]; then
				warn "no scrub of $_sc_n runs"
				continue
			fi
			kill -TERM "$SI_PID" 2>/dev/null
			_sc_i=0
			while [ "$_sc_i" -lt 20 ] && kill -0 "$SI_PID" 2>/dev/null; do sleep 0.5; _sc_i=$((_sc_i + 1)); done
			scrub_info "$_sc_n"
			say "scrub of $_sc_n: $SI_STATE at ${SI_PCT:-0}%"
		done
		return 0
	fi
	if [ -n "$_sc_all" ]; then
		[ -z "$_sc_names$_sc_bg" ] || usage_die "--all goes without names and without --background"
		_sc_names=$(active_arrays)
		[ -n "$_sc_names" ] || { say "no active arrays"; return 0; }
	fi
	[ -n "$_sc_names" ] || usage_die "scrub needs an array name (or --all)"
	for _sc_n in $_sc_names; do
		is_array "$_sc_n" || die 4 "$_sc_n is not an active ssdstripe array"
		if scrub_info "$_sc_n" && [ "$SI_STATE" = running ]; then
			die 3 "a scrub of $_sc_n runs already (pid $SI_PID): '$PROG status $_sc_n' shows it, '$PROG scrub --stop $_sc_n' stops it"
		fi
		_sc_u=$(array_uuid "$_sc_n")
		if [ -n "$_sc_u" ] && [ -n "$(rp_mirror_of "$_sc_u")" ]; then
			die 3 "a replace of a member of $_sc_n runs: scrub it when the replace has ended"
		fi
	done
	if [ -n "$_sc_bg" ]; then
		for _sc_n in $_sc_names; do
			SCRUB_QUIET=1 setsid "$0" scrub --rate "$_sc_rate" -- "$_sc_n" </dev/null >"$SCRUB_RUN/$_sc_n.log" 2>&1 &
			say "scrub of $_sc_n goes on in the background ('$PROG status $_sc_n' shows it; its log: $SCRUB_RUN/$_sc_n.log)"
		done
		return 0
	fi
	_sc_rc=0
	for _sc_n in $_sc_names; do
		scrub_run "$_sc_n" "$_sc_rate" || _sc_rc=1
	done
	return "$_sc_rc"
}
