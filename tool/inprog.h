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

#include <json-c/json.h>

/* the lines under an array's line; nothing when none runs */
void replace_say(const char *name);
void scrub_say(const char *name);
/* the "replace" and "scrub" members of an array's JSON object (NULL: null) */
struct json_object *replace_json(const char *name);
struct json_object *scrub_json(const char *name);

/*
 * scrub_now_of: the scrub of NAME now or last since boot, as the scrub
 * command checks it: STATE (running, finished, stopped, failed: one whose
 * process is gone without saying how it ended), PCT and PID as its state
 * file has them ("" where it has none); false when there was none
 */
bool scrub_now_of(const char *name, char state[32], char pct[24], char pid[24]);

#endif
