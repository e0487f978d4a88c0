// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: signatures on a device (probe.h), read by libblkid as
 * "blkid -p" reads them: superblocks of every usage and partition tables.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <blkid/blkid.h>

#include "dev.h"
#include "out.h"
#include "probe.h"

static const char *article(const char *w)
{
	return strchr("aeiouAEIOUx", w[0]) && w[0] ? "an" : "a";
}

/* the first partition, by name, of the whole disk at sysfs directory DIR */
static bool first_partition(const char *dir, char *buf, size_t len)
{
	const char *disk = strrchr(dir, '/') + 1;
	size_t dl = strlen(disk), n, i;
	char **names = dir_names(dir, &n), f[PATH_MAX];
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		if (strncmp(names[i], disk, dl) || !pathf(f, sizeof(f), "%s/%s", dir, names[i]))
			continue;
		if (path_exists(f, "partition")) {
			snprintf(buf, len, "%s", names[i]);
			found = true;
		}
	}
	names_free(names, n);
	return found;
}

/*
 * magic: the common signatures by their magic numbers at their offsets,
 * as the sh tool checked them where it had no util-linux blkid (busybox);
 * SSDSTRIPE_NO_BLKID=1 takes this way, as it did the sh's (tests)
 */
static bool magic(const char *dev, char *buf, size_t len)
{
	static const struct {
		size_t off, n;
		const char *bytes, *what;
	} m[] = {
		{ 510, 2, "\x55\xaa", "an MBR partition table" },
		{ 512, 8, "EFI PART", "a GPT partition table" },
		{ 1080, 2, "\x53\xef", "an ext2/3/4 signature" },
		{ 0, 4, "XFSB", "an xfs signature" },
		{ 65600, 8, "_BHRfS_M", "a btrfs signature" },
		{ 512, 8, "LABELONE", "an LVM2 signature" },
		{ 4096, 4, "\xfc\x4e\x2b\xa9", "a linux_raid_member signature" },
		{ 4086, 10, "SWAPSPACE2", "a swap signature" },
	};
	static bool said;
	unsigned char *b = malloc(17 * 4096);
	ssize_t got = -1;
	size_t i;
	int fd;

	if (!said) {
		said = true;
		warn("no util-linux blkid (SSDSTRIPE_NO_BLKID): checking the common signatures by their magic numbers only");
	}
	if (!b)
		die(EX_FAILED, "out of memory");
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		got = pread(fd, b, 17 * 4096, 0);
		close(fd);
	}
	for (i = 0; got > 0 && i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i].off + m[i].n <= (size_t)got && !memcmp(b + m[i].off, m[i].bytes, m[i].n)) {
			snprintf(buf, len, "%s", m[i].what);
			free(b);
			return true;
		}
	free(b);
	return false;
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
	if (getenv("SSDSTRIPE_NO_BLKID") && *getenv("SSDSTRIPE_NO_BLKID"))
		return magic(dev, buf, len);
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

bool mounted_on(unsigned int ma, unsigned int mi, char *buf, size_t len)
{
	char mm[32], *line = NULL;
	size_t cap = 0;
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	buf[0] = 0;
	snprintf(mm, sizeof(mm), "%u:%u", ma, mi);
	while (f && !found && getline(&line, &cap, f) >= 0) {
		char *fl[5], *save = NULL, *w;
		int nf = 0;

		for (w = strtok_r(line, " \n", &save); w && nf < 5; w = strtok_r(NULL, " \n", &save))
			fl[nf++] = w;
		if (nf == 5 && !strcmp(fl[2], mm)) {
			snprintf(buf, len, "%s", fl[4]);
			found = true;
		}
	}
	free(line);
	if (f)
		fclose(f);
	return found;
}

bool busy_dir(const char *dir, char *buf, size_t len)
{
	char mm[32], line[4096], *name;
	unsigned int ma, mi;
	size_t n;
	FILE *f;

	buf[0] = 0;
	if (!attr_at(dir, "dev", mm, sizeof(mm)) || sscanf(mm, "%u:%u", &ma, &mi) != 2)
		return false;
	if (mounted_on(ma, mi, line, sizeof(line))) {
		snprintf(buf, len, "mounted on %s", line);
		return true;
	}
	if (pathf(line, sizeof(line), "%s/holders", dir)) {
		char **h = dir_names(line, &n);

		if (n) {
			name = dev_pretty(h[0]);
			snprintf(buf, len, "held by %s", name);
			free(name);
		}
		names_free(h, n);
		if (buf[0])
			return true;
	}
	/* /proc/swaps names the node swapon was given (/dev/mapper/x, /dev/dm-3) */
	f = fopen("/proc/swaps", "re");
	while (f && fgets(line, sizeof(line), f)) {
		struct stat st;

		line[strcspn(line, " \t\n")] = 0;
		if (stat(line, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (major(st.st_rdev) == ma && minor(st.st_rdev) == mi) {
			snprintf(buf, len, "in use as swap");
			fclose(f);
			return true;
		}
	}
	if (f)
		fclose(f);
	return false;
}

bool in_use(const char *dev, char *buf, size_t len)
{
	char *s = dev_sysdir(dev), sub[PATH_MAX];
	const char *base;
	char **v;
	size_t n, i;
	bool busy;

	buf[0] = 0;
	if (!s)
		return false;
	busy = busy_dir(s, buf, len);
	base = strrchr(s, '/') + 1;
	v = dir_names(s, &n);
	for (i = 0; i < n && !busy; i++)
		if (!strncmp(v[i], base, strlen(base)) &&
		    pathf(sub, sizeof(sub), "%s/%s", s, v[i]) && path_exists(sub, "dev"))
			busy = busy_dir(sub, buf, len);
	names_free(v, n);
	free(s);
	return busy;
}
