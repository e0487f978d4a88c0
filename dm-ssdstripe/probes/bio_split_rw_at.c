// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_BIO_SPLIT_RW_AT: the block layer tells, without splitting, whether
 * a bio fits a queue's limits (bio_split_rw_at(): 0 when it does).  A
 * gathered REQ_NOWAIT bio must fit its member: a member queue ends a
 * REQ_NOWAIT bio it would have to split with BLK_STS_AGAIN.
 */
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	struct queue_limits lim = { .max_segments = 1 };
	struct bio bio = { };
	unsigned int segs;

	return bio_split_rw_at(&bio, &lim, &segs, 0);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
