// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for dm-ssdstripe's pure logic: sector mapping, the split of
 * a discard range into one share per member, scaled discard limits, table
 * parsing and every tunable, the classification of completions, and the
 * member health state machine driven by synthetic windows.
 *
 * An object of its own, built against the module's headers: the geometry
 * is static inline in ssdstripe-geom.h, the other functions under test are
 * static but for KUnit (VISIBLE_IF_KUNIT, EXPORT_SYMBOL_IF_KUNIT).
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "ssdstripe-stats.h"

/* --- geometry ---------------------------------------------------------- */

struct ssdstripe_geom_case {
	unsigned int members;
	unsigned int chunk;
	sector_t offset;
};

static const struct ssdstripe_geom_case ssdstripe_geom_cases[] = {
	{ 1, 8, 0 },		{ 1, 24, 2048 },	{ 2, 8, 0 },
	{ 2, 128, 2048 },	{ 3, 8, 0 },		{ 3, 384, 4096 },
	{ 4, 128, 0 },		{ 4, 1, 7 },		{ 5, 24, 2048 },
	{ 6, 7, 0 },		{ 7, 2048, 2048 },	{ 8, 384, 0 },
	{ 8, 2048, 1 << 20 },	{ 9, 1, 0 },		{ 10, 100, 3 },
	{ 11, 4096, 0 },	{ 12, 3, 0 },		{ 13, 65536, 2048 },
	{ 14, 1000, 0 },	{ 15, 256, 2048 },	{ 16, 2048, 0 },
	{ 16, 12, 2048 },
};

static void ssdstripe_geom_desc(const struct ssdstripe_geom_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u members, chunk %u, offset %llu",
		 c->members, c->chunk, (unsigned long long)c->offset);
}

KUNIT_ARRAY_PARAM(ssdstripe_geom, ssdstripe_geom_cases, ssdstripe_geom_desc);

/* The layout rule written the obvious way, as the reference. */
static void ssdstripe_ref_map(unsigned int members, unsigned int chunk,
			      u64 sector, unsigned int *member, u64 *result)
{
	u64 chunk_no = div64_u64(sector, chunk);
	u64 in_chunk = sector - chunk_no * chunk;

	*member = (unsigned int)(chunk_no - div64_u64(chunk_no, members) * members);
	*result = div64_u64(chunk_no, members) * chunk + in_chunk;
}

static void ssdstripe_geometry_test(struct kunit *test)
{
	const struct ssdstripe_geom_case *c = test->param_value;
	const u64 stripe = (u64)c->members * c->chunk;
	const u64 probes[] = {
		0, 1, c->chunk - 1, c->chunk, c->chunk + 1, stripe - 1, stripe,
		stripe + 1, 3 * stripe + c->chunk / 2, 1000003,
		(1ULL << 32) - 1, 1ULL << 32, (1ULL << 40) - 1, 1ULL << 40,
		(1ULL << 40) + 12345, (1ULL << 40) + stripe - 1,
	};
	struct ssdstripe_geom g;
	unsigned int i, member, ref_member;
	sector_t result;
	u64 ref_result;

	ssdstripe_geom_init(&g, c->members, c->chunk);

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		ssdstripe_map_sector(&g, probes[i], &member, &result);
		ssdstripe_ref_map(c->members, c->chunk, probes[i], &ref_member,
				  &ref_result);
		KUNIT_EXPECT_EQ_MSG(test, member, ref_member, "sector %llu",
				    probes[i]);
		KUNIT_EXPECT_EQ_MSG(test, (u64)(result + c->offset),
				    ref_result + c->offset, "sector %llu",
				    probes[i]);
		KUNIT_EXPECT_LT(test, member, c->members);
	}
}

/* Walking the logical sectors in order fills each member in order. */
static void ssdstripe_geometry_sequential_test(struct kunit *test)
{
	const struct ssdstripe_geom_case *c = test->param_value;
	u64 next[16] = { 0 };
	struct ssdstripe_geom g;
	unsigned int member;
	sector_t result;
	u64 s, end;

	ssdstripe_geom_init(&g, c->members, c->chunk);
	end = min_t(u64, 3ULL * c->members * c->chunk, 200000);

	for (s = 0; s < end; s++) {
		ssdstripe_map_sector(&g, s, &member, &result);
		KUNIT_ASSERT_LT(test, member, c->members);
		KUNIT_ASSERT_EQ_MSG(test, (u64)result, next[member],
				    "sector %llu", s);
		next[member]++;
	}
}

