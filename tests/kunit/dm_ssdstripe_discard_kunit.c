// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_discard: the split of a discard or write-zeroes
 * range into one share per member, the scaled per-array limits, and
 * io_hints' stacking of the members' queue limits.
 *
 * The range and limit arithmetic is static inline in ssdstripe-geom.h;
 * ssdstripe_stack_limits() in ssdstripe-target.c is static but for KUnit
 * (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT).
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "dm_ssdstripe_kunit.h"

struct ssdstripe_range_case {
	const char *what;
	unsigned int members;
	unsigned int chunk;
	u64 start;
	u64 len;
};

static const struct ssdstripe_range_case ssdstripe_range_cases[] = {
	{ "inside one chunk", 4, 8, 2, 5 },
	{ "one whole chunk", 4, 8, 8, 8 },
	{ "two members partly", 4, 8, 6, 4 },
	{ "less than a stripe", 5, 24, 30, 40 },
	{ "exactly one stripe", 3, 8, 0, 24 },
	{ "unaligned both edges", 4, 8, 3, 70 },
	{ "unaligned, non-pow2", 3, 24, 17, 500 },
	{ "unaligned, 7 members", 7, 5, 33, 211 },
	{ "whole device", 4, 8, 0, 4 * 8 * 10 },
	{ "whole device, non-pow2", 6, 12, 0, 6 * 12 * 7 },
	{ "tail of device", 3, 16, 100, 3 * 16 * 5 - 100 },
	{ "single member", 1, 8, 5, 100 },
	{ "single sector", 8, 16, 77, 1 },
	{ "skips members", 8, 16, 16, 16 },
	{ "chunk of one sector", 4, 1, 3, 9 },
	{ "large chunks", 2, 2048, 1000, 5000 },
};

static void ssdstripe_range_desc(const struct ssdstripe_range_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (%u x %u, %llu+%llu)", c->what,
		 c->members, c->chunk, c->start, c->len);
}

KUNIT_ARRAY_PARAM(ssdstripe_range, ssdstripe_range_cases, ssdstripe_range_desc);

/*
 * Reference model: map every sector of the range on its own and collect,
 * per member, the lowest and highest sector touched and how many.
 */
static void ssdstripe_range_test(struct kunit *test)
{
	const struct ssdstripe_range_case *c = test->param_value;
	u64 lo[16], hi[16], count[16] = { 0 };
	unsigned int m, ref_m;
	struct ssdstripe_geom g;
	sector_t begin, end;
	u64 s, r, shares = 0;
	bool has;

	ssdstripe_geom_init(&g, c->members, c->chunk);

	for (s = c->start; s < c->start + c->len; s++) {
		ssdstripe_ref_map(c->members, c->chunk, s, &ref_m, &r);
		if (!count[ref_m] || r < lo[ref_m])
			lo[ref_m] = r;
		if (!count[ref_m] || r > hi[ref_m])
			hi[ref_m] = r;
		count[ref_m]++;
	}

	for (m = 0; m < c->members; m++) {
		has = ssdstripe_member_range(&g, c->start, c->len, m, &begin, &end);
		KUNIT_EXPECT_EQ_MSG(test, has, count[m] != 0, "member %u", m);
		if (!count[m])
			continue;
		/* One contiguous piece per member: no holes in the share. */
		KUNIT_EXPECT_EQ_MSG(test, hi[m] - lo[m] + 1, count[m],
				    "member %u", m);
		KUNIT_EXPECT_EQ_MSG(test, (u64)begin, lo[m], "member %u", m);
		KUNIT_EXPECT_EQ_MSG(test, (u64)end, hi[m] + 1, "member %u", m);
		shares += end - begin;
	}
	KUNIT_EXPECT_EQ(test, shares, c->len);
}

struct ssdstripe_limit_case {
	unsigned int members;
	unsigned int chunk;
	unsigned int member_max;
	unsigned int expected;
};

static const struct ssdstripe_limit_case ssdstripe_limit_cases[] = {
	{ 1, 8, 1024, 1024 },			/* one member: unchanged */
	{ 4, 8, 0, 0 },				/* no discard stays off */
	{ 4, 8, 1024, 4096 },
	{ 4, 128, 1000, 3584 },			/* rounded down to chunks */
	{ 3, 24, 8388607, 25165800 },
	{ 4, 2048, 1024, 1024 },		/* limit below a chunk */
	{ 8, 8, UINT_MAX, UINT_MAX },		/* capped: never below a member */
	{ 3, 1U << 30, UINT_MAX, UINT_MAX },
	{ 3, 1U << 28, 0x60000000U, 0xF0000000U },	/* capped, whole stripes */
	{ 5, 24, UINT_MAX / 2, 4294967280U },
	/* a stripe larger than UINT_MAX: never 0, the member's own limit */
	{ 2, 0x80000000U, UINT_MAX, UINT_MAX },
	{ 4, 3U << 29, UINT_MAX, UINT_MAX },
	{ 3, 0x60000000U, 0x70000000U, 0x70000000U },
	{ 16, 1U << 28, 1U << 29, 1U << 29 },
	/* overflow with a capped result below the member's limit */
	{ 3, 0x50000000U, 0xF0000000U, 0xF0000000U },
	{ 1, 0x80000000U, UINT_MAX, UINT_MAX },	/* one member, huge chunk */
	{ 4, 8, 7, 7 },				/* limit below one chunk */
};

