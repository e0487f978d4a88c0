// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: device-mapper tables and status lines as text (table.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out.h"
#include "table.h"

/* words: PARAMS split on blanks into at most MAX words (a copy in BUF) */
static size_t words(const char *params, char *buf, size_t bl, char **w, size_t max)
{
	char *save = NULL, *p;
	size_t n = 0;

	snprintf(buf, bl, "%s", params);
	for (p = strtok_r(buf, " \t\n", &save); p && n < max; p = strtok_r(NULL, " \t\n", &save))
		w[n++] = p;
	return n;
}

static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &end, 10);
	return !*end;
}

static bool majmin(const char *s)
{
	unsigned int a, b;
	int n = 0;

	return sscanf(s, "%u:%u%n", &a, &b, &n) == 2 && !s[n] && *s >= '0' && *s <= '9';
}

bool table_parse(uint64_t len, const char *params, struct ss_table *t, char *err, size_t el)
{
	size_t bl = strlen(params) + 1, nw, i;
	char *buf = xmalloc(bl), **w = xmalloc(sizeof(char *) * (2 * TABLE_MAX_MEMBERS + 64));
	uint64_t v;
	bool ok = false;

	memset(t, 0, sizeof(*t));
	t->len = len;
	nw = words(params, buf, bl, w, 2 * TABLE_MAX_MEMBERS + 64);
	if (nw < 2 || !number(w[0], &v) || !v || v > TABLE_MAX_MEMBERS) {
		snprintf(err, el, "no member count of 1 to %d", TABLE_MAX_MEMBERS);
		goto out;
	}
	t->n = (unsigned int)v;
	if (!number(w[1], &t->chunk) || !t->chunk) {
		snprintf(err, el, "no chunk size");
		goto out;
	}
	if (nw < 2 + 2 * (size_t)t->n) {
		snprintf(err, el, "%u members named, %zu given", t->n, (nw - 2) / 2);
		goto out;
	}
	t->mm = calloc(t->n, sizeof(char *));
	t->off = calloc(t->n, sizeof(char *));
	if (!t->mm || !t->off)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < t->n; i++) {
		if (!majmin(w[2 + 2 * i]) || !number(w[3 + 2 * i], &v)) {
			snprintf(err, el, "member %zu is not MAJ:MIN OFFSET", i);
			goto out;
		}
		t->mm[i] = xstrdup(w[2 + 2 * i]);
		t->off[i] = xstrdup(w[3 + 2 * i]);
	}
	{
		char *f = xstrdup("");

		for (i = 2 + 2 * (size_t)t->n; i < nw; i++) {
			char *x = xasprintf("%s%s%s", f, *f ? " " : "", w[i]);

			free(f);
			f = x;
		}
		t->feat = f;
	}
	ok = true;
out:
	free(buf);
	free(w);
	if (!ok)
		table_free(t);
	return ok;
}

void table_free(struct ss_table *t)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		if (t->mm)
			free(t->mm[i]);
		if (t->off)
			free(t->off[i]);
	}
	free(t->mm);
	free(t->off);
	free(t->feat);
	memset(t, 0, sizeof(*t));
}

char *table_params(const struct ss_table *t, unsigned int k, const char *mm, const char *off)
{
	char *p = xasprintf("%u %" PRIu64, t->n, t->chunk), *x;
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		x = xasprintf("%s %s %s", p, i == k ? mm : t->mm[i], i == k ? off : t->off[i]);
		free(p);
		p = x;
	}
	if (t->feat && *t->feat) {
		x = xasprintf("%s %s", p, t->feat);
		free(p);
		p = x;
	}
	return p;
}

bool mirror_status_parse(const char *params, uint64_t *sync, uint64_t *total, char health[3])
{
	char buf[1024], *w[16];
	size_t nw = words(params, buf, sizeof(buf), w, 16);
	uint64_t nl;
	int n = 0;

	if (nw < 1 || !number(w[0], &nl) || nl != 2 || nw < nl + 4)
		return false;
	if (sscanf(w[nl + 1], "%" SCNu64 "/%" SCNu64 "%n", sync, total, &n) != 2 || w[nl + 1][n] ||
	    *sync > *total)
		return false;
	if (strlen(w[nl + 3]) != 2)
		return false;
	health[0] = w[nl + 3][0];
	health[1] = w[nl + 3][1];
	health[2] = 0;
	return true;
}

bool mirror_legs_parse(const char *params, char **old_mm, char **new_mm)
{
	char buf[1024], *w[16];
	size_t nw = words(params, buf, sizeof(buf), w, 16);

	/* core 1 REGION 2 OLD OFF NEW OFF ... */
	if (nw < 8 || strcmp(w[0], "core") || strcmp(w[3], "2") || !majmin(w[4]) || !majmin(w[6]))
		return false;
	*old_mm = xstrdup(w[4]);
	*new_mm = xstrdup(w[6]);
	return true;
}

size_t geo_array_ranges(uint64_t chunk, unsigned int n, unsigned int k, uint64_t f, uint64_t l,
			uint64_t (*out)[2], size_t max)
{
	uint64_t s = f;
	size_t c = 0;

	if (!chunk || !n || k >= n)
		return 0;
	while (s <= l) {
		uint64_t row = s / chunk, w = s - row * chunk, e = (row + 1) * chunk - 1, a;

		if (e > l)
			e = l;
		a = (row * n + k) * chunk + w;
		if (c < max) {
			out[c][0] = a;
			out[c][1] = a + e - s;
		}
		c++;
		if (e == UINT64_MAX)
			break;
		s = e + 1;
	}
	return c;
}
