/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the files of an ext2/3/4 file system on an array that hold
 * given array sectors, where debugfs can tell (e2fsprogs' dumpe2fs for
 * the block size, debugfs -c icheck for the inodes, ncheck for their
 * names; each run with an argv, never through a shell).  The parsers of
 * their output are pure, unit-tested and fuzzed.
 */
#ifndef SSDSTRIPE_FSFILES_H
#define SSDSTRIPE_FSFILES_H

#include <stddef.h>
#include <stdint.h>

/*
 * fs_files: the files on DEV holding array sectors in RANGES (N first,
 * last pairs; of each at most 64 blocks looked up), each followed by a
 * space ("/a /b "); "" when none, when DEV holds no ext2/3/4 or debugfs
 * is not there.  malloc'd.
 */
char *fs_files(const char *dev, const uint64_t (*ranges)[2], size_t n);

/* dumpe2fs -h's "Block size:" (the first such line); 0 none */
unsigned long fs_block_size(const char *dumpe2fs);
/*
 * the blocks holding RANGES at block size BS, as icheck takes them: each
 * followed by a space, at most 64 of each range; "" when none.  malloc'd.
 */
char *fs_blocks(const uint64_t (*ranges)[2], size_t n, unsigned long bs);
/*
 * icheck's answer (a heading line, then "BLOCK INODE" lines; "<block not
 * found>" where none): the inodes, ascending, once each, each followed by
 * a space, as ncheck takes them; "" none.  malloc'd.
 */
char *fs_inodes(const char *icheck);
/*
 * ncheck's answer (a heading line, then "INODE PATH" lines): each line's
 * words after the first, joined by one space, each line followed by a
 * space; "" none.  malloc'd.
 */
char *fs_names(const char *ncheck);

#endif
