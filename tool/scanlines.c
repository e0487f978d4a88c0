// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the ARRAY lines of the active arrays (scanlines.h).
 */
#include <string.h>

#include "dev.h"
#include "dm.h"
#include "out.h"
#include "scanlines.h"

void scan_lines(void)
{
	size_t n, i;
	char **v = dm_arrays(&n);
	struct dm_dev_info info;

	for (i = 0; i < n; i++) {
		const char *u = "";

		if (dm_info_of(v[i], &info) && !strncmp(info.uuid, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)))
			u = info.uuid + strlen(DM_UUID_PREFIX);
		if (*u)
			say("ARRAY uuid=%s  # %s", u, v[i]);
		else
			warn("%s has no labels (made with dmsetup, not ssdstripe create): no ARRAY line, nothing assembles it at boot",
			     v[i]);
	}
	names_free(v, n);
}
