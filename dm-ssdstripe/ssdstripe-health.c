// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Member health: the pure state machine (ok, slow, erroring, stalled,
 * failed) that KUnit drives with synthetic windows, and around it the
 * health work that samples the per-member counters once a window,
 * publishes the states as one snapshot and tells of changes (log line,
 * uevent, dm event).
 */

#include <linux/device-mapper.h>

#include <linux/blkdev.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched/mm.h>
#include <linux/seqlock.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "ssdstripe.h"
#include "ssdstripe-stats.h"

#define DM_MSG_PREFIX "ssdstripe"

const char * const ssdstripe_state_name[] = {
	[SSDSTRIPE_OK] = "ok",
	[SSDSTRIPE_SLOW] = "slow",
	[SSDSTRIPE_ERRORING] = "erroring",
	[SSDSTRIPE_STALLED] = "stalled",
	[SSDSTRIPE_FAILED] = "failed",
};

/*
 * The array state is the worst member state, named in RAID-0 words (sysfs
 * ABI version 2; stalled since version 3): nothing is redundant, so the
 * word names what to do.
 */
const char * const ssdstripe_array_state_name[] = {
	[SSDSTRIPE_OK] = "optimal",
	[SSDSTRIPE_SLOW] = "slow",
	[SSDSTRIPE_ERRORING] = "erroring",
	[SSDSTRIPE_STALLED] = "stalled",
	[SSDSTRIPE_FAILED] = "failed",
};

static int ssdstripe_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Lower median of the sorted @mean[0..n-1] with the element at index @self
 * left out: the peers of that member.
 */
static u64 ssdstripe_peer_median(const u64 *mean, unsigned int n,
				 unsigned int self)
{
	unsigned int m = (n - 2) / 2;

	return mean[m < self ? m : m + 1];
}

/* Move member @h's error level given one window's sample @s. */
static void ssdstripe_health_errors(const struct ssdstripe_thresholds *t,
				    const struct ssdstripe_sample *s,
				    struct ssdstripe_health *h)
{
	if (s->gone) {
		h->err = SSDSTRIPE_ERRLVL_FAILED;
		h->fail_run = 0;
		h->clean_run = 0;
		return;
	}

	if (s->errors) {
		h->clean_run = 0;
		if (h->err == SSDSTRIPE_ERRLVL_NONE)
			h->err = SSDSTRIPE_ERRLVL_ERRORING;
		if (s->ok) {
			h->fail_run = 0;
			return;
		}
		if (++h->fail_run >= t->fail_windows)
			h->err = SSDSTRIPE_ERRLVL_FAILED;
		return;
	}

	/*
	 * An idle window changes no state, but it ends a run of failing
	 * windows: failed needs the member to fail everything under load,
	 * not one bad sector read now and then.
	 */
	if (!s->ok) {
		h->fail_run = 0;
		return;
	}

	h->fail_run = 0;
	if (h->err == SSDSTRIPE_ERRLVL_FAILED &&
	    ++h->clean_run >= t->recover_windows) {
		/* Working again, but what it lost stays flagged. */
		h->err = SSDSTRIPE_ERRLVL_ERRORING;
		h->clean_run = 0;
	}
}

/* Member @h's speed verdict after one judgment: @slow or not. */
static void ssdstripe_health_judge(const struct ssdstripe_thresholds *t,
				   struct ssdstripe_health *h, bool slow)
{
	if (slow) {
		h->fast_run = 0;
		if (++h->slow_run >= t->slow_windows)
			h->slow = true;
		return;
	}

	h->slow_run = 0;
	if (h->slow && ++h->fast_run >= t->recover_windows) {
		h->slow = false;
		h->fast_run = 0;
	}
}

/*
 * Member @h's stall after one window @s.  What a stall measures is the age
 * of what is outstanding, not the length of a window: a read or write in
 * flight at a sample may have started a moment before it, so its wait is
 * counted from there.  Reads or writes in flight at the window's start
 * and at its end, with none completing in between, waited (at least) the
 * whole window: the ones in flight at its start are still there.  So
 * waiting_ms is never more than the oldest one's age, and comes to
 * stall_ms at most one window after that age does; a late health work or
 * a paused guest lengthens only a window whose I/O was already waiting.
 * A gone disk is failed, not stalled.
 */
