// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: block devices in sysfs and /dev (dev.h).
 */
#include <ctype.h>
#include <stdarg.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev.h"
#include "out.h"
#include "str.h"

char *dev_sysdir(const char *dev)
{
	char link[64], *d;
	struct stat st;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u",
		 major(st.st_rdev), minor(st.st_rdev));
	d = realpath(link, NULL);
	if (!d)
		return NULL;
	if (stat(d, &st) || !S_ISDIR(st.st_mode)) {
		free(d);
		return NULL;
	}
	return d;
}

static bool is_blk(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISBLK(st.st_mode);
}

char *dev_path(const char *name)
{
	char f[PATH_MAX], dm[256], *p;

	pathf(f, sizeof(f), "/sys/class/block/%s/dm/name", name);
	if (!access(f, R_OK)) {
		read_attr(f, dm, sizeof(dm));
		p = xasprintf("/dev/mapper/%s", dm);
		if (is_blk(p))
			return p;
		free(p);
	}
	p = xasprintf("/dev/%s", name);
	if (is_blk(p))
		return p;
	free(p);
	return NULL;
}

char *dev_pretty(const char *name)
{
	char f[PATH_MAX], dm[256];
	const char *b = strrchr(name, '/');

	b = b ? b + 1 : name;
	if (pathf(f, sizeof(f), "/sys/class/block/%s/dm/name", b) && !access(f, R_OK)) {
		read_attr(f, dm, sizeof(dm));
		return xasprintf("mapper/%s", dm);
	}
	return xstrdup(b);
}

char *dev_canon(const char *arg)
{
	char *p, *s, *d;

	p = arg[0] == '/' ? xstrdup(arg) : xasprintf("/dev/%s", arg);
	if (!is_blk(p)) {
		free(p);
		return NULL;
	}
	s = dev_sysdir(p);
	if (!s) {
		free(p);
		return NULL;
	}
	d = dev_path(strrchr(s, '/') + 1);
	free(s);
	if (d) {
		free(p);
		return d;
	}
	return p;
}

bool read_attr(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");
	size_t n;

	buf[0] = 0;
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f)) {
		buf[0] = 0;
		fclose(f);
		return false;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	buf[n] = 0;
	return true;
}

bool attr_at(const char *dir, const char *name, char *buf, size_t len)
{
	char f[PATH_MAX];

	pathf(f, sizeof(f), "%s/%s", dir, name);
	return read_attr(f, buf, len);
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	s[n] = 0;
	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

bool sysfs_word(const char *file, char *buf, size_t len)
{
	const char *base = strrchr(file, '/');

	buf[0] = 0;
	if (access(file, R_OK))
		return false;
	if (base && !strcmp(base, "/vpd_pg80")) {
		/* a VPD page starts with binary bytes: printable ASCII only */
		FILE *f = fopen(file, "re");
		size_t n = 0;
		int c;

		if (!f)
			return false;
		while ((c = fgetc(f)) != EOF)
			if (c >= ' ' && c <= '~' && n + 1 < len)
				buf[n++] = (char)c;
		buf[n] = 0;
		fclose(f);
	} else {
		read_attr(file, buf, len);
	}
	trim(buf);
	return buf[0] != 0;
}

bool drive_serial(const char *dir, char *buf, size_t len)
{
	static const char *const where[] = {
		"device/serial", "device/device/serial", "serial", "device/vpd_pg80",
	};
	char f[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		pathf(f, sizeof(f), "%s/%s", dir, where[i]);
		if (sysfs_word(f, buf, len))
			return true;
	}
	buf[0] = 0;
	return false;
}

bool pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = 0;
		return false;
	}
	return true;
}

bool path_exists(const char *dir, const char *name)
{
	char f[PATH_MAX];

	pathf(f, sizeof(f), "%s/%s", dir, name);
	return !access(f, F_OK);
}

