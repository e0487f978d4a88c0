/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe iostat's report: for each array, a row per member and one
 * for all of them, of what its sysfs counters and latency histograms
 * (arraysys.h) gained since the last report: rates, latency mean and
 * percentiles (lathist.h), queue depth, errors, state; or the histograms
 * themselves (-w); or one JSON object (--json).  The first report only
 * takes the counters.  Each counter is kept by array name, member and
 * file, as the sh tool's report kept them: one that went backwards (the
 * table reloaded, reset_stats) counts from 0.
 */
#ifndef SSDSTRIPE_IOREP_H
#define SSDSTRIPE_IOREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum iorep_mode { IOREP_TEXT, IOREP_HIST, IOREP_JSON };

struct iorep_array {
	char *name, *sys;	/* sys: the statistics directory (arraysys_dir) */
	bool gone;
};

struct iorep_val;

struct iorep {
	enum iorep_mode mode;
	struct iorep_array *a;
	size_t na;
	struct iorep_val *prev;	/* the counters of the last report, sorted */
	size_t nprev;
	bool have;		/* a report was taken */
	double prev_time;	/* its uptime */
};

void iorep_init(struct iorep *r, enum iorep_mode mode);
/* iorep_add: array NAME, whose statistics are in SYS, into the reports */
void iorep_add(struct iorep *r, const char *name, const char *sys);
/*
 * iorep_report: one report to OUT of what the counters gained since the
 * last (the first prints nothing); NOW the uptime in seconds, EPOCH the
 * time.  An array no longer active is said on stderr and left out of the
 * reports from then on.
 */
void iorep_report(struct iorep *r, double now, long long epoch, FILE *out);
void iorep_free(struct iorep *r);

#endif