/* map's remap: the right member, and that member's own offset applied. */
static void ssdstripe_remap_test(struct kunit *test)
{
	const struct ssdstripe_geom_case *c = test->param_value;
	const u64 stripe = (u64)c->members * c->chunk;
	const u64 probes[] = {
		0, 1, c->chunk - 1, c->chunk, stripe - 1, stripe,
		5 * stripe + c->chunk / 2, (1ULL << 40) + 12345,
	};
	unsigned int i, member, ref_member, left;
	struct ssdstripe_c *sc;
	u64 ref_result, in_chunk;
	sector_t r;

	sc = kunit_kzalloc(test, struct_size(sc, member, c->members),
			   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	ssdstripe_geom_init(&sc->geom, c->members, c->chunk);
	/* A different offset per member, so a wrong one shows. */
	for (i = 0; i < c->members; i++)
		sc->member[i].offset = c->offset + 1000003ULL * i;

	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		r = ssdstripe_remap(sc, probes[i], &member, &left);
		ssdstripe_ref_map(c->members, c->chunk, probes[i], &ref_member,
				  &ref_result);
		KUNIT_EXPECT_EQ_MSG(test, member, ref_member, "sector %llu",
				    probes[i]);
		KUNIT_EXPECT_EQ_MSG(test, (u64)r,
				    ref_result + c->offset + 1000003ULL * ref_member,
				    "sector %llu", probes[i]);
		/* What is left of the chunk: where map must split. */
		in_chunk = ref_result - div64_u64(ref_result, c->chunk) * c->chunk;
		KUNIT_EXPECT_EQ_MSG(test, (u64)left, c->chunk - in_chunk,
				    "sector %llu", probes[i]);
	}
}

/* --- gather plan ------------------------------------------------------- */

static u64 do_div_rem(u64 a, u32 b)
{
	return do_div(a, b);
}

struct ssdstripe_gather_case {
	const char *what;
	unsigned int members;
	unsigned int chunk;
	u64 start;
	unsigned int len;
};

static const struct ssdstripe_gather_case ssdstripe_gather_cases[] = {
	{ "inside one chunk", 4, 8, 2, 5 },
	{ "one whole chunk", 4, 8, 8, 8 },
	{ "two chunks, unaligned", 4, 8, 6, 4 },
	{ "1 MiB on 4 KiB chunks", 4, 8, 0, 2048 },
	{ "1 MiB on 4 KiB chunks, unaligned", 4, 8, 3, 2048 },
	{ "1 MiB on 32 KiB chunks", 4, 64, 64, 2048 },
	{ "1 MiB on 256 KiB chunks, unaligned", 4, 512, 511, 2048 },
	{ "4 MiB on 4 KiB chunks", 4, 8, 8 * 4 * 1000 + 1, 8192 },
	{ "4 MiB, 3 members, 12 KiB chunks", 3, 24, 17, 8192 },
	{ "4 MiB, 5 members, 20 KiB chunks", 5, 40, 1000003, 8192 },
	{ "7 members, chunk 5", 7, 5, 33, 211 },
	{ "6 members, chunk 12, ends on a row", 6, 12, 0, 6 * 12 * 7 },
	{ "chunk of one sector", 4, 1, 3, 9 },
	{ "one sector", 8, 16, 77, 1 },
	{ "2 members, chunk 2048", 2, 2048, 1000, 5000 },
	{ "beyond 2^32 sectors", 3, 128, (1ULL << 32) - 100, 4000 },
	{ "beyond 2^40 sectors", 4, 24, (1ULL << 40) + 12345, 8192 },
	{ "64 members", 64, 8, 5, 8192 },
	{ "single member", 1, 8, 5, 100 },
};

