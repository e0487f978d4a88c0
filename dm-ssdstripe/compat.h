/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Shims for kernel APIs that differ across the kernels we build against.
 * Each shim tests for the feature itself, never for a version number: the
 * HAVE_* defines come from compat-probed.h, which probe-kernel
 * generates from the probes/ directory before every build (see probe.mk).
 */
#ifndef DM_SSDSTRIPE_COMPAT_H
#define DM_SSDSTRIPE_COMPAT_H

#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/workqueue.h>

#include "compat-probed.h"

/* bio_integrity() moved to a header of its own. */
#ifdef HAVE_BIO_INTEGRITY_H
#include <linux/bio-integrity.h>
#endif

/* Older kernels register a target from explicit init and exit functions. */
#ifndef HAVE_MODULE_DM
#define module_dm(name)							\
static int __init dm_##name##_init(void)				\
{									\
	return dm_register_target(&(name##_target));			\
}									\
module_init(dm_##name##_init);						\
static void __exit dm_##name##_exit(void)				\
{									\
	dm_unregister_target(&(name##_target));				\
}									\
module_exit(dm_##name##_exit)
#endif

/* The per-CPU system workqueue had the name system_wq before. */
#ifndef HAVE_SYSTEM_PERCPU_WQ
#define system_percpu_wq system_wq
#endif

/*
 * Set the write-zeroes limit.  Where the block layer also has a limit for
 * write zeroes that unmap, it must stay 0 (a member cannot unmap) or equal
 * to max_write_zeroes_sectors, or the table fails to load with -EINVAL.
 */
static inline void ssdstripe_set_write_zeroes_limit(struct queue_limits *lim,
						    unsigned int sectors)
{
	lim->max_write_zeroes_sectors = sectors;
#ifdef HAVE_QUEUE_LIMITS_MAX_HW_WZEROES_UNMAP_SECTORS
	if (lim->max_hw_wzeroes_unmap_sectors)
		lim->max_hw_wzeroes_unmap_sectors = sectors;
#endif
}

/*
 * Copy into @dst, a bio built to carry part of @src's data, the hints
 * about that data that newer kernels keep in the bio.
 */
static inline void ssdstripe_bio_copy_hints(struct bio *dst,
					    const struct bio *src)
{
#ifdef HAVE_BIO_WRITE_HINT
	dst->bi_write_hint = src->bi_write_hint;
#endif
#ifdef HAVE_BIO_WRITE_STREAM
	dst->bi_write_stream = src->bi_write_stream;
#endif
}

/*
 * Does @bio fit @lim as it is, in at most @max_sectors, so that its queue
 * need not split it?  Where the block layer cannot tell without splitting
 * (no bio_split_rw_at()), say no: the caller then does without.
 */
#ifdef HAVE_BIO_SPLIT_RW_AT
#define SSDSTRIPE_CAN_TELL_FIT true
static inline bool ssdstripe_bio_fits(struct bio *bio,
				      const struct queue_limits *lim,
				      unsigned int max_sectors)
{
	unsigned int segs;

	return bio_split_rw_at(bio, lim, &segs,
			       max_sectors << SECTOR_SHIFT) == 0;
}

/*
 * Is what is left of @bio one segment within a page?  bio_split_rw_at()
 * takes such a bio whole when its sectors are within the limit (the first
 * test of its loop: one segment, inside one page, within max_bytes), and
 * the block layer's own fast path (bio_may_need_split()) skips it too.
 * Most 4 KiB io_uring I/O is this: it is spared the bio copy and the call.
 */
static inline bool ssdstripe_bio_one_page(const struct bio *bio)
{
	struct bio_vec bv;

	if (!bio->bi_iter.bi_size)
		return false;
	bv = mp_bvec_iter_bvec(bio->bi_io_vec, bio->bi_iter);
	return bv.bv_len == bio->bi_iter.bi_size &&
	       bv.bv_offset + bv.bv_len <= PAGE_SIZE;
}

/*
 * How many sectors of @bio, a REQ_NOWAIT bio, its queue with limits @lim
 * takes in one request of at most @max_sectors: 0 when it takes the whole
 * bio.  Segments, segment size and virt boundary gaps count as well as
 * sectors.  bio_split_rw_at() names no split point for a REQ_NOWAIT bio
 * (it says -EAGAIN), so it is asked about a copy without the flag: a
 * shallow copy on the stack, which it only reads (the vectors stay the
 * bio's), and which is dropped without bio_put() as nothing took a
 * reference to it.  A bio of one segment within a page, within
 * @max_sectors, needs no cut and no copy (ssdstripe_bio_one_page()).
 */
static inline unsigned int ssdstripe_bio_fit_sectors(struct bio *bio,
						     const struct queue_limits *lim,
						     unsigned int max_sectors)
{
	struct bio copy;
	unsigned int segs;
	int split;

	if (bio_sectors(bio) <= max_sectors && ssdstripe_bio_one_page(bio))
		return 0;
	copy = *bio;
	copy.bi_opf &= ~REQ_NOWAIT;
	split = bio_split_rw_at(&copy, lim, &segs, max_sectors << SECTOR_SHIFT);

	return split > 0 ? split : 0;
}
#else
#define SSDSTRIPE_CAN_TELL_FIT false
static inline bool ssdstripe_bio_fits(struct bio *bio,
				      const struct queue_limits *lim,
				      unsigned int max_sectors)
{
	return false;
}

/*
 * Without bio_split_rw_at() only sectors can be counted: a bio within
 * @max_sectors that needs more segments than its queue takes, or holds a
 * virt boundary gap, still needs a split, and its queue ends it with
 * BLK_STS_AGAIN (counted as a retry; dm-stripe has the same limit).
 */
static inline unsigned int ssdstripe_bio_fit_sectors(struct bio *bio,
						     const struct queue_limits *lim,
						     unsigned int max_sectors)
{
	return bio_sectors(bio) > max_sectors ? max_sectors : 0;
}
#endif

#endif /* DM_SSDSTRIPE_COMPAT_H */
