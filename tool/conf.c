// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the configuration file's reader (conf.h), the rules of
 * scripts/lib/config.sh's conf_value and conf_problems.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "str.h"
#include "conf.h"
#include "dev.h"
#include "dm.h"
#include "out.h"

/* the keywords: KEY, its kind, its default (config.sh's CONF_KEYS) */
static const struct {
	const char *name, *kind, *def;
} keys[] = {
	{ "BOOT", "names", "" }, { "ARRAY", "array", "" }, { "AUTO", "yesno", "yes" },
	{ "TIMEOUT", "count", "30" }, { "MONITOR_EXEC", "text", "" },
	{ "MONITOR_EXEC_TIMEOUT", "seconds", "60" }, { "MONITOR_TEXTFILE", "path", "" },
	{ "MONITOR_INTERVAL", "seconds", "10" }, { "SMART_CACHE", "count", "60" },
	{ "SMART_WEAR_WARN", "count", "90" }, { "SMART_SPARE_MARGIN", "count", "10" },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const char *conf_path(void)
{
	const char *c = getenv("SSDSTRIPE_CONF");

	return c && *c ? c : "/etc/ssdstripe.conf";
}

static int key_of(const char *k)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, k))
			return (int)i;
	return -1;
}

/* blank: awk's [[:space:]] */
static bool sp(char c)
{
	return c && strchr(" \t\n\r\v\f", c);
}

/* fs: awk's default field separators (blank, tab, newline) */
static bool fs(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* first_field: awk's $1 of L into BUF */
static void first_field(const char *l, char *buf, size_t len)
{
	size_t n;

	while (fs(*l))
		l++;
	n = strcspn(l, " \t\n");
	if (n >= len)
		n = len - 1;
	memcpy(buf, l, n);
	buf[n] = 0;
}

/*
 * value_of: L without its first word and the blanks around it
 * (sub(/^[[:space:]]*[^[:space:]]+[[:space:]]*\/, "")), and unless TEXT
 * without its comment (a # at the start or after a blank) and trailing
 * blanks; in place, returned
 */
static char *value_of(char *l, bool text)
{
	char *v = l, *e;
	size_t n;

	while (sp(*v))
		v++;
	while (*v && !sp(*v))
		v++;
	while (sp(*v))
		v++;
	if (!text) {
		for (e = v; *e; e++)
			if (*e == '#' && (e == v || sp(e[-1]))) {
				/* the blank before it goes too */
				*(e == v ? e : e - 1) = 0;
				break;
			}
		n = strlen(v);
		while (n && sp(v[n - 1]))
			v[--n] = 0;
	}
	return v;
}

void conf_value(const char *key, char *buf, size_t len)
{
	FILE *f = fopen(conf_path(), "re");
	char *line = NULL, k[256];
	size_t cap = 0;
	ssize_t n;
	int ki = key_of(key);
	bool text = ki >= 0 && !strcmp(keys[ki].kind, "text");

	buf[0] = 0;
	if (!f)
		return;
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[n - 1] = 0;
		first_field(line, k, sizeof(k));
		if (strcmp(k, key))
			continue;
		cpy(buf, len, value_of(line, text));
	}
	free(line);
	fclose(f);
}

/* ---- the problems (config.sh's conf_problems) ----------------------------- */
static size_t lev(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, r;
	/* two rows of the table, B's length at most a keyword's */
	size_t row[2][32];

	if (lb >= 32)
		return SIZE_MAX;
#define D(i, j) row[(i) & 1][j]
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++) {
		D(i, 0) = i;
		for (j = 1; j <= lb; j++) {
			size_t c = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]), t;

			t = D(i - 1, j) + 1;
			if (t < c)
				c = t;
			t = D(i, j - 1) + 1;
			if (t < c)
				c = t;
			D(i, j) = c;
		}
	}
	r = D(la, lb);
#undef D
	return r;
}

static const char *suggest(const char *w)
{
	char u[256];
	size_t i, n = strlen(w);
	double bd;
	const char *best = NULL;

	if (n >= sizeof(u))
		n = sizeof(u) - 1;
	for (i = 0; i < n; i++)
		u[i] = (char)toupper((unsigned char)w[i]);
	u[n] = 0;
	if (key_of(u) >= 0)
		return keys[key_of(u)].name;
	bd = (double)strlen(u) / 3 + 1;
	for (i = 0; i < NKEYS; i++) {
		size_t lu = strlen(u), lk = strlen(keys[i].name), d;

		/* the distance is at least the lengths' difference: no need
		 * to compute one that cannot be nearer */
		if ((double)(lu > lk ? lu - lk : lk - lu) >= bd)
			continue;
		d = lev(u, keys[i].name);

		if ((double)d < bd) {
			bd = (double)d;
			best = keys[i].name;
		}
	}
	return best;
}

static bool name_ok(const char *w)
{
	size_t i, n = strlen(w);

	if (!n || n > 64)
		return false;
	for (i = 0; i < n; i++) {
		char c = w[i];

		if (isalnum((unsigned char)c) && (unsigned char)c < 128)
			continue;
		if (c == '_' || (i && (c == '.' || c == '-')))
			continue;
		return false;
	}
	return true;
}

static bool hexrun(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]) || !s[i])
			return false;
	return true;
}

static bool uuid_ok(const char *u)
{
	/* uuid= and 8-4-4-4-12 lowercase hex digits (U is lowered) */
	static const size_t run[] = { 8, 4, 4, 4, 12 };
	size_t i;

	if (strncmp(u, "uuid=", 5))
		return false;
	u += 5;
	for (i = 0; i < 5; i++) {
		if (!hexrun(u, run[i]))
			return false;
		u += run[i];
		if (i < 4 && *u++ != '-')
			return false;
	}
	return !*u;
}

