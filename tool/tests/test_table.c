// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the tables, status lines and geometry (table.c), run under
 * ASan and UBSan by "make -C tool check".  The lines are what dmsetup
 * table and status print for the rig's arrays and replace mirrors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "table.h"

static void test_ssdstripe(void **state)
{
	struct ss_table t;
	char err[128], *p;

	(void)state;
	assert_true(table_parse(8355840, "4 128 259:1 2048 259:2 2048 259:3 2048 259:4 2048 2 health_window_ms 10000",
				&t, err, sizeof(err)));
	assert_int_equal(t.n, 4);
	assert_int_equal(t.chunk, 128);
	assert_int_equal(t.len, 8355840);
	assert_string_equal(t.mm[2], "259:3");
	assert_string_equal(t.off[3], "2048");
	assert_string_equal(t.feat, "2 health_window_ms 10000");
	/* member 2 onto a replace's mirror, at offset 0, the rest as it was */
	p = table_params(&t, 2, "253:7", "0");
	assert_string_equal(p, "4 128 259:1 2048 259:2 2048 253:7 0 259:4 2048 2 health_window_ms 10000");
	free(p);
	table_free(&t);
	assert_true(table_parse(100, "1 8 8:0 0", &t, err, sizeof(err)));
	assert_string_equal(t.feat, "");
	p = table_params(&t, 0, "8:16", "2048");
	assert_string_equal(p, "1 8 8:16 2048");
	free(p);
	table_free(&t);
}

static void test_refused(void **state)
{
	static const struct {
		const char *params, *err;
	} cases[] = {
		{ "", "no member count of 1 to 256" },
		{ "0 128", "no member count of 1 to 256" },
		{ "257 128", "no member count of 1 to 256" },
		{ "x 128 8:0 0", "no member count of 1 to 256" },
		{ "1 0 8:0 0", "no chunk size" },
		{ "1 -8 8:0 0", "no chunk size" },
		{ "2 128 8:0 0", "2 members named, 1 given" },
		{ "1 128 8 0", "member 0 is not MAJ:MIN OFFSET" },
		{ "1 128 8:0x 0", "member 0 is not MAJ:MIN OFFSET" },
		{ "1 128 8:0 -1", "member 0 is not MAJ:MIN OFFSET" },
		{ "1 128 /dev/sda 0", "member 0 is not MAJ:MIN OFFSET" },
	};
	struct ss_table t;
	char err[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = 0;
		assert_false(table_parse(1, cases[i].params, &t, err, sizeof(err)));
		assert_string_equal(err, cases[i].err);
		assert_null(t.mm);
	}
}

static void test_mirror(void **state)
{
	uint64_t s, t;
	char h[3], *o, *n;

	(void)state;
	assert_true(mirror_status_parse("2 259:2 259:5 310/1020 1 AA 1 core", &s, &t, h));
	assert_int_equal(s, 310);
	assert_int_equal(t, 1020);
	assert_string_equal(h, "AA");
	assert_true(mirror_status_parse("2 259:2 259:5 1020/1020 1 AD 1 core", &s, &t, h));
	assert_string_equal(h, "AD");
	assert_false(mirror_status_parse("3 259:2 259:5 259:6 1/2 1 AAA 1 core", &s, &t, h));
	assert_false(mirror_status_parse("2 259:2 259:5 12/10 1 AA 1 core", &s, &t, h));
	assert_false(mirror_status_parse("2 259:2 259:5 x/10 1 AA", &s, &t, h));
	assert_false(mirror_status_parse("2 259:2", &s, &t, h));
	assert_true(mirror_legs_parse("core 1 1024 2 259:2 2048 259:5 2048 1 handle_errors", &o, &n));
	assert_string_equal(o, "259:2");
	assert_string_equal(n, "259:5");
	free(o);
	free(n);
	assert_false(mirror_legs_parse("disk 2 253:1 1024 2 259:2 2048 259:5 2048", &o, &n));
	assert_false(mirror_legs_parse("core 1 1024 3 259:2 2048 259:5 2048 259:6 2048", &o, &n));
}

static void test_geometry(void **state)
{
	uint64_t r[8][2];

	(void)state;
	/* 4 members of 128-sector chunks: member 1's sectors 0..127 are the
	 * array's chunk 1 (128..255); 120..135 straddle two of its chunks */
	assert_int_equal(geo_array_ranges(128, 4, 1, 0, 127, r, 8), 1);
	assert_int_equal(r[0][0], 128);
	assert_int_equal(r[0][1], 255);
	assert_int_equal(geo_array_ranges(128, 4, 1, 120, 135, r, 8), 2);
	assert_int_equal(r[0][0], 248);
	assert_int_equal(r[0][1], 255);
	assert_int_equal(r[1][0], 640);
	assert_int_equal(r[1][1], 647);
	/* counted past MAX, filled to it */
	assert_int_equal(geo_array_ranges(8, 2, 0, 0, 63, r, 2), 8);
	assert_int_equal(r[1][0], 16);
	assert_int_equal(geo_array_ranges(8, 2, 2, 0, 7, r, 2), 0);
	assert_int_equal(geo_array_ranges(0, 2, 0, 0, 7, r, 2), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ssdstripe),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_geometry),
	};

	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
