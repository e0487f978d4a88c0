// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: block device geometry and raw writes (blk.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/blkpg.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blk.h"
#include "dev.h"
#include "out.h"

static uint64_t attr_num(const char *dir, const char *name)
{
	char v[64];

	return attr_at(dir, name, v, sizeof(v)) ? strtoull(v, NULL, 10) : 0;
}

uint64_t blk_size(const char *dev)
{
	char *s = dev_sysdir(dev);
	uint64_t n = s ? attr_num(s, "size") : 0;

	free(s);
	return n;
}

/* disk_dir: the sysfs directory of DEV's whole disk (malloc'd) */
static char *disk_dir(const char *dev)
{
	char *s = dev_sysdir(dev), *p;

	if (s && path_exists(s, "partition")) {
		p = strrchr(s, '/');
		if (p)
			*p = 0;
	}
	return s;
}

uint64_t blk_queue(const char *dev, const char *attr)
{
	char *s = disk_dir(dev), q[PATH_MAX];
	uint64_t n = 0;

	if (s && pathf(q, sizeof(q), "%s/queue", s))
		n = attr_num(q, attr);
	free(s);
	return n;
}

bool blk_majmin(const char *dev, unsigned int *ma, unsigned int *mi)
{
	struct stat st;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return false;
	*ma = major(st.st_rdev);
	*mi = minor(st.st_rdev);
	return true;
}

static bool dir_built_on(const char *dir, const char *mm, int depth)
{
	char v[32], sl[PATH_MAX], sub[PATH_MAX];
	char **names;
	size_t n, i;
	bool found = false;

	if (attr_at(dir, "dev", v, sizeof(v)) && !strcmp(v, mm))
		return true;
	if (depth > 16 || !pathf(sl, sizeof(sl), "%s/slaves", dir))
		return false;
	names = dir_names(sl, &n);
	for (i = 0; i < n && !found; i++) {
		char *real;

		if (!pathf(sub, sizeof(sub), "%s/%s", sl, names[i]))
			continue;
		real = realpath(sub, NULL);
		if (real)
			found = dir_built_on(real, mm, depth + 1);
		free(real);
	}
	names_free(names, n);
	return found;
}

bool blk_built_on(const char *dev, unsigned int ma, unsigned int mi)
{
	char *s = dev_sysdir(dev), mm[32];
	bool found;

	if (!s)
		return false;
	snprintf(mm, sizeof(mm), "%u:%u", ma, mi);
	found = dir_built_on(s, mm, 0);
	free(s);
	return found;
}

static bool is_partition(const char *name, void *ctx)
{
	char sub[PATH_MAX];

	return pathf(sub, sizeof(sub), "%s/%s", (const char *)ctx, name) && path_exists(sub, "partition");
}

char **blk_partitions(const char *dev, size_t *n)
{
	char *s = dev_sysdir(dev), **v;
	size_t all;

	*n = 0;
	if (!s)
		return NULL;
	v = dir_names(s, &all);
	v = names_keep(v, all, is_partition, s, n);
	free(s);
	return v;
}

bool blk_drop_partitions(int fd)
{
	return !ioctl(fd, BLKRRPART, 0);
}

int blk_del_partitions(int fd, const char *dev)
{
	size_t n, i;
	char **v = blk_partitions(dev, &n), f[PATH_MAX], num[16];
	int e = 0;

	for (i = 0; i < n; i++) {
		struct blkpg_partition p;
		struct blkpg_ioctl_arg a;

		if (!pathf(f, sizeof(f), "/sys/class/block/%s", v[i]) ||
		    !attr_at(f, "partition", num, sizeof(num)))
			continue;
		memset(&p, 0, sizeof(p));
		memset(&a, 0, sizeof(a));
		p.pno = atoi(num);
		a.op = BLKPG_DEL_PARTITION;
		a.datalen = sizeof(p);
		a.data = &p;
		if (ioctl(fd, BLKPG, &a))
			e = errno;
	}
	names_free(v, n);
	return e;
}

int blk_zero(int fd, uint64_t start, uint64_t n)
{
	static const char zero[65536];
	uint64_t at = start * 512, end = (start + n) * 512;

	while (at < end) {
		size_t c = end - at < sizeof(zero) ? (size_t)(end - at) : sizeof(zero);
		ssize_t w = pwrite(fd, zero, c, (off_t)at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		at += (uint64_t)w;
	}
	return fsync(fd) ? errno : 0;
}

int blk_discard(int fd, uint64_t start, uint64_t n)
{
	uint64_t r[2] = { start * 512, n * 512 };

	return ioctl(fd, BLKDISCARD, r) ? errno : 0;
}

size_t blk_drive_ids(const char *dev, char ids[2][300])
{
	char *s = disk_dir(dev), v[256], f[PATH_MAX];
	size_t n = 0;

	if (!s)
		return 0;
	if (drive_serial(s, v, sizeof(v)))
		snprintf(ids[n++], sizeof(ids[0]), "serial:%s", v);
	if ((pathf(f, sizeof(f), "%s/wwid", s) && sysfs_word(f, v, sizeof(v))) ||
	    (pathf(f, sizeof(f), "%s/device/wwid", s) && sysfs_word(f, v, sizeof(v))))
		snprintf(ids[n++], sizeof(ids[0]), "wwn:%s", v);
	free(s);
	return n;
}
