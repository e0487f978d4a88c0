/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the monitor's look at a member's drive at each poll (a
 * cache hit but every SMART_CACHE seconds, smart.c), and the events it
 * raises:
 *   drive-health    when the drive's word (ok, warning, critical) changes,
 *                   and at start when it is not ok; the detail says why (a
 *                   drive that cannot be read now keeps its last word)
 *   media-errors    when its media error count grows
 *   drive-throttled when its thermal-management counters moved while the
 *                   member stays slow ("slow: thermally throttled for 45 s")
 */
#ifndef SSDSTRIPE_DRIVEWATCH_H
#define SSDSTRIPE_DRIVEWATCH_H

#include <stdbool.h>
#include <stddef.h>

/* what the last look at a drive read ("-" unknown); health "" none yet */
struct drive_prev {
	char health[16], media[24], tcount[24], tsecs[24];
	bool have;
};

/* an event of member I's drive DEV (its serial SERIAL, "" none) */
typedef void (*drive_fire_fn)(void *ctx, const char *event, unsigned int i, const char *dev,
			      const char *serial, const char *old, const char *new, const char *detail);

/*
 * drive_watch: a look at member I's drive (ASYS: the array's statistics
 * directory), the member in STATE, OLD_STATE at the last look; P what
 * that look read.  Raises *RC to 5 for a drive that warns, 6 for one that
 * is critical; THROTTLED gets what a member-state event to slow adds
 * ("thermally throttled for 45 s", "" none)
 */
void drive_watch(struct drive_prev *p, const char *asys, unsigned int i, const char *state,
		 const char *old_state, int *rc, char *throttled, size_t tlen, drive_fire_fn fire, void *ctx);

/* smart_throttled: "thermally throttled" (with for how long, when the
 * drive counts time) when the counters moved between two readings, else
 * ""; unknown ("") readings never say throttled */
void smart_throttled(const char *oc, const char *os, const char *c, const char *s, char *buf, size_t len);

#endif
