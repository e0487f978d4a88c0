// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the configuration file (conf.h).  The same rules, words and
 * order as the sh library's config.sh (conf_value, conf_problems), which
 * the sh monitor still runs.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "out.h"

/* the keywords and the kind of value each takes (config.sh's CONF_KEYS) */
static const struct {
	const char *key, *kind, *dflt;
} keys[] = {
	{ "BOOT", "names", "" },
	{ "ARRAY", "array", "" },
	{ "AUTO", "yesno", "yes" },
	{ "TIMEOUT", "count", "30" },
	{ "MONITOR_EXEC", "text", "" },
	{ "MONITOR_EXEC_TIMEOUT", "seconds", "60" },
	{ "MONITOR_TEXTFILE", "path", "" },
	{ "MONITOR_INTERVAL", "seconds", "10" },
	{ "SMART_CACHE", "count", "60" },
	{ "SMART_WEAR_WARN", "count", "90" },
	{ "SMART_SPARE_MARGIN", "count", "10" },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const char *conf_path(void)
{
	const char *p = getenv("SSDSTRIPE_CONF");

	return p && *p ? p : "/etc/ssdstripe.conf";
}

void conf_parse(const char *text, size_t len, struct conf *c)
{
	const char *p = text, *end = text + len, *e;
	unsigned int no = 0;

	size_t n = 0;

	memset(c, 0, sizeof(*c));
	/* a line per newline, and one after the last */
	for (e = p; e < end; e++)
		n += *e == '\n';
	c->l = xmalloc((n + 1) * sizeof(*c->l));
	while (p < end) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		c->l[c->n].no = ++no;
		/* a NUL ends the line's text, as it ends a C string */
		c->l[c->n++].text = xasprintf("%.*s", (int)(e - p), p);
		p = e + 1;
	}
}

bool conf_scan(const char *path, struct conf *c)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	char buf[4096];
	size_t n;
	int bad;

	memset(c, 0, sizeof(*c));
	if (!f)
		return false;
	m = open_memstream(&text, &len);
	if (!m)
		die(EX_FAILED, "out of memory");
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	/* a read error (a directory, an I/O error): as the sh's awk, which
	 * stops at it, nothing is checked */
	bad = ferror(f);
	fclose(f);
	fclose(m);
	if (!bad)
		conf_parse(text, len, c);
	free(text);
	return !bad;
}

void conf_free(struct conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->l[i].text);
	free(c->l);
	memset(c, 0, sizeof(*c));
}

/* awk's [[:space:]] */
static bool sp(char ch)
{
	return ch && isspace((unsigned char)ch);
}

/* awk's default field separators */
static bool blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static int kind_of(const char *key)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].key, key))
			return (int)i;
	return -1;
}

/* $1 of LINE (malloc'd) */
static char *first_field(const char *line)
{
	const char *e;

	while (blank(*line))
		line++;
	e = line;
	while (*e && !blank(*e))
		e++;
	return xasprintf("%.*s", (int)(e - line), line);
}

/* the value of LINE after its first word, its comment dropped unless TEXT */
static char *value_of(const char *line, bool text)
{
	char *v, *p;

	while (sp(*line))
		line++;
	while (*line && !sp(*line))
		line++;
	while (sp(*line))
		line++;
	v = xstrdup(line);
	if (!text) {
		/* (^|[[:space:]])#.* */
		for (p = v; *p; p++)
			if (*p == '#' && (p == v || sp(p[-1]))) {
				*(p == v ? p : p - 1) = 0;
				break;
			}
		p = v + strlen(v);
		while (p > v && sp(p[-1]))
			*--p = 0;
	}
	return v;
}

/* $1 of LINE is KEY */
static bool first_is(const char *line, const char *key)
{
	size_t n = strlen(key);

	while (blank(*line))
		line++;
	return !strncmp(line, key, n) && (!line[n] || blank(line[n]));
}

char *conf_value(const struct conf *c, const char *key)
{
	int k = kind_of(key);
	const char *last = NULL;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (first_is(c->l[i].text, key))
			last = c->l[i].text;
	return last ? value_of(last, k >= 0 && !strcmp(keys[k].kind, "text")) : xstrdup("");
}

