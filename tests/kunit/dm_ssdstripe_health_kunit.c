// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_health: the member health state machine driven
 * by synthetic windows (slow, erroring and failed, their onset, hysteresis
 * and clearing), the classification of completions and the latency
 * histogram's buckets.
 *
 * ssdstripe_health_update(), ssdstripe_health_clear(),
 * ssdstripe_array_state() and ssdstripe_judgment_life() in
 * ssdstripe-health.c and ssdstripe_thresholds_default() in
 * ssdstripe-target.c are static but for KUnit (VISIBLE_IF_KUNIT,
 * EXPORT_SYMBOL_IF_KUNIT); ssdstripe_classify() and ssdstripe_hist_bucket()
 * are static inline in ssdstripe-stats.h.
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "ssdstripe.h"
#include "ssdstripe-stats.h"

#define HEALTH_MAX 8

struct ssdstripe_health_ctx {
	struct ssdstripe_thresholds t;
	unsigned int n;
	struct ssdstripe_health h[HEALTH_MAX];
	struct ssdstripe_sample s[HEALTH_MAX];
	u64 scratch[2 * HEALTH_MAX];
};

static void health_init(struct ssdstripe_health_ctx *c, unsigned int n)
{
	memset(c, 0, sizeof(*c));
	ssdstripe_thresholds_default(&c->t);
	c->n = n;
}

/* Member @i did @ios reads/writes at a mean of @lat_us, @errors failed. */
static void health_set(struct ssdstripe_health_ctx *c, unsigned int i,
		       u64 ios, u64 lat_us, u64 errors)
{
	c->s[i].ok = ios;
	c->s[i].rw_ios = ios;
	c->s[i].rw_lat_ns = ios * lat_us * NSEC_PER_USEC;
	c->s[i].errors = errors;
	c->s[i].gone = false;
}

/* Every member: 100 I/Os at @lat_us, except member @slow at @slow_us. */
static void health_window(struct ssdstripe_health_ctx *c, u64 lat_us,
			  unsigned int slow, u64 slow_us)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		health_set(c, i, 100, i == slow ? slow_us : lat_us, 0);
	ssdstripe_health_update(&c->t, c->n, c->s, c->h, c->scratch);
}

static void ssdstripe_health_slow_onset_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 4);
	/* Sustained: slow only once slow_windows loaded windows agree. */
	for (w = 1; w < c.t.slow_windows; w++) {
		health_window(&c, 300, 2, 3000);
		KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	}
	health_window(&c, 300, 2, 3000);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_SLOW);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_SLOW);
}

static void ssdstripe_health_recovery_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 1, 5000);
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);

	/* Hysteresis: recover_windows normal windows before ok again. */
	for (w = 1; w < c.t.recover_windows; w++) {
		health_window(&c, 300, 1, 300);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);
	}
	health_window(&c, 300, 1, 300);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_OK);
}

static void ssdstripe_health_flapping_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 3);
	/* Slow every other window is never a sustained slow. */
	for (w = 0; w < 20; w++) {
		health_window(&c, 300, 0, w % 2 ? 300 : 9000);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	}

	/* And once slow, one good window in a bad run does not clear it. */
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 0, 9000);
	KUNIT_ASSERT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
	for (w = 0; w < 20; w++) {
		health_window(&c, 300, 0, w % 2 ? 300 : 9000);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
	}
}

static void ssdstripe_health_idle_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	/*
	 * A member with a few slow I/Os while the others are busy: evidence
	 * gathered over windows of light load never raises slow (a trickle
	 * of I/O says little of a member's speed under load).
	 */
	for (w = 1; w <= 4 * c.t.slow_windows; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 100, 300, 0);
		health_set(&c, 3, c.t.min_ios - 1, 50000, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ_MSG(test, c.h[3].state, SSDSTRIPE_OK,
				    "window %u", w);
	}
	health_init(&c, 4);

	/* A whole idle array: nothing changes, whatever the latencies. */
	for (w = 0; w < 10; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, i, 100000 * i, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		for (i = 0; i < c.n; i++)
			KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);
	}

	/* A slow member that goes idle keeps its state: no evidence. */
	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 0, 9000);
	KUNIT_ASSERT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
	for (w = 0; w < 10; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
	}
}

static void ssdstripe_health_peers_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	/* One member has no peers: never slow. */
	health_init(&c, 1);
	for (w = 0; w < 10; w++)
		health_window(&c, 90000, 0, 90000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);

	/* All members equally slow: none is slow. */
	health_init(&c, 6);
	for (w = 0; w < 10; w++)
		health_window(&c, 50000, 0, 50000);
	for (i = 0; i < c.n; i++)
		KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);

	/* Two members: the slower one is judged against the other. */
	health_init(&c, 2);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 1, 2000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);

	/* Below slow_min_latency_us a high ratio is only noise. */
	health_init(&c, 4);
	for (w = 0; w < 10; w++)
		health_window(&c, 10, 0, c.t.slow_min_latency_us - 1);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);

	/* Under the factor: 3x the median with factor 4 is not slow. */
	health_init(&c, 4);
	for (w = 0; w < 10; w++)
		health_window(&c, 1000, 0, 3000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);

	/* A tuned factor takes effect. */
	c.t.slow_factor = 2;
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 1000, 0, 3000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
}

