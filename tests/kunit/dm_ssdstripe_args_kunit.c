// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_args: the parsing of table lines, accepted and
 * refused with the error dm reports, and of every tunable: its value, its
 * bounds and its default.
 *
 * ssdstripe_parse_params(), ssdstripe_find_tunable(),
 * ssdstripe_thresholds_default() and the ssdstripe_tunables[] table in
 * ssdstripe-target.c are static but for KUnit (VISIBLE_IF_KUNIT,
 * EXPORT_SYMBOL_IF_KUNIT).
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdstripe.h"

struct ssdstripe_args_case {
	const char *line;
	u64 len;
	const char *error;		/* NULL: accepted */
	unsigned int members;
	unsigned int chunk;
	bool no_discard_passdown;
	bool no_stats;
	unsigned int slow_factor;	/* 0: the default */
};

static const struct ssdstripe_args_case ssdstripe_args_cases[] = {
	/* accepted: every "striped" table, plus features */
	{ "1 8 /dev/a 0", 64, NULL, 1, 8, false },
	{ "2 8 /dev/a 0 /dev/b 2048", 64, NULL, 2, 8, false },
	{ "3 24 a 0 b 8 c 16", 3 * 24 * 5, NULL, 3, 24, false },
	{ "1 8 /dev/a 18446744073709551615", 8, NULL, 1, 8, false },
	{ "1 8 /dev/a 0 0", 64, NULL, 1, 8, false },
	{ "1 8 /dev/a 0 1 no_discard_passdown", 64, NULL, 1, 8, true },
	{ "2 8 a 0 b 0 1 NO_DISCARD_PASSDOWN", 64, NULL, 2, 8, true },
	{ "1 8 a 0 1 no_stats", 64, NULL, 1, 8, false, true },
	{ "1 8 a 0 2 slow_factor 6", 64, NULL, 1, 8, false, false, 6 },
	{ "1 8 a 0 5 no_stats slow_factor 9 min_ios 4", 64, NULL, 1, 8, false,
	  true, 9 },
	{ "1 8 a 0 8 health_window_ms 500 slow_factor 3 slow_windows 2 min_ios 1",
	  64, NULL, 1, 8, false, false, 3 },
	{ "1 8 a 0 4 slow_min_latency_us 0 recover_windows 5", 64, NULL, 1, 8 },
	{ "1 8 a 0 4 health_window_ms 10000 stall_ms 10000", 64, NULL, 1, 8 },
	{ "1 8 a 0 4 stall_ms 0 health_window_ms 60000", 64, NULL, 1, 8 },
	{ "1 8 a 0 2 stall_ms 1000", 64, NULL, 1, 8 },
	{ "1 8 a 0 3 no_stats health_window_ms 10000", 64, NULL, 1, 8, false,
	  true },
	{ "1 8 a 0 3 no_stats stall_ms 0", 64, NULL, 1, 8, false, true },
	/* refused */
	{ "", 64, "Not enough arguments" },
	{ "1", 64, "Not enough arguments" },
	{ "0 8", 64, "Invalid member count" },
	{ "0 8 /dev/a 0", 64, "Invalid member count" },
	{ "-1 8 /dev/a 0", 64, "Invalid member count" },
	{ "two 8 /dev/a 0", 64, "Invalid member count" },
	{ "1x 8 /dev/a 0", 64, "Invalid member count" },
	{ "4294967296 8 /dev/a 0", 64, "Invalid member count" },
	{ "1 0 /dev/a 0", 64, "Invalid chunk size" },
	{ "1 -8 /dev/a 0", 64, "Invalid chunk size" },
	{ "1 8k /dev/a 0", 64, "Invalid chunk size" },
	{ "1 4294967296 /dev/a 0", 64, "Invalid chunk size" },
	{ "1 8", 64, "Not enough destinations specified" },
	{ "2 8 /dev/a 0", 64, "Not enough destinations specified" },
	{ "2 8 /dev/a 0 /dev/b", 64, "Not enough destinations specified" },
	{ "4294967295 8 /dev/a 0", 64, "Not enough destinations specified" },
	{ "1 8 /dev/a x", 64, "Invalid device offset" },
	{ "1 8 /dev/a -1", 64, "Invalid device offset" },
	{ "1 8 /dev/a 0x10", 64, "Invalid device offset" },
	{ "1 8 /dev/a 12abc", 64, "Invalid device offset" },
	{ "1 8 /dev/a 18446744073709551616", 64, "Invalid device offset" },
	{ "2 8 a 0 b 99999999999999999999999", 64, "Invalid device offset" },
	{ "3 8 a 0 b 0 c 0", 64, "Target length not divisible by number of members" },
	{ "1 8 /dev/a 0", 60, "Target length not divisible by chunk size" },
	{ "3 24 a 0 b 0 c 0", 3 * 20, "Target length not divisible by chunk size" },
	{ "1 8 /dev/a 0 1", 64, "Invalid number of feature arguments" },
	{ "1 8 /dev/a 0 -1", 64, "Invalid number of feature arguments" },
	{ "1 8 /dev/a 0 x", 64, "Invalid number of feature arguments" },
	{ "1 8 /dev/a 0 17 a b c d e f g h i j k l m n o p q", 64,
	  "Invalid number of feature arguments" },
	{ "1 8 /dev/a 0 4294967297 no_discard_passdown", 64,
	  "Invalid number of feature arguments" },
	{ "1 8 /dev/a 0 1 discard_passdown", 64, "Unrecognised feature argument" },
	{ "1 8 /dev/a 0 2 no_discard_passdown no_discard_passdown", 64,
	  "Duplicate no_discard_passdown argument" },
	{ "1 8 /dev/a 0 1 no_discard_passdown extra", 64, "Too many arguments" },
	{ "1 8 a 0 2 no_stats no_stats", 64, "Duplicate no_stats argument" },
	{ "1 8 a 0 1 slow_factor", 64, "Invalid slow_factor value" },
	{ "1 8 a 0 2 slow_factor 1", 64, "Invalid slow_factor value" },
	{ "1 8 a 0 2 slow_factor x", 64, "Invalid slow_factor value" },
	{ "1 8 a 0 2 slow_factor -4", 64, "Invalid slow_factor value" },
	{ "1 8 a 0 2 slow_factor 4294967300", 64, "Invalid slow_factor value" },
	{ "1 8 a 0 2 health_window_ms 99", 64, "Invalid health_window_ms value" },
	{ "1 8 a 0 2 min_ios 0", 64, "Invalid min_ios value" },
	{ "1 8 a 0 4 slow_windows 2 slow_windows 3", 64,
	  "Duplicate health threshold argument" },
	{ "1 8 /dev/a 0 0 extra", 64, "Too many arguments" },
	/* a stall is measured a window at a time: none shorter is refused */
	{ "1 8 a 0 2 health_window_ms 10000", 64,
	  "stall_ms shorter than health_window_ms" },
	{ "1 8 a 0 4 stall_ms 9999 health_window_ms 10000", 64,
	  "stall_ms shorter than health_window_ms" },
	{ "1 8 a 0 2 stall_ms 999", 64, "stall_ms shorter than health_window_ms" },
	{ "1 8 a 0 3 no_stats stall_ms 5000", 64,
	  "Cannot measure stall_ms with no_stats" },
	{ "1 8 a 0 3 stall_ms 6000 no_stats", 64,
	  "Cannot measure stall_ms with no_stats" },
};

