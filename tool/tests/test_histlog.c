// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the history log's writer (histlog.c), in a directory made
 * here: the line's fields (a missing one "-", tabs and newlines in one
 * made blanks), a line that waits in the run directory while the log
 * cannot be written and comes first into it afterwards, in its order, and
 * the rotation at SSDSTRIPE_HISTORY_MAX bytes.  Under ASan/UBSan and
 * valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "histlog.h"

static char top[64], logdir[96], rundir[96], logfile[128], pendf[128];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/histlog-test.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(logdir, sizeof(logdir), "%s/log/ssdstripe", top);
	snprintf(rundir, sizeof(rundir), "%s/run/ssdstripe", top);
	snprintf(logfile, sizeof(logfile), "%s/history.log", logdir);
	snprintf(pendf, sizeof(pendf), "%s/history.pending", rundir);
	setenv("SSDSTRIPE_HISTORY_DIR", logdir, 1);
	setenv("SSDSTRIPE_RUNDIR", rundir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) ? -1 : 0;
}

/* the fields of FILE's line N (from 0) after its time, joined by | */
static void fields(const char *file, int n, char *out, size_t len)
{
	char line[1024], *p;
	FILE *f = fopen(file, "r");
	int i = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && i++ < n)
		;
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	p = strchr(line, '\t');
	assert_non_null(p);
	/* the time: 2026-11-28T01:02:03Z */
	assert_int_equal(p - line, 20);
	assert_int_equal(line[19], 'Z');
	snprintf(out, len, "%s", p + 1);
	for (p = out; *p; p++)
		if (*p == '\t')
			*p = '|';
}

static void test_line(void **state)
{
	char got[1024];

	(void)state;
	hist_cmd = "ssdstripe wipe x";
	history_add("wiped", "hx", "0f1e", "0", NULL, "a\tb\nc (ssdstripe wipe x)");
	history_add("stopped", NULL, "", NULL, NULL, "(ssdstripe stop hx)");
	fields(logfile, 0, got, sizeof(got));
	assert_string_equal(got, "wiped|hx|0f1e|0|-|a b c (ssdstripe wipe x)");
	fields(logfile, 1, got, sizeof(got));
	assert_string_equal(got, "stopped|-|-|-|-|(ssdstripe stop hx)");
}

static void test_pending(void **state)
{
	char got[1024];
	struct stat st;

	(void)state;
	unlink(logfile);
	/* the log's directory cannot be made: the line waits in /run */
	assert_int_equal(rmdir(logdir), 0);
	assert_int_equal(symlink("/proc/version", logdir), 0);
	history_add("assembled", "hs", NULL, NULL, NULL, "first");
	assert_int_equal(stat(logfile, &st), -1);
	fields(pendf, 0, got, sizeof(got));
	assert_string_equal(got, "assembled|hs|-|-|-|first");
	/* once it can be written, the waiting line comes first */
	assert_int_equal(unlink(logdir), 0);
	history_add("cleared", "hs", NULL, NULL, NULL, "second");
	fields(logfile, 0, got, sizeof(got));
	assert_string_equal(got, "assembled|hs|-|-|-|first");
	fields(logfile, 1, got, sizeof(got));
	assert_string_equal(got, "cleared|hs|-|-|-|second");
	assert_int_equal(stat(pendf, &st), -1);
}

static void test_rotate(void **state)
{
	char old[160];
	struct stat st;
	int i;

	(void)state;
	setenv("SSDSTRIPE_HISTORY_MAX", "200", 1);
	for (i = 0; i < 12; i++)
		history_add("cleared", "hs", NULL, NULL, NULL, "a line of about sixty bytes in all");
	unsetenv("SSDSTRIPE_HISTORY_MAX");
	snprintf(old, sizeof(old), "%s.1", logfile);
	assert_int_equal(stat(old, &st), 0);
	assert_true(st.st_size >= 200);
	snprintf(old, sizeof(old), "%s.3", logfile);
	assert_int_equal(stat(old, &st), 0);
	/* three older files kept, no fourth */
	snprintf(old, sizeof(old), "%s.4", logfile);
	assert_int_equal(stat(old, &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_rotate),
	};

	return cmocka_run_group_tests_name("histlog", tests, setup, teardown);
}
