// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: an active array's sysfs statistics (arraysys.h).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arraysys.h"
#include "dev.h"
#include "dm.h"
#include "out.h"

const char *const member_counter_file[MC_N] = {
	"read_ios", "write_ios", "read_sectors", "write_sectors", "errors", "retries", "inflight",
};

char *arraysys_dir(const char *name)
{
	struct dm_dev_info info;
	char p[64], *dir, *s;
	struct stat st;

	if (!dm_info_of(name, &info))
		return NULL;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", info.major, info.minor);
	dir = realpath(p, NULL);
	if (!dir)
		return NULL;
	s = xasprintf("%s/ssdstripe", dir);
	free(dir);
	if (stat(s, &st) || !S_ISDIR(st.st_mode)) {
		free(s);
		return NULL;
	}
	return s;
}

bool arraysys_attr(const char *asys, const char *file, char *buf, size_t len)
{
	return attr_at(asys, file, buf, len);
}

bool arraysys_member_attr(const char *asys, unsigned int i, const char *file, char *buf,
			  size_t len)
{
	char f[PATH_MAX];

	if (!pathf(f, sizeof(f), "%s/members/%u/%s", asys, i, file)) {
		buf[0] = 0;
		return false;
	}
	return read_attr(f, buf, len);
}

bool arraysys_member_count(const char *asys, unsigned int *n)
{
	char b[32];

	*n = 0;
	if (!arraysys_attr(asys, "member_count", b, sizeof(b)) || !*b)
		return false;
	*n = (unsigned int)strtoul(b, NULL, 10);
	return true;
}

/* a whole number, as the sh's num() takes one: digits only, else 0 */
static uint64_t whole(const char *s)
{
	if (!*s || s[strspn(s, "0123456789")])
		return 0;
	return strtoull(s, NULL, 10);
}

void arraysys_counters(const char *asys, unsigned int i, uint64_t v[MC_N])
{
	char b[64];
	int c;

	for (c = 0; c < MC_N; c++) {
		arraysys_member_attr(asys, i, member_counter_file[c], b, sizeof(b));
		v[c] = whole(b);
	}
}

bool arraysys_hist(const char *asys, unsigned int i, struct lathist *h)
{
	char f[PATH_MAX], text[8192];
	ssize_t n;
	size_t got = 0;
	int fd;

	h->n = 0;
	if (!pathf(f, sizeof(f), "%s/members/%u/latency_histogram", asys, i))
		return false;
	fd = open(f, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (got < sizeof(text) - 1 && (n = read(fd, text + got, sizeof(text) - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	text[got] = 0;
	lathist_parse(text, h);
	return true;
}

bool arraysys_member_dev(const char *asys, unsigned int i, char *buf, size_t len)
{
	char f[PATH_MAX], t[PATH_MAX], *b;
	ssize_t n;

	buf[0] = 0;
	if (!pathf(f, sizeof(f), "%s/members/%u/block", asys, i))
		return false;
	n = readlink(f, t, sizeof(t) - 1);
	if (n < 0)
		return false;
	t[n] = 0;
	b = strrchr(t, '/');
	snprintf(buf, len, "%s", b ? b + 1 : t);
	return true;
}
