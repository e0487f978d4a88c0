// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of a new array's geometry rules (geometry.c): create's chunk
 * rule (which chunks need --force, by sectors: the cases tests/command-list
 * ran on the sh tool's chunk_why), the sizes --chunk takes (the values the sh tool's to_sectors gave), the names and
 * overprovision percentages, and what a member gives the array.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "geometry.h"

static void test_chunk_why(void **state)
{
	static const struct {
		uint64_t sectors;
		const char *want;	/* ok, 4k or pow2 */
	} cases[] = {
		{ 8, "ok" }, { 16, "ok" }, { 128, "ok" }, { 256, "ok" }, { 2097152, "ok" },
		{ 10, "4k" }, { 100, "4k" }, { 12, "4k" }, { 24, "pow2" }, { 96, "pow2" },
		{ 201, "4k" }, { 200, "pow2" }, { 3072, "pow2" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[1024];
		const char *w;
		bool refused = chunk_why(cases[i].sectors, why, sizeof(why));

		if (!refused)
			w = why[0] ? "?" : "ok";
		else if (strstr(why, "not a multiple of 4 KiB"))
			w = "4k";
		else if (strstr(why, "not a power of two") && strstr(why, "generic/251") &&
			 strstr(why, "striped"))
			w = "pow2";
		else
			w = "?";
		if (strcmp(w, cases[i].want))
			fail_msg("a chunk of %llu sectors: %s, not %s (%s)",
				 (unsigned long long)cases[i].sectors, w, cases[i].want, why);
	}
	assert_true(chunk_why(24, (char[256]){ 0 }, 256));
	{
		char why[512];

		chunk_why(24, why, sizeof(why));
		assert_string_equal(why, "a chunk of 12.0 KiB is not a power of two: on Debian's 6.12 kernel, XFS over a 3 x 12 KiB stripe crashed with slab corruption (xfstests generic/251, on the kernel's own striped target too) and generic/040 found its log corrupt; see 'Chunk size' in ssdstripe(8)");
		chunk_why(10, why, sizeof(why));
		assert_string_equal(why, "a chunk of 5.0 KiB is not a multiple of 4 KiB: every SSD writes in pages of 4 KiB or more, and a chunk that splits them makes it read and rewrite a page at every chunk boundary");
	}
}

static void test_to_sectors(void **state)
{
	static const struct {
		const char *s;
		bool ok;
		uint64_t v;
	} cases[] = {
		{ "64K", true, 128 }, { "64", true, 128 }, { "64k", true, 128 }, { "64KiB", true, 128 },
		{ "64KB", true, 128 }, { "64kb", true, 128 }, { "1M", true, 2048 }, { "1MiB", true, 2048 },
		{ "1G", true, 2097152 }, { "1T", true, 2147483648ULL }, { "128s", true, 128 }, { "128S", true, 128 },
		{ "4", true, 8 }, { "4ib", true, 8 }, { "0", true, 0 }, { "00064K", true, 128 },
		{ "010", true, 20 }, { "12Q", false, 0 }, { "", false, 0 }, { "K", false, 0 },
		{ "s", false, 0 }, { "iB", false, 0 }, { "-1", false, 0 }, { "1.5M", false, 0 },
		{ "999999999s", true, 999999999 }, { "1000000000s", false, 0 },
		{ "0000000000001s", true, 1 }, { "2147483647K", false, 0 }, { "2047G", true, 4292870144ULL },
		{ "2048G", false, 0 }, { "1sB", false, 0 }, { "64 K", false, 0 }, { "+64", false, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;
		bool ok = to_sectors(cases[i].s, &v);

		if (ok != cases[i].ok || (ok && v != cases[i].v))
			fail_msg("to_sectors '%s': %d %llu", cases[i].s, ok, (unsigned long long)v);
	}
}

static void test_names_and_op(void **state)
{
	char n64[65], n65[66];

	(void)state;
	memset(n64, 'x', 64);
	n64[64] = 0;
	memset(n65, 'x', 65);
	n65[65] = 0;
	assert_true(valid_name("ss0"));
	assert_true(valid_name("a.b_c-9"));
	assert_true(valid_name(n64));
	assert_false(valid_name(n65));
	assert_false(valid_name(""));
	assert_false(valid_name("-x"));
	assert_false(valid_name(".x"));
	assert_false(valid_name("a b"));
	assert_false(valid_name("a/b"));
	assert_true(valid_op("1"));
	assert_true(valid_op("50"));
	assert_true(valid_op("9"));
	assert_false(valid_op("51"));
	assert_false(valid_op("0"));
	assert_false(valid_op("05"));
	assert_false(valid_op("100"));
	assert_false(valid_op(""));
	assert_false(valid_op("1x"));
	assert_false(valid_op("x"));
}

static void test_op_data(void **state)
{
	(void)state;
	/* 32 MiB less 2 MiB, in 64 KiB chunks */
	assert_int_equal(op_data(65536, 128, 0), 61440);
	assert_int_equal(op_data(4096, 128, 0), 0);
	assert_int_equal(op_data(4097, 8, 0), 0);
	assert_int_equal(op_data(4104, 8, 0), 8);
	/* 10 % of 61440 spare: 55296, whole chunks */
	assert_int_equal(op_data(65536, 128, 10), 55296);
	/* the two steps of the sh tool: 61447 - 614 * 10 - 47 * 10 / 100 */
	assert_int_equal(op_data(65543, 1, 10), 55303);
	assert_int_equal(op_data(1ULL << 40, 128, 50), 549755811840ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunk_why),
		cmocka_unit_test(test_to_sectors),
		cmocka_unit_test(test_names_and_op),
		cmocka_unit_test(test_op_data),
	};

	return cmocka_run_group_tests_name("geometry", tests, NULL, NULL);
}
