// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_gather: the plan that gathers a read or write
 * across chunks into one bio per member, piece by piece against the
 * reference layout, on a table of requests and on every small start and
 * length of a few geometries.
 *
 * Everything under test is static inline in ssdstripe-geom.h.
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "dm_ssdstripe_kunit.h"

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

kunit_test_suite(ssdstripe_gather_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: gather plan");
MODULE_LICENSE("GPL");