static void ssdstripe_health_errors_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	for (i = 0; i < c.n; i++)
		health_set(&c, i, 100, 300, 0);
	health_set(&c, 1, 50, 300, 7);		/* some fail */
	health_set(&c, 2, 0, 0, 12);		/* every one fails */
	c.s[3].gone = true;			/* unplugged */
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	/* One all-error window is not yet sustained evidence. */
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_FAILED);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_FAILED);

	/* Idle windows are no evidence of recovery. */
	for (w = 0; w < 10; w++) {
		for (i = 0; i < 3; i++)
			health_set(&c, i, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_FAILED);

	/* Clean windows do not clear errors (sticky); a gone disk stays. */
	for (w = 0; w < 10; w++) {
		for (i = 0; i < 3; i++)
			health_set(&c, i, 100, 300, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_FAILED);

	/* clear_errors: ok again, except the member whose disk is gone. */
	for (i = 0; i < c.n; i++)
		ssdstripe_health_clear(&c.h[i], c.s[i].gone);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_FAILED);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_FAILED);
}

/* One error on an otherwise idle array: erroring, never failed. */
static void ssdstripe_health_one_error_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 4);
	health_set(&c, 2, 0, 0, 1);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n),
			SSDSTRIPE_ERRORING);

	/* ... and it stays so, idle or clean, until cleared. */
	for (w = 0; w < 20; w++) {
		health_set(&c, 2, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	}
	for (w = 0; w < 20; w++) {
		health_window(&c, 300, 0, 300);
		KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
	}
	ssdstripe_health_clear(&c.h[2], false);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	/* The next error makes it erroring again. */
	health_set(&c, 2, 10, 300, 1);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_ERRORING);
}

/* failed after fail_windows all-error windows in a row; idle ones end a run. */
static void ssdstripe_health_failed_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	/*
	 * One bad sector read now and then (a cron job): a single failed
	 * read with idle windows between is erroring, never failed.
	 */
	for (w = 0; w < 4 * c.t.fail_windows; w++) {
		health_set(&c, 1, 0, 0, 1);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
		health_set(&c, 1, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	}
	health_init(&c, 4);
	for (w = 1; w < c.t.fail_windows; w++) {
		health_set(&c, 1, 0, 0, 5);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	}
	health_set(&c, 1, 0, 0, 5);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_FAILED);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_FAILED);

	/* A window with a success breaks the run. */
	health_init(&c, 4);
	c.t.fail_windows = 5;
	for (w = 0; w < 20; w++) {
		health_set(&c, 1, w % 4 == 3, 0, 5);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	}

	/* Idle failed stays failed; recover_windows clean windows: erroring. */
	health_init(&c, 4);
	for (w = 0; w < c.t.fail_windows; w++) {
		health_set(&c, 0, 0, 0, 3);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_ASSERT_EQ(test, c.h[0].state, SSDSTRIPE_FAILED);
	for (w = 0; w < 10; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_FAILED);
	}
	for (w = 1; w < c.t.recover_windows; w++) {
		health_window(&c, 300, 0, 300);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_FAILED);
	}
	health_window(&c, 300, 0, 300);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_ERRORING);
	for (w = 0; w < 10; w++) {
		health_window(&c, 300, 0, 300);
		KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_ERRORING);
	}

	/* A gone disk is failed at once and stays so, whatever it does. */
	health_init(&c, 2);
	c.s[1].gone = true;
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_FAILED);
	for (w = 0; w < 10; w++) {
		c.s[1].ok = 100;
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_FAILED);
	}
}

/*
 * A member failing a fixed share of its I/O under steady load: one state
 * change over 20 windows, not one per window.  So does one that fails
 * everything every other window.
 */
static void ssdstripe_health_share_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	enum ssdstripe_state prev;
	unsigned int w, changes;

	health_init(&c, 4);
	prev = c.h[3].state;
	changes = 0;
	for (w = 0; w < 20; w++) {
		health_window(&c, 300, 0, 300);
		health_set(&c, 3, 60, 300, 40);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		changes += c.h[3].state != prev;
		prev = c.h[3].state;
	}
	KUNIT_EXPECT_EQ(test, changes, 1U);
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_ERRORING);

	health_init(&c, 4);
	prev = c.h[3].state;
	changes = 0;
	for (w = 0; w < 20; w++) {
		health_set(&c, 3, w % 2 ? 100 : 0, 300, w % 2 ? 0 : 100);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		changes += c.h[3].state != prev;
		prev = c.h[3].state;
	}
	KUNIT_EXPECT_LE(test, changes, 2U);
	KUNIT_EXPECT_NE(test, c.h[3].state, SSDSTRIPE_OK);
}