static void ssdstripe_gather_desc(const struct ssdstripe_gather_case *c,
				  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (%u x %u, %llu+%u)", c->what,
		 c->members, c->chunk, c->start, c->len);
}

KUNIT_ARRAY_PARAM(ssdstripe_gather, ssdstripe_gather_cases,
		  ssdstripe_gather_desc);

/*
 * Check the gather plan of [start, start + len) against the reference
 * model, mapped sector by sector: the pieces are the request's maximal
 * runs of sectors on one member, consecutive there, in request order;
 * each member's pieces follow one another on the member (one bio can
 * carry them), starting where ssdstripe_member_range() says its share
 * starts.  Returns false at the first difference, reported with @test.
 */
static bool ssdstripe_gather_check(struct kunit *test, unsigned int members,
				   unsigned int chunk, u64 start,
				   unsigned int len)
{
	u64 next[SSDSTRIPE_GATHER_MAX_MEMBERS];
	unsigned int ref_m, off = 0, n = 0;
	struct ssdstripe_piece p;
	struct ssdstripe_geom g;
	sector_t begin, end;
	u64 ref_r;
	bool more;

	ssdstripe_geom_init(&g, members, chunk);
	memset(next, 0xff, sizeof(next));
	ssdstripe_piece_first(&g, start, len, &p);
	do {
		KUNIT_ASSERT_LT(test, n, len);
		/* The reference: the run of sectors at request offset off. */
		ssdstripe_ref_map(members, chunk, start + off, &ref_m, &ref_r);
		KUNIT_EXPECT_EQ_MSG(test, p.offset, off, "piece %u", n);
		KUNIT_EXPECT_EQ_MSG(test, p.member, ref_m, "piece %u", n);
		KUNIT_EXPECT_EQ_MSG(test, (u64)p.sector, ref_r, "piece %u", n);
		if (p.offset != off || p.member != ref_m ||
		    p.sector != ref_r || !p.len)
			return false;
		for (off++; off < p.offset + p.len; off++) {
			u64 r;
			unsigned int m;

			ssdstripe_ref_map(members, chunk, start + off, &m, &r);
			if (m != ref_m || r != ref_r + off - p.offset ||
			    !do_div_rem(start + off, chunk)) {
				KUNIT_FAIL(test, "piece %u (%u+%u) leaves its chunk at %u",
					   n, p.offset, p.len, off);
				return false;
			}
		}
		/* One piece per chunk: it ends at its chunk's end or the request's. */
		if (off < len && do_div_rem(start + off, chunk)) {
			KUNIT_FAIL(test, "piece %u ends early at %u", n, off);
			return false;
		}
		/* Contiguous with the member's previous piece. */
		if (next[p.member] != U64_MAX && next[p.member] != p.sector) {
			KUNIT_FAIL(test, "member %u: piece %u at %llu, previous ended at %llu",
				   p.member, n, (u64)p.sector, next[p.member]);
			return false;
		}
		if (next[p.member] == U64_MAX) {
			ssdstripe_member_range(&g, start, len, p.member, &begin,
					       &end);
			KUNIT_EXPECT_EQ_MSG(test, (u64)begin, (u64)p.sector,
					    "member %u", p.member);
		}
		next[p.member] = p.sector + p.len;
		n++;
		more = ssdstripe_piece_next(&g, len, &p);
	} while (more);

	KUNIT_EXPECT_EQ(test, off, len);
	/* Each member's share ends where the discard arithmetic says. */
	for (ref_m = 0; ref_m < members; ref_m++) {
		if (!ssdstripe_member_range(&g, start, len, ref_m, &begin, &end)) {
			KUNIT_EXPECT_EQ(test, next[ref_m], U64_MAX);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, next[ref_m], (u64)end, "member %u",
				    ref_m);
	}

	return off == len;
}

static void ssdstripe_gather_plan_test(struct kunit *test)
{
	const struct ssdstripe_gather_case *c = test->param_value;

	ssdstripe_gather_check(test, c->members, c->chunk, c->start, c->len);
}

/*
 * Every start in two stripes and every length up to three stripes and a
 * bit, on pow2 and non-pow2 geometries: the edges the table may miss.
 */