static void ssdstripe_health_stall(const struct ssdstripe_thresholds *t,
				   const struct ssdstripe_sample *s,
				   struct ssdstripe_health *h)
{
	bool was = h->stalled;

	if (!t->stall_ms || s->gone || !s->rw_waiting) {
		h->watching = false;
		h->waiting_ms = 0;
	} else if (!h->watching || s->rw_ended) {
		/* Waiting since some time in this window: age unknown. */
		h->watching = true;
		h->waiting_ms = 0;
	} else {
		h->waiting_ms = min_t(u64, (u64)h->waiting_ms + s->elapsed_ms,
				      UINT_MAX);
	}
	h->stalled = t->stall_ms && h->waiting_ms >= t->stall_ms;
	if (h->stalled && !was && h->stalls < UINT_MAX)
		h->stalls++;
}

static enum ssdstripe_state ssdstripe_health_state(const struct ssdstripe_health *h)
{
	if (h->err == SSDSTRIPE_ERRLVL_FAILED)
		return SSDSTRIPE_FAILED;
	if (h->stalled)
		return SSDSTRIPE_STALLED;
	if (h->err == SSDSTRIPE_ERRLVL_ERRORING)
		return SSDSTRIPE_ERRORING;

	return h->slow ? SSDSTRIPE_SLOW : SSDSTRIPE_OK;
}

/* A peer's last judgment counts for this many windows after it. */
VISIBLE_IF_KUNIT unsigned int
ssdstripe_judgment_life(const struct ssdstripe_thresholds *t)
{
	return t->slow_windows + t->recover_windows;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_judgment_life);

/*
 * One health window for all @n members: move each member's state given
 * what it did in the window.  Pure: no I/O, no locks, no clock, so KUnit
 * drives it with synthetic windows.  @scratch holds 2 * @n values.
 *
 * Errors (see ssdstripe_health_errors()):
 * - erroring: any error.  Sticky: only clear_errors brings it back.
 * - failed:   the member's disk is gone, or fail_windows windows in a row
 *             (an idle window ends the run) in which it had errors and no
 *             successful read or write.  A failed member whose disk is there
 *             and that then has recover_windows windows with I/O and no
 *             error goes back to erroring, not ok.
 * Speed:
 * - A window in which the member and at least one peer each completed
 *   min_ios reads and writes without error is a full verdict: slow when
 *   the member's mean latency is at least slow_min_latency_us and
 *   slow_factor times the median of those peers' (never against a median
 *   of 0).  slow_windows slow verdicts in a row make the member slow.
 * - Under lighter load each member accumulates its reads and writes over
 *   windows (at most slow_windows + recover_windows of them) until it has
 *   min_ios: that judgment can only clear slow, when its mean is below
 *   slow_min_latency_us or below slow_factor times the median of its
 *   peers' judgments of the last slow_windows + recover_windows windows.
 *   recover_windows normal verdicts in a row clear slow.  Idle members are
 *   not judged: an idle slow member stays slow, and a window with errors
 *   drops its evidence and its peer value.
 * Stalls (see ssdstripe_health_stall()):
 * - stalled: a read or write has been in flight on the member for
 *   stall_ms with none completing (a hung drive, a dropped fabric link),
 *   as samples one window apart see it: named between stall_ms and
 *   stall_ms + one window after it started.  Flushes and discards are not
 *   watched: a cache flush or a whole-device TRIM may take that long on a
 *   healthy drive.  Nor are polled reads and writes (they complete when
 *   their submitter polls), and a would-block completion (BLK_STS_AGAIN:
 *   the I/O never reached the drive) is not a completion.  Not an error,
 *   not sticky: the first completion ends it, and the member is what its
 *   I/O says again; stalls counts how often it came to that.  It outranks
 *   erroring and slow; a gone disk is failed instead.
 */
VISIBLE_IF_KUNIT void
ssdstripe_health_update(const struct ssdstripe_thresholds *t, unsigned int n,
			const struct ssdstripe_sample *s,
			struct ssdstripe_health *h, u64 *scratch)
{
	unsigned int i, j, peers = 0, loaded = 0;
	unsigned int life = ssdstripe_judgment_life(t);
	u64 mean, median, min_ns;
	bool slow;

