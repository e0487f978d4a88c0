// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the configuration file's reader (conf.c): a keyword's
 * value (the last line's, without its comment unless the keyword takes
 * text) and the problems of a file, line by line, as config.sh's
 * conf_value and conf_problems say them (tests/integration/tool/021's
 * file, and every kind of value).  Under ASan/UBSan and valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "conf.h"

static char file[] = "/tmp/conf-test.XXXXXX";

static void write_conf(const char *text)
{
	FILE *f = fopen(file, "we");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void problems(const char *text, const char *want, int n)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f, *o;

	write_conf(text);
	f = fopen(file, "re");
	assert_non_null(f);
	o = open_memstream(&out, &len);
	assert_non_null(o);
	assert_int_equal(conf_problems(f, o), n);
	fclose(f);
	fclose(o);
	assert_string_equal(out, want);
	free(out);
}

static void test_problems(void **state)
{
	(void)state;
	problems("# the new user's file\nBOOT none\nARRAYS cf\nAUTO no\nMONITOR_INTERVL 5\nTIMEOUT 30s\n"
		 "ARRAY cf extra\nMONITOR_TEXTFILE /tmp/cf.prom\nAUTO maybe\n",
		 "line 3: unknown keyword 'ARRAYS' (did you mean ARRAY?): the line is ignored\n"
		 "line 5: unknown keyword 'MONITOR_INTERVL' (did you mean MONITOR_INTERVAL?): the line is ignored\n"
		 "line 6: TIMEOUT is a whole number, not '30s': 30 is used\n"
		 "line 7: one array per ARRAY line: 'extra' after the first word is ignored\n"
		 "line 9: AUTO again (first on line 4): only this last one counts\n"
		 "line 9: AUTO is yes or no, not 'maybe': yes is used\n", 6);
	problems("BOOT none\nAUTO no\nARRAY uuid=0f0f3c3c-1111-4222-8333-444455556666  # cf\n", "", 0);
	problems("  \n\t# comment\nsmart_cache 5\nXYZZY 1\n",
		 "line 3: unknown keyword 'smart_cache' (did you mean SMART_CACHE?): the line is ignored\n"
		 "line 4: unknown keyword 'XYZZY': the line is ignored\n", 2);
	problems("BOOT\nBOOT all fast\nBOOT -x\nARRAY\nARRAY uuid=0F0F3C3C-1111-4222-8333-44445555666\n"
		 "ARRAY name=.x\nMONITOR_INTERVAL 0\nMONITOR_EXEC_TIMEOUT 5 # five\nMONITOR_TEXTFILE rel/x\n"
		 "MONITOR_EXEC\nMONITOR_EXEC echo # not a comment\nSMART_CACHE 10 # ten\n",
		 "line 1: BOOT needs all, none or array names: the line adds nothing\n"
		 "line 2: BOOT all stands alone, not with other words: the initramfs reads 'all fast' as array names\n"
		 "line 3: '-x' is no valid array name (letters, digits, . _ -; 64 at most): no array has it\n"
		 "line 4: ARRAY needs an array: NAME, name=NAME or uuid=UUID; the line is ignored\n"
		 "line 5: 'uuid=0F0F3C3C-1111-4222-8333-44445555666' is no array uuid (8-4-4-4-12 hex digits, as ssdstripe examine shows): no array has it\n"
		 "line 6: '.x' is no valid array name (letters, digits, . _ -; 64 at most): no array has it\n"
		 "line 7: MONITOR_INTERVAL is a whole number of seconds, 1 or more, not '0': monitor --config does not start\n"
		 "line 9: MONITOR_TEXTFILE is an absolute path, not 'rel/x': monitor --config does not start\n"
		 "line 10: MONITOR_EXEC needs a value: the line is ignored\n"
		 "line 11: MONITOR_EXEC again (first on line 10): only this last one counts\n", 10);
}

static void test_value(void **state)
{
	char v[256];

	(void)state;
	setenv("SSDSTRIPE_CONF", file, 1);
	write_conf("SMART_CACHE 5\n  SMART_CACHE   7   # seven\nMONITOR_EXEC echo a # b  \nSMART_WEAR_WARN#x\n");
	conf_value("SMART_CACHE", v, sizeof(v));
	assert_string_equal(v, "7");
	conf_value("MONITOR_EXEC", v, sizeof(v));
	assert_string_equal(v, "echo a # b  ");
	conf_value("SMART_SPARE_MARGIN", v, sizeof(v));
	assert_string_equal(v, "");
	setenv("SSDSTRIPE_CONF", "/nonexistent", 1);
	conf_value("SMART_CACHE", v, sizeof(v));
	assert_string_equal(v, "");
}

static int setup(void **state)
{
	int fd;

	(void)state;
	fd = mkstemp(file);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(file);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_value),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
