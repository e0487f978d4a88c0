// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_geometry: the mapping of a logical sector to its
 * member and the sector there, checked against the layout rule written the
 * obvious way, sector by sector in order, and map's remap with each
 * member's own offset.
 *
 * Everything under test is static inline in ssdstripe-geom.h.
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/module.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "dm_ssdstripe_kunit.h"

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

kunit_test_suite(ssdstripe_geometry_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: geometry");
MODULE_LICENSE("GPL");