	min_ns = (u64)t->slow_min_latency_us * NSEC_PER_USEC;

	/* Errors first; then gather this window's evidence of speed. */
	for (i = 0; i < n; i++) {
		struct ssdstripe_health *hi = &h[i];

		ssdstripe_health_errors(t, &s[i], hi);
		ssdstripe_health_stall(t, &s[i], hi);

		if (hi->judged_age && hi->judged_age < U32_MAX)
			hi->judged_age++;
		if (s[i].gone || s[i].errors) {
			hi->acc_ios = 0;
			hi->acc_lat_ns = 0;
			continue;
		}
		/* Evidence older than a judgment may live is dropped. */
		if (hi->acc_ios && ++hi->acc_windows >= life) {
			hi->acc_ios = 0;
			hi->acc_lat_ns = 0;
		}
		if (!hi->acc_ios)
			hi->acc_windows = 0;
		hi->acc_ios += s[i].rw_ios;
		hi->acc_lat_ns += s[i].rw_lat_ns;
		if (hi->acc_ios < t->min_ios)
			continue;
		hi->judged_ns = div64_u64(hi->acc_lat_ns, hi->acc_ios);
		hi->judged_age = 1;
		hi->acc_ios = 0;
		hi->acc_lat_ns = 0;
	}

	/*
	 * Two sets of peers.  A slow verdict needs the member and at least
	 * one peer loaded in this same window (min_ios reads and writes each,
	 * no errors): a member carrying most of the load is compared with
	 * peers under load too, not with a trickle of old evidence.  A normal
	 * verdict may come from evidence gathered over several windows of
	 * light load, against its peers' recent judgments, so that a member
	 * fast again clears within a few hundred I/Os.
	 */
	for (i = 0; i < n; i++) {
		if (h[i].judged_age && h[i].judged_age <= life &&
		    !s[i].errors && !s[i].gone)
			scratch[peers++] = h[i].judged_ns;
	}
	sort(scratch, peers, sizeof(*scratch), ssdstripe_cmp_u64, NULL);
	for (i = 0; i < n; i++) {
		if (s[i].rw_ios >= t->min_ios && !s[i].errors && !s[i].gone)
			scratch[n + loaded++] = div64_u64(s[i].rw_lat_ns,
							  s[i].rw_ios);
	}
	sort(scratch + n, loaded, sizeof(*scratch), ssdstripe_cmp_u64, NULL);

	for (i = 0; i < n; i++) {
		struct ssdstripe_health *hi = &h[i];

		if (hi->judged_age != 1)
			goto publish;

		if (s[i].rw_ios >= t->min_ios && loaded >= 2 &&
		    !s[i].errors && !s[i].gone) {
			/* Loaded now, beside loaded peers: a full verdict. */
			mean = div64_u64(s[i].rw_lat_ns, s[i].rw_ios);
			for (j = 0; j < loaded && scratch[n + j] != mean; j++)
				;
			median = ssdstripe_peer_median(scratch + n, loaded, j);
			slow = median && mean >= min_ns &&
			       mean >= (u64)t->slow_factor * median;
			ssdstripe_health_judge(t, hi, slow);
			goto publish;
		}

		/* Light load: evidence that clears slow, never raises it. */
		if (hi->judged_ns < min_ns) {
			ssdstripe_health_judge(t, hi, false);
			goto publish;
		}
		if (peers >= 2) {
			for (j = 0; j < peers && scratch[j] != hi->judged_ns; j++)
				;
			median = ssdstripe_peer_median(scratch, peers, j);
			if (median &&
			    hi->judged_ns < (u64)t->slow_factor * median)
				ssdstripe_health_judge(t, hi, false);
		}
publish:
		hi->state = ssdstripe_health_state(hi);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_health_update);

/*
 * Clear a member's errors (clear_errors): it is ok, or slow if it is,
 * unless its disk is gone.  Its speed verdict is no error to forget.
 */
VISIBLE_IF_KUNIT void
ssdstripe_health_clear(struct ssdstripe_health *h, bool gone)
{
	h->err = gone ? SSDSTRIPE_ERRLVL_FAILED : SSDSTRIPE_ERRLVL_NONE;
	h->fail_run = 0;
	h->clean_run = 0;
	h->state = ssdstripe_health_state(h);
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_health_clear);

/*
 * Forget a member's wait (suspend, resume, a reloaded table): nothing of
 * the array is in flight then, and a wait seen before says nothing of the
 * windows to come.  Its count of stalls stays.
 */
VISIBLE_IF_KUNIT void ssdstripe_health_unstall(struct ssdstripe_health *h)
{
	h->watching = false;
	h->waiting_ms = 0;
	h->stalled = false;
	h->state = ssdstripe_health_state(h);
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_health_unstall);

/* The array's state: its worst member's (see ssdstripe_array_state_name). */
VISIBLE_IF_KUNIT enum ssdstripe_state
ssdstripe_array_state(const struct ssdstripe_health *h, unsigned int n)
{
	enum ssdstripe_state a = SSDSTRIPE_OK;
	unsigned int i;

	for (i = 0; i < n; i++)
		a = max(a, h[i].state);

	return a;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_array_state);

/* --- events and the health monitor ------------------------------------ */

void ssdstripe_trigger_event(struct work_struct *work)
{
	struct ssdstripe_c *sc = container_of(work, struct ssdstripe_c,
					      trigger_event);

	dm_table_event(sc->ti->table);
}

static void ssdstripe_uevent(struct ssdstripe_c *sc, unsigned int member,
			     enum ssdstripe_state array)
{
	struct kobject *kobj = &disk_to_dev(dm_disk(sc->md))->kobj;
	char env_member[32], env_dev[48], env_state[32], env_array[32];
	unsigned int noio;
	char *envp[5];

