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
#include "extprog.h"
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

static bool is_array_name(const char *name, void *ctx)
{
	(void)ctx;
	return has_ssdstripe_target(name);
}

char **dm_arrays(size_t *n)
{
	size_t all;
	char **v = dm_names_all(&all);

	return names_keep(v, all, is_array_name, NULL, n);
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

/* table_run: NAME's table (DM_DEVICE_TABLE) or status (DM_DEVICE_STATUS) */
static bool table_run(int type, const char *name, struct dm_table *tb)
{
	struct dm_task *t = task(type, name);
	uint64_t start, length;
	char *ty = NULL, *params = NULL;
	void *next = NULL;
	struct dm_info info;
	bool ok;

	tb->n = 0;
	tb->t = NULL;
	if (!t)
		return false;
	ok = dm_task_run(t) && dm_task_get_info(t, &info) && info.exists;
	if (ok) {
		do {
			next = dm_get_next_target(t, next, &start, &length, &ty, &params);
			if (!ty)
				break;
			tb->t = realloc(tb->t, (tb->n + 1) * sizeof(*tb->t));
			if (!tb->t)
				die(EX_FAILED, "out of memory");
			tb->t[tb->n].start = start;
			tb->t[tb->n].len = length;
			tb->t[tb->n].type = xstrdup(ty);
			tb->t[tb->n].params = xstrdup(params ? params : "");
			tb->n++;
		} while (next);
	}
	dm_task_destroy(t);
	return ok;
}

bool dm_table_of(const char *name, struct dm_table *tb)
{
	return table_run(DM_DEVICE_TABLE, name, tb);
}

bool dm_status_of(const char *name, struct dm_table *tb)
{
	return table_run(DM_DEVICE_STATUS, name, tb);
}

bool dm_create_empty(const char *name, const char *uuid)
{
	struct dm_task *t = task(DM_DEVICE_CREATE, name);
	bool ok;

	last_error[0] = 0;
	if (!t)
		return false;
	/*
	 * no udev cookie: the kernel sends no uevent that carries one for a
	 * device created without a table, and libdevmapper completes a
	 * cookie itself only after a resume, remove or rename; waiting for
	 * it hung for good where udev runs (root-replace in make check-boot)
	 */
	ok = dm_task_set_uuid(t, uuid) && dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}

bool dm_create(const char *name, const char *uuid, const struct dm_table *tb)
{
	struct dm_task *t = task(DM_DEVICE_CREATE, name);
	uint32_t cookie = 0;
	size_t i;
	bool ok;

	last_error[0] = 0;
	if (!t)
		return false;
	ok = dm_task_set_uuid(t, uuid);
	for (i = 0; i < tb->n && ok; i++)
		ok = dm_task_add_target(t, tb->t[i].start, tb->t[i].len, tb->t[i].type,
					tb->t[i].params);
	/*
	 * with a table, libdevmapper loads it and resumes the device: the
	 * resume's uevent carries the cookie (unlike dm_create_empty's)
	 */
	ok = ok && dm_task_set_cookie(t, &cookie, 0) && dm_task_run(t);
	dm_udev_wait(cookie);
	dm_task_destroy(t);
	return ok;
}

bool dm_load(const char *name, const struct dm_table *tb)
{
	struct dm_task *t = task(DM_DEVICE_RELOAD, name);
	size_t i;
	bool ok = true;

	last_error[0] = 0;
	if (!t)
		return false;
	for (i = 0; i < tb->n && ok; i++)
		ok = dm_task_add_target(t, tb->t[i].start, tb->t[i].len, tb->t[i].type,
					tb->t[i].params);
	ok = ok && dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}

bool dm_suspend(const char *name, bool noflush)
{
	struct dm_task *t = task(DM_DEVICE_SUSPEND, name);
	bool ok;

	last_error[0] = 0;
	if (!t)
		return false;
	ok = (!noflush || dm_task_no_flush(t)) && dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}

bool dm_resume(const char *name, uint32_t *cookie)
{
	struct dm_task *t = task(DM_DEVICE_RESUME, name);
	uint32_t own = 0;
	bool ok;

	last_error[0] = 0;
	if (!t)
		return false;
	ok = dm_task_set_cookie(t, cookie ? cookie : &own, 0) && dm_task_run(t);
	if (!cookie)
		dm_udev_wait(own);
	dm_task_destroy(t);
	return ok;
}

void dm_wait_cookie(uint32_t cookie)
{
	if (cookie)
		dm_udev_wait(cookie);
}

bool dm_has_target(const char *type)
{
	struct dm_task *t = task(DM_DEVICE_LIST_VERSIONS, NULL);
	struct dm_versions *v, *last;
	bool found = false;

	if (!t)
		return false;
	if (dm_task_run(t) && (v = dm_task_get_versions(t))) {
		do {
			last = v;
			if (!strcmp(v->name, type))
				found = true;
			v = (struct dm_versions *)((char *)v + v->next);
		} while (last != v && !found);
	}
	dm_task_destroy(t);
	return found;
}

char *dm_load_target(const char *type, const char *module)
{
	char *mod[] = { "modprobe", "dm-mod", NULL }, *m[] = { "modprobe", (char *)module, NULL };
	char *out = NULL;
	size_t l;

	if (dm_has_target(type))
		return NULL;
	spawn_run(mod, SPAWN_NONE, NULL);
	spawn_run(m, SPAWN_BOTH, &out);
	if (!out)
		out = xstrdup("");
	l = strlen(out);
	while (l && out[l - 1] == '\n')
		out[--l] = 0;
	if (dm_has_target(type)) {
		free(out);
		return NULL;
	}
	return out;
}

void dm_need_ssdstripe(void)
{
	char *why = dm_load_target("ssdstripe", "dm-ssdstripe");

	if (why)
		die(EX_FAILED, "the ssdstripe device-mapper target is not available (modprobe dm-ssdstripe failed%s%s)",
		    *why ? ": " : "", why);
}

bool dm_mknode(const char *name)
{
	struct dm_task *t = task(DM_DEVICE_MKNODES, name);
	bool ok;

	if (!t)
		return false;
	ok = dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}

char *dm_sysdir(const char *name)
{
	struct dm_dev_info info;
	char p[64];

	if (!dm_info_of(name, &info))
		return NULL;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", info.major, info.minor);
	return realpath(p, NULL);
}

bool dm_message(const char *name, const char *msg)
{
	struct dm_task *t = task(DM_DEVICE_TARGET_MSG, name);
	bool ok;

	if (!t)
		return false;
	ok = dm_task_set_sector(t, 0) && dm_task_set_message(t, msg) && dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}