static void ssdstripe_gather_sweep_test(struct kunit *test)
{
	static const unsigned int geoms[][2] = {
		{ 2, 8 }, { 3, 8 }, { 4, 8 }, { 3, 24 }, { 5, 6 }, { 4, 1 },
		{ 2, 3 }, { 8, 4 },
	};
	unsigned int i, len, stripe;
	u64 start;

	for (i = 0; i < ARRAY_SIZE(geoms); i++) {
		stripe = geoms[i][0] * geoms[i][1];
		for (start = 0; start < 2 * stripe; start++)
			for (len = 1; len <= 3 * stripe + 5; len++)
				if (!ssdstripe_gather_check(test, geoms[i][0],
							    geoms[i][1], start,
							    len)) {
					KUNIT_FAIL(test, "%u x %u, %llu+%u",
						   geoms[i][0], geoms[i][1],
						   start, len);
					return;
				}
	}
}

/* --- discard / write-zeroes range splitting ---------------------------- */

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

/* --- table parsing ----------------------------------------------------- */

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

/* --- health state machine --------------------------------------------- */

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

	given = ssdstripe_find_tunable(c->name);
	KUNIT_ASSERT_NOT_NULL(test, given);

	snprintf(line, sizeof(line), "2 8 a 0 b 0 3 no_stats %s %s", c->name,
		 c->value);
	argv = argv_split(GFP_KERNEL, line, &argc);
	KUNIT_ASSERT_NOT_NULL(test, argv);
	r = ssdstripe_parse_params(argc, argv, 64, &p, &error);
	argv_free(argv);
	kfree(p.offset);
	KUNIT_ASSERT_EQ_MSG(test, r, 0, "%s", error ?: "");
	KUNIT_EXPECT_TRUE(test, p.no_stats);

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

static struct kunit_case ssdstripe_health_test_cases[] = {
	KUNIT_CASE(ssdstripe_health_slow_onset_test),
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
	KUNIT_CASE_PARAM(ssdstripe_classify_test, ssdstripe_class_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_hist_bucket_test, ssdstripe_bucket_gen_params),
	{}
};

static struct kunit_suite ssdstripe_health_suite = {
	.name = "dm_ssdstripe_health",
	.test_cases = ssdstripe_health_test_cases,
};

static struct kunit_case ssdstripe_geometry_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_geometry_test, ssdstripe_geom_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_geometry_sequential_test,
			 ssdstripe_geom_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_remap_test, ssdstripe_geom_gen_params),
	{}
};

static struct kunit_suite ssdstripe_geometry_suite = {
	.name = "dm_ssdstripe_geometry",
	.test_cases = ssdstripe_geometry_test_cases,
};

static struct kunit_case ssdstripe_discard_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_range_test, ssdstripe_range_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_limit_test, ssdstripe_limit_gen_params),
	KUNIT_CASE(ssdstripe_stack_limits_test),
	{}
};

static struct kunit_case ssdstripe_gather_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_gather_plan_test,
			 ssdstripe_gather_gen_params),
	KUNIT_CASE(ssdstripe_gather_sweep_test),
	{}
};

static struct kunit_suite ssdstripe_gather_suite = {
	.name = "dm_ssdstripe_gather",
	.test_cases = ssdstripe_gather_test_cases,
};

static struct kunit_suite ssdstripe_discard_suite = {
	.name = "dm_ssdstripe_discard",
	.test_cases = ssdstripe_discard_test_cases,
};

static struct kunit_case ssdstripe_args_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_args_test, ssdstripe_args_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_tunable_test, ssdstripe_tunable_gen_params),
	KUNIT_CASE(ssdstripe_tunable_defaults_test),
	{}
};

static struct kunit_suite ssdstripe_args_suite = {
	.name = "dm_ssdstripe_args",
	.test_cases = ssdstripe_args_test_cases,
};

kunit_test_suites(&ssdstripe_geometry_suite, &ssdstripe_gather_suite,
		  &ssdstripe_discard_suite,
		  &ssdstripe_args_suite, &ssdstripe_health_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