	envp[0] = env_member;
	envp[1] = env_dev;
	envp[2] = env_state;
	envp[3] = env_array;
	envp[4] = NULL;

	snprintf(env_member, sizeof(env_member), "SSDSTRIPE_MEMBER=%u", member);
	snprintf(env_dev, sizeof(env_dev), "SSDSTRIPE_DEVICE=%s",
		 sc->member[member].dev->name);
	snprintf(env_state, sizeof(env_state), "SSDSTRIPE_STATE=%s",
		 ssdstripe_state_name[sc->member[member].state]);
	snprintf(env_array, sizeof(env_array), "SSDSTRIPE_ARRAY_STATE=%s",
		 ssdstripe_array_state_name[array]);
	/*
	 * The uevent allocates with GFP_KERNEL.  Reclaim must not write to
	 * this array from here: postsuspend waits for the health work, and
	 * clear_errors may come while the array is suspended, with
	 * health_lock held that resume needs.  (dm core's own
	 * dm_kobject_uevent() does the same; resume's sysfs setup does it in
	 * ssdstripe_sysfs_publish().)
	 */
	noio = memalloc_noio_save();
	kobject_uevent_env(kobj, KOBJ_CHANGE, envp);
	memalloc_noio_restore(noio);
}

static void ssdstripe_totals_now(struct ssdstripe_member *m,
				 struct ssdstripe_totals *t)
{
	t->ok = SSDSTRIPE_SUM(m, ok);
	t->failed = SSDSTRIPE_SUM(m, failed);
	t->rw_done = SSDSTRIPE_SUM(m, rw_done);
	t->rw_lat_ns = SSDSTRIPE_SUM(m, rw_lat_ns);
	t->rw_ended = SSDSTRIPE_SUM(m, rw_ended);
}

static void ssdstripe_take_sample(struct ssdstripe_c *sc,
				  struct ssdstripe_member *m,
				  unsigned int elapsed_ms,
				  struct ssdstripe_sample *s)
{
	struct ssdstripe_totals now;

	/*
	 * Completions before what is in flight: a read or write this sample
	 * sees in flight ends after its completions were summed, so its end
	 * counts in the next window's rw_ended.  A window whose rw_ended is 0
	 * thus follows a sample whose I/O in flight is still there.
	 */
	ssdstripe_totals_now(m, &now);
	/* pairs with smp_wmb() in ssdstripe_account_end() */
	smp_rmb();
	s->rw_waiting = (s64)SSDSTRIPE_SUM(m, rw_inflight) > 0;
	s->errors = now.failed - m->last.failed;
	s->ok = now.ok - m->last.ok;
	/*
	 * Without accounting successes are not counted: assume there were,
	 * so errors make a member erroring, and only a gone disk failed.
	 */
	if (!sc->stats)
		s->ok = 1;
	s->rw_ios = now.rw_done - m->last.rw_done;
	s->rw_lat_ns = now.rw_lat_ns - m->last.rw_lat_ns;
	s->rw_ended = now.rw_ended - m->last.rw_ended;
	s->elapsed_ms = elapsed_ms;
	s->gone = test_bit(GD_DEAD, &m->dev->bdev->bd_disk->state);
	m->last = now;

