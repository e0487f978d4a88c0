// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_BIO_WRITE_STREAM: struct bio carries the submitter's write stream
 * (NVMe data placement) in bi_write_stream, which a bio built in its
 * place must copy.
 */
#include <linux/bio.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	struct bio bio = { .bi_write_stream = 1 };

	return bio.bi_write_stream == 1 ? 0 : -EINVAL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