static void ssdstripe_args_desc(const struct ssdstripe_args_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "'%s' len %llu", c->line, c->len);
}

KUNIT_ARRAY_PARAM(ssdstripe_args, ssdstripe_args_cases, ssdstripe_args_desc);

static void ssdstripe_args_test(struct kunit *test)
{
	const struct ssdstripe_args_case *c = test->param_value;
	struct ssdstripe_params p;
	char *error = NULL;
	unsigned int i;
	char **argv;
	int argc, r;
	u64 offset;

	argv = argv_split(GFP_KERNEL, c->line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);

	r = ssdstripe_parse_params(argc, argv, c->len, &p, &error);
	if (c->error) {
		KUNIT_EXPECT_EQ(test, r, -EINVAL);
		KUNIT_EXPECT_STREQ(test, error ?: "(none)", c->error);
	} else {
		KUNIT_EXPECT_EQ(test, r, 0);
		KUNIT_EXPECT_PTR_EQ(test, error, NULL);
		KUNIT_EXPECT_EQ(test, p.members, c->members);
		KUNIT_EXPECT_EQ(test, p.chunk, c->chunk);
		KUNIT_EXPECT_EQ(test, p.no_discard_passdown,
				c->no_discard_passdown);
		KUNIT_EXPECT_EQ(test, p.no_stats, c->no_stats);
		KUNIT_EXPECT_EQ(test, p.thr.slow_factor,
				c->slow_factor ?: 4U);
		KUNIT_EXPECT_PTR_EQ(test, p.member_argv, argv + 2);
		/* Each member's own offset, parsed once for the ctr. */
		KUNIT_EXPECT_NOT_NULL(test, p.offset);
		for (i = 0; p.offset && i < p.members; i++) {
			offset = 0;
			KUNIT_EXPECT_EQ(test, kstrtoull(argv[3 + 2 * i], 10,
							&offset), 0);
			KUNIT_EXPECT_EQ_MSG(test, (u64)p.offset[i], offset,
					    "member %u", i);
		}
	}

	kfree(p.offset);
	argv_free(argv);
}

