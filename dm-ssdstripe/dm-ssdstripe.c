// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * dm-ssdstripe: RAID-0 striping across SSDs with the data layout of the
 * kernel's "striped" target, discard/write-zeroes/secure-erase passed down
 * as one bio per member, discard limits that scale with the members, and
 * per-member statistics and health (ok, slow, erroring, failed) in sysfs.
 */

#include <linux/device-mapper.h>

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/sched/mm.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/completion.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "compat.h"

#define DM_MSG_PREFIX "ssdstripe"

/* Stop raising events for a member after this many errors (as dm-stripe). */
#define SSDSTRIPE_ERROR_EVENT_LIMIT 15

/* Room for every feature with its value. */
#define SSDSTRIPE_MAX_FEATURE_ARGS 16

/* Operations counted per member. Secure erase counts as discard. */
enum ssdstripe_op {
	SSDSTRIPE_OP_READ,
	SSDSTRIPE_OP_WRITE,
	SSDSTRIPE_OP_FLUSH,
	SSDSTRIPE_OP_DISCARD,
	SSDSTRIPE_OP_WRITE_ZEROES,
	SSDSTRIPE_OP_NR
};

/*
 * Latency histogram: bucket i counts completions of at most 16 << i
 * microseconds; the last bucket counts everything slower.
 */
#define SSDSTRIPE_HIST_NR 18

/*
 * Member states, in order of priority: the array's state is its worst
 * member's, so the order matters.
 */
enum ssdstripe_state {
	SSDSTRIPE_OK,
	SSDSTRIPE_SLOW,
	SSDSTRIPE_ERRORING,
	SSDSTRIPE_FAILED,
};

/* What a completion means for the member's health. */
enum ssdstripe_err_class {
	SSDSTRIPE_ERR_NONE,	/* success */
	SSDSTRIPE_ERR_RETRY,	/* would block: the submitter retries it */
	SSDSTRIPE_ERR_IGNORED,	/* a failure that says nothing of the member */
	SSDSTRIPE_ERR_ERROR,	/* a real member error */
};

static const char * const ssdstripe_state_name[] = {
	[SSDSTRIPE_OK] = "ok",
	[SSDSTRIPE_SLOW] = "slow",
	[SSDSTRIPE_ERRORING] = "erroring",
	[SSDSTRIPE_FAILED] = "failed",
};

/* dm-stripe's A (alive) and D (dead), plus S (slow) and E (erroring). */
static const char ssdstripe_state_letter[] = {
	[SSDSTRIPE_OK] = 'A',
	[SSDSTRIPE_SLOW] = 'S',
	[SSDSTRIPE_ERRORING] = 'E',
	[SSDSTRIPE_FAILED] = 'D',
};

/*
 * The array state is the worst member state, named in RAID-0 words (sysfs
 * ABI version 2): nothing is redundant, so the word names what to do.
 */
static const char * const ssdstripe_array_state_name[] = {
	[SSDSTRIPE_OK] = "optimal",
	[SSDSTRIPE_SLOW] = "slow",
	[SSDSTRIPE_ERRORING] = "erroring",
	[SSDSTRIPE_FAILED] = "failed",
};

/*
 * Health thresholds.  Written by table arguments and messages, read by the
 * health monitor; each field is read and written whole (READ/WRITE_ONCE).
 */
struct ssdstripe_thresholds {
	unsigned int window_ms;		/* length of one health window */
	unsigned int slow_factor;	/* slow: mean latency >= factor x peers' median */
	unsigned int slow_min_latency_us; /* ... and at least this */
	unsigned int slow_windows;	/* ... for this many judgments in a row */
	unsigned int recover_windows;	/* judgments or clean windows to recover */
	unsigned int min_ios;		/* reads+writes in one speed judgment */
	unsigned int fail_windows;	/* all-error windows before failed */
};

struct ssdstripe_tunable {
	const char *name;
	unsigned int min;
	unsigned int max;
	unsigned int def;
	size_t offset;
	const char *error;
};

#define SSDSTRIPE_TUNABLE(_name, _field, _min, _max, _def, _error)	\
	{ .name = _name, .min = _min, .max = _max, .def = _def,	\
	  .offset = offsetof(struct ssdstripe_thresholds, _field),	\
	  .error = _error }

static const struct ssdstripe_tunable ssdstripe_tunables[] = {
	SSDSTRIPE_TUNABLE("health_window_ms", window_ms, 100, 60000, 1000,
			  "Invalid health_window_ms value"),
	SSDSTRIPE_TUNABLE("slow_factor", slow_factor, 2, 1000, 4,
			  "Invalid slow_factor value"),
	SSDSTRIPE_TUNABLE("slow_min_latency_us", slow_min_latency_us, 0,
			  10000000, 200, "Invalid slow_min_latency_us value"),
	SSDSTRIPE_TUNABLE("slow_windows", slow_windows, 1, 1000, 3,
			  "Invalid slow_windows value"),
	SSDSTRIPE_TUNABLE("recover_windows", recover_windows, 1, 1000, 3,
			  "Invalid recover_windows value"),
	SSDSTRIPE_TUNABLE("min_ios", min_ios, 1, 1000000, 16,
			  "Invalid min_ios value"),
	SSDSTRIPE_TUNABLE("fail_windows", fail_windows, 1, 1000, 3,
			  "Invalid fail_windows value"),
};

static unsigned int *ssdstripe_tunable_ptr(struct ssdstripe_thresholds *t,
					   const struct ssdstripe_tunable *tu)
{
	return (unsigned int *)((char *)t + tu->offset);
}

static void ssdstripe_thresholds_default(struct ssdstripe_thresholds *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		*ssdstripe_tunable_ptr(t, &ssdstripe_tunables[i]) =
			ssdstripe_tunables[i].def;
}

static const struct ssdstripe_tunable *ssdstripe_find_tunable(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		if (!strcasecmp(name, ssdstripe_tunables[i].name))
			return &ssdstripe_tunables[i];

	return NULL;
}

/*
 * Geometry of the array.  Immutable once the table is live, so the map
 * path reads it without locking.
 */
struct ssdstripe_geom {
	unsigned int members;
	unsigned int chunk;		/* sectors */
	int members_shift;		/* log2(members), or -1 if not pow2 */
	int chunk_shift;		/* log2(chunk), or -1 if not pow2 */
};

/* Per-CPU counters of one member: the hot path touches only its own CPU's. */
struct ssdstripe_stats {
	u64 ios[SSDSTRIPE_OP_NR];
	u64 sectors[SSDSTRIPE_OP_NR];
	u64 errors[SSDSTRIPE_OP_NR];
	u64 hist[SSDSTRIPE_HIST_NR];
	u64 retries;		/* would-block completions, retried upstream */
	/* Never reset: the health monitor takes deltas of these. */
	u64 ok;			/* successful reads and writes */
	u64 failed;		/* completions with an error that counts */
	u64 rw_done;		/* successful reads and writes */
	u64 rw_lat_ns;		/* their summed latency */
	s64 inflight;
};

/* What the health monitor saw of one member in one window. */
struct ssdstripe_sample {
	u64 ok;			/* successful reads and writes */
	u64 errors;		/* failed completions */
	u64 rw_ios;		/* successful reads and writes */
	u64 rw_lat_ns;		/* their summed latency */
	bool gone;		/* the member's disk has been removed */
};

/* Errors seen on a member, apart from its speed. */
enum ssdstripe_err_level {
	SSDSTRIPE_ERRLVL_NONE,
	SSDSTRIPE_ERRLVL_ERRORING,	/* sticky until clear_errors */
	SSDSTRIPE_ERRLVL_FAILED,
};