	WRITE_ONCE(m->latency_us, s->rw_ios ?
		   (unsigned int)min_t(u64, div64_u64(s->rw_lat_ns, s->rw_ios) /
				       NSEC_PER_USEC, UINT_MAX) : 0);
}

/*
 * Publish next[] as the members' health in one snapshot, then tell: one
 * log line and uevent per member whose state changed, one dm event in all.
 * next[] gets the old health back.  Called with health_lock held.
 */
static void __ssdstripe_health_publish(struct ssdstripe_c *sc)
{
	struct ssdstripe_health *next = sc->next;
	unsigned int n = sc->geom.members, i;
	enum ssdstripe_state array, old, new;
	struct ssdstripe_member *m;
	bool changed = false;
	char note[64];

	lockdep_assert_held(&sc->health_lock);

	array = ssdstripe_array_state(next, n);
	write_seqcount_begin(&sc->state_seq);
	for (i = 0; i < n; i++) {
		m = &sc->member[i];
		swap(m->health, next[i]);
		WRITE_ONCE(m->state, m->health.state);
		WRITE_ONCE(m->waiting_ms, m->health.waiting_ms);
		WRITE_ONCE(m->stalls, m->health.stalls);
	}
	WRITE_ONCE(sc->array_state, array);
	write_seqcount_end(&sc->state_seq);

	for (i = 0; i < n; i++) {
		m = &sc->member[i];
		old = next[i].state;
		new = m->health.state;
		if (new == old)
			continue;
		changed = true;
		note[0] = '\0';
		if (new == SSDSTRIPE_STALLED)
			snprintf(note, sizeof(note),
				 " (no read or write completed for %u ms)",
				 m->health.waiting_ms);
		DMWARN_LIMIT("%s: member %u (%s) %s -> %s%s, array %s",
			     dm_table_device_name(sc->ti->table), i,
			     m->dev->name, ssdstripe_state_name[old],
			     ssdstripe_state_name[new], note,
			     ssdstripe_array_state_name[array]);
		ssdstripe_uevent(sc, i, array);
	}
	if (changed)
		dm_table_event(sc->ti->table);
}

/*
 * Restart the health monitor's windows from the counters as they are now:
 * what happened while the array was suspended is neither load nor a wait.
 * No member is stalled then (postsuspend saw the array drained), so this
 * publishes no change.  Called with health_lock held.
 */
void __ssdstripe_sample_restart(struct ssdstripe_c *sc)
{
	struct ssdstripe_member *m;
	unsigned int i;

	lockdep_assert_held(&sc->health_lock);
	for (i = 0; i < sc->geom.members; i++) {
		m = &sc->member[i];
		ssdstripe_totals_now(m, &m->last);
		sc->next[i] = m->health;
		ssdstripe_health_unstall(&sc->next[i]);
	}
	__ssdstripe_health_publish(sc);
	sc->sampled_at = jiffies;
}

/*
 * The array is suspended and drained: every read and write completed, so
 * no member is stalled, and the array does not read stalled while it is
 * suspended.  A member that was is ok again now, with the usual log line,
 * uevent and dm event: its I/O did complete.  The health work is stopped.
 */
void ssdstripe_health_suspended(struct ssdstripe_c *sc)
{
	unsigned int i;

	mutex_lock(&sc->health_lock);
	for (i = 0; i < sc->geom.members; i++) {
		sc->next[i] = sc->member[i].health;
		ssdstripe_health_unstall(&sc->next[i]);
	}
	__ssdstripe_health_publish(sc);
	mutex_unlock(&sc->health_lock);
}

void ssdstripe_health_work(struct work_struct *work)
{
	struct ssdstripe_c *sc = container_of(to_delayed_work(work),
					      struct ssdstripe_c, health_work);
	struct ssdstripe_health *next = sc->next;
	unsigned int n = sc->geom.members, i, elapsed_ms;
	struct ssdstripe_thresholds t;
	unsigned long now;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		*ssdstripe_tunable_ptr(&t, &ssdstripe_tunables[i]) =
			READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr,
							 &ssdstripe_tunables[i]));

	mutex_lock(&sc->health_lock);
	now = jiffies;
	elapsed_ms = jiffies_to_msecs(now - sc->sampled_at);
	sc->sampled_at = now;
	for (i = 0; i < n; i++) {
		ssdstripe_take_sample(sc, &sc->member[i], elapsed_ms,
				      &sc->samples[i]);
		next[i] = sc->member[i].health;
	}
	ssdstripe_health_update(&t, n, sc->samples, next, sc->scratch);
	__ssdstripe_health_publish(sc);
	mutex_unlock(&sc->health_lock);

	queue_delayed_work(system_percpu_wq, &sc->health_work,
			   msecs_to_jiffies(t.window_ms));
}