/* --- every tunable, parsed --------------------------------------------- */

struct ssdstripe_tunable_case {
	const char *name;
	const char *value;
	unsigned int expected;
};

static const struct ssdstripe_tunable_case ssdstripe_tunable_cases[] = {
	{ "health_window_ms", "100", 100 },
	{ "health_window_ms", "60000", 60000 },
	{ "slow_factor", "2", 2 },
	{ "SLOW_FACTOR", "1000", 1000 },
	{ "slow_min_latency_us", "0", 0 },
	{ "slow_min_latency_us", "10000000", 10000000 },
	{ "slow_windows", "1", 1 },
	{ "slow_windows", "1000", 1000 },
	{ "recover_windows", "1", 1 },
	{ "recover_windows", "7", 7 },
	{ "min_ios", "1", 1 },
	{ "min_ios", "1000000", 1000000 },
	{ "fail_windows", "1", 1 },
	{ "fail_windows", "1000", 1000 },
	{ "stall_ms", "0", 0 },
	{ "stall_ms", "3600000", 3600000 },
};

static void ssdstripe_tunable_desc(const struct ssdstripe_tunable_case *c,
				   char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s", c->name, c->value);
}

KUNIT_ARRAY_PARAM(ssdstripe_tunable, ssdstripe_tunable_cases,
		  ssdstripe_tunable_desc);

/* The tunable given takes its value; every other keeps its default. */
static void ssdstripe_tunable_test(struct kunit *test)
{
	const struct ssdstripe_tunable_case *c = test->param_value;
	const struct ssdstripe_tunable *tu, *given;
	struct ssdstripe_params p;
	char line[96], *error = NULL, **argv;
	unsigned int i, too_big;
	int argc, r;
	bool stall;

	given = ssdstripe_find_tunable(c->name);
	KUNIT_ASSERT_NOT_NULL(test, given);

	/*
	 * Without accounting a long window needs no long stall_ms; stall_ms
	 * itself needs accounting.
	 */
	stall = !strcmp(given->name, "stall_ms");
	snprintf(line, sizeof(line), "2 8 a 0 b 0 3 %s %s %s",
		 stall ? "no_discard_passdown" : "no_stats", c->name, c->value);
	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	r = ssdstripe_parse_params(argc, argv, 64, &p, &error);
	argv_free(argv);
	kfree(p.offset);
	KUNIT_ASSERT_EQ_MSG(test, r, 0, "%s", error ?: "");
	KUNIT_EXPECT_EQ(test, p.no_stats, !stall);

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++) {
		tu = &ssdstripe_tunables[i];
		KUNIT_EXPECT_EQ_MSG(test, *ssdstripe_tunable_ptr(&p.thr, tu),
				    tu == given ? c->expected : tu->def,
				    "%s", tu->name);
	}

	/* One past either bound is refused with the tunable's own error. */
	too_big = given->max + 1;
	snprintf(line, sizeof(line), "1 8 a 0 2 %s %u", c->name, too_big);
	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	r = ssdstripe_parse_params(argc, argv, 64, &p, &error);
	argv_free(argv);
	kfree(p.offset);
	KUNIT_EXPECT_EQ(test, r, -EINVAL);
	KUNIT_EXPECT_STREQ(test, error, given->error);
	if (given->min) {
		snprintf(line, sizeof(line), "1 8 a 0 2 %s %u", c->name,
			 given->min - 1);
		argv = argv_split(GFP_KERNEL, line, &argc);
		KUNIT_ASSERT_NOT_NULL(test, argv);
		r = ssdstripe_parse_params(argc, argv, 64, &p, &error);
		argv_free(argv);
		kfree(p.offset);
		KUNIT_EXPECT_EQ(test, r, -EINVAL);
		KUNIT_EXPECT_STREQ(test, error, given->error);
	}
}

