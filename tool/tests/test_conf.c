// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the configuration reader (conf.c) and the boot policy
 * (bootpolicy.c): every problem config.sh's conf_problems names, in its
 * words and order (the keyword a misspelling meant, a second line of a
 * keyword that counts once, a # that is a comment or part of a text
 * value); the value of a keyword; and what boot assembles from the file
 * and the kernel command line (ssdstripe.assemble=, ssdstripe.timeout=),
 * as bootpolicy.sh's boot_selection, boot_wanted and boot_allowed gave
 * it.  Under ASan/UBSan and valgrind.
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

#include "bootpolicy.h"
#include "conf.h"

static char dir[64], cf[96], cl[96];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/conf-test.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(cf, sizeof(cf), "%s/ssdstripe.conf", dir);
	snprintf(cl, sizeof(cl), "%s/cmdline", dir);
	setenv("SSDSTRIPE_CONF", cf, 1);
	setenv("SSDSTRIPE_CMDLINE", cl, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(cf);
	unlink(cl);
	rmdir(dir);
	return 0;
}

static const char problems_conf[] =
	"# comment\n"
	"BOOT fast slow\n"
	"BOOT all fast  # mixed\n"
	"BOOT\n"
	"BOOT bad/name\n"
	"ARRAY fast\n"
	"ARRAY uuid=0F0F3C3C-1111-4222-8333-444455556666\n"
	"ARRAY uuid=nope extra words\n"
	"ARRAY name=.bad\n"
	"ARRAY\n"
	"  AUTO maybe\n"
	"AUTO yes\n"
	"TIMEOUT 3x\n"
	"TIMEOUT 5\n"
	"MONITOR_EXEC /bin/echo # not a comment\n"
	"MONITOR_EXEC\n"
	"MONITOR_EXEC_TIMEOUT 0\n"
	"MONITOR_TEXTFILE rel/path\n"
	"MONITOR_INTERVAL 10\n"
	"SMART_CACHE -1\n"
	"bot all\n"
	"monitor_exec x\n"
	"XYZZY 1\n"
	"TIMEOUT\t7\t#tab\n";

/* what config.sh's conf_problems printed for it */
static const char problems_expected[] =
	"line 3: BOOT all stands alone, not with other words: the initramfs reads 'all fast' as array names\n"
	"line 4: BOOT needs all, none or array names: the line adds nothing\n"
	"line 5: 'bad/name' is no valid array name (letters, digits, . _ -; 64 at most): no array has it\n"
	"line 8: 'uuid=nope' is no array uuid (8-4-4-4-12 hex digits, as ssdstripe examine shows): no array has it\n"
	"line 8: one array per ARRAY line: 'extra words' after the first word is ignored\n"
	"line 9: '.bad' is no valid array name (letters, digits, . _ -; 64 at most): no array has it\n"
	"line 10: ARRAY needs an array: NAME, name=NAME or uuid=UUID; the line is ignored\n"
	"line 11: AUTO is yes or no, not 'maybe': yes is used\n"
	"line 12: AUTO again (first on line 11): only this last one counts\n"
	"line 13: TIMEOUT is a whole number, not '3x': 30 is used\n"
	"line 14: TIMEOUT again (first on line 13): only this last one counts\n"
	"line 16: MONITOR_EXEC again (first on line 15): only this last one counts\n"
	"line 16: MONITOR_EXEC needs a value: the line is ignored\n"
	"line 17: MONITOR_EXEC_TIMEOUT is a whole number of seconds, 1 or more, not '0': monitor --config does not start\n"
	"line 18: MONITOR_TEXTFILE is an absolute path, not 'rel/path': monitor --config does not start\n"
	"line 20: SMART_CACHE is a whole number, not '-1': 60 is used\n"
	"line 21: unknown keyword 'bot' (did you mean BOOT?): the line is ignored\n"
	"line 22: unknown keyword 'monitor_exec' (did you mean MONITOR_EXEC?): the line is ignored\n"
	"line 23: unknown keyword 'XYZZY': the line is ignored\n"
	"line 24: TIMEOUT again (first on line 13): only this last one counts\n";

static void gather(const char *problem, void *ctx)
{
	FILE *f = ctx;

	fprintf(f, "%s\n", problem);
}

