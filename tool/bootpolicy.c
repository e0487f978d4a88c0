// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the boot policy (bootpolicy.h), with the rules of the sh
 * library's boot_selection, boot_wanted and boot_allowed.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootpolicy.h"
#include "conf.h"
#include "out.h"

/* S with " W" added (W alone when S is empty) */
static char *add_word(char *s, const char *w, size_t wl)
{
	char *t = xasprintf("%s%s%.*s", s, *s ? " " : "", (int)wl, w);

	free(s);
	return t;
}

/* the next awk field of *P (blanks between), its length in *L; NULL at the end */
static const char *field(const char **p, size_t *l)
{
	const char *s = *p, *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	e = s;
	while (*e && *e != ' ' && *e != '\t')
		e++;
	*l = (size_t)(e - s);
	*p = e;
	return s;
}

static bool is(const char *f, size_t l, const char *w)
{
	return l == strlen(w) && !strncmp(f, w, l);
}

void boot_selection(struct bootpolicy *b)
{
	const char *path = conf_path(), *cmdline = getenv("SSDSTRIPE_CMDLINE");
	char *sel = xstrdup(""), *tmo = xstrdup(""), *autov = xstrdup(""), *buf = NULL, *p;
	struct conf c;
	size_t i, l, cap = 0;
	FILE *f;

	memset(b, 0, sizeof(*b));
	b->arrays = xstrdup("");
	/* its problems said, with their lines, and boot goes on */
	conf_warn_once();
	if (!access(path, R_OK) && conf_scan(path, &c)) {
		for (i = 0; i < c.n; i++) {
			/* a # starts a comment anywhere on a line */
			char *line = xstrdup(c.l[i].text);
			const char *q = line, *k, *w;
			size_t kl, wl;

			p = strchr(line, '#');
			if (p)
				*p = 0;
			k = field(&q, &kl);
			if (!k) {
				free(line);
				continue;
			}
			if (is(k, kl, "BOOT")) {
				/* the line's words after BOOT, one blank between,
				 * added with a blank (awk's s = s (s ? " " : "") $0) */
				char *rest = xstrdup(""), *t;

				while ((w = field(&q, &wl)))
					rest = add_word(rest, w, wl);
				t = xasprintf("%s%s%s", sel, *sel ? " " : "", rest);
				free(sel);
				free(rest);
				sel = t;
			} else if (is(k, kl, "TIMEOUT")) {
				w = field(&q, &wl);
				free(tmo);
				tmo = w ? xasprintf("%.*s", (int)wl, w) : xstrdup("");
			} else if (is(k, kl, "ARRAY")) {
				w = field(&q, &wl);
				if (w)
					b->arrays = add_word(b->arrays, w, wl);
			} else if (is(k, kl, "AUTO")) {
				w = field(&q, &wl);
				free(autov);
				autov = xasprintf("%.*s %u", w ? (int)wl : 0, w ? w : "", c.l[i].no);
			}
			free(line);
		}
		conf_free(&c);
	}
	/* AUTO's word; anything else than yes or no: yes (said above) */
	b->autoyes = strncmp(autov, "no ", 3) != 0;
	free(autov);
	f = fopen(cmdline && *cmdline ? cmdline : "/proc/cmdline", "re");
	while (f && getdelim(&buf, &cap, 0, f) > 0) {
		char *save = NULL, *a;

		for (a = strtok_r(buf, " \t\n", &save); a; a = strtok_r(NULL, " \t\n", &save)) {
			if (!strncmp(a, "ssdstripe.assemble=", 19)) {
				free(sel);
				sel = xstrdup(a + 19);
				for (p = sel; *p; p++)
					if (*p == ',')
						*p = ' ';
				b->cmdline_none = !strcmp(sel, "none");
			} else if (!strncmp(a, "ssdstripe.timeout=", 18)) {
				free(tmo);
				tmo = xstrdup(a + 18);
			}
		}
	}
	free(buf);
	if (f)
		fclose(f);
	l = strlen(tmo);
	if (!l || strspn(tmo, "0123456789") != l)
		b->timeout = 30;
	else
		b->timeout = l > 18 ? 999999999999999999ULL : strtoull(tmo, NULL, 10);
	free(tmo);
	if (!*sel) {
		free(sel);
		sel = xstrdup("all");
	}
	b->sel = sel;
}

void boot_free(struct bootpolicy *b)
{
	free(b->sel);
	free(b->arrays);
	memset(b, 0, sizeof(*b));
}

char *boot_wanted(const struct bootpolicy *b)
{
	char *all, *out = xstrdup(""), *save = NULL, *w, *t, *p;

	if (!strcmp(b->sel, "all") || !strcmp(b->sel, "none"))
		all = xstrdup(b->arrays);
	else
		all = xasprintf("%s %s", b->arrays, b->sel);
	for (w = strtok_r(all, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *word, *key;

		if (!strncasecmp(w, "uuid=", 5))
			word = xasprintf("uuid=%s", w + 5);
		else if (!strncmp(w, "name=", 5))
			word = xstrdup(w + 5);
		else
			word = xstrdup(w);
		if (!strncmp(word, "uuid=", 5))
			for (p = word; *p; p++)
				*p = (char)tolower((unsigned char)*p);
		/* each once, the first in its place */
		key = xasprintf(" %s ", word);
		t = xasprintf(" %s", out);
		if (!*word || strstr(t, key)) {
			free(t);
			free(key);
			free(word);
			continue;
		}
		free(t);
		free(key);
		t = xasprintf("%s%s ", out, word);
		free(out);
		out = t;
		free(word);
	}
	free(all);
	return out;
}

bool boot_allowed(const struct bootpolicy *b, const char *name, const char *uuid)
{
	char *want, *save = NULL, *w;
	bool ok = false;

	if (b->autoyes)
		return true;
	want = boot_wanted(b);
	for (w = strtok_r(want, " ", &save); w && !ok; w = strtok_r(NULL, " ", &save))
		ok = !strncmp(w, "uuid=", 5) ? !strcmp(w + 5, uuid) : !strcmp(w, name);
	free(want);
	return ok;
}
