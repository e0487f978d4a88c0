// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the files that hold array sectors (fsfiles.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extprog.h"
#include "fsfiles.h"
#include "out.h"

/* a growing string */
struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_add(struct sbuf *b, const char *t, size_t n)
{
	if (!b->s || b->len + n + 1 > b->cap) {
		char *g = realloc(b->s, (b->len + n + 1) * 2);

		if (!g)
			die(EX_FAILED, "out of memory");
		b->s = g;
		b->cap = (b->len + n + 1) * 2;
	}
	memcpy(b->s + b->len, t, n);
	b->len += n;
	b->s[b->len] = 0;
}

static char *sb_done(struct sbuf *b)
{
	return b->s ? b->s : xstrdup("");
}

/* next_line: the line at *P (LEN set, without its newline); NULL at the end */
static const char *next_line(const char **p, size_t *len)
{
	const char *l = *p, *e;

	if (!*l)
		return NULL;
	e = strchrnul(l, '\n');
	*len = (size_t)(e - l);
	*p = *e ? e + 1 : e;
	return l;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

unsigned long fs_block_size(const char *text)
{
	const char *p = text, *l;
	size_t len, i;

	while ((l = next_line(&p, &len))) {
		char v[32];
		size_t n = 0;

		if (len < 10 || strncmp(l, "Block size", 10))
			continue;
		/* the second ':' field, its spaces dropped, as a number */
		for (i = 0; i < len && l[i] != ':'; i++)
			;
		for (i++; i < len && l[i] != ':' && n < sizeof(v) - 1; i++)
			if (l[i] != ' ')
				v[n++] = l[i];
		v[n] = 0;
		return strtoul(v, NULL, 10);
	}
	return 0;
}

char *fs_blocks(const uint64_t (*r)[2], size_t n, unsigned long bs)
{
	struct sbuf b = { 0 };
	size_t i;

	for (i = 0; bs && i < n; i++) {
		uint64_t x0 = r[i][0] * 512 / bs, x1 = r[i][1] * 512 / bs, x;

		for (x = x0; x <= x1 && x < x0 + 64; x++) {
			char w[32];
			int l = snprintf(w, sizeof(w), "%" PRIu64 " ", x);

			sb_add(&b, w, (size_t)l);
		}
	}
	return sb_done(&b);
}

/* word: the Ith (0-based) blank-separated word of line L (LEN bytes) */
static const char *word(const char *l, size_t len, unsigned int i, size_t *wl)
{
	size_t a = 0, e;

	for (;;) {
		while (a < len && blank(l[a]))
			a++;
		if (a == len)
			return NULL;
		for (e = a; e < len && !blank(l[e]); e++)
			;
		if (!i--) {
			*wl = e - a;
			return l + a;
		}
		a = e;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

char *fs_inodes(const char *text)
{
	const char *p = text, *l, *w;
	size_t len, wl, n = 0, cap = 0, i;
	uint64_t *v = NULL;
	struct sbuf b = { 0 };
	bool first = true;

	while ((l = next_line(&p, &len))) {
		char num[24];

		if (first) {
			first = false;
			continue;
		}
		w = word(l, len, 1, &wl);
		if (!w || !wl || wl >= sizeof(num) || strspn(w, "0123456789") < wl)
			continue;
		memcpy(num, w, wl);
		num[wl] = 0;
		if (n == cap) {
			uint64_t *g = realloc(v, (cap ? cap * 2 : 16) * sizeof(*v));

			if (!g)
				die(EX_FAILED, "out of memory");
			v = g;
			cap = cap ? cap * 2 : 16;
		}
		v[n++] = strtoull(num, NULL, 10);
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < n; i++) {
		char t[32];
		int tl;

		if (i && v[i] == v[i - 1])
			continue;
		tl = snprintf(t, sizeof(t), "%" PRIu64 " ", v[i]);
		sb_add(&b, t, (size_t)tl);
	}
	free(v);
	return sb_done(&b);
}

char *fs_names(const char *text)
{
	const char *p = text, *l, *w;
	size_t len, wl;
	struct sbuf b = { 0 };
	bool first = true;

	while ((l = next_line(&p, &len))) {
		unsigned int i;

		if (first) {
			first = false;
			continue;
		}
		for (i = 1; (w = word(l, len, i, &wl)); i++) {
			if (i > 1)
				sb_add(&b, " ", 1);
			sb_add(&b, w, wl);
		}
		sb_add(&b, " ", 1);
	}
	return sb_done(&b);
}

char *fs_files(const char *dev, const uint64_t (*r)[2], size_t n)
{
	char *out = NULL, *blocks, *inos, *names, *cmd;
	unsigned long bs;

	if (!n || !spawn_found("debugfs"))
		return xstrdup("");
	{
		char *argv[] = { "dumpe2fs", "-h", (char *)dev, NULL };

		if (spawn_run(argv, SPAWN_OUT, &out) < 0) {
			free(out);
			return xstrdup("");
		}
	}
	bs = fs_block_size(out);
	free(out);
	blocks = fs_blocks(r, n, bs);
	if (!*blocks)
		return blocks;
	cmd = xasprintf("icheck %s", blocks);
	free(blocks);
	{
		char *argv[] = { "debugfs", "-c", "-R", cmd, (char *)dev, NULL };
		int rc = spawn_run(argv, SPAWN_OUT, &out);

		free(cmd);
		if (rc < 0) {
			free(out);
			return xstrdup("");
		}
	}
	inos = fs_inodes(out);
	free(out);
	if (!*inos)
		return inos;
	cmd = xasprintf("ncheck %s", inos);
	free(inos);
	{
		char *argv[] = { "debugfs", "-c", "-R", cmd, (char *)dev, NULL };
		int rc = spawn_run(argv, SPAWN_OUT, &out);

		free(cmd);
		if (rc < 0) {
			free(out);
			return xstrdup("");
		}
	}
	names = fs_names(out);
	free(out);
	return names;
}