/*
 * Health of one member: its published state is the worse of what its
 * errors say and what its speed says.
 */
struct ssdstripe_health {
	enum ssdstripe_state state;
	enum ssdstripe_err_level err;
	unsigned int fail_run;		/* windows in a row: errors, no success */
	unsigned int clean_run;		/* failed: windows in a row with I/O, no error */
	bool slow;			/* the speed verdict */
	unsigned int slow_run;		/* slow judgments in a row */
	unsigned int fast_run;		/* normal judgments in a row */
	u64 acc_ios;			/* speed evidence not judged yet */
	u64 acc_lat_ns;
	unsigned int acc_windows;	/* windows since it started */
	u64 judged_ns;			/* mean of the last judgment */
	unsigned int judged_age;	/* windows since it; 0: none yet */
};

struct ssdstripe_member {
	struct dm_dev *dev;
	sector_t offset;
	atomic_t error_count;
	struct ssdstripe_stats __percpu *stats;

	/* Published under ssdstripe_c.state_seq; read with READ_ONCE. */
	enum ssdstripe_state state;
	/* Guarded by ssdstripe_c.health_lock. */
	struct ssdstripe_health health;
	struct ssdstripe_stats last;	/* totals at the previous window */
	unsigned int latency_us;	/* mean of the last window, for sysfs */
};

struct ssdstripe_kobj;

struct ssdstripe_c {
	struct ssdstripe_geom geom;
	sector_t width;			/* sectors used on each member */
	bool discard_passdown;
	bool stats;			/* per-I/O accounting on */
	struct dm_target *ti;
	struct mapped_device *md;
	struct work_struct trigger_event;

	struct ssdstripe_thresholds thr;
	struct delayed_work health_work;
	/*
	 * health_lock serialises the writers of member health (the health
	 * work, the clear_errors message, resume): every member's health,
	 * last and the buffers below.  state_seq publishes the member states
	 * as one snapshot; readers (sysfs, status, IMA) take no lock and
	 * derive the array state from the states they read.
	 */
	struct mutex health_lock;
	seqcount_mutex_t state_seq;
	/* The health monitor's buffers, one entry per member. */
	u64 *scratch;
	struct ssdstripe_sample *samples;
	struct ssdstripe_health *next;

	/* sysfs, guarded by ssdstripe_sysfs_lock */
	struct list_head sysfs_node;
	struct ssdstripe_kobj *sysfs_top;
	struct kobject *sysfs_members;
	struct ssdstripe_kobj **sysfs_member;
	/*
	 * Our kobjects not yet released, plus one while the table lives: the
	 * dtr waits for kobj_released so that no release function runs after
	 * the module is gone (dm-sysfs does the same with kobj_holder).
	 */
	atomic_t kobj_count;
	struct completion kobj_released;

	struct ssdstripe_member member[];
};

/* ssdstripe_io.member of a clone completed in map: no member saw it */
#define SSDSTRIPE_NO_MEMBER UINT_MAX

/* Per-bio data: which member a clone went to, and when. */
struct ssdstripe_io {
	u64 start_ns;
	unsigned int member;
	unsigned int op;
};

/* The part of a table line that can be checked without opening devices. */
struct ssdstripe_params {
	unsigned int members;
	unsigned int chunk;
	bool no_discard_passdown;
	bool no_stats;
	struct ssdstripe_thresholds thr;
	unsigned long tunables_set;	/* bit i: ssdstripe_tunables[i] given */
	char **member_argv;		/* <dev> <offset> pairs */
};

static int ssdstripe_log2_or_neg(unsigned int v)
{
	return is_power_of_2(v) ? ilog2(v) : -1;
}

static void ssdstripe_geom_init(struct ssdstripe_geom *g, unsigned int members,
				unsigned int chunk)
{
	g->members = members;
	g->chunk = chunk;
	g->members_shift = ssdstripe_log2_or_neg(members);
	g->chunk_shift = ssdstripe_log2_or_neg(chunk);
}

/*
 * Map target-relative @sector to a member and a member-relative sector
 * (before the member's offset is added).  Chunk k lives on member k mod N
 * at (k div N) * chunk, exactly as dm-stripe lays it out.
 */
static __always_inline void
ssdstripe_map_sector(const struct ssdstripe_geom *g, sector_t sector,
		     unsigned int *member, sector_t *result)
{
	sector_t chunk = sector;
	sector_t chunk_offset;

	if (g->chunk_shift < 0) {
		chunk_offset = sector_div(chunk, g->chunk);
	} else {
		chunk_offset = chunk & (g->chunk - 1);
		chunk >>= g->chunk_shift;
	}

	if (g->members_shift < 0) {
		*member = sector_div(chunk, g->members);
	} else {
		*member = chunk & (g->members - 1);
		chunk >>= g->members_shift;
	}

	if (g->chunk_shift < 0)
		chunk *= g->chunk;
	else
		chunk <<= g->chunk_shift;

	*result = chunk + chunk_offset;
}

/*
 * First member-relative sector of @member at or after target-relative
 * @sector.  Used for both ends of a discard range: the member's share of
 * [start, end) is [lower(start), lower(end)).
 */
static sector_t ssdstripe_member_lower(const struct ssdstripe_geom *g,
				       sector_t sector, unsigned int member)
{
	unsigned int m;
	sector_t r, tmp;

	ssdstripe_map_sector(g, sector, &m, &r);
	if (m == member)
		return r;

	/* Not on this member: move to the start of a chunk boundary. */
	if (g->chunk_shift < 0) {
		tmp = r;
		r -= sector_div(tmp, g->chunk);
	} else {
		r &= ~(sector_t)(g->chunk - 1);
	}

	/* Member comes before the hit in this row: its next chunk is a row on. */
	if (member < m)
		r += g->chunk;

	return r;
}

/*
 * The share of target-relative range [start, start + len) that lands on
 * @member, as member-relative [*begin, *end).  Returns false when the
 * member holds none of it.
 */
static bool ssdstripe_member_range(const struct ssdstripe_geom *g,
				   sector_t start, sector_t len,
				   unsigned int member,
				   sector_t *begin, sector_t *end)
{
	*begin = ssdstripe_member_lower(g, start, member);
	*end = ssdstripe_member_lower(g, start + len, member);

	return *begin < *end;
}

/*
 * Largest discard a single array bio may carry so that no member's share
 * exceeds that member's own limit @member_max.  Any window of N * k * chunk
 * logical sectors gives every member exactly k * chunk sectors, whatever
 * its alignment.  Never below @member_max, which is always safe: no share
 * is larger than the bio.  Returning 0 would turn the operation off.
 */
static unsigned int ssdstripe_scaled_limit(const struct ssdstripe_geom *g,
					   unsigned int member_max)
{
	unsigned int per_member, scaled;

	if (!member_max || member_max < g->chunk || g->members == 1)
		return member_max;

	per_member = member_max - member_max % g->chunk;
	if (check_mul_overflow(per_member, g->members, &scaled)) {
		/* Largest multiple of a full stripe that fits. */
		scaled = UINT_MAX / g->members;
		scaled -= scaled % g->chunk;
		scaled *= g->members;
	}

	return max(scaled, member_max);
}

/*
 * What a completion with @status of a bio with flags @opf says about the
 * member.  A would-block completion (BLK_STS_AGAIN) of a REQ_NOWAIT or
 * polled bio that found no tag is retried by its submitter (dm core
 * requeues a polled one); without those flags nobody retries it, and the
 * error reaches the file system.  Read-ahead may fail, and an unsupported
 * operation is not a fault: SCSI ends an unsupported UNMAP or WRITE SAME
 * with BLK_STS_TARGET, switches the capability off, and the block layer
 * falls back.
 */
