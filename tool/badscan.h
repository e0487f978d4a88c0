/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the sectors a device cannot give, found with direct reads
 * (no page cache, no dd): a piece read whole, and where that fails its
 * halves of whole 4 KiB blocks, down to 8 sectors (a read of 512 bytes
 * would fail on a drive of 4 KiB sectors, and cost a call per sector on
 * the others).  scrub names what it finds.
 */
#ifndef SSDSTRIPE_BADSCAN_H
#define SSDSTRIPE_BADSCAN_H

#include <stdint.h>
#include <sys/types.h>

#define BADSCAN_MAX 2048	/* sectors read at a time at most (1 MiB) */

/* an unreadable piece: its first and last sector, counted from BASE */
typedef void (*badscan_fn)(void *ctx, uint64_t first, uint64_t last);

/* badscan_buf: a buffer for BADSCAN_MAX sectors, aligned for O_DIRECT */
void *badscan_buf(void);
/*
 * badscan: sectors AT..AT+N-1 (N at most BADSCAN_MAX) of FD, opened
 * O_DIRECT, read into BUF; each piece that cannot be read handed to BAD,
 * in order, one call per piece of at most 8 sectors (pieces side by side
 * are not joined).  A read that fails is one that returns an error, as
 * dd's: a short read at the device's end is no error.
 */
void badscan(int fd, void *buf, uint64_t at, uint64_t n, uint64_t base, badscan_fn bad, void *ctx);
/* the read badscan makes: pread, or the unit tests' stand-in */
extern ssize_t (*badscan_pread)(int fd, void *buf, size_t n, off_t off);

#endif