/* the edit distance of A and B, for "did you mean" */
static size_t lev(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, c, t;
	size_t *d = xmalloc((la + 1) * (lb + 1) * sizeof(*d));

#define D(x, y) d[(x) * (lb + 1) + (y)]
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++) {
		D(i, 0) = i;
		for (j = 1; j <= lb; j++) {
			c = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);
			t = D(i - 1, j) + 1;
			if (t < c)
				c = t;
			t = D(i, j - 1) + 1;
			if (t < c)
				c = t;
			D(i, j) = c;
		}
	}
	c = D(la, lb);
#undef D
	free(d);
	return c;
}

/* the keyword W may have meant, or "" */
static const char *suggest(const char *w)
{
	char *u = xstrdup(w), *p;
	const char *best = "";
	double bd;
	size_t i, d;

	for (p = u; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	if (kind_of(u) >= 0) {
		best = keys[kind_of(u)].key;
		free(u);
		return best;
	}
	bd = (double)strlen(u) / 3 + 1;
	for (i = 0; i < NKEYS; i++) {
		size_t lu = strlen(u), lk = strlen(keys[i].key);

		/* the distance is at least the difference of the lengths */
		if ((double)(lu > lk ? lu - lk : lk - lu) >= bd)
			continue;
		d = lev(u, keys[i].key);
		if ((double)d < bd) {
			bd = (double)d;
			best = keys[i].key;
		}
	}
	free(u);
	return best;
}

static bool name_ok(const char *w)
{
	size_t n = strlen(w);

	return n && n <= 64 && (isalnum((unsigned char)w[0]) || w[0] == '_') &&
	       strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

static bool uuid_ok(const char *u)
{
	static const int groups[] = { 8, 4, 4, 4, 12 };
	size_t g;
	int i;

	if (strncmp(u, "uuid=", 5))
		return false;
	u += 5;
	for (g = 0; g < 5; g++) {
		for (i = 0; i < groups[g]; i++, u++)
			if (!isdigit((unsigned char)*u) && !(*u >= 'a' && *u <= 'f'))
				return false;
		if (g < 4 && *u++ != '-')
			return false;
	}
	return !*u;
}

static bool digits(const char *v, bool from1)
{
	if (!*v || (from1 && *v == '0'))
		return false;
	return strspn(v, "0123456789") == strlen(v);
}

struct sink {
	void (*say)(const char *problem, void *ctx);
	void *ctx;
	size_t n;
};

static void problem(struct sink *s, unsigned int no, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(struct sink *s, unsigned int no, const char *fmt, ...)
{
	va_list ap;
	char *m, *l;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		die(EX_FAILED, "out of memory");
	va_end(ap);
	l = xasprintf("line %u: %s", no, m);
	s->say(l, s->ctx);
	s->n++;
	free(l);
	free(m);
}

/* a word of a value: where it starts in it and how long it is */
struct word {
	const char *s;
	int n;
};

/* the words of V, split at [[:space:]]+ (V has no leading blank) */
static struct word *words(const char *v, size_t *n)
{
	struct word *w = xmalloc((strlen(v) / 2 + 1) * sizeof(*w));
	const char *e;

	*n = 0;
	while (*v) {
		e = v;
		while (*e && !sp(*e))
			e++;
		w[*n].s = v;
		w[(*n)++].n = (int)(e - v);
		while (sp(*e))
			e++;
		v = e;
	}
	return w;
}

static bool word_is(const struct word *w, const char *s)
{
	return (size_t)w->n == strlen(s) && !strncmp(w->s, s, (size_t)w->n);
}

static void one_line(const struct conf_line *cl, unsigned int *seen, struct sink *s)
{
	const char *l = cl->text, *kind;
	char *key, *v, *a, *u, *p;
	struct word *w;
	size_t nw, i;
	int k;

	while (sp(*l))
		l++;
	if (!*l || *l == '#')
		return;
	key = first_field(cl->text);
	k = kind_of(key);
	if (k < 0) {
		const char *sg = suggest(key);

		if (*sg)
			problem(s, cl->no, "unknown keyword '%s' (did you mean %s?): the line is ignored", key, sg);
		else
			problem(s, cl->no, "unknown keyword '%s': the line is ignored", key);
		free(key);
		return;
	}
	kind = keys[k].kind;
	v = value_of(l, !strcmp(kind, "text"));
	w = words(v, &nw);
	if (strcmp(kind, "names") && strcmp(kind, "array")) {
		if (seen[k])
			problem(s, cl->no, "%s again (first on line %u): only this last one counts", key, seen[k]);
		else
			seen[k] = cl->no;
	}
	if (!strcmp(kind, "names")) {
		if (!nw)
			problem(s, cl->no, "BOOT needs all, none or array names: the line adds nothing");
		for (i = 0; i < nw; i++) {
			bool an = word_is(&w[i], "all") || word_is(&w[i], "none");
			char *wi = xasprintf("%.*s", w[i].n, w[i].s);

			if (an && nw > 1)
				problem(s, cl->no, "BOOT %s stands alone, not with other words: the initramfs reads '%s' as array names",
					wi, v);
			else if (!an && !name_ok(wi))
				problem(s, cl->no, "'%s' is no valid array name (letters, digits, . _ -; 64 at most): no array has it",
					wi);
			free(wi);
		}
	} else if (!strcmp(kind, "array")) {
		if (!nw) {
			problem(s, cl->no, "ARRAY needs an array: NAME, name=NAME or uuid=UUID; the line is ignored");
		} else {
			char *w0 = xasprintf("%.*s", w[0].n, w[0].s);

			a = w0;
			u = xstrdup(a);
			for (p = u; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (!strncmp(u, "uuid=", 5)) {
				if (!uuid_ok(u))
					problem(s, cl->no, "'%s' is no array uuid (8-4-4-4-12 hex digits, as ssdstripe examine shows): no array has it",
						a);
			} else {
				if (!strncmp(u, "name=", 5))
					a += 5;
				if (!name_ok(a))
					problem(s, cl->no, "'%s' is no valid array name (letters, digits, . _ -; 64 at most): no array has it",
						a);
			}
			free(u);
			free(w0);
			if (nw > 1)
				problem(s, cl->no, "one array per ARRAY line: '%s' after the first word is ignored",
					v + w[0].n + 1);
		}
	} else if (!strcmp(kind, "yesno")) {
		if (strcmp(v, "yes") && strcmp(v, "no"))
			problem(s, cl->no, "%s is yes or no, not '%s': %s is used", key, v, keys[k].dflt);
	} else if (!strcmp(kind, "count")) {
		if (!digits(v, false))
			problem(s, cl->no, "%s is a whole number, not '%s': %s is used", key, v, keys[k].dflt);
	} else if (!strcmp(kind, "seconds")) {
		if (!digits(v, true))
			problem(s, cl->no, "%s is a whole number of seconds, 1 or more, not '%s': monitor --config does not start",
				key, v);
	} else if (!strcmp(kind, "path")) {
		if (*v != '/')
			problem(s, cl->no, "%s is an absolute path, not '%s': monitor --config does not start", key, v);
	} else if (!nw) {
		problem(s, cl->no, "%s needs a value: the line is ignored", key);
	}
	free(w);
	free(v);
	free(key);
}

size_t conf_problems(const struct conf *c, void (*tell)(const char *problem, void *ctx), void *ctx)
{
	struct sink s = { tell, ctx, 0 };
	unsigned int seen[NKEYS] = { 0 };
	size_t i;

	for (i = 0; i < c->n; i++)
		one_line(&c->l[i], seen, &s);
	return s.n;
}

static void say_warn(const char *problem, void *ctx)
{
	warn("%s %s", (const char *)ctx, problem);
}

size_t conf_warn_once(void)
{
	static bool done;
	const char *path = conf_path();
	struct conf c;
	size_t n;

	if (done)
		return 0;
	done = true;
	if (access(path, R_OK) || !conf_scan(path, &c))
		return 0;
	n = conf_problems(&c, say_warn, (void *)path);
	conf_free(&c);
	return n;
}