static enum ssdstripe_err_class ssdstripe_classify(blk_status_t status,
						   blk_opf_t opf)
{
	enum req_op op = opf & REQ_OP_MASK;

	if (!status)
		return SSDSTRIPE_ERR_NONE;
	if (status == BLK_STS_AGAIN && (opf & (REQ_NOWAIT | REQ_POLLED)))
		return SSDSTRIPE_ERR_RETRY;
	if (status == BLK_STS_NOTSUPP || (opf & REQ_RAHEAD))
		return SSDSTRIPE_ERR_IGNORED;
	if (status == BLK_STS_TARGET &&
	    (op == REQ_OP_DISCARD || op == REQ_OP_WRITE_ZEROES ||
	     op == REQ_OP_SECURE_ERASE))
		return SSDSTRIPE_ERR_IGNORED;

	return SSDSTRIPE_ERR_ERROR;
}

/* Histogram bucket of a latency: 16 << i microseconds at most. */
static unsigned int ssdstripe_hist_bucket(u64 lat_us)
{
	unsigned int b;

	if (lat_us <= 16)
		return 0;
	b = fls64(lat_us - 1) - 4;

	return min_t(unsigned int, b, SSDSTRIPE_HIST_NR - 1);
}

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

static enum ssdstripe_state ssdstripe_health_state(const struct ssdstripe_health *h)
{
	if (h->err == SSDSTRIPE_ERRLVL_FAILED)
		return SSDSTRIPE_FAILED;
	if (h->err == SSDSTRIPE_ERRLVL_ERRORING)
		return SSDSTRIPE_ERRORING;

	return h->slow ? SSDSTRIPE_SLOW : SSDSTRIPE_OK;
}

/* A peer's last judgment counts for this many windows after it. */
static unsigned int ssdstripe_judgment_life(const struct ssdstripe_thresholds *t)
{
	return t->slow_windows + t->recover_windows;
}

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
 */
static void ssdstripe_health_update(const struct ssdstripe_thresholds *t,
				    unsigned int n,
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

/*
 * Clear a member's errors (clear_errors): it is ok, or slow if it is,
 * unless its disk is gone.  Its speed verdict is no error to forget.
 */
static void ssdstripe_health_clear(struct ssdstripe_health *h, bool gone)
{
	h->err = gone ? SSDSTRIPE_ERRLVL_FAILED : SSDSTRIPE_ERRLVL_NONE;
	h->fail_run = 0;
	h->clean_run = 0;
	h->state = ssdstripe_health_state(h);
}

/* The array's state: its worst member's (see ssdstripe_array_state_name). */
static enum ssdstripe_state
ssdstripe_array_state(const struct ssdstripe_health *h, unsigned int n)
{
	enum ssdstripe_state a = SSDSTRIPE_OK;
	unsigned int i;

	for (i = 0; i < n; i++)
		a = max(a, h[i].state);

	return a;
}

/* Strict decimal numbers: no sign, no trailing junk, no overflow. */
static int ssdstripe_parse_uint(const char *arg, unsigned int *out)
{
	return kstrtouint(arg, 10, out);
}

static int ssdstripe_parse_sector(const char *arg, sector_t *out)
{
	unsigned long long tmp;
	int r;

	r = kstrtoull(arg, 10, &tmp);
	if (r)
		return r;
	if (tmp != (sector_t)tmp)
		return -ERANGE;
	*out = tmp;

	return 0;
}

/* Set tunable @tu in @t from @value, within its bounds. */
static int ssdstripe_set_tunable(struct ssdstripe_thresholds *t,
				 const struct ssdstripe_tunable *tu,
				 const char *value)
{
	unsigned int v;

	if (!value || ssdstripe_parse_uint(value, &v) || v < tu->min ||
	    v > tu->max)
		return -EINVAL;
	WRITE_ONCE(*ssdstripe_tunable_ptr(t, tu), v);

	return 0;
}

static int ssdstripe_parse_features(struct dm_arg_set *as,
				    struct ssdstripe_params *p, char **error)
{
	static const struct dm_arg _args[] = {
		{0, SSDSTRIPE_MAX_FEATURE_ARGS, "Invalid number of feature arguments"},
	};
	const struct ssdstripe_tunable *tu;
	unsigned int argc, bit;
	const char *arg;
	int r;

	/* dm_read_arg_group() uses sscanf(), which wraps on overflow. */
	if (kstrtouint(as->argv[0], 10, &argc)) {
		*error = _args[0].error;
		return -EINVAL;
	}

	r = dm_read_arg_group(_args, as, &argc, error);
	if (r)
		return r;

	while (argc--) {
		arg = dm_shift_arg(as);

		if (!strcasecmp(arg, "no_discard_passdown")) {
			if (p->no_discard_passdown) {
				*error = "Duplicate no_discard_passdown argument";
				return -EINVAL;
			}
			p->no_discard_passdown = true;
			continue;
		}

		if (!strcasecmp(arg, "no_stats")) {
			if (p->no_stats) {
				*error = "Duplicate no_stats argument";
				return -EINVAL;
			}
			p->no_stats = true;
			continue;
		}

		tu = ssdstripe_find_tunable(arg);
		if (!tu) {
			*error = "Unrecognised feature argument";
			return -EINVAL;
		}
		bit = tu - ssdstripe_tunables;
		if (p->tunables_set & BIT(bit)) {
			*error = "Duplicate health threshold argument";
			return -EINVAL;
		}
		if (!argc || ssdstripe_set_tunable(&p->thr, tu,
						   dm_shift_arg(as))) {
			*error = (char *)tu->error;
			return -EINVAL;
		}
		argc--;
		p->tunables_set |= BIT(bit);
	}

	if (as->argc) {
		*error = "Too many arguments";
		return -EINVAL;
	}

	return 0;
}

/*
 * Check everything in a table line that does not need the member devices:
 * counts, numbers, the geometry against the target length, and features.
 */
static int ssdstripe_parse_params(unsigned int argc, char **argv, sector_t len,
				  struct ssdstripe_params *p, char **error)
{
	struct dm_arg_set as;
	sector_t width, offset;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	ssdstripe_thresholds_default(&p->thr);

	if (argc < 2) {
		*error = "Not enough arguments";
		return -EINVAL;
	}

	if (ssdstripe_parse_uint(argv[0], &p->members) || !p->members) {
		*error = "Invalid member count";
		return -EINVAL;
	}

	if (ssdstripe_parse_uint(argv[1], &p->chunk) || !p->chunk) {
		*error = "Invalid chunk size";
		return -EINVAL;
	}

	if (p->members > (argc - 2) / 2) {
		*error = "Not enough destinations specified";
		return -EINVAL;
	}
	p->member_argv = argv + 2;

	for (i = 0; i < p->members; i++) {
		if (ssdstripe_parse_sector(p->member_argv[2 * i + 1], &offset)) {
			*error = "Invalid device offset";
			return -EINVAL;
		}
	}

	width = len;
	if (sector_div(width, p->members)) {
		*error = "Target length not divisible by number of members";
		return -EINVAL;
	}

	if (sector_div(width, p->chunk)) {
		*error = "Target length not divisible by chunk size";
		return -EINVAL;
	}

	as.argc = argc - 2 - 2 * p->members;
	as.argv = argv + 2 + 2 * p->members;
	if (as.argc)
		return ssdstripe_parse_features(&as, p, error);

	return 0;
}

/* --- statistics -------------------------------------------------------- */

static u64 ssdstripe_sum(struct ssdstripe_member *m, size_t offset)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(u64 *)((char *)per_cpu_ptr(m->stats, cpu) + offset);

	return sum;
}

#define SSDSTRIPE_SUM(m, field) \
	ssdstripe_sum(m, offsetof(struct ssdstripe_stats, field))

