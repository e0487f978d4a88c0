/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: what runs on an active array, as status and detail show it:
 * a replace's copy (from the mirror under the array and the replace's
 * state files in $SSDSTRIPE_RUNDIR/replace) and the scrub now or last
 * since boot ($SSDSTRIPE_RUNDIR/scrub/NAME.state).  The rules of
 * scripts/lib/replace.sh's replace_say/replace_json and scrub.sh's
 * scrub_say/scrub_json.
 */
#ifndef SSDSTRIPE_INPROG_H
#define SSDSTRIPE_INPROG_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* the lines under an array's line; nothing when none runs */
void replace_say(const char *name);
void scrub_say(const char *name);
/* the "replace" and "scrub" members of an array's JSON object (NULL: null) */
struct json_object *replace_json(const char *name);
struct json_object *scrub_json(const char *name);

/*
 * a replace in progress, as the monitor follows it: its member, OLD and
 * NEW (without /dev/), percent copied ("" unknown), state (copying, read
 * errors on OLD, NEW failed), whether an ssdstripe process waits for it
 */
struct replace_now {
	long member;
	char from[256], to[256], percent[24], state[300];
	bool watched;
};
/* replace_now: 0 one runs on array NAME (R), 1 none, 2 its copy's device
 * is not under the array or holds no mirror (being set up or taken down) */
int replace_now(const char *name, struct replace_now *r);
/* replace_progress: a replace runs on NAME: its member and percent copied */
bool replace_progress(const char *name, long *member, char *percent, size_t len);

/*
 * scrub_now_of: the scrub of NAME now or last since boot, as the scrub
 * command checks it: STATE (running, finished, stopped, failed: one whose
 * process is gone without saying how it ended), PCT and PID as its state
 * file has them ("" where it has none); false when there was none
 */
bool scrub_now_of(const char *name, char state[32], char pct[24], char pid[24]);

#endif
