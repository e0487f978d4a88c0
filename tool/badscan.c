// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the sectors a device cannot give (badscan.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

#include "badscan.h"
#include "out.h"

ssize_t (*badscan_pread)(int fd, void *buf, size_t n, off_t off) = pread;

void *badscan_buf(void)
{
	void *b = NULL;

	if (posix_memalign(&b, 4096, (size_t)BADSCAN_MAX * 512))
		die(EX_FAILED, "out of memory");
	return b;
}

/* readable: N sectors of FD at sector AT read (or a short read) */
static int readable(int fd, void *buf, uint64_t at, uint64_t n)
{
	ssize_t r;

	do
		r = badscan_pread(fd, buf, (size_t)(n * 512), (off_t)(at * 512));
	while (r < 0 && errno == EINTR);
	return r >= 0;
}

void badscan(int fd, void *buf, uint64_t at, uint64_t n, uint64_t base, badscan_fn bad, void *ctx)
{
	uint64_t h;

	if (!n || n > BADSCAN_MAX || readable(fd, buf, at, n))
		return;
	if (n <= 8) {
		bad(ctx, at - base, at - base + n - 1);
		return;
	}
	/* halves of whole 4 KiB blocks, the first at least one */
	h = n / 2 - n / 2 % 8;
	if (h < 8)
		h = 8;
	badscan(fd, buf, at, h, base, bad, ctx);
	badscan(fd, buf, at + h, n - h, base, bad, ctx);
}