static void ssdstripe_reset_stats(struct ssdstripe_c *sc)
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
			memset(st->errors, 0, sizeof(st->errors));
			memset(st->hist, 0, sizeof(st->hist));
			st->retries = 0;
		}
	}
}

static enum ssdstripe_op ssdstripe_bio_op(struct bio *bio)
{
	if (op_is_flush(bio->bi_opf) && !bio_sectors(bio))
		return SSDSTRIPE_OP_FLUSH;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return SSDSTRIPE_OP_READ;
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
		return SSDSTRIPE_OP_DISCARD;
	case REQ_OP_WRITE_ZEROES:
		return SSDSTRIPE_OP_WRITE_ZEROES;
	default:
		return SSDSTRIPE_OP_WRITE;
	}
}

/*
 * Account a clone about to be sent to @member.  Inlined, as is
 * ssdstripe_map_sector(): the benchmark's profile found both as calls of
 * their own on every I/O's map path.
 */
static __always_inline void
ssdstripe_account_start(struct ssdstripe_c *sc, struct bio *bio,
			unsigned int member)
{
	struct ssdstripe_io *io = dm_per_bio_data(bio, sizeof(*io));
	struct ssdstripe_stats __percpu *st = sc->member[member].stats;

	io->member = member;
	if (!sc->stats)
		return;

	io->op = ssdstripe_bio_op(bio);
	io->start_ns = ktime_get_ns();
	this_cpu_inc(st->ios[io->op]);
	this_cpu_add(st->sectors[io->op], bio_sectors(bio));
	this_cpu_inc(st->inflight);
}

/* --- events and the health monitor ------------------------------------ */

static void ssdstripe_trigger_event(struct work_struct *work)
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
	kobject_uevent_env(kobj, KOBJ_CHANGE, envp);
}

/*
 * The member states as one snapshot, in @states (may be NULL); returns the
 * array state they imply.  Takes no lock: the writers hold health_lock.
 */
static enum ssdstripe_state ssdstripe_read_states(struct ssdstripe_c *sc,
						  enum ssdstripe_state *states)
{
	enum ssdstripe_state st, worst;
	unsigned int seq, i;

	do {
		seq = read_seqcount_begin(&sc->state_seq);
		worst = SSDSTRIPE_OK;
		for (i = 0; i < sc->geom.members; i++) {
			st = READ_ONCE(sc->member[i].state);
			if (states)
				states[i] = st;
			worst = max(worst, st);
		}
	} while (read_seqcount_retry(&sc->state_seq, seq));

	return worst;
}

static void ssdstripe_take_sample(struct ssdstripe_c *sc,
				  struct ssdstripe_member *m,
				  struct ssdstripe_sample *s)
{
	struct ssdstripe_stats now;

	now.ok = SSDSTRIPE_SUM(m, ok);
	now.failed = SSDSTRIPE_SUM(m, failed);
	now.rw_done = SSDSTRIPE_SUM(m, rw_done);
	now.rw_lat_ns = SSDSTRIPE_SUM(m, rw_lat_ns);

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
	s->gone = test_bit(GD_DEAD, &m->dev->bdev->bd_disk->state);
	m->last = now;

	WRITE_ONCE(m->latency_us, s->rw_ios ?
		   (unsigned int)min_t(u64, div64_u64(s->rw_lat_ns, s->rw_ios) /
				       NSEC_PER_USEC, UINT_MAX) : 0);
}

/* Restart the health monitor's deltas from the counters as they are now. */
static void __ssdstripe_sample_restart(struct ssdstripe_member *m)
{
	m->last.ok = SSDSTRIPE_SUM(m, ok);
	m->last.failed = SSDSTRIPE_SUM(m, failed);
	m->last.rw_done = SSDSTRIPE_SUM(m, rw_done);
	m->last.rw_lat_ns = SSDSTRIPE_SUM(m, rw_lat_ns);
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
	bool changed = false;

	lockdep_assert_held(&sc->health_lock);

	array = ssdstripe_array_state(next, n);
	write_seqcount_begin(&sc->state_seq);
	for (i = 0; i < n; i++) {
		swap(sc->member[i].health, next[i]);
		WRITE_ONCE(sc->member[i].state, sc->member[i].health.state);
	}
	write_seqcount_end(&sc->state_seq);

	for (i = 0; i < n; i++) {
		old = next[i].state;
		new = sc->member[i].health.state;
		if (new == old)
			continue;
		changed = true;
		DMWARN_LIMIT("%s: member %u (%s) %s -> %s, array %s",
			     dm_table_device_name(sc->ti->table), i,
			     sc->member[i].dev->name, ssdstripe_state_name[old],
			     ssdstripe_state_name[new],
			     ssdstripe_array_state_name[array]);
		ssdstripe_uevent(sc, i, array);
	}
	if (changed)
		dm_table_event(sc->ti->table);
}

static void ssdstripe_health_work(struct work_struct *work)
{
	struct ssdstripe_c *sc = container_of(to_delayed_work(work),
					      struct ssdstripe_c, health_work);
	struct ssdstripe_health *next = sc->next;
	unsigned int n = sc->geom.members, i;
	struct ssdstripe_thresholds t;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		*ssdstripe_tunable_ptr(&t, &ssdstripe_tunables[i]) =
			READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr,
							 &ssdstripe_tunables[i]));

	mutex_lock(&sc->health_lock);
	for (i = 0; i < n; i++) {
		ssdstripe_take_sample(sc, &sc->member[i], &sc->samples[i]);
		next[i] = sc->member[i].health;
	}
	ssdstripe_health_update(&t, n, sc->samples, next, sc->scratch);
	__ssdstripe_health_publish(sc);
	mutex_unlock(&sc->health_lock);

	queue_delayed_work(system_percpu_wq, &sc->health_work,
			   msecs_to_jiffies(t.window_ms));
}

/*
 * clear_errors: forget every member's errors, like "zpool clear".  Members
 * whose disk is not gone are ok again; the error counters restart at 0 and
 * errors raise dm events again.
 */
static void ssdstripe_clear_errors(struct ssdstripe_c *sc)
{
	struct ssdstripe_stats *st;
	struct ssdstripe_member *m;
	unsigned int i;
	int cpu;

	mutex_lock(&sc->health_lock);
	for (i = 0; i < sc->geom.members; i++) {
		m = &sc->member[i];
		/* Racy against I/O in flight, as reset_stats. */
		for_each_possible_cpu(cpu) {
			st = per_cpu_ptr(m->stats, cpu);
			memset(st->errors, 0, sizeof(st->errors));
		}
		atomic_set(&m->error_count, 0);
		/* Errors of the window under way are cleared too. */
		m->last.failed = SSDSTRIPE_SUM(m, failed);
		sc->next[i] = m->health;
		ssdstripe_health_clear(&sc->next[i],
				       test_bit(GD_DEAD, &m->dev->bdev->bd_disk->state));
	}
	__ssdstripe_health_publish(sc);
	mutex_unlock(&sc->health_lock);
}

/* --- sysfs ------------------------------------------------------------- */

/*
 * /sys/block/dm-<n>/ssdstripe belongs to the live table.  A reloaded
 * table coexists with the live one until resume, so the directory is
 * created at resume (taking it over from the previous table of the same
 * device) and removed when the owning table is destroyed.
 */
static DEFINE_MUTEX(ssdstripe_sysfs_lock);	/* guards the list and sysfs_* */
static LIST_HEAD(ssdstripe_sysfs_owners);

struct ssdstripe_kobj {
	struct kobject kobj;
	struct ssdstripe_c *sc;
	unsigned int member;
};

