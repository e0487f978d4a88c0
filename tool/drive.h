/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a drive's own device, asked about its health: the node that
 * answers for a kernel block device, the NVMe health log through the
 * admin ioctl, smartctl's JSON for the others.  The one place smart.c
 * touches a device or runs a program (tests stub this file).
 */
#ifndef SSDSTRIPE_DRIVE_H
#define SSDSTRIPE_DRIVE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * drive_node: the /dev node of the drive holding kernel block device
 * NAME (a partition's disk) into NODE; false when it is no drive (dm,
 * loop, md, virtio) or has no node
 */
bool drive_node(const char *name, char *node, size_t len);
/* drive_nvme_log: NODE's SMART / Health log page (0x02), 512 bytes */
bool drive_nvme_log(const char *node, unsigned char *log);
/*
 * drive_smartctl: the document `smartctl --json -H -A NODE` prints
 * (malloc'd, *LEN bytes), NULL when it cannot be run; $SSDSTRIPE_SMARTCTL
 * names the program (default smartctl, found in PATH)
 */
char *drive_smartctl(const char *node, size_t *len);

#endif
