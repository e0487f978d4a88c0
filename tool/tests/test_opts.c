// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the one option parser (opts.c), the cases of
 * tests/command-list's value rules and a few more, under ASan and UBSan.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opts.h"
#include "out.h"

#define SPEC "--name= --chunk= --force|-f --scan|-s"

struct seen {
	char s[512];
};

static void record(void *ctx, const char *name, const char *value)
{
	struct seen *r = ctx;
	size_t n = strlen(r->s);

	snprintf(r->s + n, sizeof(r->s) - n, "[%s%s%s]", name ? name : "",
		 value ? "=" : "", value ? value : "");
}

/* parse WORDS (space-separated; "''" an empty word) */
static int parse(const char *words, struct seen *r, struct opts_error *e)
{
	char *copy = strdup(words), *argv[16], *w;
	int argc = 0, rc;

	memset(r, 0, sizeof(*r));
	for (w = strtok(copy, " "); w && argc < 16; w = strtok(NULL, " "))
		argv[argc++] = strcmp(w, "''") ? w : "";
	rc = opts_parse_err(argc, argv, SPEC, record, r, e);
	free(copy);
	return rc;
}

static void test_rules(void **state)
{
	static const struct {
		const char *words;
		int rc;
		const char *got;	/* handled, in order */
		const char *err;
	} cases[] = {
		{ "--name x a b", 0, "[--name=x][=a][=b]", "" },
		{ "a --name=x b", 0, "[=a][--name=x][=b]", "" },
		{ "--name=a=b", 0, "[--name=a=b]", "" },
		{ "-f -s --force", 0, "[--force][--scan][--force]", "" },
		{ "- a", 0, "[=-][=a]", "" },
		{ "-- --help -f", 0, "[=--help][=-f]", "" },
		{ "--chunk", EX_USAGE, "", "--chunk needs a value" },
		{ "--name= x", EX_USAGE, "", "--name needs a value" },
		{ "--name ''", EX_USAGE, "", "--name needs a value" },
		{ "--scan=yes", EX_USAGE, "", "--scan takes no value" },
		{ "-f=1 x", EX_USAGE, "", "unknown option -f=1" },
		{ "--no-such-option", EX_USAGE, "", "unknown option --no-such-option" },
		{ "x -Z", EX_USAGE, "[=x]", "unknown option -Z" },
		{ "--nam x", EX_USAGE, "", "unknown option --nam" },
		{ "--name|--chunk x", EX_USAGE, "", "unknown option --name|--chunk" },
		{ "''", EX_USAGE, "", "an empty argument ('') names nothing" },
		{ "-- ''", EX_USAGE, "", "an empty argument ('') names nothing" },
		{ "--=x", EX_USAGE, "", "unknown option --=x" },
		{ "a --help --bad", OPTS_HELP, "[=a]", "" },
		{ "-- -h", 0, "[=-h]", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct seen r;
		struct opts_error e;

		assert_int_equal(parse(cases[i].words, &r, &e), cases[i].rc);
		assert_string_equal(r.s, cases[i].got);
		assert_string_equal(e.msg, cases[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
	};

	return cmocka_run_group_tests_name("opts", tests, NULL, NULL);
}