enum ssdstripe_attr_kind {
	SSDSTRIPE_A_CHUNK,
	SSDSTRIPE_A_MEMBERS,
	SSDSTRIPE_A_ARRAY_STATE,
	SSDSTRIPE_A_STATE,
	SSDSTRIPE_A_IOS,
	SSDSTRIPE_A_SECTORS,
	SSDSTRIPE_A_ERRORS,
	SSDSTRIPE_A_ALL_ERRORS,
	SSDSTRIPE_A_RETRIES,
	SSDSTRIPE_A_INFLIGHT,
	SSDSTRIPE_A_LATENCY,
	SSDSTRIPE_A_HISTOGRAM,
};

struct ssdstripe_attr {
	struct attribute attr;
	enum ssdstripe_attr_kind kind;
	enum ssdstripe_op op;
};

#define SSDSTRIPE_ATTR_NAMED(_var, _file, _kind, _op)			\
	static struct ssdstripe_attr ssdstripe_attr_##_var = {		\
		.attr = { .name = _file, .mode = 0444 },		\
		.kind = _kind, .op = _op,				\
	}
#define SSDSTRIPE_ATTR(_name, _kind, _op)				\
	SSDSTRIPE_ATTR_NAMED(_name, __stringify(_name), _kind, _op)

SSDSTRIPE_ATTR(chunk_sectors, SSDSTRIPE_A_CHUNK, 0);
SSDSTRIPE_ATTR(member_count, SSDSTRIPE_A_MEMBERS, 0);
SSDSTRIPE_ATTR_NAMED(array_state, "state", SSDSTRIPE_A_ARRAY_STATE, 0);
SSDSTRIPE_ATTR(state, SSDSTRIPE_A_STATE, 0);
SSDSTRIPE_ATTR(read_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(flush_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_FLUSH);
SSDSTRIPE_ATTR(discard_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(read_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(discard_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_sectors, SSDSTRIPE_A_SECTORS,
	       SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(errors, SSDSTRIPE_A_ALL_ERRORS, 0);
SSDSTRIPE_ATTR(read_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(flush_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_FLUSH);
SSDSTRIPE_ATTR(discard_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_errors, SSDSTRIPE_A_ERRORS,
	       SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(retries, SSDSTRIPE_A_RETRIES, 0);
SSDSTRIPE_ATTR(inflight, SSDSTRIPE_A_INFLIGHT, 0);
SSDSTRIPE_ATTR(latency_us, SSDSTRIPE_A_LATENCY, 0);
SSDSTRIPE_ATTR(latency_histogram, SSDSTRIPE_A_HISTOGRAM, 0);

static struct attribute *ssdstripe_top_attrs[] = {
	&ssdstripe_attr_chunk_sectors.attr,
	&ssdstripe_attr_member_count.attr,
	&ssdstripe_attr_array_state.attr,
	NULL
};

static struct attribute *ssdstripe_member_attrs[] = {
	&ssdstripe_attr_state.attr,
	&ssdstripe_attr_read_ios.attr,
	&ssdstripe_attr_write_ios.attr,
	&ssdstripe_attr_flush_ios.attr,
	&ssdstripe_attr_discard_ios.attr,
	&ssdstripe_attr_write_zeroes_ios.attr,
	&ssdstripe_attr_read_sectors.attr,
	&ssdstripe_attr_write_sectors.attr,
	&ssdstripe_attr_discard_sectors.attr,
	&ssdstripe_attr_write_zeroes_sectors.attr,
	&ssdstripe_attr_errors.attr,
	&ssdstripe_attr_read_errors.attr,
	&ssdstripe_attr_write_errors.attr,
	&ssdstripe_attr_flush_errors.attr,
	&ssdstripe_attr_discard_errors.attr,
	&ssdstripe_attr_write_zeroes_errors.attr,
	&ssdstripe_attr_retries.attr,
	&ssdstripe_attr_inflight.attr,
	&ssdstripe_attr_latency_us.attr,
	&ssdstripe_attr_latency_histogram.attr,
	NULL
};

ATTRIBUTE_GROUPS(ssdstripe_top);
ATTRIBUTE_GROUPS(ssdstripe_member);

static ssize_t ssdstripe_show_histogram(struct ssdstripe_member *m, char *buf)
{
	unsigned int b;
	int len = 0;

	for (b = 0; b < SSDSTRIPE_HIST_NR - 1; b++)
		len += sysfs_emit_at(buf, len, "%u %llu\n", 16U << b,
				     SSDSTRIPE_SUM(m, hist[b]));
	len += sysfs_emit_at(buf, len, "inf %llu\n",
			     SSDSTRIPE_SUM(m, hist[SSDSTRIPE_HIST_NR - 1]));

	return len;
}

static ssize_t ssdstripe_attr_show(struct kobject *kobj,
				   struct attribute *attr, char *buf)
{
	struct ssdstripe_kobj *k = container_of(kobj, struct ssdstripe_kobj, kobj);
	struct ssdstripe_attr *a = container_of(attr, struct ssdstripe_attr, attr);
	struct ssdstripe_c *sc = k->sc;
	struct ssdstripe_member *m = &sc->member[k->member];
	u64 v = 0;
	int op;

	switch (a->kind) {
	case SSDSTRIPE_A_CHUNK:
		return sysfs_emit(buf, "%u\n", sc->geom.chunk);
	case SSDSTRIPE_A_MEMBERS:
		return sysfs_emit(buf, "%u\n", sc->geom.members);
	case SSDSTRIPE_A_ARRAY_STATE:
		return sysfs_emit(buf, "%s\n",
				  ssdstripe_array_state_name[ssdstripe_read_states(sc, NULL)]);
	case SSDSTRIPE_A_STATE:
		return sysfs_emit(buf, "%s\n",
				  ssdstripe_state_name[READ_ONCE(m->state)]);
	case SSDSTRIPE_A_IOS:
		v = SSDSTRIPE_SUM(m, ios[a->op]);
		break;
	case SSDSTRIPE_A_SECTORS:
		v = SSDSTRIPE_SUM(m, sectors[a->op]);
		break;
	case SSDSTRIPE_A_ERRORS:
		v = SSDSTRIPE_SUM(m, errors[a->op]);
		break;
	case SSDSTRIPE_A_ALL_ERRORS:
		for (op = 0; op < SSDSTRIPE_OP_NR; op++)
			v += SSDSTRIPE_SUM(m, errors[op]);
		break;
	case SSDSTRIPE_A_RETRIES:
		v = SSDSTRIPE_SUM(m, retries);
		break;
	case SSDSTRIPE_A_INFLIGHT:
		/* Per-CPU halves of one count: the sum is what matters. */
		v = max_t(s64, (s64)SSDSTRIPE_SUM(m, inflight), 0);
		break;
	case SSDSTRIPE_A_LATENCY:
		v = READ_ONCE(m->latency_us);
		break;
	case SSDSTRIPE_A_HISTOGRAM:
		return ssdstripe_show_histogram(m, buf);
	}

	return sysfs_emit(buf, "%llu\n", v);
}

static const struct sysfs_ops ssdstripe_sysfs_ops = {
	.show = ssdstripe_attr_show,
};

static void ssdstripe_kobj_release(struct kobject *kobj)
{
	struct ssdstripe_kobj *k = container_of(kobj, struct ssdstripe_kobj, kobj);
	struct ssdstripe_c *sc = k->sc;

	kfree(k);
	if (atomic_dec_and_test(&sc->kobj_count))
		complete(&sc->kobj_released);
}

static const struct kobj_type ssdstripe_top_ktype = {
	.release = ssdstripe_kobj_release,
	.sysfs_ops = &ssdstripe_sysfs_ops,
	.default_groups = ssdstripe_top_groups,
};

static const struct kobj_type ssdstripe_member_ktype = {
	.release = ssdstripe_kobj_release,
	.sysfs_ops = &ssdstripe_sysfs_ops,
	.default_groups = ssdstripe_member_groups,
};

static void __ssdstripe_sysfs_del(struct ssdstripe_c *sc)
{
	unsigned int i;

	for (i = 0; i < sc->geom.members; i++) {
		if (!sc->sysfs_member[i])
			continue;
		sysfs_remove_link(&sc->sysfs_member[i]->kobj, "block");
		kobject_del(&sc->sysfs_member[i]->kobj);
		kobject_put(&sc->sysfs_member[i]->kobj);
		sc->sysfs_member[i] = NULL;
	}
	if (sc->sysfs_members) {
		kobject_del(sc->sysfs_members);
		kobject_put(sc->sysfs_members);
		sc->sysfs_members = NULL;
	}
	if (sc->sysfs_top) {
		kobject_del(&sc->sysfs_top->kobj);
		kobject_put(&sc->sysfs_top->kobj);
		sc->sysfs_top = NULL;
	}
	list_del_init(&sc->sysfs_node);
}

static struct ssdstripe_kobj *ssdstripe_kobj_new(struct ssdstripe_c *sc,
						 unsigned int member,
						 const struct kobj_type *type,
						 struct kobject *parent,
						 const char *name)
{
	struct ssdstripe_kobj *k;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return NULL;
	k->sc = sc;
	k->member = member;
	atomic_inc(&sc->kobj_count);
	if (kobject_init_and_add(&k->kobj, type, parent, "%s", name)) {
		kobject_put(&k->kobj);
		return NULL;
	}

	return k;
}

static int __ssdstripe_sysfs_add(struct ssdstripe_c *sc)
{
	struct kobject *disk = &disk_to_dev(dm_disk(sc->md))->kobj;
	struct ssdstripe_kobj *k;
	char name[16];
	unsigned int i;

	list_add(&sc->sysfs_node, &ssdstripe_sysfs_owners);

	sc->sysfs_top = ssdstripe_kobj_new(sc, 0, &ssdstripe_top_ktype, disk,
					   "ssdstripe");
	if (!sc->sysfs_top)
		goto bad;

	sc->sysfs_members = kobject_create_and_add("members",
						   &sc->sysfs_top->kobj);
	if (!sc->sysfs_members)
		goto bad;

	for (i = 0; i < sc->geom.members; i++) {
		snprintf(name, sizeof(name), "%u", i);
		k = ssdstripe_kobj_new(sc, i, &ssdstripe_member_ktype,
				       sc->sysfs_members, name);
		if (!k)
			goto bad;
		sc->sysfs_member[i] = k;
		if (sysfs_create_link(&k->kobj,
				      &sc->member[i].dev->bdev->bd_device.kobj,
				      "block"))
			goto bad;
	}

	return 0;

bad:
	__ssdstripe_sysfs_del(sc);
	return -ENOMEM;
}

/* Make this table's sysfs directory the device's, at resume. */
static void ssdstripe_sysfs_publish(struct ssdstripe_c *sc)
{
	struct ssdstripe_c *o, *tmp;
	unsigned int noio;

	mutex_lock(&ssdstripe_sysfs_lock);
	if (sc->sysfs_top)
		goto out;

	list_for_each_entry_safe(o, tmp, &ssdstripe_sysfs_owners, sysfs_node) {
		if (o->md != sc->md)
			continue;
		/* Another ssdstripe segment of this same table owns it. */
		if (o->ti->table == sc->ti->table)
			goto out;
		__ssdstripe_sysfs_del(o);
	}

	/* The device is suspended: allocations must not recurse into I/O. */
	noio = memalloc_noio_save();
	if (__ssdstripe_sysfs_add(sc))
		DMERR("%s: cannot create sysfs directory",
		      dm_table_device_name(sc->ti->table));
	memalloc_noio_restore(noio);
out:
	mutex_unlock(&ssdstripe_sysfs_lock);
}

static void ssdstripe_sysfs_unpublish(struct ssdstripe_c *sc)
{
	mutex_lock(&ssdstripe_sysfs_lock);
	if (!list_empty(&sc->sysfs_node))
		__ssdstripe_sysfs_del(sc);
	mutex_unlock(&ssdstripe_sysfs_lock);
}

/* --- target ------------------------------------------------------------ */

static void ssdstripe_put_members(struct dm_target *ti, struct ssdstripe_c *sc,
				  unsigned int count)
{
	while (count--) {
		dm_put_device(ti, sc->member[count].dev);
		free_percpu(sc->member[count].stats);
	}
}

/* Open member @i and check it can hold its share of the array. */
static int ssdstripe_get_member(struct dm_target *ti, struct ssdstripe_c *sc,
				unsigned int i, char **member_argv)
{
	struct ssdstripe_member *m = &sc->member[i];
	struct block_device *bdev;
	unsigned int lbs, j;
	sector_t end;
	int r;

	/* Cannot fail: ssdstripe_parse_params() checked every offset. */
	r = ssdstripe_parse_sector(member_argv[2 * i + 1], &m->offset);
	if (r) {
		ti->error = "Invalid device offset";
		return r;
	}

	r = dm_get_device(ti, member_argv[2 * i], dm_table_get_mode(ti->table),
			  &m->dev);
	if (r) {
		ti->error = "Device lookup failed";
		return r;
	}
	bdev = m->dev->bdev;

	for (j = 0; j < i; j++) {
		if (sc->member[j].dev->bdev == bdev) {
			ti->error = "Duplicate member device";
			goto bad;
		}
	}

	lbs = bdev_logical_block_size(bdev) >> SECTOR_SHIFT;
	if (sc->geom.chunk % lbs) {
		ti->error = "Chunk size not a multiple of member logical block size";
		goto bad;
	}

	if (m->offset % lbs) {
		ti->error = "Member offset not aligned to logical block size";
		goto bad;
	}

	if (check_add_overflow(m->offset, sc->width, &end) ||
	    end > bdev_nr_sectors(bdev)) {
		ti->error = "Member device too small for target";
		goto bad;
	}

	m->stats = alloc_percpu(struct ssdstripe_stats);
	if (!m->stats) {
		ti->error = "Cannot allocate member statistics";
		r = -ENOMEM;
		goto bad_put;
	}

	atomic_set(&m->error_count, 0);
	return 0;

bad:
	r = -EINVAL;
bad_put:
	dm_put_device(ti, m->dev);
	return r;
}

static void ssdstripe_free(struct ssdstripe_c *sc)
{
	mutex_destroy(&sc->health_lock);
	kfree(sc->sysfs_member);
	kfree(sc->next);
	kfree(sc->samples);
	kfree(sc->scratch);
	kfree(sc);
}

/*
 * Construct a striped mapping with the layout of dm-stripe:
 *
 * <#members> <chunk_sectors> <dev> <offset> [<dev> <offset>]...
 *	[<#feature_args> [no_discard_passdown] [no_stats]
 *	 [<health threshold> <value>]...]
 *
 * Health thresholds: health_window_ms, slow_factor, slow_min_latency_us,
 * slow_windows, recover_windows, min_ios, fail_windows.
 */
static int ssdstripe_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct ssdstripe_params p;
	struct ssdstripe_c *sc;
	unsigned int i;
	int r;

	r = ssdstripe_parse_params(argc, argv, ti->len, &p, &ti->error);
	if (r)
		return r;

	sc = kzalloc(struct_size(sc, member, p.members), GFP_KERNEL);
	if (!sc) {
		ti->error = "Cannot allocate ssdstripe context";
		return -ENOMEM;
	}
	/* two sorted sets of peers (ssdstripe_health_update) */
	sc->scratch = kcalloc(p.members, 2 * sizeof(*sc->scratch), GFP_KERNEL);
	sc->samples = kcalloc(p.members, sizeof(*sc->samples), GFP_KERNEL);
	sc->next = kcalloc(p.members, sizeof(*sc->next), GFP_KERNEL);
	sc->sysfs_member = kcalloc(p.members, sizeof(*sc->sysfs_member),
				   GFP_KERNEL);
	if (!sc->scratch || !sc->samples || !sc->next || !sc->sysfs_member) {
		ti->error = "Cannot allocate ssdstripe context";
		r = -ENOMEM;
		goto bad_free;
	}

	ssdstripe_geom_init(&sc->geom, p.members, p.chunk);
	sc->width = div_u64(ti->len, p.members);
	sc->discard_passdown = !p.no_discard_passdown;
	sc->stats = !p.no_stats;
	sc->thr = p.thr;
	sc->ti = ti;
	sc->md = dm_table_get_md(ti->table);
	mutex_init(&sc->health_lock);
	seqcount_mutex_init(&sc->state_seq, &sc->health_lock);
	atomic_set(&sc->kobj_count, 1);
	init_completion(&sc->kobj_released);
	INIT_WORK(&sc->trigger_event, ssdstripe_trigger_event);
	INIT_DELAYED_WORK(&sc->health_work, ssdstripe_health_work);
	INIT_LIST_HEAD(&sc->sysfs_node);

	r = dm_set_target_max_io_len(ti, p.chunk);
	if (r)
		goto bad_free;

	for (i = 0; i < p.members; i++) {
		r = ssdstripe_get_member(ti, sc, i, p.member_argv);
		if (r) {
			ssdstripe_put_members(ti, sc, i);
			goto bad_free;
		}
	}

	ti->num_flush_bios = p.members;
	ti->num_discard_bios = sc->discard_passdown ? p.members : 0;
	ti->num_secure_erase_bios = p.members;
	ti->num_write_zeroes_bios = p.members;
	ti->per_io_data_size = sizeof(struct ssdstripe_io);
	ti->private = sc;

	return 0;

bad_free:
	ssdstripe_free(sc);
	return r;
}

static void ssdstripe_dtr(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	cancel_delayed_work_sync(&sc->health_work);
	ssdstripe_sysfs_unpublish(sc);
	/* Every release function of ours runs before the module can go. */
	if (!atomic_dec_and_test(&sc->kobj_count))
		wait_for_completion(&sc->kobj_released);
	flush_work(&sc->trigger_event);
	ssdstripe_put_members(ti, sc, sc->geom.members);
	ssdstripe_free(sc);
}

static int ssdstripe_map_range(struct ssdstripe_c *sc, struct bio *bio,
			       unsigned int member)
{
	struct ssdstripe_io *io;
	sector_t begin, end;

	if (!ssdstripe_member_range(&sc->geom,
				    dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
				    bio_sectors(bio), member, &begin, &end)) {
		/*
		 * Nothing of this range lives on @member.  bio_endio() runs
		 * end_io, which must not take this clone for a member's I/O.
		 */
		io = dm_per_bio_data(bio, sizeof(*io));
		io->member = SSDSTRIPE_NO_MEMBER;
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}

	bio_set_dev(bio, sc->member[member].dev->bdev);
	bio->bi_iter.bi_sector = begin + sc->member[member].offset;
	bio->bi_iter.bi_size = to_bytes(end - begin);
	ssdstripe_account_start(sc, bio, member);

	return DM_MAPIO_REMAPPED;
}

/*
 * Member and member sector, its offset applied, of target-relative @sector:
 * where map sends a read or write.
 */
static __always_inline sector_t ssdstripe_remap(const struct ssdstripe_c *sc,
						sector_t sector,
						unsigned int *member)
{
	sector_t r;

	ssdstripe_map_sector(&sc->geom, sector, member, &r);

	return r + sc->member[*member].offset;
}

static int ssdstripe_map(struct dm_target *ti, struct bio *bio)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int member;

	if (unlikely(bio->bi_opf & REQ_PREFLUSH)) {
		/* Empty flush: dm core clones it once per member. */
		member = dm_bio_get_target_bio_nr(bio);
		bio_set_dev(bio, sc->member[member].dev->bdev);
		ssdstripe_account_start(sc, bio, member);
		return DM_MAPIO_REMAPPED;
	}

	if (unlikely(bio_op(bio) == REQ_OP_DISCARD ||
		     bio_op(bio) == REQ_OP_SECURE_ERASE ||
		     bio_op(bio) == REQ_OP_WRITE_ZEROES))
		return ssdstripe_map_range(sc, bio, dm_bio_get_target_bio_nr(bio));

	bio->bi_iter.bi_sector = ssdstripe_remap(sc,
						 dm_target_offset(ti, bio->bi_iter.bi_sector),
						 &member);
	bio_set_dev(bio, sc->member[member].dev->bdev);
	ssdstripe_account_start(sc, bio, member);

	return DM_MAPIO_REMAPPED;
}

static int ssdstripe_end_io(struct dm_target *ti, struct bio *bio,
			    blk_status_t *error)
{
	struct ssdstripe_c *sc = ti->private;
	struct ssdstripe_io *io = dm_per_bio_data(bio, sizeof(*io));
	struct ssdstripe_stats __percpu *st;
	enum ssdstripe_err_class class;
	unsigned int bucket;
	u64 lat_ns;
	int count;

	if (io->member == SSDSTRIPE_NO_MEMBER)
		return DM_ENDIO_DONE;
	if (WARN_ON_ONCE(io->member >= sc->geom.members))
		return DM_ENDIO_DONE;
	st = sc->member[io->member].stats;
	class = ssdstripe_classify(*error, bio->bi_opf);

	if (sc->stats) {
		this_cpu_dec(st->inflight);
		switch (class) {
		case SSDSTRIPE_ERR_NONE:
			/* A flush or discard that works says nothing of data. */
			if (io->op > SSDSTRIPE_OP_WRITE)
				break;
			this_cpu_inc(st->ok);
			lat_ns = ktime_get_ns() - io->start_ns;
			bucket = ssdstripe_hist_bucket(div_u64(lat_ns,
							       NSEC_PER_USEC));
			this_cpu_inc(st->hist[bucket]);
			/*
			 * A FUA write waits for the drive's cache: its latency
			 * says nothing of the member's speed against peers'
			 * plain writes (a journal on one member is FUA-heavy).
			 */
			if (bio->bi_opf & REQ_FUA)
				break;
			this_cpu_inc(st->rw_done);
			this_cpu_add(st->rw_lat_ns, lat_ns);
			break;
		case SSDSTRIPE_ERR_IGNORED:
			/* Not an error, and not a success either. */
			break;
		case SSDSTRIPE_ERR_RETRY:
			this_cpu_inc(st->retries);
			break;
		case SSDSTRIPE_ERR_ERROR:
			this_cpu_inc(st->failed);
			this_cpu_inc(st->errors[io->op]);
			break;
		}
	} else if (class == SSDSTRIPE_ERR_RETRY) {
		this_cpu_inc(st->retries);
	} else if (class == SSDSTRIPE_ERR_ERROR) {
		/* Errors still count towards health without accounting. */
		this_cpu_inc(st->failed);
	}

	if (class != SSDSTRIPE_ERR_ERROR)
		return DM_ENDIO_DONE;

	count = atomic_inc_return(&sc->member[io->member].error_count);
	if (count <= SSDSTRIPE_ERROR_EVENT_LIMIT)
		schedule_work(&sc->trigger_event);
	if (count == 1)
		DMERR_LIMIT("%s: I/O error on member %u (%s)",
			    dm_table_device_name(ti->table), io->member,
			    sc->member[io->member].dev->name);

	return DM_ENDIO_DONE;
}

static void ssdstripe_postsuspend(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	cancel_delayed_work_sync(&sc->health_work);
}

static void ssdstripe_resume(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int i;

	ssdstripe_sysfs_publish(sc);

	/* Windows start afresh: what happened while suspended is not load. */
	mutex_lock(&sc->health_lock);
	for (i = 0; i < sc->geom.members; i++)
		__ssdstripe_sample_restart(&sc->member[i]);
	mutex_unlock(&sc->health_lock);
	queue_delayed_work(system_percpu_wq, &sc->health_work,
			   msecs_to_jiffies(READ_ONCE(sc->thr.window_ms)));
}

static void ssdstripe_status(struct dm_target *ti, status_type_t type,
			     unsigned int status_flags, char *result,
			     unsigned int maxlen)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_tunable *tu;
	unsigned int sz = 0, nfeat = 0, letters_sz, seq;
	enum ssdstripe_state st, worst;
	struct ssdstripe_member *m;
	unsigned int i, v;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u ", sc->geom.members);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT("%s ", sc->member[i].dev->name);
		DMEMIT("1 ");
		/* The letters of one snapshot, and the array state they give. */
		letters_sz = sz;
		do {
			seq = read_seqcount_begin(&sc->state_seq);
			sz = letters_sz;
			worst = SSDSTRIPE_OK;
			for (i = 0; i < sc->geom.members; i++) {
				st = READ_ONCE(sc->member[i].state);
				worst = max(worst, st);
				DMEMIT("%c", ssdstripe_state_letter[st]);
			}
		} while (read_seqcount_retry(&sc->state_seq, seq));
		DMEMIT(" %s 5", ssdstripe_array_state_name[worst]);
		for (i = 0; i < sc->geom.members; i++) {
			m = &sc->member[i];
			DMEMIT(" %llu %llu %llu %u %u",
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_READ]),
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_WRITE]),
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_DISCARD]),
			       atomic_read(&m->error_count),
			       READ_ONCE(m->latency_us));
		}
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%u %u", sc->geom.members, sc->geom.chunk);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT(" %s %llu", sc->member[i].dev->name,
			       (unsigned long long)sc->member[i].offset);

		nfeat = !sc->discard_passdown + !sc->stats;
		for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++) {
			tu = &ssdstripe_tunables[i];
			if (READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr, tu)) != tu->def)
				nfeat += 2;
		}
		if (!nfeat)
			break;
		DMEMIT(" %u", nfeat);
		if (!sc->discard_passdown)
			DMEMIT(" no_discard_passdown");
		if (!sc->stats)
			DMEMIT(" no_stats");
		for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++) {
			tu = &ssdstripe_tunables[i];
			v = READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr, tu));
			if (v != tu->def)
				DMEMIT(" %s %u", tu->name, v);
		}
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",members=%u,chunk_size=%u,discard_passdown=%c",
		       sc->geom.members, sc->geom.chunk,
		       sc->discard_passdown ? 'y' : 'n');
		letters_sz = sz;
		do {
			seq = read_seqcount_begin(&sc->state_seq);
			sz = letters_sz;
			for (i = 0; i < sc->geom.members; i++) {
				st = READ_ONCE(sc->member[i].state);
				DMEMIT(",member_%u_device_name=%s", i,
				       sc->member[i].dev->name);
				DMEMIT(",member_%u_physical_start=%llu", i,
				       (unsigned long long)sc->member[i].offset);
				DMEMIT(",member_%u_status=%c", i,
				       ssdstripe_state_letter[st]);
			}
		} while (read_seqcount_retry(&sc->state_seq, seq));
		DMEMIT(";");
		break;
	}
}

