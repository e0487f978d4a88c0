// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: device-mapper through libdevmapper (dm.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdevmapper.h>

#include "dev.h"
#include "dm.h"
#include "out.h"

static char last_error[512];

static void dm_logger(int level, const char *file, int line, int dm_errno_or_class,
		      const char *f, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno_or_class;
	/* errors (_LOG_ERR and worse) are kept for the message that says why */
	if ((level & 7) > 3)
		return;
	va_start(ap, f);
	vsnprintf(last_error, sizeof(last_error), f, ap);
	va_end(ap);
}

static void dm_setup(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	dm_log_with_errno_init(dm_logger);
}

const char *dm_last_error(void)
{
	return last_error;
}

static struct dm_task *task(int type, const char *name)
{
	struct dm_task *t;

	dm_setup();
	t = dm_task_create(type);
	if (!t)
		die(EX_FAILED, "device-mapper: cannot make a task (out of memory?)");
	if (name && !dm_task_set_name(t, name)) {
		dm_task_destroy(t);
		return NULL;
	}
	return t;
}

static bool has_ssdstripe_target(const char *name)
{
	struct dm_task *t = task(DM_DEVICE_TABLE, name);
	uint64_t start, length;
	char *type = NULL, *params;
	void *next = NULL;
	bool found = false;

	if (!t)
		return false;
	if (dm_task_run(t)) {
		do {
			next = dm_get_next_target(t, next, &start, &length, &type, &params);
			if (type && !strcmp(type, "ssdstripe"))
				found = true;
		} while (next && !found);
	}
	dm_task_destroy(t);
	return found;
}

/* every dm device's name, sorted */
static char **dm_names_all(size_t *n)
{
	struct dm_task *t = task(DM_DEVICE_LIST, NULL);
	struct dm_names *nm;
	char **v = NULL;
	unsigned int next = 0;

	*n = 0;
	if (!t)
		return NULL;
	if (!dm_task_run(t) || !(nm = dm_task_get_names(t)) || !nm->dev) {
		dm_task_destroy(t);
		return NULL;
	}
	do {
		nm = (struct dm_names *)((char *)nm + next);
		v = realloc(v, (*n + 1) * sizeof(*v));
		if (!v)
			die(EX_FAILED, "out of memory");
		v[(*n)++] = xstrdup(nm->name);
		next = nm->next;
	} while (next);
	dm_task_destroy(t);
	names_sort(v, *n);
	return v;
}

char **dm_arrays(size_t *n)
{
	size_t all, i;
	char **v = dm_names_all(&all), **out = NULL;

	*n = 0;
	for (i = 0; i < all; i++) {
		if (has_ssdstripe_target(v[i])) {
			out = realloc(out, (*n + 1) * sizeof(*out));
			if (!out)
				die(EX_FAILED, "out of memory");
			out[(*n)++] = v[i];
		} else {
			free(v[i]);
		}
	}
	free(v);
	return out;
}

bool dm_is_array(const char *name)
{
	size_t n, i;
	char **v = dm_arrays(&n);
	bool found = false;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			found = true;
	names_free(v, n);
	return found;
}

bool dm_info_of(const char *name, struct dm_dev_info *info)
{
	struct dm_task *t = task(DM_DEVICE_INFO, name);
	struct dm_info i;
	const char *u;
	bool ok = false;

	memset(info, 0, sizeof(*info));
	if (!t)
		return false;
	if (dm_task_run(t) && dm_task_get_info(t, &i) && i.exists) {
		info->open_count = i.open_count;
		info->major = i.major;
		info->minor = i.minor;
		u = dm_task_get_uuid(t);
		snprintf(info->uuid, sizeof(info->uuid), "%s", u ? u : "");
		ok = true;
	}
	dm_task_destroy(t);
	return ok;
}

char *dm_name_of_uuid(const char *uuid)
{
	size_t n, i;
	char **v = dm_names_all(&n), *found = NULL;
	struct dm_dev_info info;

	for (i = 0; i < n && !found; i++)
		if (dm_info_of(v[i], &info) && !strcmp(info.uuid, uuid))
			found = xstrdup(v[i]);
	names_free(v, n);
	return found;
}

bool dm_remove(const char *name)
{
	struct dm_task *t = task(DM_DEVICE_REMOVE, name);
	uint32_t cookie = 0;
	bool ok;

	last_error[0] = 0;
	if (!t)
		return false;
	/* a transient opener (udev's probe) gets libdevmapper's retries */
	ok = dm_task_retry_remove(t) && dm_task_set_cookie(t, &cookie, 0) && dm_task_run(t);
	dm_udev_wait(cookie);
	dm_task_destroy(t);
	return ok;
}