/* Sub-microsecond members: a median of 0 never makes anyone slow. */
static void ssdstripe_health_zero_median_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	/* Peers that took no time at all (a median of 0 ns). */
	health_init(&c, 4);
	c.t.slow_min_latency_us = 0;
	for (w = 0; w < 10; w++) {
		for (i = 0; i < c.n; i++) {
			health_set(&c, i, 100, 0, 0);
			if (i == 0)
				c.s[i].rw_lat_ns = 100 * 900;	/* 0.9 us */
		}
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		for (i = 0; i < c.n; i++)
			KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);
	}

	/*
	 * slow_min_latency_us 0 and null_blk-like peers at 300 ns: judged in
	 * nanoseconds, 4 x 300 ns is the bar, not 4 x 0 us.
	 */
	health_init(&c, 4);
	c.t.slow_min_latency_us = 0;
	for (w = 0; w < 10; w++) {
		for (i = 0; i < c.n; i++) {
			health_set(&c, i, 100, 0, 0);
			c.s[i].rw_lat_ns = 100 * (i == 0 ? 900 : 300);
		}
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		for (i = 0; i < c.n; i++)
			KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);
	}
	for (w = 0; w < c.t.slow_windows; w++) {
		for (i = 0; i < c.n; i++) {
			health_set(&c, i, 100, 0, 0);
			c.s[i].rw_lat_ns = 100 * (i == 0 ? 1300 : 300);
		}
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_SLOW);
	for (i = 1; i < c.n; i++)
		KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);
}

/*
 * A slow member that is fast again clears under light load: windows of
 * a few I/Os add up to judgments, recover_windows of them clear it.
 */
static void ssdstripe_health_light_recovery_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i, per, windows;

	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 1, 5000);
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);

	/* 4 I/Os per member per window: a judgment every min_ios / 4. */
	per = 4;
	windows = c.t.recover_windows * DIV_ROUND_UP(c.t.min_ios, per);
	for (w = 1; w <= windows; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, per, 300, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ_MSG(test, c.h[1].state,
				    w < windows ? SSDSTRIPE_SLOW : SSDSTRIPE_OK,
				    "window %u", w);
	}
	/* That is recover_windows * min_ios I/Os on the member: a few dozen. */
	KUNIT_EXPECT_LE(test, windows * per, 3U * c.t.min_ios * c.t.recover_windows);
}

/* An idle slow member stays slow: there is no evidence it recovered. */
static void ssdstripe_health_idle_slow_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 2, 5000);
	KUNIT_ASSERT_EQ(test, c.h[2].state, SSDSTRIPE_SLOW);

	/* The member idle, its peers busy and fast. */
	for (w = 0; w < 30; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, i == 2 ? 0 : 100, 300, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_SLOW);
	}
	/*
	 * Its fast judgments count only against recent peer judgments: after
	 * slow_windows + recover_windows idle windows, alone, it stays slow.
	 */
	for (w = 0; w < ssdstripe_judgment_life(&c.t); w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 0, 0, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	for (w = 0; w < 30; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, i == 2 ? 100 : 0, 300, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_SLOW);
}

/*
 * A member carrying most of the load (a hot region) beside near-idle
 * peers: its latency includes its queue, theirs does not.  With no peer
 * loaded in the same window there is no slow verdict.
 */
static void ssdstripe_health_uneven_load_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	for (w = 0; w < 6 * c.t.slow_windows; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 4, 100, 0);
		health_set(&c, 0, 100, 2000, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ_MSG(test, c.h[0].state, SSDSTRIPE_OK,
				    "window %u", w);
	}
}

/* clear_errors forgets errors, not a slow verdict. */
static void ssdstripe_health_clear_keeps_slow_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 1, 9000);
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);
	health_set(&c, 1, 100, 9000, 1);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	ssdstripe_health_clear(&c.h[1], false);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_SLOW);
	ssdstripe_health_clear(&c.h[1], true);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_FAILED);
}

/*
 * Member @i at the end of a window of @ms: reads or writes still @waiting
 * in flight, @ended of them completed in it.
 */
static void health_flight(struct ssdstripe_health_ctx *c, unsigned int i,
			  bool waiting, u64 ended, unsigned int ms)
{
	c->s[i].rw_waiting = waiting;
	c->s[i].rw_ended = ended;
	c->s[i].elapsed_ms = ms;
}

/* One window of @ms: members complete I/O, member @stuck completes none. */
static void health_stuck_window(struct ssdstripe_health_ctx *c,
				unsigned int stuck, unsigned int ms)
{
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		health_set(c, i, i == stuck ? 0 : 100, 300, 0);
		health_flight(c, i, true, i == stuck ? 0 : 100, ms);
	}
	ssdstripe_health_update(&c->t, c->n, c->s, c->h, c->scratch);
}

/*
 * A member whose reads or writes wait and none completes is stalled once
 * they have waited stall_ms, not before: the window in which they are
 * first seen waiting counts nothing (they may have started a moment
 * before its end), each window after it that they wait through counts
 * whole.  The first completion ends it, and the count of stalls stays.
 */
