// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the scan for unreadable sectors (badscan.c), its reads
 * stubbed by a device whose given sectors fail: a piece read whole,
 * halves of whole 4 KiB blocks where it fails, down to 8 sectors; the
 * pieces as the sh tool's rp_bad_in gave them (from BASE, side by side
 * ones not joined, a short piece at the end); a short read no error (as
 * dd's); each read within the piece.  Under ASan/UBSan and valgrind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "badscan.h"

/* the device: sectors BAD0..BAD1 fail; sectors from END read short */
static uint64_t bad0, bad1, end, lo, hi;
static unsigned int reads;

static ssize_t fake_pread(int fd, void *buf, size_t n, off_t off)
{
	uint64_t a = (uint64_t)off / 512, b = a + n / 512 - 1;

	(void)buf;
	assert_int_equal(fd, 7);
	assert_int_equal(off % 512, 0);
	assert_int_equal(n % 512, 0);
	assert_true(a >= lo && b <= hi);
	reads++;
	if (a <= bad1 && b >= bad0) {
		errno = EIO;
		return -1;
	}
	if (b >= end)
		return a >= end ? 0 : (ssize_t)((end - a) * 512);
	return (ssize_t)n;
}

static char got[1024];

static void piece(void *ctx, uint64_t first, uint64_t last)
{
	char t[64];

	assert_ptr_equal(ctx, got);
	snprintf(t, sizeof(t), "%llu-%llu ", (unsigned long long)first, (unsigned long long)last);
	strcat(got, t);
}

static void scan(uint64_t at, uint64_t n, uint64_t base, uint64_t b0, uint64_t b1, const char *want)
{
	void *buf = badscan_buf();

	badscan_pread = fake_pread;
	bad0 = b0;
	bad1 = b1;
	lo = at;
	hi = at + n - 1;
	got[0] = 0;
	reads = 0;
	badscan(7, buf, at, n, base, piece, got);
	assert_string_equal(got, want);
	free(buf);
}

static void test_pieces(void **state)
{
	(void)state;
	end = UINT64_MAX;
	/* none */
	scan(1000, 2048, 1000, 1, 0, "");
	assert_int_equal(reads, 1);
	/* tool/024's: 8 sectors at data sector 424, member offset 2048 */
	scan(2048, 2048, 2048, 2048 + 424, 2048 + 431, "424-431 ");
	/* one sector: its block of 8 from the piece's start */
	scan(0, 2048, 0, 3, 3, "0-7 ");
	/* a range over two blocks: two pieces, not joined */
	scan(0, 2048, 0, 4, 11, "0-7 8-15 ");
	/* a piece of 12: halves 8 and 4 */
	scan(100, 12, 100, 110, 110, "8-11 ");
	/* a short piece of 5 at a member's end */
	scan(4096, 5, 4000, 4096, 4096, "96-100 ");
	/* the whole piece */
	scan(0, 16, 0, 0, 15, "0-7 8-15 ");
}

static void test_short(void **state)
{
	(void)state;
	/* a short read at the device's end is no error (dd's count=1) */
	end = 1500;
	scan(1000, 1000, 1000, 1, 0, "");
	scan(1600, 8, 0, 1, 0, "");
	end = UINT64_MAX;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pieces),
		cmocka_unit_test(test_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