/*
 * Messages:
 *	reset_stats			zero the counters shown in sysfs
 *	clear_errors			forget errors: members not gone are ok
 *	<health threshold> <value>	change a threshold (see the ctr)
 */
static int ssdstripe_message(struct dm_target *ti, unsigned int argc,
			     char **argv, char *result, unsigned int maxlen)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_tunable *tu;

	if (argc == 1 && !strcasecmp(argv[0], "reset_stats")) {
		ssdstripe_reset_stats(sc);
		return 0;
	}

	if (argc == 1 && !strcasecmp(argv[0], "clear_errors")) {
		ssdstripe_clear_errors(sc);
		return 0;
	}

	if (argc == 2) {
		tu = ssdstripe_find_tunable(argv[0]);
		if (tu) {
			if (!ssdstripe_set_tunable(&sc->thr, tu, argv[1]))
				return 0;
			DMERR("%s: %s", dm_table_device_name(ti->table),
			      tu->error);
			return -EINVAL;
		}
	}

	DMERR("%s: Unrecognised message", dm_table_device_name(ti->table));
	return -EINVAL;
}

static int ssdstripe_iterate_devices(struct dm_target *ti,
				     iterate_devices_callout_fn fn, void *data)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int i;
	int r = 0;

	for (i = 0; i < sc->geom.members && !r; i++)
		r = fn(ti, sc->member[i].dev, sc->member[i].offset, sc->width,
		       data);

	return r;
}