static void ssdstripe_health_stall_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	KUNIT_ASSERT_EQ(test, c.t.stall_ms, 5000);
	for (w = 0; w < 5; w++) {
		health_stuck_window(&c, 2, 1000);
		KUNIT_EXPECT_EQ(test, c.h[2].waiting_ms, w * 1000);
		KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	}
	health_stuck_window(&c, 2, 1000);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_STALLED);
	KUNIT_EXPECT_EQ(test, c.h[2].stalls, 1);
	KUNIT_EXPECT_EQ(test, c.h[2].err, SSDSTRIPE_ERRLVL_NONE);
	for (i = 0; i < c.n; i++)
		if (i != 2)
			KUNIT_EXPECT_EQ(test, c.h[i].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n),
			SSDSTRIPE_STALLED);
	/* Still waiting: stalled, counted once. */
	health_stuck_window(&c, 2, 1000);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_STALLED);
	KUNIT_EXPECT_EQ(test, c.h[2].stalls, 1);
	KUNIT_EXPECT_EQ(test, c.h[2].waiting_ms, 6000);

	/* One completion ends it; the count stays. */
	health_stuck_window(&c, 4, 1000);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[2].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, c.h[2].stalls, 1);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n), SSDSTRIPE_OK);

	/* A second stall counts a second time; windows of any length add up. */
	health_stuck_window(&c, 2, 1000);
	health_stuck_window(&c, 2, 3000);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	health_stuck_window(&c, 2, 2500);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_STALLED);
	KUNIT_EXPECT_EQ(test, c.h[2].stalls, 2);
}

/*
 * The stall measure follows the age of what is outstanding, not the
 * length of a window: an I/O that starts just before a long window ends
 * (a 10 s health window after idle, a late health work, a paused guest)
 * is not charged that window.  A wait is never counted longer than the
 * I/O can have been outstanding: from the first sample that saw it.
 */
static void ssdstripe_health_stall_age_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	/* A 10 s window: one I/O in flight at its end, after idle. */
	health_init(&c, 2);
	c.t.window_ms = 10000;
	c.t.stall_ms = 10000;
	for (w = 0; w < 3; w++) {
		health_flight(&c, 1, false, 0, 10000);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	health_flight(&c, 1, true, 0, 10000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[1].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_OK);
	/* It completed 2 s later; another one is in flight at the end. */
	health_set(&c, 1, 1, 2000000, 0);
	health_flight(&c, 1, true, 1, 10000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[1].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[1].stalls, 0);
	/* Still there a whole window later, none completed: 10 s at least. */
	health_set(&c, 1, 0, 0, 0);
	health_flight(&c, 1, true, 0, 10000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[1].waiting_ms, 10000);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_STALLED);

	/* A health work 30 s late finds a fresh I/O: no wait yet. */
	health_init(&c, 2);
	health_flight(&c, 0, false, 0, 1000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	health_flight(&c, 0, true, 0, 30000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[0].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	/* But one already waiting through a late window did wait that long. */
	health_flight(&c, 0, true, 0, 6000);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_EXPECT_EQ(test, c.h[0].waiting_ms, 6000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_STALLED);

	/* Nothing in flight at a sample breaks the chain: counted afresh. */
	health_init(&c, 2);
	for (w = 0; w < 10; w++) {
		health_flight(&c, 0, w % 2, 0, 1000);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
		KUNIT_EXPECT_EQ(test, c.h[0].waiting_ms, 0);
	}
}

/*
 * Suspend, resume and reload forget a wait (the array is drained), but
 * not what the member is otherwise, nor how often it stalled: no member
 * reads stalled while the array is suspended, and none turns ok after
 * resume as if its I/O had just completed.
 */
static void ssdstripe_health_unstall_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	health_set(&c, 1, 50, 300, 3);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	for (w = 0; w < 6; w++) {
		for (i = 0; i < c.n; i++) {
			health_set(&c, i, i == 1 || i == 2 ? 0 : 100, 300, 0);
			health_flight(&c, i, true, i == 1 || i == 2 ? 0 : 100,
				      1000);
		}
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_STALLED);
	KUNIT_ASSERT_EQ(test, c.h[2].state, SSDSTRIPE_STALLED);

	ssdstripe_health_unstall(&c.h[1]);
	ssdstripe_health_unstall(&c.h[2]);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[2].waiting_ms, 0);
	KUNIT_EXPECT_FALSE(test, c.h[2].stalled);
	KUNIT_EXPECT_EQ(test, c.h[2].stalls, 1);
	KUNIT_EXPECT_EQ(test, ssdstripe_array_state(c.h, c.n),
			SSDSTRIPE_ERRORING);

	/* I/O in flight at the first sample after resume is not yet a wait. */
	health_stuck_window(&c, 2, 1000);
	KUNIT_EXPECT_EQ(test, c.h[2].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
}

