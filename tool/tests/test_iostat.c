// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of iostat's figures and report (lathist.c, arraysys.c,
 * iorep.c), against what the sh tool's awk printed before the command
 * moved here:
 *  - the latency mean, p50 and p99 of histograms whose answers turn on
 *    the arithmetic: a quantile on a bucket's edge, in an empty bucket's
 *    shadow, in the unbounded bucket, a mean cut (not rounded) to a whole
 *    microsecond, counts past 2^31, bounds other than the module's;
 *  - whole reports (text, -w, --json) over sysfs trees made here from
 *    tests/iostat/NAME.tree, one per snapshot, compared byte for byte
 *    with tests/iostat/NAME.{text,hist,json}: the sh tool's output over
 *    the same trees.
 * Under ASan/UBSan and valgrind.
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
#include <ftw.h>

#include "iorep.h"
#include "lathist.h"

static const char *const std_bounds[] = {
	"16", "32", "64", "128", "256", "512", "1024", "2048", "4096", "8192", "16384",
	"32768", "65536", "131072", "262144", "524288", "1048576", "inf",
};

/* ---- the figures ------------------------------------------------------ */
struct qcase {
	const char *bounds;	/* NULL: the module's 18 */
	const char *counts;
	const char *p50, *p99, *mean;	/* the sh's answers */
};

