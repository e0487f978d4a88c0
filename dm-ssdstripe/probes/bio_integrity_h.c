// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_BIO_INTEGRITY_H: bio_integrity() is declared in
 * <linux/bio-integrity.h>; before, <linux/bio.h> declared it.
 */
#include <linux/bio.h>
#include <linux/bio-integrity.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	struct bio bio = { };

	return bio_integrity(&bio) ? -EINVAL : 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
