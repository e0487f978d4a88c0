# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe monitor: events, hooks and the Prometheus textfile.

# ---- monitor -----------------------------------------------------------
help_monitor() {
	cat <<EOF
usage: $PROG monitor [--exec CMD] [--exec-timeout SECS] [--textfile PATH]
                         [--interval SECS] [--config] [--once]

Watch every active array.  On each member state change (and at start for
members that are not ok), when an array appears or goes, and when a
member's drive changes what it says of its health, print a line and run
CMD with sh -c, with
  SSDSTRIPE_EVENT (member-state, array-added, array-removed; drive-health:
    the drive's word ok, warning or critical changed; media-errors: its
    media error count grew; drive-throttled: its thermal throttling
    counters moved while the member stays slow),
  SSDSTRIPE_ARRAY, SSDSTRIPE_UUID, SSDSTRIPE_MEMBER, SSDSTRIPE_DEVICE,
  SSDSTRIPE_SERIAL, SSDSTRIPE_OLD_STATE, SSDSTRIPE_STATE, SSDSTRIPE_ARRAY_STATE,
  SSDSTRIPE_DETAIL (why, in words: "reliability degraded"; "slow:
    thermally throttled for 45 s" when a member turns slow while its
    drive throttles)
in its environment.  Hooks run in the background, each in a session of its
own, and never hold up the monitor: one still running after --exec-timeout
SECS (default $MON_EXEC_TIMEOUT) is killed with TERM, and with KILL $HOOK_KILL_GRACE s later.
TERM, INT or HUP stop the monitor: it kills the hooks still running and
exits 0 (130 on INT, 129 on HUP).

--textfile writes Prometheus metrics for node_exporter's textfile collector
(atomically, at every poll).  Arrays are polled every --interval SECS
(default $MON_INTERVAL) and at once on a dm event (every member state change
raises one).  --config takes what the command line does not give from
$CONF: MONITOR_EXEC, MONITOR_EXEC_TIMEOUT, MONITOR_TEXTFILE,
MONITOR_INTERVAL (ssdstripe-monitor.service runs monitor --config).
--once polls once, waits for its hooks and exits with the status exit code.
Exit: 2 bad usage, a textfile that cannot be written included;
--once: 0 optimal, 5 slow or a drive warns, 6 erroring, stalled or a drive is
critical, 7 failed.
EOF
}

MON_INTERVAL=10
MON_EXEC_TIMEOUT=60
HOOK_KILL_GRACE=5

# now_s: NOW = seconds since boot (monotonic: a clock change moves no
# timeout), without a fork
now_s() {
	if ! read -r NOW _ 2>/dev/null </proc/uptime; then NOW=$(date +%s); fi
	NOW=${NOW%.*}
}

