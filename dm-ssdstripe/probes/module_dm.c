// SPDX-License-Identifier: GPL-2.0-only
/*
 * HAVE_MODULE_DM: <linux/device-mapper.h> provides module_dm(), which
 * registers a target at module init and unregisters it at exit.
 */
#include <linux/device-mapper.h>
#include <linux/module.h>

static struct target_type probe_target = {
	.name = "probe",
	.module = THIS_MODULE,
};
module_dm(probe);
MODULE_LICENSE("GPL");
