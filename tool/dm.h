/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: device-mapper, through libdevmapper (no dmsetup process):
 * the active arrays and the devices' names, uuids and open counts.
 */
#ifndef SSDSTRIPE_DM_H
#define SSDSTRIPE_DM_H

#include <stdbool.h>
#include <stddef.h>

#define DM_UUID_PREFIX "SSDSTRIPE-"

struct dm_dev_info {
	int open_count;
	unsigned int major, minor;
	char uuid[130];
};

/* the last error libdevmapper said, for a message ("" if none) */
const char *dm_last_error(void);

/* dm_arrays: the names of the devices with an ssdstripe table, sorted */
char **dm_arrays(size_t *n);
bool dm_is_array(const char *name);
bool dm_info_of(const char *name, struct dm_dev_info *info);
/* dm_name_of_uuid: the name of the device whose dm uuid is UUID (malloc'd) */
char *dm_name_of_uuid(const char *uuid);
/* dm_remove: the device gone, its node too (udev's, or ours without udev) */
bool dm_remove(const char *name);

#endif