/*
 * A stall is no error and not sticky: an erroring member that stalls is
 * stalled, and erroring again when it completes; a gone disk is failed,
 * never stalled; nothing waiting is never a stall; stall_ms 0 turns it off.
 */
static void ssdstripe_health_stall_rank_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w;

	health_init(&c, 4);
	health_set(&c, 1, 50, 300, 3);
	ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	KUNIT_ASSERT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	for (w = 0; w < 6; w++)
		health_stuck_window(&c, 1, 1000);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_STALLED);
	health_stuck_window(&c, 4, 1000);
	KUNIT_EXPECT_EQ(test, c.h[1].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, c.h[1].err, SSDSTRIPE_ERRLVL_ERRORING);

	/* Gone with I/O in flight: failed. */
	for (w = 0; w < 6; w++) {
		health_stuck_window(&c, 3, 1000);
		c.s[3].gone = true;
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[3].state, SSDSTRIPE_FAILED);
	KUNIT_EXPECT_EQ(test, c.h[3].stalls, 0);

	/* Nothing in flight and nothing completed: idle, not stalled. */
	health_init(&c, 4);
	for (w = 0; w < 10; w++) {
		health_set(&c, 0, 0, 0, 0);
		health_flight(&c, 0, false, 0, 1000);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[0].waiting_ms, 0);

	/* stall_ms 0: never stalled. */
	c.t.stall_ms = 0;
	for (w = 0; w < 10; w++)
		health_stuck_window(&c, 0, 1000);
	KUNIT_EXPECT_EQ(test, c.h[0].state, SSDSTRIPE_OK);
	KUNIT_EXPECT_EQ(test, c.h[0].stalls, 0);
}

/*
 * A slow member fast again while its peers are idle: a judgment below
 * slow_min_latency_us is normal even without a peer to compare with.
 */
static void ssdstripe_health_alone_recovery_test(struct kunit *test)
{
	struct ssdstripe_health_ctx c;
	unsigned int w, i;

	health_init(&c, 4);
	for (w = 0; w < c.t.slow_windows; w++)
		health_window(&c, 300, 2, 9000);
	KUNIT_ASSERT_EQ(test, c.h[2].state, SSDSTRIPE_SLOW);
	for (w = 0; w < 2 * c.t.slow_windows + c.t.recover_windows; w++) {
		for (i = 0; i < c.n; i++)
			health_set(&c, i, 0, 0, 0);
		health_set(&c, 2, 100, 50, 0);
		ssdstripe_health_update(&c.t, c.n, c.s, c.h, c.scratch);
	}
	KUNIT_EXPECT_EQ(test, c.h[2].state, SSDSTRIPE_OK);
}

/* --- what stall detection counts --------------------------------------- */

static s64 stall_sum(struct ssdstripe_member *m, size_t offset)
{
	s64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(s64 *)((char *)per_cpu_ptr(m->stats, cpu) + offset);

	return sum;
}

#define STALL_SUM(m, field) \
	stall_sum(m, offsetof(struct ssdstripe_stats, field))

struct ssdstripe_stall_acct_case {
	const char *what;
	blk_opf_t opf;
	unsigned int bytes;
	blk_status_t status;
	s64 inflight;		/* rw_inflight while it is in flight */
	u64 ended;		/* rw_ended once it completed */
};

/*
 * Watched: reads and writes, not flushes, discards or polled bios (they
 * complete when their submitter polls).  A would-block completion is no
 * sign of life from the drive: it does not end a wait.
 */
static const struct ssdstripe_stall_acct_case ssdstripe_stall_acct_cases[] = {
	{ "read", REQ_OP_READ, 4096, BLK_STS_OK, 1, 1 },
	{ "write", REQ_OP_WRITE, 4096, BLK_STS_OK, 1, 1 },
	{ "FUA write", REQ_OP_WRITE | REQ_FUA, 4096, BLK_STS_OK, 1, 1 },
	{ "unsupported read", REQ_OP_READ, 4096, BLK_STS_NOTSUPP, 1, 1 },
	{ "nowait read, AGAIN", REQ_OP_READ | REQ_NOWAIT, 4096, BLK_STS_AGAIN,
	  1, 0 },
	{ "nowait write, AGAIN", REQ_OP_WRITE | REQ_NOWAIT, 4096,
	  BLK_STS_AGAIN, 1, 0 },
	{ "nowait read", REQ_OP_READ | REQ_NOWAIT, 4096, BLK_STS_OK, 1, 1 },
	{ "polled read", REQ_OP_READ | REQ_POLLED | REQ_NOWAIT, 4096,
	  BLK_STS_OK, 0, 0 },
	{ "polled write, AGAIN", REQ_OP_WRITE | REQ_POLLED | REQ_NOWAIT, 4096,
	  BLK_STS_AGAIN, 0, 0 },
	{ "flush", REQ_OP_WRITE | REQ_PREFLUSH, 0, BLK_STS_OK, 0, 0 },
	{ "discard", REQ_OP_DISCARD, 1 << 20, BLK_STS_OK, 0, 0 },
	{ "write-zeroes", REQ_OP_WRITE_ZEROES, 1 << 20, BLK_STS_OK, 0, 0 },
};