# proc_start PID: true while PID is a running (not yet exited) child of this
# shell; sets PS_START to its start time, which tells a reused PID apart.
# The shell reaps its children on its own, so an exited hook may be gone
# from /proc before it is waited for.
proc_start() {
	local _ps
	read -r _ps 2>/dev/null <"/proc/$1/stat" || return 1
	_ps=${_ps##*') '}	# the fields after "(comm) "; comm may hold anything
	# shellcheck disable=SC2086 # the stat fields are words
	set -- $_ps
	[ "$1" != Z ] && [ "$2" = "$$" ] || return 1
	PS_START=${20}
}
# proc_ours PID START: PID is still the running child that started at START
proc_ours() { proc_start "$1" && { [ "$2" = - ] || [ "$PS_START" = "$2" ]; }; }

# hook_signal SIG PID: signal the hook's process group (its sh and what it
# started), or the hook alone where it got no session of its own
hook_signal() {
	if [ -n "$mon_setsid" ]; then kill "-$1" "-$2" 2>/dev/null && return 0; fi
	kill "-$1" "$2" 2>/dev/null
}

fire() { # fire EVENT ARRAY MEMBER DEVICE OLD NEW ARRAYSTATE UUID SERIAL
	local _fi_p
	say "$(date '+%Y-%m-%d %H:%M:%S') $2: $1${3:+ member $3}${4:+ ($4)}${5:+ $5 ->}${6:+ $6}${7:+, array $7}${FIRE_DETAIL:+: $FIRE_DETAIL}"
	history_add "$1" "$2" "$8" "$3" "$9" "${4:+$4: }${5:+$5 -> }${6:-}${7:+, array $7}${FIRE_DETAIL:+: $FIRE_DETAIL} (monitor)"
	[ -n "$mon_exec" ] || return 0
	# In the background, in a session of its own (setsid execs, it does not
	# fork: this subshell is no process group leader), so that a timeout or
	# the monitor's end can signal the whole hook.
	(
		SSDSTRIPE_EVENT=$1 SSDSTRIPE_ARRAY=$2 SSDSTRIPE_MEMBER=$3 SSDSTRIPE_DEVICE=$4
		SSDSTRIPE_OLD_STATE=$5 SSDSTRIPE_STATE=$6 SSDSTRIPE_ARRAY_STATE=$7
		SSDSTRIPE_UUID=$8 SSDSTRIPE_SERIAL=$9 SSDSTRIPE_DETAIL=${FIRE_DETAIL-}
		export SSDSTRIPE_EVENT SSDSTRIPE_ARRAY SSDSTRIPE_MEMBER SSDSTRIPE_DEVICE \
			SSDSTRIPE_OLD_STATE SSDSTRIPE_STATE SSDSTRIPE_ARRAY_STATE SSDSTRIPE_UUID \
			SSDSTRIPE_SERIAL SSDSTRIPE_DETAIL
		exec 9>&-
		[ -n "$mon_setsid" ] && exec setsid sh -c "$mon_exec"
		exec sh -c "$mon_exec"
	) </dev/null &
	_fi_p=$!
	now_s
	proc_start "$_fi_p" || PS_START=-
	# the hook's record: started, run|T<when TERM was sent>|kill, start time, what
	echo "$NOW run $PS_START $1 $2${3:+ member $3}" >"$TMPD/hooks/$_fi_p"
}

# hooks_reap: wait for the hooks that ended (their status is said when not
# 0), signal the ones past their timeout (TERM, then KILL after the grace);
# sets MON_HOOKS to how many still run
hooks_reap() {
	local _hr_f _hr_p _hr_t0 _hr_st _hr_what _hr_rc
	now_s
	MON_HOOKS=0
	for _hr_f in "$TMPD"/hooks/*; do
		[ -e "$_hr_f" ] || continue
		_hr_p=${_hr_f##*/}
		read -r _hr_t0 _hr_s _hr_st _hr_what <"$_hr_f"
		if ! proc_ours "$_hr_p" "$_hr_st"; then
			# (2>/dev/null: the shell's own "Terminated" for a killed one)
			wait "$_hr_p" 2>/dev/null
			_hr_rc=$?
			rm -f "$_hr_f"
			[ "$_hr_s" = run ] && [ "$_hr_rc" != 0 ] &&
				warn "hook for $_hr_what exited with status $_hr_rc"
			continue
		fi
		MON_HOOKS=$((MON_HOOKS + 1))
		case $_hr_s in
		run)
			[ $((NOW - _hr_t0)) -ge "$exec_timeout" ] || continue
			warn "hook for $_hr_what (pid $_hr_p) still running after $exec_timeout s: killing it (TERM)"
			hook_signal TERM "$_hr_p"
			echo "$_hr_t0 T$NOW $_hr_st $_hr_what" >"$_hr_f"
			;;
		T*)
			[ $((NOW - ${_hr_s#T})) -ge "$HOOK_KILL_GRACE" ] || continue
			warn "hook for $_hr_what (pid $_hr_p) still running $HOOK_KILL_GRACE s after TERM: killing it (KILL)"
			hook_signal KILL "$_hr_p"
			echo "$_hr_t0 kill $_hr_st $_hr_what" >"$_hr_f"
			;;
		esac
	done
}

# hooks_stop: the monitor ends: TERM to every hook still running, KILL to
# what is left after the grace, and reap them all
hooks_stop() {
	local _hs_all _hs_f _hs_p _hs_t0 _hs_st _hs_what _hs_i
	_hs_all=''
	for _hs_f in "$TMPD"/hooks/*; do
		[ -e "$_hs_f" ] || continue
		_hs_p=${_hs_f##*/}
		read -r _hs_t0 _ _hs_st _hs_what <"$_hs_f"
		if proc_ours "$_hs_p" "$_hs_st"; then
			warn "stopping: killing the hook for $_hs_what (pid $_hs_p)"
			hook_signal TERM "$_hs_p"
			now_s
			echo "$_hs_t0 T$NOW $_hs_st $_hs_what" >"$_hs_f"
			_hs_all="$_hs_all $_hs_p"
		fi
	done
	[ -n "$_hs_all" ] || { hooks_reap; return 0; }
	_hs_i=0
	while [ "$_hs_i" -lt $((HOOK_KILL_GRACE * 5)) ]; do
		hooks_reap
		[ "$MON_HOOKS" = 0 ] && break
		sleep 0.2 2>/dev/null || sleep 1
		_hs_i=$((_hs_i + 1))
	done
	# the group too: a child of the hook may outlive its sh
	for _hs_p in $_hs_all; do hook_signal KILL "$_hs_p"; done
	for _hs_f in "$TMPD"/hooks/*; do
		[ -e "$_hs_f" ] || continue
		wait "${_hs_f##*/}" 2>/dev/null
		rm -f "$_hs_f"
	done
}

# watch_array NAME: a background waiter that wakes the monitor (USR1) at
# every dm event of NAME: dmsetup wait from the event number just read, so
# no event is lost between two waits.  It ends when NAME goes (its removal
# wakes it too) or on TERM, taking its dmsetup with it.
watch_array() {
	local _wa_e _wa_p
	(
		_wa_w=''
		trap '[ -n "$_wa_w" ] && kill "$_wa_w" 2>/dev/null; exit 0' TERM
		while _wa_e=$(dmsetup info -c --noheadings -o events "$1" 2>/dev/null); do
			# shellcheck disable=SC2086 # the number, without dmsetup's padding
			dmsetup wait --noflush "$1" $_wa_e >/dev/null 2>&1 &
			_wa_w=$!
			wait "$_wa_w" || exit 0
			kill -USR1 $$ 2>/dev/null || exit 0
		done
	) </dev/null >/dev/null 2>&1 &
	_wa_p=$!
	proc_start "$_wa_p" || PS_START=-
	echo "$_wa_p $PS_START" >"$TMPD/watch/$1"
}
# watch_stop NAME: end the waiter of NAME
watch_stop() {
	local _ws_p _ws_st
	read -r _ws_p _ws_st <"$TMPD/watch/$1" || return 0
	rm -f "$TMPD/watch/$1"
	proc_ours "$_ws_p" "$_ws_st" && kill "$_ws_p" 2>/dev/null
	wait "$_ws_p" 2>/dev/null
	return 0
}
# watch_ensure NAME: a live waiter for NAME (started anew if it ended)
watch_ensure() {
	local _we_p _we_st
	if [ -f "$TMPD/watch/$1" ]; then
		read -r _we_p _we_st <"$TMPD/watch/$1"
		proc_ours "$_we_p" "$_we_st" && return 0
		watch_stop "$1"
	fi
	watch_array "$1"
}

# mon_exit CODE: kill the waiters and the hooks, then exit
mon_exit() {
	local _me_f
	trap '' HUP INT TERM USR1
	# the sleep between two polls, if the signal came during it
	if [ -n "${_mo_sl:-}" ]; then
		kill "$_mo_sl" 2>/dev/null
		wait "$_mo_sl" 2>/dev/null
	fi
	for _me_f in "$TMPD"/watch/*; do
		[ -e "$_me_f" ] && watch_stop "${_me_f##*/}"
	done
	hooks_stop
	exit "$1"
}

