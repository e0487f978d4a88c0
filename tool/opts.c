// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the one option parser (opts.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "out.h"

#define EMPTY_ARG "an empty argument ('') names nothing"

/*
 * spec_find: the word of SPEC one of whose names is KEY (KLEN bytes):
 * its first name into NAME, whether it takes a value into VALUE
 */
static bool spec_find(const char *spec, const char *key, size_t klen,
		      char *name, size_t nlen, bool *value)
{
	const char *w = spec;

	while (*w) {
		const char *end, *n;
		size_t wl;
		bool takes;

		while (*w == ' ')
			w++;
		if (!*w)
			break;
		end = strchr(w, ' ');
		wl = end ? (size_t)(end - w) : strlen(w);
		takes = wl > 0 && w[wl - 1] == '=';
		if (takes)
			wl--;
		for (n = w; n < w + wl;) {
			const char *bar = memchr(n, '|', (size_t)(w + wl - n));
			size_t al = bar ? (size_t)(bar - n) : (size_t)(w + wl - n);

			if (al == klen && !memcmp(n, key, klen)) {
				const char *first = memchr(w, '|', wl);
				size_t fl = first ? (size_t)(first - w) : wl;

				if (fl >= nlen)
					fl = nlen - 1;
				memcpy(name, w, fl);
				name[fl] = 0;
				*value = takes;
				return true;
			}
			if (!bar)
				break;
			n = bar + 1;
		}
		w += wl + (takes ? 1 : 0);
	}
	return false;
}

#define FAIL(...) do { \
	snprintf(err->msg, sizeof(err->msg), __VA_ARGS__); \
	return EX_USAGE; \
} while (0)

int opts_parse_err(int argc, char *const argv[], const char *spec,
		   opt_handler h, void *ctx, struct opts_error *err)
{
	int i = 0;

	err->msg[0] = 0;
	while (i < argc) {
		const char *a = argv[i], *eq = NULL;
		char name[64];
		size_t klen;
		bool takes;

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++) {
				if (!*argv[i])
					FAIL(EMPTY_ARG);
				h(ctx, NULL, argv[i]);
			}
			return 0;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
			return OPTS_HELP;
		if (!*a)
			FAIL(EMPTY_ARG);
		if (a[0] != '-' || !a[1]) {
			h(ctx, NULL, a);
			i++;
			continue;
		}
		/* --key=value; a short option is one word */
		klen = strlen(a);
		if (a[1] == '-' && a[2] && a[2] != '=') {
			eq = strchr(a + 3, '=');
			if (eq)
				klen = (size_t)(eq - a);
		}
		if (!spec_find(spec, a, klen, name, sizeof(name), &takes))
			FAIL("unknown option %s", a);
		if (!takes) {
			if (eq)
				FAIL("%.*s takes no value", (int)klen, a);
			h(ctx, name, NULL);
			i++;
		} else if (eq) {
			if (!eq[1])
				FAIL("%.*s needs a value", (int)klen, a);
			h(ctx, name, eq + 1);
			i++;
		} else {
			if (i + 1 >= argc || !*argv[i + 1])
				FAIL("%s needs a value", a);
			h(ctx, name, argv[i + 1]);
			i += 2;
		}
	}
	return 0;
}

void opts_parse(int argc, char *const argv[], const char *spec,
		opt_handler h, void *ctx, void (*help)(void))
{
	struct opts_error err;

	switch (opts_parse_err(argc, argv, spec, h, ctx, &err)) {
	case 0:
		return;
	case OPTS_HELP:
		help();
		exit(EX_OK);
	default:
		usage_die("%s", err.msg);
	}
}

void operands_add(struct operands *o, const char *value)
{
	o->v = realloc(o->v, (o->n + 1) * sizeof(*o->v));
	if (!o->v)
		die(EX_FAILED, "out of memory");
	o->v[o->n++] = (char *)value;
}

void operands_free(struct operands *o)
{
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

void flag_operands_opt(void *ctx, const char *name, const char *value)
{
	struct flag_operands *a = ctx;

	if (name)
		a->flag = true;
	else
		operands_add(&a->ops, value);
}