static void ssdstripe_stall_acct_desc(const struct ssdstripe_stall_acct_case *c,
				      char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->what);
}

KUNIT_ARRAY_PARAM(ssdstripe_stall_acct, ssdstripe_stall_acct_cases,
		  ssdstripe_stall_acct_desc);

static void ssdstripe_stall_accounting_test(struct kunit *test)
{
	const struct ssdstripe_stall_acct_case *c = test->param_value;
	struct ssdstripe_member_io io = {};
	struct ssdstripe_member *m;
	struct ssdstripe_c *sc;
	struct bio bio;

	sc = kunit_kzalloc(test, struct_size(sc, member, 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	sc->geom.members = 1;
	sc->stats = true;
	m = &sc->member[0];
	m->stats = alloc_percpu(struct ssdstripe_stats);
	KUNIT_ASSERT_NOT_NULL(test, m->stats);

	bio_init(&bio, NULL, NULL, 0, c->opf);
	bio.bi_iter.bi_size = c->bytes;
	ssdstripe_account_start(sc, &io, &bio, 0);
	KUNIT_EXPECT_EQ(test, STALL_SUM(m, inflight), 1);
	KUNIT_EXPECT_EQ(test, STALL_SUM(m, rw_inflight), c->inflight);
	/* The block layer may clear REQ_POLLED before it completes. */
	ssdstripe_account_end(sc, &io, c->opf & ~REQ_POLLED, c->status);
	KUNIT_EXPECT_EQ(test, STALL_SUM(m, inflight), 0);
	KUNIT_EXPECT_EQ(test, STALL_SUM(m, rw_inflight), 0);
	KUNIT_EXPECT_EQ(test, (u64)STALL_SUM(m, rw_ended), c->ended);

	free_percpu(m->stats);
}

/* --- classification of completions ------------------------------------- */

struct ssdstripe_class_case {
	const char *what;
	blk_status_t status;
	blk_opf_t opf;
	enum ssdstripe_err_class expected;
};

static const struct ssdstripe_class_case ssdstripe_class_cases[] = {
	{ "OK read", BLK_STS_OK, REQ_OP_READ, SSDSTRIPE_ERR_NONE },
	{ "OK read-ahead", BLK_STS_OK, REQ_OP_READ | REQ_RAHEAD,
	  SSDSTRIPE_ERR_NONE },
	{ "AGAIN nowait read", BLK_STS_AGAIN, REQ_OP_READ | REQ_NOWAIT,
	  SSDSTRIPE_ERR_RETRY },
	{ "AGAIN polled write", BLK_STS_AGAIN, REQ_OP_WRITE | REQ_POLLED,
	  SSDSTRIPE_ERR_RETRY },
	{ "AGAIN read-ahead", BLK_STS_AGAIN, REQ_OP_READ | REQ_RAHEAD,
	  SSDSTRIPE_ERR_IGNORED },
	{ "AGAIN nowait read-ahead", BLK_STS_AGAIN,
	  REQ_OP_READ | REQ_RAHEAD | REQ_NOWAIT, SSDSTRIPE_ERR_RETRY },
	{ "AGAIN plain read", BLK_STS_AGAIN, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "AGAIN plain write", BLK_STS_AGAIN, REQ_OP_WRITE,
	  SSDSTRIPE_ERR_ERROR },
	{ "NOTSUPP discard", BLK_STS_NOTSUPP, REQ_OP_DISCARD,
	  SSDSTRIPE_ERR_IGNORED },
	{ "NOTSUPP write-zeroes", BLK_STS_NOTSUPP, REQ_OP_WRITE_ZEROES,
	  SSDSTRIPE_ERR_IGNORED },
	{ "IOERR read", BLK_STS_IOERR, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "IOERR read-ahead", BLK_STS_IOERR, REQ_OP_READ | REQ_RAHEAD,
	  SSDSTRIPE_ERR_IGNORED },
	{ "IOERR write", BLK_STS_IOERR, REQ_OP_WRITE, SSDSTRIPE_ERR_ERROR },
	{ "IOERR flush", BLK_STS_IOERR, REQ_OP_WRITE | REQ_PREFLUSH,
	  SSDSTRIPE_ERR_ERROR },
	{ "IOERR nowait", BLK_STS_IOERR, REQ_OP_READ | REQ_NOWAIT,
	  SSDSTRIPE_ERR_ERROR },
	{ "TIMEOUT read", BLK_STS_TIMEOUT, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "TIMEOUT read-ahead", BLK_STS_TIMEOUT, REQ_OP_READ | REQ_RAHEAD,
	  SSDSTRIPE_ERR_IGNORED },
	{ "MEDIUM read", BLK_STS_MEDIUM, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "TRANSPORT write", BLK_STS_TRANSPORT, REQ_OP_WRITE,
	  SSDSTRIPE_ERR_ERROR },
	{ "OFFLINE read", BLK_STS_OFFLINE, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "NOSPC write", BLK_STS_NOSPC, REQ_OP_WRITE, SSDSTRIPE_ERR_ERROR },
	{ "TARGET write", BLK_STS_TARGET, REQ_OP_WRITE, SSDSTRIPE_ERR_ERROR },
	{ "TARGET read", BLK_STS_TARGET, REQ_OP_READ, SSDSTRIPE_ERR_ERROR },
	{ "TARGET discard", BLK_STS_TARGET, REQ_OP_DISCARD,
	  SSDSTRIPE_ERR_IGNORED },
	{ "TARGET write-zeroes", BLK_STS_TARGET, REQ_OP_WRITE_ZEROES,
	  SSDSTRIPE_ERR_IGNORED },
	{ "TARGET secure erase", BLK_STS_TARGET, REQ_OP_SECURE_ERASE,
	  SSDSTRIPE_ERR_IGNORED },
	{ "PROTECTION read", BLK_STS_PROTECTION, REQ_OP_READ,
	  SSDSTRIPE_ERR_ERROR },
	{ "RESOURCE write", BLK_STS_RESOURCE, REQ_OP_WRITE,
	  SSDSTRIPE_ERR_ERROR },
};

static void ssdstripe_class_desc(const struct ssdstripe_class_case *c,
				 char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->what);
}

KUNIT_ARRAY_PARAM(ssdstripe_class, ssdstripe_class_cases, ssdstripe_class_desc);

static void ssdstripe_classify_test(struct kunit *test)
{
	const struct ssdstripe_class_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ssdstripe_classify(c->status, c->opf),
			c->expected);
}

