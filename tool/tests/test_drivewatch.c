// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the monitor's drive events (drivewatch.c), over the
 * cases of the sh monitor's tests (tests/smart/run): the throttling
 * annotation the monitor adds to "slow", and four looks at a member's
 * drive driven by canned health log pages (tests/smart/nvme-cli.json's
 * values, as the admin ioctl gives them): look 1 a healthy drive (no
 * event), look 2 the same drive with 4 media errors and thermal counters
 * 45 s further while the member stays slow (drive-health ok -> warning,
 * media-errors, drive-throttled "slow: thermally throttled for 45 s"),
 * look 3 a critical warning (drive-health warning -> critical), look 4
 * cleared; the exit code raised to 6.  The drive's device and serial are
 * wrapped (drive_node, drive_nvme_log, drive_serial: --wrap).  Under
 * ASan/UBSan and valgrind.
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

#include "drive.h"
#include "drivewatch.h"
#include "tests/nvme_page.h"

#ifndef SMART_DOCS
#define SMART_DOCS "../tests/smart"
#endif

static int look;
static char *doc;

bool __wrap_drive_node(const char *name, char *node, size_t len);
bool __wrap_drive_node(const char *name, char *node, size_t len)
{
	if (strncmp(name, "nvme", 4))
		return false;
	snprintf(node, len, "/dev/nvme9n1");
	return true;
}

bool __wrap_drive_serial(const char *dir, char *buf, size_t len);
bool __wrap_drive_serial(const char *dir, char *buf, size_t len)
{
	(void)dir;
	snprintf(buf, len, "S9");
	return true;
}

/* sub: S with the first FROM replaced by TO (malloc'd; S freed) */
static char *sub(char *s, const char *from, const char *to)
{
	char *at = strstr(s, from), *r;

	assert_non_null(at);
	r = malloc(strlen(s) - strlen(from) + strlen(to) + 1);
	assert_non_null(r);
	sprintf(r, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	free(s);
	return r;
}

bool __wrap_drive_nvme_log(const char *node, unsigned char *log);
bool __wrap_drive_nvme_log(const char *node, unsigned char *log)
{
	char *d = strdup(doc);
	bool ok;

	(void)node;
	assert_non_null(d);
	if (look >= 2) {
		d = sub(d, "\"media_errors\" : 0", "\"media_errors\" : 4");
		d = sub(d, "\"thm_temp1_trans_count\" : 214", "\"thm_temp1_trans_count\" : 215");
		d = sub(d, "\"thm_temp1_total_time\" : 5120", "\"thm_temp1_total_time\" : 5165");
	}
	if (look == 3)
		d = sub(d, "\"critical_warning\" : 0", "\"critical_warning\" : 1");
	ok = page_from_nvmecli(d, log);
	free(d);
	return ok;
}

static char *slurp(const char *name)
{
	char p[512], *b;
	FILE *f;
	long n;

	snprintf(p, sizeof(p), "%s/%s", SMART_DOCS, name);
	f = fopen(p, "re");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = 0;
	fclose(f);
	return b;
}

static void test_throttled(void **state)
{
	char b[64];

	(void)state;
	smart_throttled("214", "5120", "215", "5165", b, sizeof(b));
	assert_string_equal(b, "thermally throttled for 45 s");
	smart_throttled("3", "", "4", "", b, sizeof(b));
	assert_string_equal(b, "thermally throttled");
	smart_throttled("3", "9", "3", "9", b, sizeof(b));
	assert_string_equal(b, "");
	smart_throttled("", "", "3", "9", b, sizeof(b));
	assert_string_equal(b, "");
}

static char out[4096];
static size_t outl;

static void fire(void *ctx, const char *event, unsigned int i, const char *dev, const char *serial,
		 const char *old, const char *new, const char *detail)
{
	(void)ctx;
	outl += (size_t)snprintf(out + outl, sizeof(out) - outl, "%s a %u %s %s -> %s (slow U %s): %s\n", event, i,
				 dev, old, new, serial, detail);
}

static void test_watch(void **state)
{
	char top[] = "/tmp/drivewatch-test.XXXXXX", p[256], cmd[512], thr[128];
	struct drive_prev dp;
	int rc = 0;

	(void)state;
	assert_non_null(mkdtemp(top));
	setenv("SSDSTRIPE_RUNDIR", top, 1);
	setenv("SSDSTRIPE_SMART_CACHE", "0", 1);
	setenv("SSDSTRIPE_CONF", "/nonexistent", 1);
	snprintf(p, sizeof(p), "%s/arr/members/0", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", p);
	assert_int_equal(system(cmd), 0);
	strcat(p, "/block");
	assert_int_equal(symlink("/sys/class/block/nvme9n1", p), 0);
	snprintf(p, sizeof(p), "%s/arr", top);
	doc = slurp("nvme-cli.json");
	memset(&dp, 0, sizeof(dp));
	for (look = 1; look <= 4; look++) {
		outl += (size_t)snprintf(out + outl, sizeof(out) - outl, "poll %d\n", look);
		drive_watch(&dp, p, 0, "slow", "slow", &rc, thr, sizeof(thr), fire, NULL);
	}
	snprintf(out + outl, sizeof(out) - outl, "rc %d\n", rc);
	assert_string_equal(out, "poll 1\n"
			    "poll 2\n"
			    "drive-health a 0 nvme9n1 ok -> warning (slow U S9): 4 media errors\n"
			    "media-errors a 0 nvme9n1 0 -> 4 (slow U S9): 4 new media errors: the drive lost data\n"
			    "drive-throttled a 0 nvme9n1 slow -> slow (slow U S9): slow: thermally throttled for 45 s\n"
			    "poll 3\n"
			    "drive-health a 0 nvme9n1 warning -> critical (slow U S9): spare below threshold, 4 media errors\n"
			    "poll 4\n"
			    "drive-health a 0 nvme9n1 critical -> warning (slow U S9): 4 media errors\n"
			    "rc 6\n");
	free(doc);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_throttled),
		cmocka_unit_test(test_watch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