static void ssdstripe_io_hints(struct dm_target *ti,
			       struct queue_limits *limits)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_geom *g = &sc->geom;
	unsigned int io_min, io_opt, wz;

	limits->chunk_sectors = g->chunk;

	if (!check_shl_overflow(g->chunk, SECTOR_SHIFT, &io_min) &&
	    !check_mul_overflow(io_min, g->members, &io_opt)) {
		limits->io_min = io_min;
		limits->io_opt = io_opt;
	}

	/*
	 * @limits holds the smallest member limits here.  dm-stripe passes
	 * them on unchanged, so a large discard is split into pieces that
	 * each give every member only 1/N of what it accepts.
	 */
	wz = ssdstripe_scaled_limit(g, limits->max_write_zeroes_sectors);
	ssdstripe_set_write_zeroes_limit(limits, wz);
	limits->max_secure_erase_sectors =
		ssdstripe_scaled_limit(g, limits->max_secure_erase_sectors);

	if (!sc->discard_passdown) {
		limits->max_discard_sectors = 0;
		limits->max_hw_discard_sectors = 0;
		limits->discard_granularity = 0;
		return;
	}

	limits->max_hw_discard_sectors =
		ssdstripe_scaled_limit(g, limits->max_hw_discard_sectors);
	limits->max_discard_sectors =
		ssdstripe_scaled_limit(g, limits->max_discard_sectors);
}

static struct target_type ssdstripe_target = {
	.name		 = "ssdstripe",
	.version	 = {1, 2, 0},
	.features	 = DM_TARGET_PASSES_INTEGRITY | DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = ssdstripe_ctr,
	.dtr		 = ssdstripe_dtr,
	.map		 = ssdstripe_map,
	.end_io		 = ssdstripe_end_io,
	.postsuspend	 = ssdstripe_postsuspend,
	.resume		 = ssdstripe_resume,
	.status		 = ssdstripe_status,
	.message	 = ssdstripe_message,
	.iterate_devices = ssdstripe_iterate_devices,
	.io_hints	 = ssdstripe_io_hints,
};
module_dm(ssdstripe);

MODULE_DESCRIPTION(DM_NAME " RAID-0 striping for SSDs with discard pass-through and member health");
MODULE_AUTHOR("The dm-ssdstripe authors");
MODULE_LICENSE("GPL");

#if IS_ENABLED(CONFIG_DM_SSDSTRIPE_KUNIT_TEST)
#include "dm_ssdstripe_kunit.c"
#endif
