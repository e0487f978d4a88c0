// SPDX-License-Identifier: GPL-2.0-only
/*
 * tests/tool-output's device-mapper (dm.h): one active array, "fast",
 * with the table the sh test's dmsetup stub printed; its sysfs directory
 * is $HARNESS_FAKE/dm/dm-9; clear_errors is taken and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../dm.h"
#include "../../out.h"

#define ARRAY "fast"
#define UUID DM_UUID_PREFIX "0f0f3c3c-1111-4222-8333-444455556666"
#define TABLE "5 256 259:0 2048 259:1 2048 8:33 2048 253:3 2048 259:4 2048 2 slow_factor 9"

const char *dm_last_error(void)
{
	return "";
}

char **dm_arrays(size_t *n)
{
	char **v = xmalloc(2 * sizeof(*v));

	v[0] = xstrdup(ARRAY);
	v[1] = NULL;
	*n = 1;
	return v;
}

bool dm_is_array(const char *name)
{
	return !strcmp(name, ARRAY);
}

bool dm_info_of(const char *name, struct dm_dev_info *info)
{
	memset(info, 0, sizeof(*info));
	if (strcmp(name, ARRAY))
		return false;
	info->major = 253;
	info->minor = 9;
	snprintf(info->uuid, sizeof(info->uuid), "%s", UUID);
	return true;
}

char *dm_name_of_uuid(const char *uuid)
{
	return strcmp(uuid, UUID) ? NULL : xstrdup(ARRAY);
}

void dm_table_free(struct dm_table *tb)
{
	size_t i;

	for (i = 0; i < tb->n; i++) {
		free(tb->t[i].type);
		free(tb->t[i].params);
	}
	free(tb->t);
	tb->t = NULL;
	tb->n = 0;
}

bool dm_table_of(const char *name, struct dm_table *tb)
{
	tb->n = 0;
	tb->t = NULL;
	if (strcmp(name, ARRAY))
		return false;
	tb->t = xmalloc(sizeof(*tb->t));
	tb->t[0].start = 0;
	tb->t[0].len = 20971520;
	tb->t[0].type = xstrdup("ssdstripe");
	tb->t[0].params = xstrdup(TABLE);
	tb->n = 1;
	return true;
}

bool dm_status_of(const char *name, struct dm_table *tb)
{
	(void)name;
	tb->n = 0;
	tb->t = NULL;
	return false;
}

char *dm_sysdir(const char *name)
{
	const char *f = getenv("HARNESS_FAKE");

	return f && !strcmp(name, ARRAY) ? xasprintf("%s/dm/dm-9", f) : NULL;
}

bool dm_message(const char *name, const char *msg)
{
	return !strcmp(name, ARRAY) && !strcmp(msg, "clear_errors");
}