struct ssdstripe_bucket_case {
	u64 us;
	unsigned int bucket;
};

static const struct ssdstripe_bucket_case ssdstripe_bucket_cases[] = {
	{ 0, 0 }, { 16, 0 }, { 17, 1 }, { 32, 1 }, { 33, 2 }, { 1000, 6 },
	{ 1024, 6 }, { 1025, 7 }, { 1048576, 16 }, { 1048577, 17 },
	{ U64_MAX, 17 },
};

static void ssdstripe_bucket_desc(const struct ssdstripe_bucket_case *c,
				  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu us", c->us);
}

KUNIT_ARRAY_PARAM(ssdstripe_bucket, ssdstripe_bucket_cases,
		  ssdstripe_bucket_desc);

static void ssdstripe_hist_bucket_test(struct kunit *test)
{
	const struct ssdstripe_bucket_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ssdstripe_hist_bucket(c->us), c->bucket);
}

/* --- a reloaded table takes over what the old one knew ------------------ */

/* A table of @n members over @devs at @offs, as the constructor leaves it. */
static struct ssdstripe_c *ssdstripe_test_table(struct kunit *test, unsigned int n,
						struct dm_dev **devs,
						const sector_t *offs)
{
	struct ssdstripe_c *sc;
	unsigned int i;

	sc = kunit_kzalloc(test, struct_size(sc, member, n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	sc->geom.members = n;
	sc->next = kunit_kcalloc(test, n, sizeof(*sc->next), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc->next);
	mutex_init(&sc->health_lock);
	seqcount_mutex_init(&sc->state_seq, &sc->health_lock);
	for (i = 0; i < n; i++) {
		sc->member[i].dev = devs[i];
		sc->member[i].offset = offs[i];
		sc->member[i].stats = alloc_percpu(struct ssdstripe_stats);
		KUNIT_ASSERT_NOT_NULL(test, sc->member[i].stats);
	}
	return sc;
}

static void ssdstripe_test_table_free(struct ssdstripe_c *sc)
{
	unsigned int i;

	for (i = 0; i < sc->geom.members; i++)
		free_percpu(sc->member[i].stats);
}

/*
 * The old table: member 0 stalled (twice now), member 1 erroring.  The new
 * one keeps member 0 where it was, has member 1's device at another
 * offset, and a device new to the array.  Member 0 keeps its counters,
 * errors and count of stalls but not the wait; the moved and the new
 * member start afresh; nothing reads stalled, the array is ok.
 */
static void ssdstripe_inherit_test(struct kunit *test)
{
	static char bdev_tags[3];
	struct dm_dev *d = kunit_kcalloc(test, 3, sizeof(*d), GFP_KERNEL);
	struct dm_dev *old_devs[2], *new_devs[3];
	const sector_t old_offs[] = { 0, 0 }, new_offs[] = { 0, 2048, 0 };
	const sector_t same_offs[] = { 0, 0, 0 };
	struct ssdstripe_c *old, *sc;
	struct ssdstripe_member *om;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	/* Distinct bdev pointers: inherit only compares them. */
	for (i = 0; i < 3; i++)
		d[i].bdev = (struct block_device *)&bdev_tags[i];
	old_devs[0] = &d[0];
	old_devs[1] = &d[1];
	new_devs[0] = &d[0];
	new_devs[1] = &d[1];
	new_devs[2] = &d[2];
	old = ssdstripe_test_table(test, 2, old_devs, old_offs);
	sc = ssdstripe_test_table(test, 3, new_devs, new_offs);

	om = &old->member[0];
	per_cpu_ptr(om->stats, 0)->ok = 1000;
	per_cpu_ptr(om->stats, 0)->rw_ended = 990;
	om->health.watching = true;
	om->health.waiting_ms = 6000;
	om->health.stalled = true;
	om->health.stalls = 2;
	om->health.state = SSDSTRIPE_STALLED;
	om->state = SSDSTRIPE_STALLED;
	om = &old->member[1];
	atomic_set(&om->error_events, 3);
	per_cpu_ptr(om->stats, 0)->failed = 3;
	om->health.err = SSDSTRIPE_ERRLVL_ERRORING;
	om->health.state = SSDSTRIPE_ERRORING;
	om->state = SSDSTRIPE_ERRORING;
	old->array_state = SSDSTRIPE_STALLED;

	ssdstripe_inherit(sc, old);

	KUNIT_EXPECT_EQ(test, per_cpu_ptr(sc->member[0].stats, 0)->ok, 1000);
	KUNIT_EXPECT_EQ(test, per_cpu_ptr(sc->member[0].stats, 0)->rw_ended, 990);
	KUNIT_EXPECT_EQ(test, sc->member[0].stalls, 2);
	KUNIT_EXPECT_EQ(test, sc->member[0].health.stalls, 2);
	KUNIT_EXPECT_FALSE(test, sc->member[0].health.stalled);
	KUNIT_EXPECT_FALSE(test, sc->member[0].health.watching);
	KUNIT_EXPECT_EQ(test, sc->member[0].waiting_ms, 0);
	KUNIT_EXPECT_EQ(test, sc->member[0].state, SSDSTRIPE_OK);
	for (i = 1; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, sc->member[i].state, SSDSTRIPE_OK);
		KUNIT_EXPECT_EQ(test, atomic_read(&sc->member[i].error_events), 0);
		KUNIT_EXPECT_EQ(test, per_cpu_ptr(sc->member[i].stats, 0)->failed, 0);
	}
	KUNIT_EXPECT_EQ(test, sc->array_state, SSDSTRIPE_OK);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, sc->next[i].state, sc->member[i].state);

	/* The erroring member at its old offset keeps its errors. */
	ssdstripe_test_table_free(sc);
	sc = ssdstripe_test_table(test, 3, new_devs, same_offs);
	ssdstripe_inherit(sc, old);
	KUNIT_EXPECT_EQ(test, sc->member[1].state, SSDSTRIPE_ERRORING);
	KUNIT_EXPECT_EQ(test, atomic_read(&sc->member[1].error_events), 3);
	KUNIT_EXPECT_EQ(test, sc->array_state, SSDSTRIPE_ERRORING);
	ssdstripe_test_table_free(sc);
	ssdstripe_test_table_free(old);
}