static void test_problems(void **state)
{
	struct conf c;
	char *out = NULL, *v;
	size_t len = 0, n;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	put(cf, problems_conf);
	assert_true(conf_scan(cf, &c));
	n = conf_problems(&c, gather, f);
	fclose(f);
	assert_string_equal(out, problems_expected);
	assert_int_equal(n, 20);
	free(out);
	/* the last line wins; a text value keeps its #, others lose it */
	v = conf_value(&c, "TIMEOUT");
	assert_string_equal(v, "7");
	free(v);
	v = conf_value(&c, "MONITOR_EXEC");
	assert_string_equal(v, "");
	free(v);
	v = conf_value(&c, "NOPE");
	assert_string_equal(v, "");
	free(v);
	conf_free(&c);
	put(cf, "MONITOR_EXEC /bin/echo  # kept  \nSMART_CACHE 30 # said\n");
	assert_true(conf_scan(cf, &c));
	v = conf_value(&c, "MONITOR_EXEC");
	assert_string_equal(v, "/bin/echo  # kept  ");
	free(v);
	v = conf_value(&c, "SMART_CACHE");
	assert_string_equal(v, "30");
	free(v);
	conf_free(&c);
	assert_false(conf_scan("/nonexistent/ssdstripe.conf", &c));
	/* a file that opens but cannot be read (config: "cannot check") */
	assert_false(conf_scan(dir, &c));
	assert_int_equal(c.n, 0);
}

/* the policy of FILE with the kernel command line CMDLINE, as the test
 * program of the sh's boot_selection printed it */
static char *policy(const char *file, const char *cmdline)
{
	struct bootpolicy b;
	char *w, *s;

	put(cf, file);
	put(cl, cmdline);
	boot_selection(&b);
	w = boot_wanted(&b);
	s = NULL;
	assert_true(asprintf(&s, "SEL=[%s] T=%llu NONE=%d A=[%s] AUTO=%s W=[%s] %d %d", b.sel, b.timeout,
			     b.cmdline_none, b.arrays, b.autoyes ? "yes" : "no", w,
			     boot_allowed(&b, "fast", "x"),
			     boot_allowed(&b, "q", "0f0f3c3c-1111-4222-8333-444455556666")) > 0);
	free(w);
	boot_free(&b);
	return s;
}

static void check_policy(const char *file, const char *cmdline, const char *expected)
{
	char *s = policy(file, cmdline);

	assert_string_equal(s, expected);
	free(s);
}

static const char listed[] =
	"AUTO no\n"
	"ARRAY name=fast\n"
	"ARRAY UUID=0F0F3C3C-1111-4222-8333-444455556666 # x\n"
	"BOOT slow#c\n"
	"TIMEOUT 12\n";

static void test_policy(void **state)
{
	(void)state;
	check_policy(listed, "quiet\n",
		     "SEL=[slow] T=12 NONE=0 A=[name=fast UUID=0F0F3C3C-1111-4222-8333-444455556666] AUTO=no W=[fast uuid=0f0f3c3c-1111-4222-8333-444455556666 slow ] 1 1");
	check_policy(listed, "ssdstripe.assemble=none\n",
		     "SEL=[none] T=12 NONE=1 A=[name=fast UUID=0F0F3C3C-1111-4222-8333-444455556666] AUTO=no W=[fast uuid=0f0f3c3c-1111-4222-8333-444455556666 ] 1 1");
	check_policy(listed, "x ssdstripe.assemble=a,b,fast ssdstripe.timeout=9\n",
		     "SEL=[a b fast] T=9 NONE=0 A=[name=fast UUID=0F0F3C3C-1111-4222-8333-444455556666] AUTO=no W=[fast uuid=0f0f3c3c-1111-4222-8333-444455556666 a b ] 1 1");
	check_policy(listed, "ssdstripe.timeout=x\n",
		     "SEL=[slow] T=30 NONE=0 A=[name=fast UUID=0F0F3C3C-1111-4222-8333-444455556666] AUTO=no W=[fast uuid=0f0f3c3c-1111-4222-8333-444455556666 slow ] 1 1");
	check_policy("AUTO no\nBOOT other\n", "quiet\n",
		     "SEL=[other] T=30 NONE=0 A=[] AUTO=no W=[other ] 0 0");
	/* AUTO without yes or no is yes; an empty BOOT line adds a blank */
	check_policy("AUTO\nBOOT\n", "quiet\n", "SEL=[all] T=30 NONE=0 A=[] AUTO=yes W=[] 1 1");
	check_policy("BOOT none\nBOOT\n", "quiet\n", "SEL=[none ] T=30 NONE=0 A=[] AUTO=yes W=[none ] 1 1");
	check_policy("", "ssdstripe.assemble=\n", "SEL=[all] T=30 NONE=0 A=[] AUTO=yes W=[] 1 1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_policy),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