# Every metric: name, type, help.  node_exporter's conventions: base units
# (bytes, seconds), counters end in _total, a state is one series per
# possible value, identity is an _info metric of value 1.  Every sample is
# labelled array (the name), uuid (from the label; empty for a raw dmsetup
# array) and, for members, member (the index in the table) and serial
# (empty where the device has none); these are stable across boots, the
# kernel's device name is not and lives only in ssdstripe_member_info.
metric_defs() {
	array_metric_defs
	cat <<'EOF'
ssdstripe_replace_progress_ratio gauge Share of a member's data a replace in progress has copied onto its new drive (0 to 1); no sample without one.
ssdstripe_member_info gauge Member identity, value 1: kernel device name, model, serial and firmware revision as the drive reports them.
EOF
	member_metric_defs
}

# write_metrics FILE: Prometheus text format for all arrays, replaced
# atomically (a file beside it, then mv); fails with the reason on stderr
write_metrics() {
	local _wm_a
	{
		metric_defs | sed 's/^/#M /'
		for nm in $(active_arrays); do
			array_info "$nm" m || continue
			s=$A_SYS snap=$A_SNAP
			prom_escape "$nm"
			_wm_a=$PE
			prom_escape "$A_UUID"
			al="array=\"$_wm_a\",uuid=\"$PE\""
			array_prom "$al"
			if replace_info "$nm"; then
				printf 'ssdstripe_replace_progress_ratio{%s,member="%s"} %d.%02d\n' "$al" \
					"$RI_MEMBER" $((${RI_PERCENT:-0} / 100)) $((${RI_PERCENT:-0} % 100))
			fi
			i=0
			for mst in ${snap#* }; do
				member_info "$s" "$i" "$mst"
				member_prom "$al"
				i=$((i + 1))
			done
		done
	} | awk '
		# each metric: HELP and TYPE, then its samples (none is allowed)
		/^#M / { m = $2; order[++n] = m; type[m] = $3
			h = $0; sub(/^#M [^ ]+ [^ ]+ /, "", h); help[m] = h; next }
		{ m = $0; sub(/[{ ].*/, "", m)
		  if (m in type) body[m] = body[m] $0 "\n"; else stray = stray $0 "\n" }
		END {
			for (i = 1; i <= n; i++) {
				m = order[i]
				print "# HELP " m " " help[m]
				print "# TYPE " m " " type[m]
				printf "%s", body[m]
			}
			printf "%s", stray
		}' 2>"$TMPD/textfile.err" >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1" 2>>"$TMPD/textfile.err" && return 0
	rm -f "$1.tmp.$$"
	sed -n '1s/.*: //p' "$TMPD/textfile.err" >&2
	return 1
}

# textfile_check PATH: the textfile can be written (before the first poll:
# a wrong path is a usage error, not a message at every poll)
textfile_check() {
	local _tc_e
	case $1 in */) usage_die "--textfile $1 names a directory" ;; esac
	[ -d "$1" ] && usage_die "--textfile $1 is a directory"
	if ! _tc_e=$( (: >"$1.tmp.$$") 2>&1); then
		warn "cannot write the textfile $1: ${_tc_e##*: }"
		warn "(--textfile needs an existing directory this user may write to)"
		exit 2
	fi
	rm -f "$1.tmp.$$"
}

# mon_takeover NAME: a copy under array NAME that no process waits for (it
# was killed, or the machine's session ended): the monitor starts one, as
# dmeventd takes over an LVM mirror, for with handle_errors a drive error
# during the copy would hold the array's writes until something acts.
# 'replace --finish' locks the copy: of two started at once, one waits.
mon_takeover() {
	mkdir -p "$REPLACE_RUN"
	warn "monitor: no process waits for the copy under $1 (it was killed): '$PROG replace --finish $1' takes it over (its log: $REPLACE_RUN/$1.log)"
	if [ -n "$mon_setsid" ]; then
		setsid "${SSDSTRIPE_PROGRAM:-$PROG}" replace --finish "$1" </dev/null >>"$REPLACE_RUN/$1.log" 2>&1 &
	else
		"${SSDSTRIPE_PROGRAM:-$PROG}" replace --finish "$1" </dev/null >>"$REPLACE_RUN/$1.log" 2>&1 &
	fi
}
# mon_replace NAME: events of a replace of one of NAME's members: started,
# progress (every quarter), read errors, done or stopped (when its mirror
# is gone: done if the member is on the replace's NEW now)
mon_replace() {
	local _mr_f _mr_v _mr_p _mr_q _mr_now _mr_u _mr_st _mr_why _mr_k _mr_from _mr_to _mr_at _mr_key _mr_seen _mr_dev
	_mr_f=$TMPD/prevrep/$1
	mkdir -p "$TMPD/prevrep"
	_mr_p=''
	[ -f "$_mr_f" ] && _mr_p=$(cat "$_mr_f")
	replace_info "$1"
	case $? in
	2) return 0 ;; # being set up or taken down: the next look tells
	0)
		[ -n "$RI_WATCHED" ] || [ -n "$once" ] || mon_takeover "$1"
		_mr_q=$((${RI_PERCENT:-0} / 25 * 25))
		_mr_now="$RI_MEMBER|${RI_FROM#/dev/}|${RI_TO#/dev/}|$RI_STATE|$_mr_q"
		[ "$_mr_now" = "$_mr_p" ] && return 0
		printf '%s\n' "$_mr_now" >"$_mr_f"
		# this replace is told as it goes: not again from what it leaves
		sed -n 's/^started=//p' "$REPLACE_RUN/$1" 2>/dev/null >"$_mr_f.seen"
		_mr_u=$(array_uuid "$1")
		FIRE_DETAIL="${RI_FROM#/dev/} onto ${RI_TO#/dev/}, ${RI_PERCENT:-0}% copied"
		[ -z "$_mr_p" ] &&
			fire replace-started "$1" "$RI_MEMBER" "${RI_TO#/dev/}" '' copying '' "$_mr_u" ''
		if [ "$RI_STATE" != copying ] && { [ -z "$_mr_p" ] || [ "${_mr_p#*|*|*|}" = "copying|${_mr_p##*|}" ]; }; then
			FIRE_DETAIL="$RI_STATE: '$PROG replace --finish $1' says which ranges"
			fire replace-read-errors "$1" "$RI_MEMBER" "${RI_TO#/dev/}" copying "$RI_STATE" '' "$_mr_u" ''
		elif [ -n "$_mr_p" ]; then
			fire replace-progress "$1" "$RI_MEMBER" "${RI_TO#/dev/}" '' "${RI_PERCENT:-0}%" '' "$_mr_u" ''
		fi
		FIRE_DETAIL=''
		return 0 ;;
	esac
	# how the last one ended, as the replace left it ($REPLACE_RUN/NAME.last)
	_mr_st='' _mr_why='' _mr_k='' _mr_from='' _mr_to='' _mr_at='' _mr_u=''
	if [ -r "$REPLACE_RUN/$1.last" ]; then
		while IFS='=' read -r _mr_key _mr_v; do
			case $_mr_key in
			state) _mr_st=$_mr_v ;;
			why) _mr_why=$_mr_v ;;
			member) _mr_k=$_mr_v ;;
			from) _mr_from=${_mr_v#/dev/} ;;
			to) _mr_to=${_mr_v#/dev/} ;;
			started) _mr_at=$_mr_v ;;
			esac
		done <"$REPLACE_RUN/$1.last"
	fi
	if [ -z "$_mr_p" ]; then
		# not seen in progress: one that began and ended between two
		# looks (a source that fails at once stops within a second) is
		# told now, from what it left, once; one from before this
		# monitor started is not news.  An idle array costs no process.
		if [ -z "$_mr_at" ] || [ -z "$_mr_k" ]; then return 0; fi
		_mr_seen=''
		[ -r "$_mr_f.seen" ] && read -r _mr_seen <"$_mr_f.seen"
		[ "$_mr_at" = "$_mr_seen" ] && return 0
		printf '%s\n' "$_mr_at" >"$_mr_f.seen"
		[ -z "$first" ] || return 0
		_mr_u=$(array_uuid "$1")
		FIRE_DETAIL="$_mr_from onto $_mr_to (begun and ended between two looks)"
		fire replace-started "$1" "$_mr_k" "$_mr_to" '' copying '' "$_mr_u" ''
		_mr_p="$_mr_k|$_mr_from|$_mr_to|copying|0"
	fi
	rm -f "$_mr_f"
	_mr_k=${_mr_p%%|*} _mr_to=${_mr_p#*|*|} _mr_to=${_mr_to%%|*}
	[ -n "$_mr_u" ] || _mr_u=$(array_uuid "$1")
	rp_table "$1" || return 0
	_mr_dev=$(mm_dev "$(rp_word "$RP_MM" "$_mr_k")")
	if [ "${_mr_dev#/dev/}" = "$_mr_to" ]; then
		fire replace-done "$1" "$_mr_k" "$_mr_to" '' "${_mr_to}" '' "$_mr_u" ''
		return 0
	fi
	# read errors the last look missed (the replace stops within a second)
	if [ "$_mr_st" = "read errors" ] && [ "${_mr_p#*|*|*|}" = "copying|${_mr_p##*|}" ]; then
		FIRE_DETAIL="$_mr_why; '$PROG replace' said which ranges"
		fire replace-read-errors "$1" "$_mr_k" "$_mr_to" copying "$_mr_st" '' "$_mr_u" ''
	fi
	FIRE_DETAIL="the member is on ${_mr_dev#/dev/}${_mr_why:+ ($_mr_why)}"
	fire replace-stopped "$1" "$_mr_k" "$_mr_to" '' '' '' "$_mr_u" ''
	FIRE_DETAIL=''
}

