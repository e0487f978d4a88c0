/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Shims for kernel APIs that differ across the kernels we build against.
 * Each shim tests for the feature itself, never for a version number.
 */
#ifndef DM_SSDSTRIPE_COMPAT_H
#define DM_SSDSTRIPE_COMPAT_H

#include <linux/device-mapper.h>
#include <linux/module.h>

/* module_dm() arrived after 6.1; it is a macro, so its absence is visible. */
#ifndef module_dm
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

#endif /* DM_SSDSTRIPE_COMPAT_H */
