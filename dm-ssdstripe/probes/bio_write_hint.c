// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_BIO_WRITE_HINT: struct bio carries the submitter's write lifetime
 * hint in bi_write_hint, which a bio built in its place must copy.
 */
#include <linux/bio.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	struct bio bio = { .bi_write_hint = WRITE_LIFE_SHORT };

	return bio.bi_write_hint == WRITE_LIFE_SHORT ? 0 : -EINVAL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
