// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe stop: the commands that act on active arrays as a whole
 * (list, table and clear have their own files: list.c, tablecmd.c,
 * clear.c).
 *
 * stop NAME... | --scan: deactivate arrays (the labels stay); refused
 * while an array is open or mounted, or while a replace of one of its
 * members runs.  Exit: 0 stopped, 1 failed or in use, 2 usage, 4 no such
 * array.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "histlog.h"
#include "opts.h"
#include "out.h"
#include "probe.h"

static const char *uuid_of(const struct dm_dev_info *info)
{
	size_t p = strlen(DM_UUID_PREFIX);

	return strncmp(info->uuid, DM_UUID_PREFIX, p) ? info->uuid : info->uuid + p;
}

/* stop_one: stop active array NAME; false, having said why, if it stays */
static bool stop_one(const char *name)
{
	struct dm_dev_info info;
	char *mirror, *u, *detail, where[4200];
	int tries;

	if (!dm_info_of(name, &info)) {
		warn("cannot stop %s: %s", name, dm_last_error());
		return false;
	}
	u = xasprintf("%sREPLACE-%s", DM_UUID_PREFIX, uuid_of(&info));
	mirror = dm_name_of_uuid(u);
	free(u);
	if (mirror) {
		free(mirror);
		warn("cannot stop %s: a replace of one of its members is in progress ('%s replace --abort %s' stops it, or wait for it: '%s status %s')",
		     name, PROG, name, PROG, name);
		return false;
	}
	/*
	 * udev's probe of a new or changed array holds it open for a moment
	 * (dmsetup remove --retry waits for the same): wait up to 2.5 s for
	 * an opener that is not a mount to let go; an array still open then
	 * is in use, and stays
	 */
	for (tries = 0; info.open_count && tries < 25; tries++) {
		if (mounted_on(info.major, info.minor, where, sizeof(where)))
			break;
		usleep(100000);
		if (!dm_info_of(name, &info))
			break;
	}
	if (info.open_count) {
		if (mounted_on(info.major, info.minor, where, sizeof(where)))
			warn("cannot stop %s: it is open (mounted on %s)", name, where);
		else
			warn("cannot stop %s: it is open", name);
		return false;
	}
	if (!dm_remove(name)) {
		warn("cannot stop %s: %s", name, dm_last_error());
		return false;
	}
	say("stopped %s", name);
	detail = xasprintf("(%s)", hist_cmd ? hist_cmd : "");
	history_add("stopped", name, uuid_of(&info), NULL, NULL, detail);
	free(detail);
	return true;
}

int cmd_stop(int argc, char **argv)
{
	struct flag_operands a = { 0 };	/* --scan */
	int rc = EX_OK;
	size_t i;

	opts_parse(argc, argv, "--scan|-s", flag_operands_opt, &a, help_of);
	if (a.flag) {
		char **all, *left = xstrdup("");
		size_t n;

		if (a.ops.n)
			usage_die("--scan takes no names");
		all = dm_arrays(&n);
		if (!n) {
			say("no active arrays");
			free(left);
			return EX_OK;
		}
		for (i = 0; i < n; i++) {
			if (!stop_one(all[i])) {
				char *t = xasprintf("%s %s", left, all[i]);

				free(left);
				left = t;
				rc = EX_FAILED;
			}
		}
		if (*left)
			warn("left active:%s", left);
		free(left);
		names_free(all, n);
		return rc;
	}
	if (!a.ops.n)
		usage_die("stop needs an array name, or --scan");
	for (i = 0; i < a.ops.n; i++) {
		if (!dm_is_array(a.ops.v[i])) {
			warn("%s is not an active ssdstripe array", a.ops.v[i]);
			rc = EX_NOTFOUND;
			continue;
		}
		if (!stop_one(a.ops.v[i]))
			rc = EX_FAILED;
	}
	operands_free(&a.ops);
	return rc;
}
