// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe wipe: erase our label, and only ours, as mdadm
 * --zero-superblock does for md: the 4 KiB label block, read back from
 * the device to check it is gone.  Every device is checked before any is
 * written, and each is held open with O_EXCL from its check to its last
 * write: a device that someone claims meanwhile (a mount, swap, a
 * device-mapper or md device built on it) is refused, and one that is
 * held is never claimed by anyone else while it is written.
 * Exit: 0 wiped, 1 failed (write or verify), 2 usage, 3 refused (in use),
 * 4 no label.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "histlog.h"
#include "label.h"
#include "opts.h"
#include "out.h"
#include "probe.h"

/* member_of: NAME = the active array the device at sysfs DIR is a member of */
static bool member_of(const char *dir, char *name, size_t len)
{
	char h[PATH_MAX], u[256];
	char **names;
	size_t n, i;
	bool found = false;

	name[0] = 0;
	if (!pathf(h, sizeof(h), "%s/holders", dir))
		return false;
	names = dir_names(h, &n);
	for (i = 0; i < n; i++) {
		if (!pathf(h, sizeof(h), "%s/holders/%s", dir, names[i]))
			continue;
		if (attr_at(h, "dm/uuid", u, sizeof(u)) &&
		    !strncmp(u, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX))) {
			attr_at(h, "dm/name", name, len);
			found = true;
		}
	}
	names_free(names, n);
	return found;
}

/* wipe_one: zero DEV's label block through FD and read it back */
static void wipe_one(const char *dev, int fd)
{
	char other[512], *what, *detail;
	struct label l;
	const char *name = NULL, *uuid = NULL, *idx = NULL;
	int e;

	if (label_read_fd(fd, &l) == LABEL_OK) {
		what = xasprintf("member %s of array %s, uuid %s",
				 l.f[LK_INDEX], l.f[LK_NAME], l.f[LK_UUID]);
		name = l.f[LK_NAME];
		uuid = l.f[LK_UUID];
		idx = l.f[LK_INDEX];
	} else {
		what = xstrdup(l.err[0] ? l.err : "damaged label");
	}
	if (!foreign_signature(dev, other, sizeof(other)))
		other[0] = 0;
	e = label_erase(fd);
	if (e < 0)
		die(EX_FAILED, "%s: the label block is not zero after wiping it", dev);
	if (e) {
		warn("%s: %s", dev, strerror(e));
		die(EX_FAILED, "cannot wipe the label of %s", dev);
	}
	say("wiped the ssdstripe label of %s (%s)%s%s%s", dev, what, other[0] ? "; " : "",
	    other, other[0] ? " left alone" : "");
	detail = xasprintf("the label of %s (%s) (%s)",
			   strncmp(dev, "/dev/", 5) ? dev : dev + 5, what, hist_cmd ? hist_cmd : "");
	history_add("wiped", name, uuid, idx, NULL, detail);
	free(detail);
	free(what);
	label_free(&l);
}

int cmd_wipe(int argc, char **argv)
{
	struct flag_operands a = { 0 };	/* --force */
	char **todo, why[512], arr[256];
	dev_t *seen;
	int *fds, rc = EX_OK;
	size_t j, nt = 0, ns = 0;

	opts_parse(argc, argv, "--force|-f", flag_operands_opt, &a, help_of);
	if (!a.ops.n)
		usage_die("wipe needs a device");
	todo = xmalloc(a.ops.n * sizeof(*todo));
	fds = xmalloc(a.ops.n * sizeof(*fds));
	seen = xmalloc(a.ops.n * sizeof(*seen));
	for (j = 0; j < a.ops.n; j++) {
		char *c = dev_canon(a.ops.v[j]), *sd;
		struct stat st, held;
		size_t k;
		int fd;

		if (!c || stat(c, &st)) {
			warn("%s: not a block device", a.ops.v[j]);
			if (rc < EX_NOTFOUND)
				rc = EX_NOTFOUND;
			free(c);
			continue;
		}
		for (k = 0; k < ns && seen[k] != st.st_rdev; k++)
			;
		if (k < ns) {
			free(c);
			continue;
		}
		seen[ns++] = st.st_rdev;
		sd = dev_sysdir(c);
		if (sd && member_of(sd, arr, sizeof(arr))) {
			warn("refusing %s: it is a member of active array %s (stop the array first)", c, arr);
			rc = EX_REFUSED;
		} else if (sd && busy_dir(sd, why, sizeof(why))) {
			warn("refusing %s: it is in use (%s)", c, why);
			rc = EX_REFUSED;
		} else if ((fd = open(c, O_RDWR | O_EXCL | O_CLOEXEC)) < 0) {
			if (errno == EBUSY) {
				warn("refusing %s: it is in use (another program holds it open exclusively)", c);
				rc = EX_REFUSED;
			} else {
				warn("cannot open %s: %s", c, strerror(errno));
				rc = rc > EX_FAILED ? rc : EX_FAILED;
			}
		} else if (fstat(fd, &held) || !S_ISBLK(held.st_mode) || held.st_rdev != st.st_rdev) {
			/* the node now names another device than the one checked */
			warn("refusing %s: it changed while it was checked (renamed or replugged); nothing was written to it",
			     c);
			rc = EX_REFUSED;
			close(fd);
		} else if (!label_magic(fd)) {
			if (a.flag) {
				say("%s has no ssdstripe label; nothing to wipe (--force)", c);
			} else {
				warn("%s has no ssdstripe label; nothing to wipe (--force ignores this)", c);
				if (rc < EX_NOTFOUND)
					rc = EX_NOTFOUND;
			}
			close(fd);
		} else {
			todo[nt] = c;
			fds[nt++] = fd;
			c = NULL;
		}
		free(sd);
		free(c);
	}
	if (rc != EX_OK)
		die(rc, "wipe refused; nothing was written");
	for (j = 0; j < nt; j++) {
		wipe_one(todo[j], fds[j]);
		close(fds[j]);
		free(todo[j]);
	}
	free(todo);
	free(fds);
	free(seen);
	operands_free(&a.ops);
	return EX_OK;
}
