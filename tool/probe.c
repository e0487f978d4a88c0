// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: signatures on a device (probe.h), read by libblkid as
 * "blkid -p" reads them: superblocks of every usage and partition tables.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blkid/blkid.h>

#include "dev.h"
#include "out.h"
#include "probe.h"

static const char *article(const char *w)
{
	return strchr("aeiouAEIOUx", w[0]) && w[0] ? "an" : "a";
}

/* the first partition of the whole disk at sysfs directory DIR, by name */
static bool first_partition(const char *dir, char *buf, size_t len)
{
	const char *disk = strrchr(dir, '/') + 1;
	size_t dl = strlen(disk), nn, i;
	char **names = NULL;
	struct dirent *e;
	DIR *d = opendir(dir);
	bool found = false;

	if (!d)
		return false;
	nn = 0;
	while ((e = readdir(d))) {
		char f[PATH_MAX];

		if (strncmp(e->d_name, disk, dl))
			continue;
		pathf(f, sizeof(f), "%s/%s", dir, e->d_name);
		if (!path_exists(f, "partition"))
			continue;
		names = realloc(names, (nn + 1) * sizeof(*names));
		if (!names)
			die(EX_FAILED, "out of memory");
		names[nn++] = xstrdup(e->d_name);
	}
	closedir(d);
	for (i = 0; i < nn; i++) {
		if (!found || strcmp(names[i], buf) < 0) {
			snprintf(buf, len, "%s", names[i]);
			found = true;
		}
	}
	names_free(names, nn);
	return found;
}

bool foreign_signature(const char *dev, char *buf, size_t len)
{
	const char *type = NULL, *pttype = NULL;
	char *sd = dev_sysdir(dev), part[256];
	blkid_probe pr;
	bool ret = false;
	int rc;

	buf[0] = 0;
	if (sd && first_partition(sd, part, sizeof(part))) {
		snprintf(buf, len, "partitions (%s)", part);
		free(sd);
		return true;
	}
	free(sd);
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return false;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		snprintf(buf, len, "several signatures (blkid: ambivalent result; wipefs %s lists them)", dev);
		ret = true;
	} else if (rc == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL) && type && *type) {
			snprintf(buf, len, "%s %s signature", article(type), type);
			ret = true;
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL) &&
			   pttype && *pttype) {
			if (!strcmp(pttype, "dos"))
				snprintf(buf, len, "an MBR partition table");
			else if (!strcmp(pttype, "gpt"))
				snprintf(buf, len, "a GPT partition table");
			else
				snprintf(buf, len, "a %s partition table", pttype);
			ret = true;
		}
	}
	blkid_free_probe(pr);
	return ret;
}
