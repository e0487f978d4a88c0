// SPDX-License-Identifier: GPL-2.0-only
/*
 * hold-excl: open a block device with O_EXCL, as a mount, swapon, a
 * device-mapper or md device or a VM's disk open claims it, and hold it.
 *
 *   hold-excl DEV SECS
 *
 * Prints "held" (flushed) once it holds DEV, then sleeps SECS seconds or
 * until it is killed.  Exits 1 with the error when DEV cannot be claimed.
 * Built static by qemu/build-initramfs.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: hold-excl DEV SECS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL);
	if (fd < 0) {
		fprintf(stderr, "hold-excl: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	sleep((unsigned int)atoi(argv[2]));
	close(fd);
	return 0;
}
