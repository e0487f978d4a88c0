/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: what a device carries besides our label, by libblkid: a file
 * system, swap, a partition table or partitions, md or LVM metadata.
 */
#ifndef SSDSTRIPE_PROBE_H
#define SSDSTRIPE_PROBE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * foreign_signature: what else than our label DEV carries, in words ("an
 * ext4 signature", "a GPT partition table") into BUF; false if nothing.
 * Our label (text at 4-8 KiB, the first 4 KiB zero) matches no signature.
 */
bool foreign_signature(const char *dev, char *buf, size_t len);
/*
 * probe_setup: with SSDSTRIPE_NO_BLKID set (tests), say once that only
 * the common signatures' magic numbers are checked (foreign_signature
 * then checks those alone, as the sh tool did without util-linux blkid)
 */
void probe_setup(void);

/* mounted_on: where device MA:MI is mounted (mountinfo), into BUF */
bool mounted_on(unsigned int ma, unsigned int mi, char *buf, size_t len);

/*
 * busy_dir: why the one block device at sysfs directory DIR is busy
 * (mounted on, held by, in use as swap) into BUF; false if it is not
 */
bool busy_dir(const char *dir, char *buf, size_t len);
/* why DEV or one of its partitions is busy (mounted, held, swap), in BUF */
bool in_use(const char *dev, char *buf, size_t len);

#endif