/*
 * A reloaded table takes over what the table it replaces knew of each
 * member that stays: the same device at the same offset keeps its
 * counters, errors, count of stalls and health (but a wait: the old table
 * is suspended and drained) across dmsetup reload (a threshold
 * changed by reload, a member replaced beside it).  A member that is new
 * to the array, or moved, starts afresh.  Called at resume, before the
 * health work starts, with the old table suspended: neither counts I/O.
 */
void ssdstripe_inherit(struct ssdstripe_c *sc, struct ssdstripe_c *old)
{
	struct ssdstripe_stats *st, *ost;
	struct ssdstripe_member *m, *om;
	unsigned int i, j;
	int cpu;

	mutex_lock(&sc->health_lock);
	write_seqcount_begin(&sc->state_seq);
	for (i = 0; i < sc->geom.members; i++) {
		m = &sc->member[i];
		/* A table holds a device once ("Duplicate member device"). */
		for (j = 0; j < old->geom.members; j++) {
			om = &old->member[j];
			if (om->dev->bdev != m->dev->bdev || om->offset != m->offset)
				continue;
			for_each_possible_cpu(cpu) {
				st = per_cpu_ptr(m->stats, cpu);
				ost = per_cpu_ptr(om->stats, cpu);
				*st = *ost;
			}
			atomic_set(&m->error_events,
				   atomic_read(&om->error_events));
			m->health = om->health;
			/* A wait of the old table's is no wait of ours. */
			ssdstripe_health_unstall(&m->health);
			m->last = om->last;
			WRITE_ONCE(m->state, m->health.state);
			WRITE_ONCE(m->latency_us, READ_ONCE(om->latency_us));
			WRITE_ONCE(m->waiting_ms, m->health.waiting_ms);
			WRITE_ONCE(m->stalls, m->health.stalls);
			break;
		}
	}
	for (i = 0; i < sc->geom.members; i++)
		sc->next[i] = sc->member[i].health;
	WRITE_ONCE(sc->array_state,
		   ssdstripe_array_state(sc->next, sc->geom.members));
	write_seqcount_end(&sc->state_seq);
	mutex_unlock(&sc->health_lock);
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_inherit);

/*
 * clear_errors: forget every member's errors, like "zpool clear".  Members
 * whose disk is not gone are ok again (slow if their speed says so); the
 * error counts restart at 0 and errors raise dm events again.
 */
void ssdstripe_clear_errors(struct ssdstripe_c *sc)
{
	struct ssdstripe_member *m;
	unsigned int i;

	mutex_lock(&sc->health_lock);
	for (i = 0; i < sc->geom.members; i++) {
		m = &sc->member[i];
		ssdstripe_forget_errors(m);
		/* Errors of the window under way are cleared too. */
		m->last.failed = SSDSTRIPE_SUM(m, failed);
		sc->next[i] = m->health;
		ssdstripe_health_clear(&sc->next[i],
				       test_bit(GD_DEAD, &m->dev->bdev->bd_disk->state));
	}
	__ssdstripe_health_publish(sc);
	mutex_unlock(&sc->health_lock);
}
