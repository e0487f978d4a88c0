// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the JSON strings the tool writes (jstr.c): \ and "
 * escaped, control characters and DEL as \u00XX, as the sh tool's
 * AWK_JSON json_str writes them (tests/tool-output checks that one on the
 * same string); a plain string as json-c writes it, / unescaped.  Under
 * ASan/UBSan and valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "jstr.h"

static void is(const char *s, const char *want)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "k", jstr(s));
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE), want);
	json_object_put(o);
}

static void test_escapes(void **state)
{
	(void)state;
	is("a\\b\"c\td\001e\177f", "{\"k\":\"a\\\\b\\\"c\\u0009d\\u0001e\\u007ff\"}");
	is("Odd \"model\" \\x", "{\"k\":\"Odd \\\"model\\\" \\\\x\"}");
	is("nqn.2026-11.org.example:storage1/x", "{\"k\":\"nqn.2026-11.org.example:storage1/x\"}");
	is("line\nnext\x1f", "{\"k\":\"line\\u000anext\\u001f\"}");
	is("", "{\"k\":\"\"}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
