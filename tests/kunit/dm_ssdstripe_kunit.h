/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What more than one of the dm-ssdstripe KUnit suites (the
 * dm_ssdstripe_*_kunit.c beside this file) needs: static inline, so that
 * each suite stays an object, and a module, of its own.
 *
 * Copyright (C) 2026 The dm-ssdstripe authors
 */
#ifndef DM_SSDSTRIPE_KUNIT_H
#define DM_SSDSTRIPE_KUNIT_H

#include <linux/math64.h>
#include <linux/types.h>

/*
 * The layout rule written the obvious way, as the reference that the
 * geometry, gather and discard suites check ssdstripe-geom.h against.
 */
static inline void ssdstripe_ref_map(unsigned int members, unsigned int chunk,
				     u64 sector, unsigned int *member,
				     u64 *result)
{
	u64 chunk_no = div64_u64(sector, chunk);
	u64 in_chunk = sector - chunk_no * chunk;

	*member = (unsigned int)(chunk_no - div64_u64(chunk_no, members) * members);
	*result = div64_u64(chunk_no, members) * chunk + in_chunk;
}

#endif /* DM_SSDSTRIPE_KUNIT_H */
