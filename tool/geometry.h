/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the rules of a new array's geometry (ssdstripe(8), create):
 * sizes as the command line gives them, the chunk sizes refused without
 * --force, an array's name, the overprovision percentage and what a
 * member gives the array.  Pure functions, no I/O: unit-tested and fuzzed.
 */
#ifndef SSDSTRIPE_GEOMETRY_H
#define SSDSTRIPE_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEFAULT_CHUNK "64K"	/* create's chunk (help_create says 64K) */

/*
 * to_sectors: SIZE as 128s, 64K, 1M, 1G, 1T (binary units, an optional
 * trailing B or iB: 64KiB), a plain number KiB (as mdadm --chunk), into
 * OUT; false when it is none, or not below 2^32 sectors (the kernel's
 * chunk_sectors is 32 bits)
 */
bool to_sectors(const char *size, uint64_t *out);
/* valid_name: an array name (letters, digits, . _ -; at most 64; no
 * leading - or .) */
bool valid_name(const char *name);
/* valid_op: a whole percentage create takes for --overprovision (1 to 50) */
bool valid_op(const char *pct);
/*
 * chunk_why: why a chunk of SECTORS is refused without --force
 * (Documentation/ssdstripe.rst, "Chunk size"), into BUF; false (BUF
 * empty) when it is fine
 */
bool chunk_why(uint64_t sectors, char *buf, size_t len);
/*
 * op_data: what a member of SECTORS gives the array with PCT % of its
 * space past the label area kept spare (0: none): the rest, in whole
 * chunks of CHUNK sectors; 0 when nothing is left
 */
uint64_t op_data(uint64_t sectors, uint64_t chunk, unsigned int pct);

#endif
