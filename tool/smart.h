/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: what each member's drive says about itself (ssdstripe(8),
 * "Drive health").  An NVMe drive's SMART / Health Information log (log
 * page 0x02) is read with the kernel's admin ioctl (drive.c); a SATA or
 * SCSI drive's health and attributes come from `smartctl --json -H -A`,
 * read with json-c.  The answer is cached for SMART_CACHE seconds in
 * $SSDSTRIPE_RUNDIR/smart/DISK, the file the sh tool's reader (scripts/
 * lib/smart.sh, gone with the sh monitor) read and wrote the same way.
 *
 * The record has the sh reader's keys and meanings (smart.sh's header):
 * source (smartctl, nvme-cli, smartctl+nvme-cli or none: which of the two
 * documents the figures come from; a health log read through the ioctl
 * holds every figure of both, and is smartctl+nvme-cli), health (ok,
 * warning, critical, unknown), why, and the figures ("" unknown).
 */
#ifndef SSDSTRIPE_SMART_H
#define SSDSTRIPE_SMART_H

#include <stdbool.h>
#include <stddef.h>

#define NVME_LOG_LEN 512	/* the SMART / Health Information log page */

enum smart_key {
	SK_SOURCE, SK_HEALTH, SK_WHY, SK_CRITICAL, SK_WEAR, SK_SPARE, SK_SPARE_T,
	SK_MEDIA, SK_UNSAFE, SK_POH, SK_TEMP, SK_WTIME, SK_CTIME, SK_TCOUNT, SK_TSECS,
	SK_N
};

/* the keys of the record and its cache file, in their order */
extern const char *const smart_keys[SK_N];

struct smart_rec {
	char v[SK_N][256];
};

/* what decides a warning: SMART_WEAR_WARN and SMART_SPARE_MARGIN */
struct smart_cfg {
	long cache, wear_warn, spare_margin;
};

/* smart_unknown: the record of a device that is no drive (none, unknown) */
void smart_unknown(struct smart_rec *r);
/*
 * smart_parse: the record from a smartctl --json document (SC, SCLEN
 * bytes; NULL none) and an NVMe health log page (LOG, NVME_LOG_LEN bytes;
 * NULL none) standing where nvme-cli's smart-log document stood: the sh
 * reader's rules, figure for figure
 */
void smart_parse(const char *sc, size_t sclen, const unsigned char *log,
		 const struct smart_cfg *c, struct smart_rec *r);
/* smart_parse_log: the record of a health log read by itself (the ioctl) */
void smart_parse_log(const unsigned char *log, const struct smart_cfg *c, struct smart_rec *r);

/* the record as its cache file's lines ("key=value\n"), and back */
void smart_rec_text(const struct smart_rec *r, char *buf, size_t len);
void smart_rec_load(const char *text, struct smart_rec *r);

/* smart_config: SMART_CACHE, SMART_WEAR_WARN, SMART_SPARE_MARGIN (once) */
const struct smart_cfg *smart_config(void);
/*
 * smart_read: the record of the drive holding kernel block device NAME
 * (nvme0n1, sdb1), from the cache when it is young enough; no drive (dm,
 * loop, a gone device): source none, health unknown.  No process runs
 * for an NVMe drive.
 */
void smart_read(const char *name, struct smart_rec *r);

#endif
