/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * dm-ssdstripe's private header: the types every part of the target
 * shares (the context, its members, their statistics and health, the
 * tunables) and the functions one file calls in another.  Split by
 * concern as dm-zoned is:
 *
 *   ssdstripe-geom.h    pure layout arithmetic, inlined into the map path
 *   ssdstripe-target.c  table parsing, ctr/dtr, map/end_io, status,
 *                       message, io_hints: the target_type
 *   ssdstripe-health.c  sampling, the health state machine, events
 *   ssdstripe-sysfs.c   /sys/block/dm-<n>/ssdstripe and its ownership
 *   ssdstripe-gather.c  reads and writes across chunks: one bio per member
 *   ssdstripe-stats.h   per-member accounting on the I/O path (inline)
 *   ssdstripe-stats.c   its sums and resets, and what a member error raises
 */
#ifndef DM_SSDSTRIPE_H
#define DM_SSDSTRIPE_H

#include <linux/device-mapper.h>

#include <kunit/visibility.h>
#include <linux/bio.h>
#include <linux/cache.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "compat.h"

/*
 * The version of /sys/block/dm-<n>/ssdstripe, shown in its version file:
 * what files there are and what they mean (the ABI document's history).
 */
#define SSDSTRIPE_SYSFS_ABI_VERSION 3

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
 * member's, so the order matters.  A stalled member outranks an erroring
 * one: while it holds I/O the whole array waits, and when it completes
 * again it is erroring as before (errors are sticky, a stall is not).
 */
enum ssdstripe_state {
	SSDSTRIPE_OK,
	SSDSTRIPE_SLOW,
	SSDSTRIPE_ERRORING,
	SSDSTRIPE_STALLED,
	SSDSTRIPE_FAILED,
};

/* What a completion means for the member's health. */
enum ssdstripe_err_class {
	SSDSTRIPE_ERR_NONE,	/* success */
	SSDSTRIPE_ERR_RETRY,	/* would block: the submitter retries it */
	SSDSTRIPE_ERR_IGNORED,	/* a failure that says nothing of the member */
	SSDSTRIPE_ERR_ERROR,	/* a real member error */
};

/* What sysfs, uevents and the log call them (ssdstripe-health.c). */
extern const char * const ssdstripe_state_name[];
extern const char * const ssdstripe_array_state_name[];

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
	unsigned int stall_ms;		/* stalled: a read or write this old, none done */
};

struct ssdstripe_tunable {
	const char *name;
	unsigned int min;
	unsigned int max;
	unsigned int def;
	size_t offset;
	const char *error;
};

/* The thresholds by name, for table arguments and messages. */
#define SSDSTRIPE_NR_TUNABLES 8
extern const struct ssdstripe_tunable ssdstripe_tunables[SSDSTRIPE_NR_TUNABLES];

