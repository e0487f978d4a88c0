// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Per-member statistics off the I/O path: the sums over CPUs that sysfs,
 * status and the health monitor read, reset_stats, and what a member
 * error raises (a dm event, a log line).  What every I/O calls is static
 * inline in ssdstripe-stats.h.
 */

#include <linux/device-mapper.h>

#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "ssdstripe.h"
#include "ssdstripe-stats.h"

#define DM_MSG_PREFIX "ssdstripe"

/* Stop raising events for a member after this many errors (as dm-stripe). */
#define SSDSTRIPE_ERROR_EVENT_LIMIT 15

u64 ssdstripe_sum(struct ssdstripe_member *m, size_t offset)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(u64 *)((char *)per_cpu_ptr(m->stats, cpu) + offset);

	return sum;
}

/*
 * The member's errors, every operation: the one count that sysfs
 * (errors), dmsetup status and the tool show.
 */
u64 ssdstripe_member_errors(struct ssdstripe_member *m)
{
	u64 sum = 0;
	int op;

	for (op = 0; op < SSDSTRIPE_OP_NR; op++)
		sum += SSDSTRIPE_SUM(m, errors[op]);

	return sum;
}

/*
 * reset_stats: zero what the members did (I/O and sector counts, the
 * latency histogram, retries) and gather_fallbacks, never their errors:
 * those are evidence of the member's health, and only clear_errors
 * forgets them.
 */
void ssdstripe_reset_stats(struct ssdstripe_c *sc)
{
	struct ssdstripe_stats *st;
	unsigned int i;
	int cpu;

	/* Racy against I/O in flight by design: counts, not invariants. */
	for (i = 0; i < sc->geom.members; i++) {
		for_each_possible_cpu(cpu) {
			st = per_cpu_ptr(sc->member[i].stats, cpu);
			memset(st->ios, 0, sizeof(st->ios));
			memset(st->sectors, 0, sizeof(st->sectors));
			memset(st->hist, 0, sizeof(st->hist));
			st->retries = 0;
		}
	}
	ssdstripe_gather_reset_stats(sc);
}

/*
 * clear_errors' part in the counters: the member's errors are 0 again and
 * raise dm events again.  Racy against I/O in flight, as reset_stats.
 */
void ssdstripe_forget_errors(struct ssdstripe_member *m)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(m->stats, cpu)->errors, 0,
		       sizeof_field(struct ssdstripe_stats, errors));
	atomic_set(&m->error_events, 0);
}

/* A real error on @member: a dm event (the first few), a log line (the first). */
void ssdstripe_member_error(struct ssdstripe_c *sc, unsigned int member)
{
	int count;

	count = atomic_inc_return(&sc->member[member].error_events);
	if (count <= SSDSTRIPE_ERROR_EVENT_LIMIT)
		schedule_work(&sc->trigger_event);
	if (count == 1)
		DMERR_LIMIT("%s: I/O error on member %u (%s)",
			    dm_table_device_name(sc->ti->table), member,
			    sc->member[member].dev->name);
}
