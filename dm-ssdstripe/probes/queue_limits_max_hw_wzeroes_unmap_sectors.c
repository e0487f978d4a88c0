// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_QUEUE_LIMITS_MAX_HW_WZEROES_UNMAP_SECTORS: struct queue_limits has a
 * limit for write zeroes that unmap, which the block layer rejects unless
 * it is 0 or equal to max_write_zeroes_sectors.
 */
#include <linux/blkdev.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	struct queue_limits lim = { .max_hw_wzeroes_unmap_sectors = 8 };

	return lim.max_hw_wzeroes_unmap_sectors == 8 ? 0 : -EINVAL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
