# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe monitor: its help (the command is C: tool/monitor.c, with
# tool/metrics.c, drivewatch.c, hooks.c and dmwait.c); the defaults it
# names are tool/monitor.c's and hooks.c's.

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