static inline unsigned int *
ssdstripe_tunable_ptr(struct ssdstripe_thresholds *t,
		      const struct ssdstripe_tunable *tu)
{
	return (unsigned int *)((char *)t + tu->offset);
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

/*
 * Per-CPU counters of one member: the hot path touches only its own CPU's.
 * reset_stats zeroes ios, sectors, hist and retries; errors, counted with
 * and without accounting, only clear_errors zeroes.  What map writes comes
 * first, so that a read's start touches one cache line.
 */
struct ssdstripe_stats {
	s64 inflight;
	s64 rw_inflight;	/* watched reads and writes in flight */
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
	/* watched reads and writes completed, any status but would-block */
	u64 rw_ended;
} ____cacheline_aligned;

/* The never-reset counters of one member, summed over the CPUs. */
struct ssdstripe_totals {
	u64 ok;
	u64 failed;
	u64 rw_done;
	u64 rw_lat_ns;
	u64 rw_ended;
};

/* What the health monitor saw of one member in one window. */
struct ssdstripe_sample {
	u64 ok;			/* successful reads and writes */
	u64 errors;		/* failed completions */
	u64 rw_ios;		/* successful reads and writes */
	u64 rw_lat_ns;		/* their summed latency */
	u64 rw_ended;		/* watched reads and writes completed */
	bool rw_waiting;	/* reads or writes in flight at its end */
	unsigned int elapsed_ms; /* how long the window was */
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
	/*
	 * Stalls: whether reads or writes were in flight at the last sample
	 * (watching); for how long, at least, one of them has been in flight
	 * with none completing: since the first sample that saw them, so
	 * never more than the oldest one's age (0 once one completes or none
	 * wait); whether that is stall_ms or more, and how often it came to
	 * that.  Not an error, not sticky.
	 */
	bool watching;
	unsigned int waiting_ms;
	bool stalled;
	unsigned int stalls;
};

struct ssdstripe_member {
	struct dm_dev *dev;
	sector_t offset;
	/*
	 * Errors that raised a dm event since the table was loaded or
	 * clear_errors: events stop after the first few (the count of errors
	 * itself is the per-CPU errors[], as sysfs and status show it).
	 */
	atomic_t error_events;
	struct ssdstripe_stats __percpu *stats;

	/* Published under ssdstripe_c.state_seq; read with READ_ONCE. */
	enum ssdstripe_state state;
	/* Guarded by ssdstripe_c.health_lock. */
	struct ssdstripe_health health;
	struct ssdstripe_totals last;	/* totals at the previous window */
	unsigned int latency_us;	/* mean of the last window, for sysfs */
	unsigned int waiting_ms;	/* health.waiting_ms, for sysfs */
	unsigned int stalls;		/* health.stalls, for sysfs */
};

struct ssdstripe_kobj;

struct ssdstripe_c {
	struct ssdstripe_geom geom;
	sector_t width;			/* sectors used on each member */
	bool discard_passdown;
	bool stats;			/* per-I/O accounting on */
	bool may_gather;		/* reads and writes across chunks gathered */
	/* the gathered member bios (ssdstripe-gather.c) */
	struct bio_set gather_bioset;
	/* requests that went per chunk for want of memory, per CPU */
	u64 __percpu *gather_fallbacks;
	struct dm_target *ti;
	struct mapped_device *md;
	struct work_struct trigger_event;

	struct ssdstripe_thresholds thr;
	struct delayed_work health_work;
	/*
	 * health_lock serialises the writers of member health (the health
	 * work, the clear_errors message, resume): every member's health,
	 * last and the buffers below.  state_seq publishes the member states
	 * and the array state they make (ssdstripe_array_state(), the one
	 * place that derives it) as one snapshot; readers (sysfs, status,
	 * IMA) take no lock.
	 */
	struct mutex health_lock;
	seqcount_mutex_t state_seq;
	enum ssdstripe_state array_state;
	unsigned long sampled_at;	/* jiffies of the last window's end */
	/* The health monitor's buffers, one entry per member. */
	u64 *scratch;
	struct ssdstripe_sample *samples;
	struct ssdstripe_health *next;

	/* sysfs, guarded by ssdstripe_sysfs_lock */
	struct list_head segment_node;	/* every segment's */
	bool resumed;			/* has been live: others may inherit */
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

/* ssdstripe_member_io.member of a clone completed in map: no member saw it */
#define SSDSTRIPE_NO_MEMBER UINT_MAX

/*
 * ssdstripe_member_io.member of a clone whose data went to the members in
 * gathered bios of our own, each accounted as its member's I/O.
 */
#define SSDSTRIPE_GATHERED (UINT_MAX - 1)

/*
 * The I/O path has four kinds of per-I/O data, each named for what it is:
 *   struct ssdstripe_member_io    one I/O as a member sees it: which member,
 *                                 which operation, when it started (what
 *                                 accounting needs at its completion)
 *   struct ssdstripe_clone_data   dm core's per-bio data of the clone map
 *                                 gets: its member I/O, or its gather state
 *   struct ssdstripe_gather_bio   a bio of ours carrying one member's share
 *                                 of a gathered clone (ssdstripe-gather.c)
 *   struct ssdstripe_piece        one chunk's part of a request, as gather
 *                                 plans it (ssdstripe-geom.h)
 */

/* Which member an I/O went to, and when. */
struct ssdstripe_member_io {
	u64 start_ns;
	unsigned int member;
	u16 op;
	bool watched;		/* counted in rw_inflight (stall detection) */
};

/*
 * Gather only up to this many members: the per-bio data of every clone
 * holds a slot per member.  Larger arrays split at chunks, as before.
 */
#define SSDSTRIPE_GATHER_MAX_MEMBERS 64

/*
 * Per-bio data of a clone.  The gather fields are used only when the
 * clone is gathered; slot[] exists only in a table that gathers.
 */
struct ssdstripe_clone_data {
	struct ssdstripe_member_io io;
	atomic_t pending;		/* member bios not completed yet */
	atomic_t status;		/* the first error among them */
	/* While map builds them: a member's plan, then its bio. */
	union ssdstripe_gather_slot {
		struct {
			unsigned int nr_vecs;	/* vectors of its pieces */
			unsigned int room;	/* REQ_NOWAIT: sectors left */
		};
		struct bio *bio;
	} slot[];
};

static inline struct ssdstripe_clone_data *
ssdstripe_clone_data(struct dm_target *ti, struct bio *bio)
{
	return dm_per_bio_data(bio, ti->per_io_data_size);
}

/* The part of a table line that can be checked without opening devices. */
struct ssdstripe_params {
	unsigned int members;
	unsigned int chunk;
	bool no_discard_passdown;
	bool no_stats;
	struct ssdstripe_thresholds thr;
	unsigned long tunables_set;	/* bit i: ssdstripe_tunables[i] given */
	char **member_argv;		/* <dev> <offset> pairs */
	sector_t *offset;		/* each member's offset, parsed */
};

/* Health and events (ssdstripe-health.c) */
void ssdstripe_trigger_event(struct work_struct *work);
void __ssdstripe_sample_restart(struct ssdstripe_c *sc);
void ssdstripe_health_suspended(struct ssdstripe_c *sc);
void ssdstripe_health_work(struct work_struct *work);
void ssdstripe_clear_errors(struct ssdstripe_c *sc);
void ssdstripe_inherit(struct ssdstripe_c *sc, struct ssdstripe_c *old);

/* Gather (ssdstripe-gather.c) */
int ssdstripe_gather_init(struct ssdstripe_c *sc);
void ssdstripe_gather_exit(struct ssdstripe_c *sc);
size_t ssdstripe_gather_req_size(unsigned int members);
bool ssdstripe_gather(struct ssdstripe_c *sc, struct bio *bio);
u64 ssdstripe_gather_fallbacks(struct ssdstripe_c *sc);
void ssdstripe_gather_reset_stats(struct ssdstripe_c *sc);

/* sysfs (ssdstripe-sysfs.c) */
void ssdstripe_sysfs_register(struct ssdstripe_c *sc);
void ssdstripe_sysfs_publish(struct ssdstripe_c *sc);
void ssdstripe_sysfs_unpublish(struct ssdstripe_c *sc);

#if IS_ENABLED(CONFIG_KUNIT)
/* Static unless KUnit is built (VISIBLE_IF_KUNIT), for its suites */
void ssdstripe_thresholds_default(struct ssdstripe_thresholds *t);
const struct ssdstripe_tunable *ssdstripe_find_tunable(const char *name);
int ssdstripe_parse_params(unsigned int argc, char **argv, sector_t len,
			   struct ssdstripe_params *p, char **error);
const char *ssdstripe_message_tunable(struct ssdstripe_c *sc,
				      const struct ssdstripe_tunable *tu,
				      const char *value);
unsigned int ssdstripe_judgment_life(const struct ssdstripe_thresholds *t);
void ssdstripe_health_update(const struct ssdstripe_thresholds *t,
			     unsigned int n, const struct ssdstripe_sample *s,
			     struct ssdstripe_health *h, u64 *scratch);
void ssdstripe_health_clear(struct ssdstripe_health *h, bool gone);
void ssdstripe_health_unstall(struct ssdstripe_health *h);
enum ssdstripe_state ssdstripe_array_state(const struct ssdstripe_health *h,
					   unsigned int n);
void ssdstripe_stack_limits(const struct ssdstripe_geom *g,
			    bool discard_passdown, struct queue_limits *limits);
#endif

#endif /* DM_SSDSTRIPE_H */
