/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a block device's geometry and the raw writes the tool makes
 * outside the label block (zeroing, discard, partitions), and what it is
 * built on.  Sizes and offsets are in 512-byte sectors.
 */
#ifndef SSDSTRIPE_BLK_H
#define SSDSTRIPE_BLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* DEV's size; 0 when it cannot be told */
uint64_t blk_size(const char *dev);
/* an attribute of DEV's request queue (a partition's: its disk's); 0 none */
uint64_t blk_queue(const char *dev, const char *attr);
/* the block device DEV is, and MAJ:MIN */
bool blk_majmin(const char *dev, unsigned int *ma, unsigned int *mi);
/* DEV is MAJ:MIN or built on it (among the devices under it, any depth) */
bool blk_built_on(const char *dev, unsigned int ma, unsigned int mi);
/* the kernel names of a whole disk's partitions */
char **blk_partitions(const char *dev, size_t *n);
/* the partitions the kernel shows dropped after the table was zeroed */
bool blk_drop_partitions(int fd);
/*
 * the kernel's partitions of DEV, the whole disk open as FD, deleted one
 * by one (BLKPG, as partx -d): 0, or the errno of the last that failed
 */
int blk_del_partitions(int fd, const char *dev);
/* zero N sectors from START through FD, and fsync: 0 or errno */
int blk_zero(int fd, uint64_t start, uint64_t n);
/* discard N sectors from START: 0 or errno */
int blk_discard(int fd, uint64_t start, uint64_t n);
/*
 * "serial:X" and "wwn:X" of the physical drive under DEV (a partition's
 * disk), at most 2; none for dm or loop devices
 */
size_t blk_drive_ids(const char *dev, char ids[2][300]);

#endif
