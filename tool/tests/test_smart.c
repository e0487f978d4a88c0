// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the drive-health reader (smart.c), over the cases of the
 * sh reader's tests (tests/smart/run): canned smartctl --json documents
 * in the layouts real drives give (an NVMe SSD that throttled, a worn
 * SATA SSD that failed its self-assessment) and the NVMe health log page
 * the admin ioctl returns (the values of tests/smart/nvme-cli.json, which
 * nvme-cli printed from the same page), parsed into the record ssdstripe
 * shows; the cache asks a drive at most once per SMART_CACHE seconds, an
 * older or future answer is asked again, an unwritable cache still
 * answers, a device that is no drive is unknown.  The drive's device is
 * wrapped (drive_node, drive_nvme_log: --wrap).  Under ASan/UBSan and
 * valgrind.
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
#include "smart.h"
#include "tests/nvme_page.h"

#ifndef SMART_DOCS
#define SMART_DOCS "../tests/smart"
#endif

static const struct smart_cfg cfg = { 60, 90, 10 };

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

/* expect: each "key=value" of the NULL-ended list holds in R */
static void expect(const struct smart_rec *r, ...)
{
	va_list ap;
	const char *kv;

	va_start(ap, r);
	while ((kv = va_arg(ap, const char *))) {
		const char *eq = strchr(kv, '=');
		int k;

		for (k = 0; k < SK_N; k++)
			if (strlen(smart_keys[k]) == (size_t)(eq - kv) && !strncmp(kv, smart_keys[k], (size_t)(eq - kv)))
				break;
		assert_true(k < SK_N);
		if (strcmp(r->v[k], eq + 1))
			fail_msg("%s: got '%s'", kv, r->v[k]);
	}
	va_end(ap);
}

static void page_of(const char *doc, unsigned char *log)
{
	assert_true(page_from_nvmecli(doc, log));
}

static void parse(const char *sc, const char *nv, struct smart_rec *r)
{
	unsigned char log[NVME_LOG_LEN];

	if (nv)
		page_of(nv, log);
	smart_parse(sc, sc ? strlen(sc) : 0, nv ? log : NULL, &cfg, r);
}

static void test_nvme(void **state)
{
	char *sc = slurp("nvme-smartctl.json"), *nv = slurp("nvme-cli.json"), *t;
	unsigned char log[NVME_LOG_LEN];
	struct smart_rec r;

	(void)state;
	/* both documents */
	parse(sc, nv, &r);
	expect(&r, "source=smartctl+nvme-cli", "health=ok", "why=", "critical=0", "wear_pct=3",
	       "spare_pct=100", "spare_threshold_pct=10", "media_errors=0", "unsafe_shutdowns=92",
	       "power_on_hours=9314", "temperature_c=47", "warning_temp_minutes=37",
	       "critical_temp_minutes=0", "throttle_count=217", "throttle_seconds=5161", NULL);
	/* smartctl alone: no thermal counters */
	parse(sc, NULL, &r);
	expect(&r, "source=smartctl", "health=ok", "wear_pct=3", "throttle_count=", "throttle_seconds=", NULL);
	/* the log page alone, as nvme-cli's document was (temperature from kelvin) */
	parse(NULL, nv, &r);
	expect(&r, "source=nvme-cli", "health=ok", "temperature_c=47", "spare_pct=100", "throttle_count=217", NULL);
	/* the log page as the ioctl reads it: every figure of both */
	page_of(nv, log);
	smart_parse_log(log, &cfg, &r);
	expect(&r, "source=smartctl+nvme-cli", "health=ok", "why=", "critical=0", "wear_pct=3",
	       "spare_pct=100", "spare_threshold_pct=10", "media_errors=0", "unsafe_shutdowns=92",
	       "power_on_hours=9314", "temperature_c=47", "warning_temp_minutes=37",
	       "critical_temp_minutes=0", "throttle_count=217", "throttle_seconds=5161", NULL);
	/* critical warning bits 0x05 */
	t = sub(sub(strdup(sc), "\"critical_warning\": 0", "\"critical_warning\": 5"),
		"\"available_spare\": 100", "\"available_spare\": 4");
	parse(t, nv, &r);
	expect(&r, "health=critical", "critical=5", "why=spare below threshold, reliability degraded", NULL);
	free(t);
	/* wear and media errors are a warning */
	t = sub(sub(strdup(sc), "\"percentage_used\": 3", "\"percentage_used\": 93"),
		"\"media_errors\": 0", "\"media_errors\": 4");
	parse(t, NULL, &r);
	expect(&r, "health=warning", "why=wear 93%, 4 media errors", NULL);
	free(t);
	/* a spare of 0 of a threshold of 0 is not reported, not low */
	t = sub(sub(strdup(sc), "\"available_spare\": 100", "\"available_spare\": 0"),
		"\"available_spare_threshold\": 10", "\"available_spare_threshold\": 0");
	parse(t, NULL, &r);
	expect(&r, "health=ok", "why=", "spare_pct=0", "spare_threshold_pct=0", NULL);
	free(t);
	/* a spare within 10 points of its threshold is a warning */
	t = sub(strdup(sc), "\"available_spare\": 100", "\"available_spare\": 18");
	parse(t, NULL, &r);
	expect(&r, "health=warning", "why=spare 18% near threshold 10%", NULL);
	free(t);
	/* a temperature warning in the log page (bit 1) */
	t = sub(strdup(nv), "\"critical_warning\" : 0", "\"critical_warning\" : 2");
	parse(NULL, t, &r);
	expect(&r, "health=critical", "critical=2", "why=temperature out of range", NULL);
	free(t);
	free(sc);
	free(nv);
}

