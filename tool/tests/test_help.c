// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the help texts (help.c), under ASan/UBSan and valgrind:
 * every text names only values help.c has and begins with its usage; the
 * main help lists every command.  tests/help compares the texts
 * themselves with their expected files, byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "help.h"

/* TEMPLATE expanded (malloc'd); *OK whether every $NAME has a value */
static char *expand(const char *template, bool *ok)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	*ok = help_expand(f, template);
	fclose(f);
	return s;
}

static void test_texts(void **state)
{
	const char *c;
	size_t i;
	bool ok;

	(void)state;
	for (i = 0; (c = help_command_at(i)); i++) {
		char *t = expand(help_template(c), &ok), *u = NULL;

		assert_true(ok);
		assert_true(asprintf(&u, "usage: ssdstripe %s", c) > 0);
		assert_memory_equal(t, u, strlen(u));
		assert_true(help_is_command(c));
		free(u);
		free(t);
	}
	assert_int_equal(i, 17);
	assert_false(help_is_command("help"));
	assert_false(help_is_command(""));
	assert_null(help_template("nope"));
	assert_false(help_print(stdout, "nope"));
}

static void test_expand(void **state)
{
	bool ok;
	char *t;

	(void)state;
	setenv("SSDSTRIPE_RUNDIR", "/r", 1);
	t = expand("$PROG ${PROG}x $$PROG $SCRUB_RUN/a $HIST_KEEP $DEFAULT_CHUNK $ 1$", &ok);
	assert_true(ok);
	assert_string_equal(t, "ssdstripe ssdstripex $PROG /r/scrub/a 3 64K $ 1$");
	free(t);
	unsetenv("SSDSTRIPE_RUNDIR");
	t = expand("a $NOPE ${PROG b", &ok);
	assert_false(ok);
	assert_string_equal(t, "a $NOPE ${PROG b");
	free(t);
}

static void test_main(void **state)
{
	char *s = NULL, *l, *save = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&s, &len);
	const char *c;

	(void)state;
	assert_non_null(f);
	help_main(f);
	fclose(f);
	assert_memory_equal(s, "usage: ssdstripe COMMAND [ARGS]\n\nCommands:\n", 42);
	/* no line past 78 columns, and every command has its line */
	for (l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		assert_true(strlen(l) <= 78);
	free(s);
	s = NULL;
	f = open_memstream(&s, &len);
	assert_non_null(f);
	help_main(f);
	fclose(f);
	for (i = 0; (c = help_command_at(i)); i++) {
		char *w = NULL, *at;

		assert_true(asprintf(&w, "\n  %s", c) > 0);
		at = strstr(s, w);
		assert_non_null(at);
		at += strlen(w);
		assert_true(*at == ' ' || *at == '\n');
		free(w);
	}
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_texts),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_main),
	};

	return cmocka_run_group_tests_name("help", tests, NULL, NULL);
}
