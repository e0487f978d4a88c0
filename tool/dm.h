/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: device-mapper, through libdevmapper (no dmsetup process):
 * the active arrays and the devices' names, uuids and open counts.
 */
#ifndef SSDSTRIPE_DM_H
#define SSDSTRIPE_DM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* a device's table or status: one entry per target */
struct dm_target_line {
	uint64_t start, len;	/* sectors */
	char *type, *params;
};
struct dm_table {
	struct dm_target_line *t;
	size_t n;
};
bool dm_table_of(const char *name, struct dm_table *tb);
bool dm_status_of(const char *name, struct dm_table *tb);
void dm_table_free(struct dm_table *tb);
/* a device with no table (dmsetup create --notable), with its uuid */
bool dm_create_empty(const char *name, const char *uuid);
/*
 * dm_create: device NAME with uuid UUID and table TB, made active (as
 * dmsetup create --uuid --table); udev's processing of it waited for with
 * a cookie, so that its node and links are there on return
 */
bool dm_create(const char *name, const char *uuid, const struct dm_table *tb);
/* TB into NAME's inactive slot */
bool dm_load(const char *name, const struct dm_table *tb);
bool dm_suspend(const char *name, bool noflush);
/*
 * resume NAME (its inactive table made live, if one is loaded); with
 * COOKIE, udev's processing is waited for later (dm_wait_cookie), outside
 * a critical section; without, at once
 */
bool dm_resume(const char *name, uint32_t *cookie);
void dm_wait_cookie(uint32_t cookie);
bool dm_has_target(const char *type);
/*
 * dm_load_target: device-mapper target TYPE there, after modprobe of
 * dm-mod and MODULE if it was not: NULL; else what modprobe said
 * (malloc'd, "" when it said nothing).  Outside critical sections only.
 */
char *dm_load_target(const char *type, const char *module);
/* dm_need_ssdstripe: the ssdstripe target there, or exit 1 saying why */
void dm_need_ssdstripe(void);
/* dm_sysdir: the sysfs directory of device NAME (malloc'd), NULL if none */
char *dm_sysdir(const char *name);
/* dm_message: MSG to NAME's target at sector 0 (dmsetup message NAME 0 MSG) */
bool dm_message(const char *name, const char *msg);
bool dm_mknode(const char *name);

#endif