static void test_documents(void **state)
{
	char *sc = slurp("nvme-smartctl.json"), *ata = slurp("ata-smartctl.json"), *c, *p;
	struct smart_rec r;

	(void)state;
	/* compact JSON */
	c = strdup(sc);
	for (p = c; *sc && *p;) {
		char *q = p;

		for (; *q; q++)
			if (*q != ' ' && *q != '\n')
				*p++ = *q;
		*p = 0;
	}
	parse(c, NULL, &r);
	expect(&r, "health=ok", "wear_pct=3", "unsafe_shutdowns=92", NULL);
	free(c);
	/* a drive smartctl could not open, no log: unknown, not healthy */
	parse("{\"smartctl\":{\"exit_status\":2},\"device\":{\"name\":\"/dev/nvme0n1\"}}\n", NULL, &r);
	expect(&r, "source=none", "health=unknown", NULL);
	/* a SATA SSD that failed its self-assessment */
	parse(ata, NULL, &r);
	expect(&r, "source=smartctl", "health=critical", "critical=1", "wear_pct=88", "media_errors=6",
	       "temperature_c=38", "power_on_hours=21877", "why=drive self-assessment failed, 6 media errors",
	       NULL);
	/* a document cut short says nothing it did not read */
	smart_parse(sc, 700, NULL, &cfg, &r);
	expect(&r, "source=none", "health=unknown", NULL);
	/* nothing at all */
	smart_parse(NULL, 0, NULL, &cfg, &r);
	expect(&r, "source=none", "health=unknown", NULL);
	free(sc);
	free(ata);
}

static void test_record_text(void **state)
{
	char *sc = slurp("nvme-smartctl.json"), text[4096];
	struct smart_rec r, b;
	int k;

	(void)state;
	parse(sc, NULL, &r);
	smart_rec_text(&r, text, sizeof(text));
	assert_non_null(strstr(text, "source=smartctl\nhealth=ok\nwhy=\ncritical=0\n"));
	smart_rec_load(text, &b);
	for (k = 0; k < SK_N; k++)
		assert_string_equal(r.v[k], b.v[k]);
	free(sc);
}

/* ---- smart_read and its cache: the drive wrapped --------------------- */
static int queries;

bool __wrap_drive_node(const char *name, char *node, size_t len);
bool __wrap_drive_node(const char *name, char *node, size_t len)
{
	if (strncmp(name, "nvme9n1", 7))
		return false;
	snprintf(node, len, "/dev/nvme9n1");
	return true;
}

bool __wrap_drive_nvme_log(const char *node, unsigned char *log);
bool __wrap_drive_nvme_log(const char *node, unsigned char *log)
{
	char *nv = slurp("nvme-cli.json");

	assert_string_equal(node, "/dev/nvme9n1");
	queries++;
	nv = sub(nv, "\"critical_warning\" : 0", "\"critical_warning\" : 5");
	page_of(nv, log);
	free(nv);
	return true;
}

static long up(void)
{
	FILE *f = fopen("/proc/uptime", "re");
	double u = 0;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lf", &u), 1);
	fclose(f);
	return (long)u;
}

static void test_cache(void **state)
{
	char top[] = "/tmp/smart-test.XXXXXX", f[128], cmd[160];
	struct smart_rec r;
	FILE *c;

	(void)state;
	assert_non_null(mkdtemp(top));
	setenv("SSDSTRIPE_RUNDIR", top, 1);
	setenv("SSDSTRIPE_SMART_CACHE", "3", 1);
	setenv("SSDSTRIPE_CONF", "/nonexistent", 1);
	queries = 0;
	smart_read("nvme9n1p1", &r);
	expect(&r, "health=critical", "critical=5", "throttle_count=217",
	       "why=spare below threshold, reliability degraded", NULL);
	smart_read("nvme9n1p1", &r);
	expect(&r, "why=spare below threshold, reliability degraded", NULL);
	assert_int_equal(queries, 1);
	/* an answer SMART_CACHE seconds old is asked again; one from the
	 * future (a cache from before a reboot) too */
	snprintf(f, sizeof(f), "%s/smart/nvme9n1", top);
	c = fopen(f, "we");
	assert_non_null(c);
	fprintf(c, "at=%ld\nsource=smartctl\nhealth=ok\n", up() - 3);
	fclose(c);
	smart_read("nvme9n1", &r);
	assert_int_equal(queries, 2);
	expect(&r, "health=critical", NULL);
	c = fopen(f, "we");
	assert_non_null(c);
	fprintf(c, "at=%ld\nsource=smartctl\nhealth=ok\n", up() + 100);
	fclose(c);
	smart_read("nvme9n1", &r);
	assert_int_equal(queries, 3);
	/* a young answer is taken as it is */
	c = fopen(f, "we");
	assert_non_null(c);
	fprintf(c, "at=%ld\nsource=smartctl\nhealth=ok\n", up());
	fclose(c);
	smart_read("nvme9n1", &r);
	assert_int_equal(queries, 3);
	expect(&r, "source=smartctl", "health=ok", "why=", NULL);
	/* a device that is no drive */
	smart_read("loop0", &r);
	expect(&r, "source=none", "health=unknown", NULL);
	assert_int_equal(queries, 3);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	assert_int_equal(system(cmd), 0);
	/* an unwritable cache still answers */
	setenv("SSDSTRIPE_RUNDIR", "/proc/nonexistent", 1);
	smart_read("nvme9n1", &r);
	expect(&r, "health=critical", NULL);
	assert_int_equal(queries, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_documents),
		cmocka_unit_test(test_record_text),
		cmocka_unit_test(test_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