static struct kunit_case ssdstripe_health_test_cases[] = {
	KUNIT_CASE(ssdstripe_health_slow_onset_test),
	KUNIT_CASE(ssdstripe_inherit_test),
	KUNIT_CASE(ssdstripe_health_recovery_test),
	KUNIT_CASE(ssdstripe_health_flapping_test),
	KUNIT_CASE(ssdstripe_health_idle_test),
	KUNIT_CASE(ssdstripe_health_peers_test),
	KUNIT_CASE(ssdstripe_health_errors_test),
	KUNIT_CASE(ssdstripe_health_one_error_test),
	KUNIT_CASE(ssdstripe_health_failed_test),
	KUNIT_CASE(ssdstripe_health_share_test),
	KUNIT_CASE(ssdstripe_health_zero_median_test),
	KUNIT_CASE(ssdstripe_health_light_recovery_test),
	KUNIT_CASE(ssdstripe_health_idle_slow_test),
	KUNIT_CASE(ssdstripe_health_uneven_load_test),
	KUNIT_CASE(ssdstripe_health_clear_keeps_slow_test),
	KUNIT_CASE(ssdstripe_health_alone_recovery_test),
	KUNIT_CASE(ssdstripe_health_stall_test),
	KUNIT_CASE(ssdstripe_health_stall_rank_test),
	KUNIT_CASE(ssdstripe_health_stall_age_test),
	KUNIT_CASE(ssdstripe_health_unstall_test),
	KUNIT_CASE_PARAM(ssdstripe_stall_accounting_test,
			 ssdstripe_stall_acct_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_classify_test, ssdstripe_class_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_hist_bucket_test, ssdstripe_bucket_gen_params),
	{}
};

static struct kunit_suite ssdstripe_health_suite = {
	.name = "dm_ssdstripe_health",
	.test_cases = ssdstripe_health_test_cases,
};

kunit_test_suite(ssdstripe_health_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: member health");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