static const struct qcase qcases[] = {
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "-", "-", "-" },
	{ NULL, "10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "8", "15", "8" },
	{ NULL, "0 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "24", "31", "24" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7", ">1048576", ">1048576", "2097152" },
	{ NULL, "2 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "16", "31", "16" },
	{ NULL, "2 0 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "16", "63", "28" },
	{ NULL, "3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "8", "15", "8" },
	{ NULL, "1 2 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "20", "31", "18" },
	{ NULL, "0 0 0 5 17 230 4100 900 33 2 0 0 0 0 0 0 0 0", "810", "2027", "895" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 12 700 55 3 1 0 0", "50252", "126651", "53295" },
	{ NULL, "50 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 50", "16", ">1048576", "1048580" },
	{ NULL, "99 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1", "8", "16", "20979" },
	{ NULL, "98 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2", "8", ">1048576", "41950" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0", "786432", "1043333", "786432" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1", ">1048576", ">1048576", "2097152" },
	{ NULL, "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1", "4096", ">1048576", "203888" },
	{ NULL, "123456789 987654321 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "23", "31", "22" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 7 0 0 0 0 0", "49152", "65208", "49152" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 0 0 0", "131072", "259522", "147456" },
	{ NULL, "1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "8", "15", "8" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 199 1 0 0", "196937", "261485", "197591" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100 0 1", "394526", "524261", "410086" },
	{ NULL, "0 0 0 0 0 0 3 0 0 0 0 0 0 0 0 0 0 0", "768", "1018", "768" },
	{ NULL, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3000000000 0", "786432", "1043333", "786432" },
	{ "inf", "4", ">0", ">0", "0" },
	{ "16 inf", "0 3", ">16", ">16", "32" },
	{ "16 inf", "1 3", ">16", ">16", "26" },
	{ "16 32 inf", "0 0 0", "-", "-", "-" },
};

static void build(const struct qcase *c, struct lathist *h)
{
	char *counts = strdup(c->counts), *bounds = c->bounds ? strdup(c->bounds) : NULL;
	char *sc = NULL, *sb = NULL, *w;
	size_t i = 0;

	assert_non_null(counts);
	for (w = strtok_r(counts, " ", &sc); w; w = strtok_r(NULL, " ", &sc), i++) {
		const char *b = std_bounds[i];

		if (bounds)
			b = strtok_r(i ? NULL : bounds, " ", &sb);
		assert_non_null(b);
		snprintf(h->bound[i], LATHIST_BOUND, "%s", b);
		h->count[i] = awk_num(w);
	}
	h->n = i;
	free(counts);
	free(bounds);
}

static void test_figures(void **state)
{
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(qcases) / sizeof(qcases[0]); k++) {
		struct lathist h;
		struct lat_us l;
		char b[32];

		build(&qcases[k], &h);
		lathist_quantile(&h, 0.5, &l);
		if (strcmp(lat_text(&l, b, sizeof(b)), qcases[k].p50))
			fail_msg("case %zu (%s): p50 %s, the sh said %s", k, qcases[k].counts, b, qcases[k].p50);
		lathist_quantile(&h, 0.99, &l);
		if (strcmp(lat_text(&l, b, sizeof(b)), qcases[k].p99))
			fail_msg("case %zu (%s): p99 %s, the sh said %s", k, qcases[k].counts, b, qcases[k].p99);
		lathist_mean(&h, &l);
		if (strcmp(lat_text(&l, b, sizeof(b)), qcases[k].mean))
			fail_msg("case %zu (%s): mean %s, the sh said %s", k, qcases[k].counts, b, qcases[k].mean);
	}
}

/* the file's text, parsed: blank lines are buckets too, as awk read them */
static void test_parse(void **state)
{
	struct lathist h;

	(void)state;
	lathist_parse("16 5\n  32\t7 extra\n\ninf 1e3\n64 12abc", &h);
	assert_int_equal(h.n, 5);
	assert_string_equal(h.bound[0], "16");
	assert_true(h.count[0] == 5);
	assert_string_equal(h.bound[1], "32");
	assert_true(h.count[1] == 7);
	assert_string_equal(h.bound[2], "");
	assert_true(h.count[2] == 0);
	assert_string_equal(h.bound[3], "inf");
	assert_true(h.count[3] == 1000);
	assert_true(h.count[4] == 12);
	lathist_parse("", &h);
	assert_int_equal(h.n, 0);
	assert_int_equal(awk_int(3e9), 2147483647);
	assert_int_equal(awk_int(-3e9), -2147483647);
	assert_int_equal(awk_int(15.99), 15);
}

/* ---- whole reports over sysfs trees ----------------------------------- */
static char top[64];

static void put(const char *path, const char *text)
{
	char d[8192], *s;
	FILE *f;

	snprintf(d, sizeof(d), "%s", path);
	for (s = strchr(d + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(d, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *const counter_files[] = {
	"read_ios", "write_ios", "read_sectors", "write_sectors", "errors", "retries", "inflight",
};

/*
 * snapshot line W (split) into DIR: "array NAME STATE COUNT" or
 * "member NAME I STATE DEV R W RS WS ERR RETRY INFLIGHT HIST" (DEV or
 * HIST "-": no block link or histogram; HIST the module's counts, or
 * BOUND:COUNT pairs, comma separated)
 */
static void snap_line(const char *dir, char **w, size_t n)
{
	char p[8192], t[8192];
	size_t k;

	if (!strcmp(w[0], "array")) {
		assert_int_equal(n, 4);
		snprintf(p, sizeof(p), "%s/%s/ssdstripe/state", dir, w[1]);
		snprintf(t, sizeof(t), "%s\n", w[2]);
		put(p, t);
		snprintf(p, sizeof(p), "%s/%s/ssdstripe/member_count", dir, w[1]);
		snprintf(t, sizeof(t), "%s\n", w[3]);
		put(p, t);
		return;
	}
	assert_string_equal(w[0], "member");
	assert_int_equal(n, 13);
	snprintf(p, sizeof(p), "%s/%s/ssdstripe/members/%s/state", dir, w[1], w[2]);
	snprintf(t, sizeof(t), "%s\n", w[3]);
	put(p, t);
	for (k = 0; k < 7; k++) {
		snprintf(p, sizeof(p), "%s/%s/ssdstripe/members/%s/%s", dir, w[1], w[2], counter_files[k]);
		snprintf(t, sizeof(t), "%s\n", w[5 + k]);
		put(p, t);
	}
	if (strcmp(w[4], "-")) {
		snprintf(p, sizeof(p), "%s/%s/ssdstripe/members/%s/block", dir, w[1], w[2]);
		snprintf(t, sizeof(t), "../../../../../block/%s", w[4]);
		assert_int_equal(symlink(t, p), 0);
	}
	if (strcmp(w[12], "-")) {
		char *h = strdup(w[12]), *sv = NULL, *c, *o = t;
		size_t b = 0;

		assert_non_null(h);
		for (c = strtok_r(h, ",", &sv); c; c = strtok_r(NULL, ",", &sv), b++) {
			char *colon = strchr(c, ':');

			if (colon) {
				*colon = 0;
				o += sprintf(o, "%s %s\n", c, colon + 1);
			} else {
				o += sprintf(o, "%s %s\n", std_bounds[b], c);
			}
		}
		free(h);
		snprintf(p, sizeof(p), "%s/%s/ssdstripe/members/%s/latency_histogram", dir, w[1], w[2]);
		put(p, t);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	assert_non_null(s);
	assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}

/*
 * report_case: the reports of NAME.tree in MODE (TAG) as iostat runs
 * them (the first takes the counters; a blank line between text reports)
 * against NAME.TAG
 */
static void report_case(const char *name, enum iorep_mode mode, const char *tag)
{
	char path[512], dir[512], line[1024], *out = NULL, *want;
	double ups[16];
	size_t nsnap = 0, len = 0, k;
	struct iorep r;
	FILE *f, *o;

	/* the snapshots, into TOP/snapK */
	snprintf(path, sizeof(path), "%.*s/iostat/%s.tree",
		 (int)(strrchr(__FILE__, '/') - __FILE__), __FILE__, name);
	f = fopen(path, "r");
	assert_non_null(f);
	iorep_init(&r, mode);
	while (fgets(line, sizeof(line), f)) {
		char *w[16] = { NULL }, *sv = NULL, *t;
		size_t n = 0;

		line[strcspn(line, "\n")] = 0;
		if (!*line || *line == '#')
			continue;
		for (t = strtok_r(line, " ", &sv); t && n < 16; t = strtok_r(NULL, " ", &sv))
			w[n++] = t;
		if (!n)
			continue;
		if (!strcmp(w[0], "arrays")) {
			for (k = 1; k < n; k++) {
				snprintf(dir, sizeof(dir), "%s/cur/%s/ssdstripe", top, w[k]);
				iorep_add(&r, w[k], dir);
			}
		} else if (!strcmp(w[0], "uptime")) {
			assert_true(nsnap < 16);
			ups[nsnap++] = awk_num(w[1]);
		} else {
			snprintf(dir, sizeof(dir), "%s/snap%zu", top, nsnap - 1);
			snap_line(dir, w, n);
		}
	}
	fclose(f);

	o = open_memstream(&out, &len);
	assert_non_null(o);
	for (k = 0; k < nsnap; k++) {
		snprintf(dir, sizeof(dir), "%s/cur", top);
		unlink(dir);
		snprintf(line, sizeof(line), "snap%zu", k);
		assert_int_equal(symlink(line, dir), 0);
		if (k > 1 && mode != IOREP_JSON)
			fputc('\n', o);
		iorep_report(&r, ups[k], 1764316800, o);
	}
	fclose(o);
	iorep_free(&r);

	snprintf(path, sizeof(path), "%.*s/iostat/%s.%s",
		 (int)(strrchr(__FILE__, '/') - __FILE__), __FILE__, name, tag);
	want = slurp(path);
	if (strcmp(out, want)) {
		snprintf(path, sizeof(path), "%s/%s.%s.got", top, name, tag);
		put(path, out);
		fail_msg("%s, %s: not the sh's report (got: %s)", name, tag, path);
	}
	free(want);
	free(out);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/iostat-test.XXXXXX");
	return mkdtemp(top) ? 0 : -1;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	(void)state;
	/* IOSTAT_TEST_KEEP=1 leaves the trees and a failed case's output */
	return getenv("IOSTAT_TEST_KEEP") ? 0 : nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_basic_text(void **s) { (void)s; report_case("basic", IOREP_TEXT, "text"); }
static void test_basic_hist(void **s) { (void)s; report_case("basic", IOREP_HIST, "hist"); }
static void test_basic_json(void **s) { (void)s; report_case("basic", IOREP_JSON, "json"); }
static void test_edge_text(void **s) { (void)s; report_case("edge", IOREP_TEXT, "text"); }
static void test_edge_hist(void **s) { (void)s; report_case("edge", IOREP_HIST, "hist"); }
static void test_edge_json(void **s) { (void)s; report_case("edge", IOREP_JSON, "json"); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figures),
		cmocka_unit_test(test_parse),
		cmocka_unit_test_setup_teardown(test_basic_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_basic_hist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_basic_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edge_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edge_hist, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edge_json, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