static void ssdstripe_limit_desc(const struct ssdstripe_limit_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u x chunk %u, member limit %u",
		 c->members, c->chunk, c->member_max);
}

KUNIT_ARRAY_PARAM(ssdstripe_limit, ssdstripe_limit_cases, ssdstripe_limit_desc);

/* The scaled limit never hands a member more than its own limit. */
static void ssdstripe_limit_test(struct kunit *test)
{
	const struct ssdstripe_limit_case *c = test->param_value;
	struct ssdstripe_geom g;
	unsigned int limit, m;
	sector_t begin, end;
	u64 start;

	ssdstripe_geom_init(&g, c->members, c->chunk);
	limit = ssdstripe_scaled_limit(&g, c->member_max);
	KUNIT_EXPECT_EQ(test, limit, c->expected);
	if (!limit)
		return;

	KUNIT_EXPECT_GE(test, limit, c->member_max);
	for (start = 0;
	     start < min_t(u64, 3ULL * c->members * c->chunk, 100000);
	     start += 5) {
		for (m = 0; m < c->members; m++) {
			if (!ssdstripe_member_range(&g, start, limit, m, &begin,
						    &end))
				continue;
			KUNIT_EXPECT_LE_MSG(test, (u64)(end - begin),
					    (u64)c->member_max,
					    "start %llu member %u", start, m);
		}
	}
}

/*
 * io_hints as a whole: from member limits as dm stacks them (a member with
 * its own chunk_sectors, 1 MiB discards, 512 KiB write-zeroes), the array
 * advertises no chunk_sectors, the geometry in io_min/io_opt, and N times
 * the member maxima in whole chunks; without passdown, no discard at all.
 */
static void ssdstripe_stack_limits_test(struct kunit *test)
{
	struct ssdstripe_geom g;
	struct queue_limits lim;
	bool passdown;
	int i;

	for (i = 0; i < 2; i++) {
		passdown = i;
		memset(&lim, 0, sizeof(lim));
		lim.chunk_sectors = 256;
		lim.max_discard_sectors = 2048;
		lim.max_hw_discard_sectors = 2048;
		lim.discard_granularity = 4096;
		lim.max_write_zeroes_sectors = 1024;
		lim.max_secure_erase_sectors = 0;
		ssdstripe_geom_init(&g, 3, 24);
		ssdstripe_stack_limits(&g, passdown, &lim);

		KUNIT_EXPECT_EQ(test, lim.chunk_sectors, 0U);
		KUNIT_EXPECT_EQ(test, lim.io_min, 24U * 512);
		KUNIT_EXPECT_EQ(test, lim.io_opt, 3U * 24 * 512);
		/* 1024 - 1024 % 24 = 1008 sectors a member */
		KUNIT_EXPECT_EQ(test, lim.max_write_zeroes_sectors, 3U * 1008);
		/* a limit a member does not have stays off */
		KUNIT_EXPECT_EQ(test, lim.max_secure_erase_sectors, 0U);
		if (!passdown) {
			KUNIT_EXPECT_EQ(test, lim.max_discard_sectors, 0U);
			KUNIT_EXPECT_EQ(test, lim.max_hw_discard_sectors, 0U);
			KUNIT_EXPECT_EQ(test, lim.discard_granularity, 0U);
			continue;
		}
		/* 2048 - 2048 % 24 = 2040 sectors a member */
		KUNIT_EXPECT_EQ(test, lim.max_discard_sectors, 3U * 2040);
		KUNIT_EXPECT_EQ(test, lim.max_hw_discard_sectors, 3U * 2040);
		KUNIT_EXPECT_EQ(test, lim.discard_granularity, 4096U);
	}

	/* A chunk so large that io_min overflows leaves io_min/io_opt alone. */
	memset(&lim, 0, sizeof(lim));
	lim.io_min = 4096;
	ssdstripe_geom_init(&g, 2, 1U << 23);
	ssdstripe_stack_limits(&g, true, &lim);
	KUNIT_EXPECT_EQ(test, lim.io_min, 4096U);
	KUNIT_EXPECT_EQ(test, lim.io_opt, 0U);
}

static struct kunit_case ssdstripe_discard_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_range_test, ssdstripe_range_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_limit_test, ssdstripe_limit_gen_params),
	KUNIT_CASE(ssdstripe_stack_limits_test),
	{}
};

static struct kunit_suite ssdstripe_discard_suite = {
	.name = "dm_ssdstripe_discard",
	.test_cases = ssdstripe_discard_test_cases,
};

kunit_test_suite(ssdstripe_discard_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: discard and write-zeroes");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
