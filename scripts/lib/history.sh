# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe history: what was done to the arrays and what the monitor saw
# happen to them, kept across reboots, as 'zpool history' and 'zpool
# events' keep it.  The command is C now (tool/history.c, and
# tool/histlog.c writes the log as history_add here does); its help stays
# here with every command's until 'help' moves too.
#
# One line per event in $HIST_DIR/history.log, tab-separated:
#   TIME EVENT ARRAY UUID MEMBER SERIAL DETAIL
# TIME ISO 8601 UTC; a field that does not apply is -.  The file is
# rotated at HIST_MAX bytes to history.log.1 (.2, .3; the oldest goes).
# Where the log cannot be written (the initramfs, whose /var/log is gone
# after the switch to the real root; a root still read-only early in the
# boot) the line waits in $SSDSTRIPE_RUNDIR/history.pending (/run, which
# the initramfs hands to the real root), and the next command that writes
# the log moves it there first, in its order.

HIST_DIR=${SSDSTRIPE_HISTORY_DIR:-/var/log/ssdstripe}
HIST_MAX=${SSDSTRIPE_HISTORY_MAX:-1048576}
HIST_KEEP=3

# hist_field TEXT: TEXT on one line, without tabs (- when empty)
hist_field() {
	case $1 in
	'') printf '%s' - ;;
	*'	'* | *'
'*) printf '%s' "$1" | tr '\t\n' '  ' ;;
	*) printf '%s' "$1" ;;
	esac
}

# history_add EVENT ARRAY UUID MEMBER SERIAL DETAIL: one line of history;
# never fails the command that calls it (the history is a record, not a
# condition), but says once why it cannot be kept
history_add() {
	local _ha_t _ha_l _ha_p _ha_f
	_ha_t=$(date -u '+%Y-%m-%dT%H:%M:%SZ' 2>/dev/null) || _ha_t=-
	_ha_l="$_ha_t	$(hist_field "$1")	$(hist_field "$2")	$(hist_field "$3")	$(hist_field "$4")	$(hist_field "$5")	$(hist_field "$6")"
	_ha_p=${SSDSTRIPE_RUNDIR:-/run/ssdstripe}/history.pending
	_ha_f=$HIST_DIR/history.log
	if mkdir -p "$HIST_DIR" 2>/dev/null &&
		history_flush "$_ha_p" "$_ha_f" && printf '%s\n' "$_ha_l" 2>/dev/null >>"$_ha_f"; then
		history_rotate "$_ha_f"
		return 0
	fi
	if mkdir -p "${_ha_p%/*}" 2>/dev/null && printf '%s\n' "$_ha_l" 2>/dev/null >>"$_ha_p"; then
		return 0
	fi
	once "history" && warn "cannot keep this in the history ($_ha_f, $_ha_p): $1 ${2:-}"
	return 0
}

# history_flush PENDING LOG: what waited in PENDING appended to LOG (one
# process takes it: mv is atomic); false when LOG cannot be written
history_flush() {
	local _hf_t
	[ -s "$1" ] || return 0
	_hf_t=$1.$$
	mv "$1" "$_hf_t" 2>/dev/null || return 0
	if cat "$_hf_t" 2>/dev/null >>"$2"; then
		rm -f "$_hf_t"
		return 0
	fi
	# put it back for the next try (before anything added meanwhile)
	cat "$1" >>"$_hf_t" 2>/dev/null
	mv "$_hf_t" "$1" 2>/dev/null
	return 1
}

# history_rotate LOG: LOG to LOG.1 (.1 to .2, ...) once it holds HIST_MAX bytes
history_rotate() {
	local _hr_i _hr_s
	_hr_s=$(wc -c <"$1" 2>/dev/null) || return 0
	[ "$_hr_s" -ge "$HIST_MAX" ] || return 0
	_hr_i=$HIST_KEEP
	while [ "$_hr_i" -gt 1 ]; do
		[ -e "$1.$((_hr_i - 1))" ] && mv -f "$1.$((_hr_i - 1))" "$1.$_hr_i"
		_hr_i=$((_hr_i - 1))
	done
	mv -f "$1" "$1.1"
}

# ---- history -----------------------------------------------------------
help_history() {
	cat <<EOF
usage: $PROG history [NAME...] [--json]

What was done to the arrays and what the monitor saw, oldest first, as
'zpool history' and 'zpool events' show it: create, assemble (by hand, by
udev, at boot: the initramfs's lines wait in /run until the real root
can keep them), stop, wipe, clear, replace (started, finished, stopped),
and every event of the monitor (a member's state change, an array that
appeared or went).  Each line: the time (UTC), the event, the array (and
the first 8 digits of its uuid), the member and its drive's serial where
one is concerned, and what happened (for a command, the command line).
With NAMEs, only the lines of those arrays (by name or uuid): an array
renamed, or stopped and assembled under another name, keeps its uuid.
Kept in $HIST_DIR/history.log (\$SSDSTRIPE_HISTORY_DIR), rotated at
$HIST_MAX bytes, $HIST_KEEP older files kept (history.log.1 ...).
--json prints one object per line.  Reads only.
Exit: 0 (no history yet too), 2 usage.
EOF
}
