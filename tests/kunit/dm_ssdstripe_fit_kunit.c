// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite dm_ssdstripe_fit: how much of a REQ_NOWAIT bio a member's
 * queue takes in one request (ssdstripe_bio_fit_sectors() in compat.h),
 * which the target cuts a NOWAIT bio to so that the member never ends it
 * with BLK_STS_AGAIN for a split.  Each case is a bio made of pages as a
 * caller would give it (a buffer in one page, across a page, several
 * iovecs, a clone's remainder) and a member's limits; the answer must be
 * bio_split_rw_at()'s on the same bio without REQ_NOWAIT, and a bio of one
 * segment within a page must take the fast path that skips that call.
 * And the member's limit that the fit is asked about: what a queue takes
 * in one bio at a sector (ssdstripe_queue_max_at(), the block layer's
 * get_max_io_size()), at a partition's offset on its whole disk too.
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */

#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/module.h>

#include "compat.h"
#include "ssdstripe.h"
#include "ssdstripe-geom.h"

#define FIT_MAX_VECS 8

struct ssdstripe_fit_vec {
	unsigned int page, offset, len;
};

struct ssdstripe_fit_case {
	const char *what;
	struct ssdstripe_fit_vec vec[FIT_MAX_VECS];
	unsigned int advance;		/* bytes the remainder starts at */
	unsigned int max_sectors;	/* the member's limit at the sector */
	unsigned int max_segments;
	unsigned long virt_boundary;
	bool one_page;			/* the fast path applies */
	unsigned int fit;		/* sectors; 0: the whole bio */
};

static const struct ssdstripe_fit_case ssdstripe_fit_cases[] = {
	{ "4 KiB in one page", { { 0, 0, 4096 } }, 0, 256, 128, 0, true, 0 },
	{ "512 B at the end of a page", { { 0, 3584, 512 } }, 0, 256, 128, 0, true, 0 },
	{ "4 KiB in one page, limit 4 sectors", { { 0, 0, 4096 } }, 0, 4, 128, 0,
	  true, 4 },
	{ "4 KiB across a page boundary", { { 0, 2048, 4096 } }, 0, 256, 128, 0,
	  false, 0 },
	{ "8 KiB in two iovecs", { { 0, 0, 4096 }, { 1, 0, 4096 } }, 0, 256, 128, 0,
	  false, 0 },
	{ "8 KiB in two iovecs, limit 8 sectors", { { 0, 0, 4096 }, { 1, 0, 4096 } },
	  0, 8, 128, 0, false, 8 },
	{ "four iovecs, two segments", { { 0, 0, 4096 }, { 1, 0, 4096 },
	  { 2, 0, 4096 }, { 3, 0, 4096 } }, 0, 256, 2, 0, false, 16 },
	{ "a gap at a virt boundary", { { 0, 0, 512 }, { 1, 512, 512 } }, 0, 256,
	  128, 4095, false, 1 },
	{ "the last page of a clone's remainder", { { 0, 0, 4096 }, { 1, 0, 4096 } },
	  4096, 256, 128, 0, true, 0 },
	{ "a remainder inside a page", { { 0, 0, 4096 } }, 1024, 256, 128, 0, true, 0 },
};

static void ssdstripe_fit_desc(const struct ssdstripe_fit_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ssdstripe_fit, ssdstripe_fit_cases, ssdstripe_fit_desc);

static void ssdstripe_fit_limits(const struct ssdstripe_fit_case *c,
				 struct queue_limits *lim)
{
	memset(lim, 0, sizeof(*lim));
	lim->logical_block_size = 512;
	lim->physical_block_size = 512;
	lim->max_sectors = c->max_sectors;
	lim->max_hw_sectors = c->max_sectors;
	lim->max_segments = c->max_segments;
	lim->max_segment_size = 65536;
	lim->seg_boundary_mask = 0xffffffffUL;
	lim->virt_boundary_mask = c->virt_boundary;
}

static void ssdstripe_fit_test(struct kunit *test)
{
	const struct ssdstripe_fit_case *c = test->param_value;
	struct bio_vec vecs[FIT_MAX_VECS];
	struct page *pages[FIT_MAX_VECS] = {};
	struct queue_limits lim;
	struct bio bio, plain;
	unsigned int i, n = 0, segs;
	int split;

	for (i = 0; i < FIT_MAX_VECS && c->vec[i].len; i++) {
		if (!pages[c->vec[i].page])
			pages[c->vec[i].page] = alloc_pages(GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, pages[c->vec[i].page]);
		n++;
	}
	bio_init(&bio, NULL, vecs, n, REQ_OP_READ | REQ_NOWAIT);
	for (i = 0; i < n; i++)
		__bio_add_page(&bio, pages[c->vec[i].page], c->vec[i].len,
			       c->vec[i].offset);
	bio_advance(&bio, c->advance);
	ssdstripe_fit_limits(c, &lim);

	KUNIT_EXPECT_EQ(test, ssdstripe_bio_one_page(&bio), c->one_page);
	KUNIT_EXPECT_EQ(test, ssdstripe_bio_fit_sectors(&bio, &lim, c->max_sectors),
			c->fit);

	/* The reference: the block layer's own answer, without NOWAIT. */
	plain = bio;
	plain.bi_opf &= ~REQ_NOWAIT;
	split = bio_split_rw_at(&plain, &lim, &segs,
				c->max_sectors << SECTOR_SHIFT);
	KUNIT_EXPECT_EQ(test, split > 0 ? split : 0, (int)c->fit);
	/* The NOWAIT bio itself is untouched: dm core sends it on. */
	KUNIT_EXPECT_TRUE(test, bio.bi_opf & REQ_NOWAIT);

	for (i = 0; i < FIT_MAX_VECS; i++)
		if (pages[i])
			__free_pages(pages[i], 1);
}

/* --- what a member takes at a sector ------------------------------------ */

struct ssdstripe_max_case {
	const char *what;
	unsigned int max_sectors, chunk_sectors, lbs, pbs;
	sector_t part_start, sector;	/* the partition's start, its sector */
	unsigned int expected;
};

static const struct ssdstripe_max_case ssdstripe_max_cases[] = {
	{ "whole disk, 4 KiB blocks, at 0", 256, 0, 512, 4096, 0, 0, 256 },
	{ "partition at 2048, its sector 0", 128, 0, 512, 4096, 2048, 0, 128 },
	{ "partition at 2049, its sector 0", 128, 0, 512, 4096, 2049, 0, 127 },
	{ "partition at 2049, its sector 7", 128, 0, 512, 4096, 2049, 7, 128 },
	{ "512 B blocks, odd sector", 255, 0, 512, 512, 0, 3, 255 },
	{ "4 sectors to a chunk_sectors end", 128, 64, 512, 4096, 0, 60, 4 },
	{ "chunk_sectors seen on the whole disk", 128, 64, 512, 512, 40, 20, 4 },
	{ "no limit: a bio's byte count caps it", UINT_MAX, 0, 512, 4096, 0, 0,
	  (UINT_MAX >> SECTOR_SHIFT) & ~7U },
	{ "less than one logical block", 7, 0, 4096, 4096, 0, 0, 0 },
};

static void ssdstripe_max_desc(const struct ssdstripe_max_case *c, char *desc)
{
	strscpy(desc, c->what, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ssdstripe_max, ssdstripe_max_cases, ssdstripe_max_desc);

/* ssdstripe_bdev_max_at() asks this at the partition's start + sector. */
static void ssdstripe_max_at_test(struct kunit *test)
{
	const struct ssdstripe_max_case *c = test->param_value;
	struct queue_limits lim = {
		.max_sectors = c->max_sectors,
		.chunk_sectors = c->chunk_sectors,
		.logical_block_size = c->lbs,
		.physical_block_size = c->pbs,
	};

	KUNIT_EXPECT_EQ(test, ssdstripe_queue_max_at(&lim, c->part_start + c->sector),
			c->expected);
}

static struct kunit_case ssdstripe_fit_test_cases[] = {
	KUNIT_CASE_PARAM(ssdstripe_fit_test, ssdstripe_fit_gen_params),
	KUNIT_CASE_PARAM(ssdstripe_max_at_test, ssdstripe_max_gen_params),
	{}
};

static struct kunit_suite ssdstripe_fit_suite = {
	.name = "dm_ssdstripe_fit",
	.test_cases = ssdstripe_fit_test_cases,
};

kunit_test_suite(ssdstripe_fit_suite);

MODULE_DESCRIPTION("KUnit tests for dm-ssdstripe: the REQ_NOWAIT fit");
MODULE_LICENSE("GPL");
