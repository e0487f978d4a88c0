// SPDX-License-Identifier: GPL-2.0-only
/*
 * preadv-gaps: one O_DIRECT preadv2() whose buffers leave gaps at every
 * virt boundary, for the rig's REQ_NOWAIT tests.
 *
 *   preadv-gaps DEV OFFSET NVEC VECLEN [nowait]
 *
 * Reads NVEC * VECLEN bytes of DEV at byte OFFSET into NVEC iovecs, each
 * VECLEN bytes (a multiple of 512, below the page size) at the start of a
 * page of its own: every iovec but the last ends off a page boundary, so
 * a queue with a virt boundary (NVMe) cannot take two of them in one
 * request.  With "nowait" the read carries RWF_NOWAIT, which the block
 * layer passes down as REQ_NOWAIT: a bio that would have to be split is
 * ended with EAGAIN instead.  Then reads the same range with one plain
 * pread() and compares.
 *
 * Prints "ok BYTES" and exits 0 when the read returned every byte and they
 * match; prints "EAGAIN" and exits 11 when the read would have blocked;
 * any other failure prints the error and exits 1.  Built static by
 * qemu/build-initramfs.sh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

#define PAGE 4096

int main(int argc, char **argv)
{
	unsigned long nvec, veclen, i;
	struct iovec *iov;
	char *pages, *flat;
	off_t offset;
	ssize_t got;
	int fd, flags = 0;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: %s DEV OFFSET NVEC VECLEN [nowait]\n", argv[0]);
		return 2;
	}
	offset = strtoll(argv[2], NULL, 0);
	nvec = strtoul(argv[3], NULL, 0);
	veclen = strtoul(argv[4], NULL, 0);
	if (argc == 6) {
		if (strcmp(argv[5], "nowait")) {
			fprintf(stderr, "%s: unknown flag %s\n", argv[0], argv[5]);
			return 2;
		}
		flags = RWF_NOWAIT;
	}
	if (!nvec || nvec > 1024 || !veclen || veclen % 512 || veclen > PAGE) {
		fprintf(stderr, "%s: NVEC 1-1024, VECLEN a multiple of 512 up to %d\n",
			argv[0], PAGE);
		return 2;
	}

	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	iov = calloc(nvec, sizeof(*iov));
	if (!iov || posix_memalign((void **)&pages, PAGE, nvec * PAGE) ||
	    posix_memalign((void **)&flat, PAGE, nvec * veclen)) {
		perror("memory");
		return 1;
	}
	memset(pages, 0xa5, nvec * PAGE);
	for (i = 0; i < nvec; i++) {
		iov[i].iov_base = pages + i * PAGE;
		iov[i].iov_len = veclen;
	}

	got = preadv2(fd, iov, nvec, offset, flags);
	if (got < 0 && errno == EAGAIN) {
		printf("EAGAIN\n");
		return 11;
	}
	if (got < 0) {
		perror("preadv2");
		return 1;
	}
	if ((unsigned long)got != nvec * veclen) {
		printf("short read: %zd of %lu bytes\n", got, nvec * veclen);
		return 1;
	}

	if (pread(fd, flat, nvec * veclen, offset) != (ssize_t)(nvec * veclen)) {
		perror("pread");
		return 1;
	}
	for (i = 0; i < nvec; i++) {
		if (memcmp(pages + i * PAGE, flat + i * veclen, veclen)) {
			printf("iovec %lu differs from a plain read\n", i);
			return 1;
		}
	}
	printf("ok %zd\n", got);
	return 0;
}