static bool all_digits(const char *s, bool nonzero_first)
{
	if (!*s || (nonzero_first && *s == '0'))
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* words: V split at runs of blanks, into W (at most MAX); their count */
static size_t words(char *v, char **w, size_t max)
{
	size_t n = 0;
	char *p = v;

	if (!*v)
		return 0;
	for (;;) {
		char *e = p;

		while (*e && !sp(*e))
			e++;
		if (n < max)
			w[n] = p;
		n++;
		if (!*e)
			break;
		*e++ = 0;
		while (sp(*e))
			e++;
		p = e;
	}
	return n;
}

int conf_problems(FILE *file, FILE *out)
{
	char *line = NULL, key[256], *l, *v, *vc, *w[256];
	size_t cap = 0, nw, i;
	long nr = 0, seen[NKEYS] = { 0 };
	ssize_t n;
	int bad = 0;

#define SAY(...) do { fprintf(out, "line %ld: ", nr); fprintf(out, __VA_ARGS__); fputc('\n', out); bad++; } while (0)
	while ((n = getline(&line, &cap, file)) >= 0) {
		int ki;
		const char *k;

		nr++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		l = line;
		while (sp(*l))
			l++;
		if (!*l || *l == '#')
			continue;
		first_field(l, key, sizeof(key));
		ki = key_of(key);
		if (ki < 0) {
			const char *s = suggest(key);

			if (s)
				SAY("unknown keyword '%s' (did you mean %s?): the line is ignored", key, s);
			else
				SAY("unknown keyword '%s': the line is ignored", key);
			continue;
		}
		k = keys[ki].kind;
		v = value_of(l, !strcmp(k, "text"));
		vc = xstrdup(v);
		nw = words(vc, w, sizeof(w) / sizeof(w[0]));
		if (strcmp(k, "names") && strcmp(k, "array")) {
			if (seen[ki])
				SAY("%s again (first on line %ld): only this last one counts", key, seen[ki]);
			else
				seen[ki] = nr;
		}
		if (!strcmp(k, "names")) {
			if (!nw)
				SAY("BOOT needs all, none or array names: the line adds nothing");
			for (i = 0; i < nw && i < 256; i++) {
				bool an = !strcmp(w[i], "all") || !strcmp(w[i], "none");

				if (an && nw > 1)
					SAY("BOOT %s stands alone, not with other words: the initramfs reads '%s' as array names",
					    w[i], v);
				else if (!an && !name_ok(w[i]))
					SAY("'%s' is no valid array name (letters, digits, . _ -; 64 at most): no array has it",
					    w[i]);
			}
		} else if (!strcmp(k, "array")) {
			if (!nw) {
				SAY("ARRAY needs an array: NAME, name=NAME or uuid=UUID; the line is ignored");
			} else {
				char u[512];
				const char *a = w[0];

				for (i = 0; a[i] && i < sizeof(u) - 1; i++)
					u[i] = (char)tolower((unsigned char)a[i]);
				u[i] = 0;
				if (!strncmp(u, "uuid=", 5)) {
					if (!uuid_ok(u))
						SAY("'%s' is no array uuid (8-4-4-4-12 hex digits, as ssdstripe examine shows): no array has it",
						    a);
				} else {
					if (!strncmp(u, "name=", 5))
						a += 5;
					if (!name_ok(a))
						SAY("'%s' is no valid array name (letters, digits, . _ -; 64 at most): no array has it",
						    a);
				}
				if (nw > 1)
					SAY("one array per ARRAY line: '%s' after the first word is ignored",
					    v + strlen(w[0]) + 1);
			}
		} else if (!strcmp(k, "yesno")) {
			if (strcmp(v, "yes") && strcmp(v, "no"))
				SAY("%s is yes or no, not '%s': %s is used", key, v, keys[ki].def);
		} else if (!strcmp(k, "count")) {
			if (!all_digits(v, false))
				SAY("%s is a whole number, not '%s': %s is used", key, v, keys[ki].def);
		} else if (!strcmp(k, "seconds")) {
			if (!all_digits(v, true))
				SAY("%s is a whole number of seconds, 1 or more, not '%s': monitor --config does not start",
				    key, v);
		} else if (!strcmp(k, "path")) {
			if (*v != '/')
				SAY("%s is an absolute path, not '%s': monitor --config does not start", key, v);
		} else if (!nw) {
			SAY("%s needs a value: the line is ignored", key);
		}
		free(vc);
	}
#undef SAY
	free(line);
	return bad;
}

void conf_warn_once(void)
{
	static bool done;
	char *buf = NULL, *l, *e;
	size_t len = 0;
	FILE *f, *m;

	if (done)
		return;
	done = true;
	f = fopen(conf_path(), "re");
	if (!f)
		return;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return;
	}
	conf_problems(f, m);
	fclose(f);
	fclose(m);
	for (l = buf; l && *l; l = e + 1) {
		e = strchr(l, '\n');
		if (!e)
			break;
		*e = 0;
		warn("%s %s", conf_path(), l);
	}
	free(buf);
}

void conf_scan(void)
{
	size_t n, i;
	char **v = dm_arrays(&n);
	struct dm_dev_info info;

	for (i = 0; i < n; i++) {
		const char *u = "";

		if (dm_info_of(v[i], &info) && !strncmp(info.uuid, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)))
			u = info.uuid + strlen(DM_UUID_PREFIX);
		if (*u)
			say("ARRAY uuid=%s  # %s", u, v[i]);
		else
			warn("%s has no labels (made with dmsetup, not ssdstripe create): no ARRAY line, nothing assembles it at boot",
			     v[i]);
	}
	names_free(v, n);
}