/*
 * A threshold changed by message is checked against the others as a table
 * line is: no stall_ms shorter than a window, in either order, and no
 * stall_ms without accounting.
 */
static void ssdstripe_message_tunable_test(struct kunit *test)
{
	const struct ssdstripe_tunable *win, *stall;
	struct ssdstripe_c *sc;

	win = ssdstripe_find_tunable("health_window_ms");
	stall = ssdstripe_find_tunable("stall_ms");
	KUNIT_ASSERT_NOT_NULL(test, win);
	KUNIT_ASSERT_NOT_NULL(test, stall);
	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	mutex_init(&sc->health_lock);
	ssdstripe_thresholds_default(&sc->thr);
	sc->stats = true;

	KUNIT_EXPECT_STREQ(test, ssdstripe_message_tunable(sc, stall, "999"),
			   "stall_ms shorter than health_window_ms");
	KUNIT_EXPECT_STREQ(test, ssdstripe_message_tunable(sc, win, "5001"),
			   "stall_ms shorter than health_window_ms");
	KUNIT_EXPECT_STREQ(test, ssdstripe_message_tunable(sc, stall, "x"),
			   "Invalid stall_ms value");
	KUNIT_EXPECT_EQ(test, sc->thr.window_ms, 1000U);
	KUNIT_EXPECT_EQ(test, sc->thr.stall_ms, 5000U);
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, win, "5000"));
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, stall, "0"));
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, win, "10000"));
	KUNIT_EXPECT_STREQ(test, ssdstripe_message_tunable(sc, stall, "9999"),
			   "stall_ms shorter than health_window_ms");
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, stall, "10000"));
	KUNIT_EXPECT_EQ(test, sc->thr.window_ms, 10000U);
	KUNIT_EXPECT_EQ(test, sc->thr.stall_ms, 10000U);

	sc->stats = false;
	KUNIT_EXPECT_STREQ(test, ssdstripe_message_tunable(sc, stall, "20000"),
			   "Cannot measure stall_ms with no_stats");
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, win, "60000"));
	KUNIT_EXPECT_NULL(test, ssdstripe_message_tunable(sc, stall, "0"));
	mutex_destroy(&sc->health_lock);
}

/* The defaults, as documented in the admin guide. */
static void ssdstripe_tunable_defaults_test(struct kunit *test)
{
	struct ssdstripe_thresholds t;

	ssdstripe_thresholds_default(&t);
	KUNIT_EXPECT_EQ(test, t.window_ms, 1000U);
	KUNIT_EXPECT_EQ(test, t.slow_factor, 4U);
	KUNIT_EXPECT_EQ(test, t.slow_min_latency_us, 200U);
	KUNIT_EXPECT_EQ(test, t.slow_windows, 3U);
	KUNIT_EXPECT_EQ(test, t.recover_windows, 3U);
	KUNIT_EXPECT_EQ(test, t.min_ios, 16U);
	KUNIT_EXPECT_EQ(test, t.fail_windows, 3U);
	KUNIT_EXPECT_EQ(test, t.stall_ms, 5000U);
}

static struct kunit_case ssdstripe_args_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_args_test, ssdstripe_args_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_tunable_test, ssdstripe_tunable_gen_params),
	KUNIT_CASE(ssdstripe_tunable_defaults_test),
	KUNIT_CASE(ssdstripe_message_tunable_test),
	{}
};

static struct kunit_suite ssdstripe_args_suite = {
	.name = "dm_ssdstripe_args",
	.test_cases = ssdstripe_args_test_cases,
};

kunit_test_suite(ssdstripe_args_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: table parsing");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