# mon_poll: one look at every array; fires events, writes the textfile,
# starts dm event waiters for new arrays; _mo_rc = the status exit code
mon_poll() {
	_mo_rc=0
	now=$(active_arrays)
	for nm in $now; do
		s=$(dm_sysdir "$nm")/ssdstripe
		[ -d "$s" ] || continue
		[ -n "$once" ] || watch_ensure "$nm"
		snap=$(snapshot "$s") || continue
		astate=${snap%% *}
		rc=$(state_rc "$astate")
		[ "$rc" -gt "$_mo_rc" ] && _mo_rc=$rc
		u=''
		if [ -f "$TMPD/prev/$nm" ]; then
			prev=$(cat "$TMPD/prev/$nm")
		else
			prev=''
			if [ -z "$first" ]; then
				u=$(array_uuid "$nm")
				fire array-added "$nm" '' '' '' '' "$astate" "$u" ''
			fi
		fi
		i=0
		for st in ${snap#* }; do
			old=''
			[ -n "$prev" ] && old=$(echo "$prev" | cut -d' ' -f$((i + 2)))
			drive_watch "$nm" "$i" "$st" "${old:-$st}" "$astate" "$s"
			if { [ -n "$old" ] && [ "$old" != "$st" ]; } ||
				{ [ -z "$old" ] && [ "$st" != ok ]; }; then
				member_info "$s" "$i"
				[ -n "$u" ] || u=$(array_uuid "$nm")
				# a slow member whose drive throttled meanwhile: say so
				[ "$st" = slow ] && FIRE_DETAIL=${DRIVE_THROTTLED:+slow: $DRIVE_THROTTLED}
				fire member-state "$nm" "$i" "$M_DEV" "${old:-unknown}" "$st" "$astate" \
					"$u" "$M_SERIAL"
				FIRE_DETAIL=''
			fi
			i=$((i + 1))
		done
		echo "$snap" >"$TMPD/prev/$nm"
		mon_replace "$nm"
	done
	for f in "$TMPD"/prev/*; do
		[ -e "$f" ] || continue
		nm=${f##*/}
		echo "$now" | grep -qxF -e "$nm" && continue
		rm -f "$f"
		[ -f "$TMPD/watch/$nm" ] && watch_stop "$nm"
		fire array-removed "$nm" '' '' '' '' '' '' ''
	done
	first=''
	[ -n "$textfile" ] || return 0
	if write_metrics "$textfile" 2>"$TMPD/textfile.why"; then
		[ -n "$_mo_tf_bad" ] && warn "the textfile $textfile is written again"
		_mo_tf_bad=''
	elif [ -z "$_mo_tf_bad" ]; then
		# once, not at every poll, until it works again
		warn "cannot write the textfile $textfile: $(head -n 1 "$TMPD/textfile.why"); trying again at every poll"
		_mo_tf_bad=1
	fi
}

