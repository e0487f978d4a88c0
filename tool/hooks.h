/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the monitor's hooks (--exec CMD): each event runs CMD with
 * sh -c, in the background, in a session of its own, so that a timeout
 * or the monitor's end can signal the whole hook (its sh and what it
 * started).  A hook still running after its timeout is killed with TERM,
 * and with KILL HOOK_KILL_GRACE s later; one that ended is waited for,
 * and its status said when not 0.
 */
#ifndef SSDSTRIPE_HOOKS_H
#define SSDSTRIPE_HOOKS_H

#define HOOK_KILL_GRACE 5

/* now_s: seconds of a clock no clock change moves (monotonic) */
long now_s(void);
/* hook_run: CMD with sh -c, ENV ("NAME=value", NULL-ended) added to the
 * environment; WHAT names it in messages ("member-state fast member 1") */
void hook_run(const char *cmd, char *const env[], const char *what);
/* hooks_reap: the ended ones waited for, the late ones signalled (after
 * TIMEOUT s); how many still run */
int hooks_reap(long timeout);
/* hooks_stop: the monitor ends: TERM to every hook still running, KILL
 * to what is left after the grace, and all of them reaped */
void hooks_stop(void);

#endif