bool is_dir(const char *dir, const char *name)
{
	char f[PATH_MAX];
	struct stat st;

	pathf(f, sizeof(f), "%s/%s", dir, name);
	return !stat(f, &st) && S_ISDIR(st.st_mode);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void names_sort(char **v, size_t n)
{
	if (v && n)
		qsort(v, n, sizeof(*v), cmp_names);
}

char **dir_names(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				die(EX_FAILED, "out of memory");
		}
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	names_sort(v, *n);
	return v;
}

char **block_names(size_t *n)
{
	return dir_names("/sys/class/block", n);
}

void names_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

char **names_keep(char **v, size_t n, bool (*keep)(const char *name, void *ctx), void *ctx,
		  size_t *kept)
{
	char **out = NULL;
	size_t i;

	*kept = 0;
	for (i = 0; i < n; i++) {
		if (keep(v[i], ctx)) {
			out = realloc(out, (*kept + 1) * sizeof(*out));
			if (!out)
				die(EX_FAILED, "out of memory");
			out[(*kept)++] = v[i];
		} else {
			free(v[i]);
		}
	}
	free(v);
	return out;
}

char *dev_of_majmin(const char *mm)
{
	char l[64], *r, *d;

	snprintf(l, sizeof(l), "/sys/dev/block/%s", mm);
	r = realpath(l, NULL);
	if (!r)
		return NULL;
	d = dev_path(strrchr(r, '/') + 1);
	free(r);
	return d;
}

/* is_candidate: a device a label could be on, as the sh tool's candidates() */
static bool is_candidate(const char *name, void *ctx)
{
	static const char *const skip[] = { "ram", "zram", "sr", "fd", "nbd" };
	char dir[PATH_MAX], v[256], sub[PATH_MAX];
	char **h;
	size_t i, nh;

	(void)ctx;
	if (!pathf(dir, sizeof(dir), "/sys/class/block/%s", name) || !path_exists(dir, "dev"))
		return false;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return false;
	if (!strncmp(name, "loop", 4) && !path_exists(dir, "loop/backing_file"))
		return false;
	if (attr_at(dir, "hidden", v, sizeof(v)) && !strcmp(v, "1"))
		return false;
	/* a held device is seen through its holder (dm-linear, multipath):
	 * reading it too would show every label twice */
	if (!pathf(sub, sizeof(sub), "%s/holders", dir))
		return false;
	h = dir_names(sub, &nh);
	names_free(h, nh);
	if (nh)
		return false;
	if (!attr_at(dir, "size", v, sizeof(v)) || strtoull(v, NULL, 10) <= 4096)
		return false;
	/* our own arrays are not members of anything */
	if (attr_at(dir, "dm/uuid", v, sizeof(v)) && !strncmp(v, "SSDSTRIPE-", 10))
		return false;
	return true;
}

char **dev_candidates(size_t *n)
{
	size_t nb, nk, i;
	char **all = block_names(&nb), **v = names_keep(all, nb, is_candidate, NULL, &nk), **out = NULL;

	*n = 0;
	for (i = 0; i < nk; i++) {
		char *p = dev_path(v[i]);

		if (!p)
			continue;
		out = realloc(out, (*n + 1) * sizeof(*out));
		if (!out)
			die(EX_FAILED, "out of memory");
		out[(*n)++] = p;
	}
	names_free(v, nk);
	return out;
}

/* dev_link_name: the name at the end of link P, as readlink -f gives it
 * (a link that leads nowhere: the name it names) */
void dev_link_name(const char *p, char *buf, size_t len)
{
	char *r = realpath(p, NULL), t[PATH_MAX];
	const char *b;
	ssize_t n;

	buf[0] = 0;
	if (r) {
		b = strrchr(r, '/');
		cpy(buf, len, b ? b + 1 : r);
		free(r);
		return;
	}
	n = readlink(p, t, sizeof(t) - 1);
	if (n <= 0)
		return;
	t[n] = 0;
	b = strrchr(t, '/');
	cpy(buf, len, b ? b + 1 : t);
}