opt_monitor() {
	case $1 in
	--exec) mon_exec=$2 _mo_x=1 ;;
	--exec-timeout) exec_timeout=$2 ;;
	--textfile) textfile=$2 ;;
	--interval) interval=$2 ;;
	--config) config=1 ;;
	--once) once=1 ;;
	'') _mo_a=${_mo_a:-$2} ;;
	esac
}
cmd_monitor() {
	local _mo_next _mo_d
	mon_exec='' textfile='' interval='' exec_timeout='' once='' config='' _mo_x='' _mo_a=''
	opts opt_monitor '--exec= --exec-timeout= --textfile= --interval= --config --once' "$@"
	[ -z "${_mo_a-}" ] || usage_die "monitor takes options only, no '$_mo_a'"
	if [ -n "$config" ]; then
		conf_warn_once
		[ "$CONF_BAD" = 0 ] || die 2 "$CONF: $(plural "$CONF_BAD" problem) (above): fix the lines, then start the monitor again ($PROG config checks the file)"
		[ -n "$_mo_x" ] || mon_exec=$(conf_value MONITOR_EXEC)
		[ -n "$exec_timeout" ] || exec_timeout=$(conf_value MONITOR_EXEC_TIMEOUT)
		[ -n "$textfile" ] || textfile=$(conf_value MONITOR_TEXTFILE)
		[ -n "$interval" ] || interval=$(conf_value MONITOR_INTERVAL)
	fi
	: "${interval:=$MON_INTERVAL}" "${exec_timeout:=$MON_EXEC_TIMEOUT}"
	case $interval in *[!0-9]* | 0*) usage_die "invalid interval '$interval'" ;; esac
	case $exec_timeout in *[!0-9]* | 0*) usage_die "invalid exec timeout '$exec_timeout'" ;; esac
	[ -n "$textfile" ] && textfile_check "$textfile"
	tmpdir
	mkdir -p "$TMPD/prev" "$TMPD/hooks" "$TMPD/watch"
	mon_setsid=''
	command -v setsid >/dev/null 2>&1 && mon_setsid=1
	# A dm event waiter sends USR1: poll now.  Stopping kills the hooks.
	mon_wake=''
	trap 'mon_wake=1' USR1
	# TERM is how a service is stopped: a clean stop, exit 0
	# The stop's messages go to the monitor's own stderr (fd 9): a signal
	# that lands during the textfile's write would run the trap with that
	# command's 2> still in place, and they were lost in its error file.
	exec 9>&2
	trap '{ warn "stopping (HUP)"; mon_exit 129; } 2>&9' HUP
	trap '{ warn "stopping (INT)"; mon_exit 130; } 2>&9' INT
	trap '{ warn "stopping (TERM)"; mon_exit 0; } 2>&9' TERM
	first=1 _mo_tf_bad='' _mo_next=0 MON_HOOKS=0 _mo_sl=''
	while :; do
		now_s
		if [ -n "$mon_wake" ] || [ "$NOW" -ge "$_mo_next" ]; then
			mon_wake=''
			_mo_next=$((NOW + interval))
			mon_poll
			if [ -n "$once" ]; then
				# its hooks run to their end (or timeout) before it exits
				hooks_reap
				while [ "$MON_HOOKS" -gt 0 ]; do
					sleep 1
					hooks_reap
				done
				mon_exit "$_mo_rc"
			fi
		fi
		hooks_reap
		[ -n "$mon_wake" ] && continue
		now_s
		_mo_d=$((_mo_next - NOW))
		# a running hook is looked at every second (its timeout)
		[ "$MON_HOOKS" -gt 0 ] && [ "$_mo_d" -gt 1 ] && _mo_d=1
		[ "$_mo_d" -ge 1 ] || continue
		# sleep in the background: wait returns at once on a signal (a dm
		# event, or the end), where a foreground sleep would hold the trap
		sleep "$_mo_d" &
		_mo_sl=$!
		wait "$_mo_sl" 2>/dev/null || { kill "$_mo_sl" 2>/dev/null; wait "$_mo_sl" 2>/dev/null; }
		_mo_sl=''
	done
}
