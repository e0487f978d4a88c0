// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the readers of dumpe2fs's and debugfs's answers
 * (fsfiles.c), on the cases the sh tool's awk and sort pipelines
 * (scripts/lib/replace.sh's rp_files) were run on, with what they gave:
 * the block size of the first "Block size" line, at most 64 blocks of a
 * range, icheck's inodes in order and once each (sort -un), ncheck's
 * paths with their runs of blanks as one and each line followed by a
 * space (a line without a path too).  fs_files itself with spawn_run
 * stubbed: the argv it runs, and nothing run without debugfs.  Under
 * ASan/UBSan and valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "extprog.h"
#include "fsfiles.h"
#include "out.h"

static void test_block_size(void **state)
{
	(void)state;
	assert_int_equal(fs_block_size("Filesystem volume name:   <none>\nBlock count:              16384\n"
				       "Block size:               4096\nBlock size: 1024\n"), 4096);
	assert_int_equal(fs_block_size("Block size:\t 1024"), 1024);
	assert_int_equal(fs_block_size("Block count: 5\n"), 0);
	assert_int_equal(fs_block_size("Block size: x\n"), 0);
	assert_int_equal(fs_block_size(""), 0);
}

static void is_blocks(const uint64_t (*r)[2], size_t n, unsigned long bs, const char *want)
{
	char *s = fs_blocks(r, n, bs);

	assert_string_equal(s, want);
	free(s);
}

static void test_blocks(void **state)
{
	static const uint64_t r[][2] = { { 0, 7 }, { 4096, 4103 }, { 100, 1000 } };
	static const uint64_t r2[][2] = { { 0, 7 }, { 100, 99999 } };

	(void)state;
	is_blocks(r, 3, 4096, "0 512 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 "
		  "36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 "
		  "66 67 68 69 70 71 72 73 74 75 ");
	is_blocks(r2, 2, 1024, "0 1 2 3 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 "
		  "73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 "
		  "103 104 105 106 107 108 109 110 111 112 113 ");
	is_blocks(r, 3, 0, "");
	is_blocks(r, 0, 4096, "");
}

static void is_str(char *s, const char *want)
{
	assert_string_equal(s, want);
	free(s);
}

static void test_inodes(void **state)
{
	(void)state;
	is_str(fs_inodes("Block\tInode number\n4000\t12\n4001\t12\n4002\t<block not found>\n4003\t7\n"
			 "  9 x\n\n100\t0012\n5 3 extra\n"), "3 7 12 ");
	is_str(fs_inodes("Block\tInode number\n4002\t<block not found>\n"), "");
	is_str(fs_inodes("12 13\n"), "");
	is_str(fs_inodes(""), "");
}

static void test_names(void **state)
{
	(void)state;
	is_str(fs_names("Inode\tPathname\n12\t/a file/with  two spaces\n7\t/lost+found\n13\n\n  8 \t /x\t\n"),
	       "/a file/with two spaces /lost+found   /x ");
	is_str(fs_names("Inode\tPathname\n"), "");
	is_str(fs_names("Inode\tPathname\n12\t/f"), "/f ");
	is_str(fs_names(""), "");
}

/* fs_files with the programs stubbed: what each is asked and answers */
static char runs[1024];

static int stub(char *const argv[], enum spawn_out which, char **out)
{
	size_t i;

	assert_int_equal(which, SPAWN_OUT);
	for (i = 0; argv[i]; i++) {
		strncat(runs, argv[i], sizeof(runs) - strlen(runs) - 2);
		strcat(runs, argv[i + 1] ? "|" : "\n");
	}
	if (!strcmp(argv[0], "dumpe2fs"))
		*out = xstrdup("Block size:               4096\n");
	else if (!strncmp(argv[3], "icheck ", 7))
		*out = xstrdup("Block\tInode number\n12\t15\n13\t<block not found>\n");
	else
		*out = xstrdup("Inode\tPathname\n15\t/data/big file\n");
	return 0;
}

static void test_files(void **state)
{
	static const uint64_t r[][2] = { { 96, 111 } };
	char *s;

	(void)state;
	spawn_stub = stub;
	setenv("PATH", "/nonexistent", 1);
	s = fs_files("/dev/mapper/a", r, 1);
	assert_string_equal(s, "");
	assert_string_equal(runs, "");
	free(s);
	setenv("PATH", "/usr/sbin:/sbin:/usr/bin:/bin", 1);
	if (!spawn_found("debugfs"))
		skip();
	s = fs_files("/dev/mapper/a", r, 1);
	assert_string_equal(s, "/data/big file ");
	assert_string_equal(runs, "dumpe2fs|-h|/dev/mapper/a\n"
			    "debugfs|-c|-R|icheck 12 13 |/dev/mapper/a\n"
			    "debugfs|-c|-R|ncheck 15 |/dev/mapper/a\n");
	free(s);
	spawn_stub = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_block_size),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_inodes),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
