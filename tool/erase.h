/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a drive's own erase command, as sanitize runs it on each
 * member: what the drive supports, asked of the drive itself, the method
 * chosen (crypto erase first), the command run and waited for, and what
 * the drive reads as afterwards.
 *
 * NVMe, through the kernel's admin ioctl (nvme.h), in the binary form the
 * NVMe specification defines:
 *   Identify Controller  CMIC (76; bit 1 more than one controller), OACS
 *                        (256-257; bit 1 Format NVM), SANICAP (328-331;
 *                        bit 0 crypto erase, bit 1 block erase), FNA (524;
 *                        bit 0 a format reaches every namespace, bit 1 so
 *                        does a secure erase, bit 2 crypto erase)
 *   Identify Namespace   FLBAS (26) and DPS (29): the format in use, which
 *                        a Format NVM is given again unchanged
 *   Identify CNS 0x10    the allocated namespaces, attached to this
 *                        controller or not (nvme list-ns --all)
 *   Sanitize Status log  SPROG (0-1), SSTAT (2-3; bits 0-2: 1 completed,
 *                        2 in progress, 3 failed, 4 completed without
 *                        deallocation)
 * ATA, through hdparm (SSDSTRIPE_HDPARM names it): hdparm -I's Security
 * section gives the drive's security state (supported, enabled, locked,
 * frozen, enhanced erase); --security-set-pass and --security-erase[-
 * enhanced] erase it.
 */
#ifndef SSDSTRIPE_ERASE_H
#define SSDSTRIPE_ERASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ident.h"

enum erase_method {
	ER_NONE,
	ER_SANITIZE_CRYPTO,	/* NVMe Sanitize, crypto erase */
	ER_FORMAT_CRYPTO,	/* NVMe Format NVM, SES 2 */
	ER_SANITIZE_BLOCK,	/* NVMe Sanitize, block erase */
	ER_FORMAT_USER,		/* NVMe Format NVM, SES 1 */
	ER_ATA_ENHANCED,	/* ATA enhanced security erase */
	ER_ATA,			/* ATA security erase */
};

struct erase_plan {
	enum erase_method m;
	/* a format's: the LBA format in use (0-63), its metadata setting,
	 * protection type and location, given again */
	unsigned int lbaf, ms, pi, pil;
	char can[160];		/* what the drive supports, in words */
	char no[1024];		/* why it cannot be erased */
};

/* the password an ATA security erase sets for the moment of the erase,
 * which clears it; named in the message if the erase fails half-way */
#define ERASE_ATA_PASS "ssdstripe"

/* how a method is named to the administrator */
const char *erase_words(enum erase_method m);
/* the words before " (": "NVMe Format NVM, user data erase" */
const char *erase_short(enum erase_method m);

/*
 * erase_plan: the erase for DEV, whose identity is D (WANT: the --method,
 * "format", "sanitize" or "ata", or NULL): false, P->no saying why, when
 * DEV cannot be erased
 */
bool erase_plan(const char *dev, const struct ident *d, const char *want, struct erase_plan *p);
/* the NVMe part, on the namespace open as FD */
bool erase_plan_nvme(int fd, const char *want, struct erase_plan *p);
/*
 * the choice from Identify Controller's bytes CTRL (NVME_ID_SIZE) and the
 * count of allocated namespaces NS (0: they could not be listed); a
 * format's LBA format is the caller's (Identify Namespace)
 */
bool erase_choose_nvme(const uint8_t *ctrl, unsigned int ns, const char *want, struct erase_plan *p);
/* the ATA part: DEV a SCSI disk whose sysfs directory is SYSDIR */
bool erase_plan_ata(const char *dev, const char *sysdir, const char *want, struct erase_plan *p);

/* the Security section of hdparm -I's TEXT */
struct ata_security {
	bool supported, enabled, locked, frozen, enhanced;
};
void erase_ata_security(const char *text, struct ata_security *s);

/*
 * erase_run: the erase P on DEV, open as FD (held exclusively by the
 * caller); a sanitize waited for, saying how far it is every minute.
 * False, ERR saying how, when it failed
 */
bool erase_run(int fd, const char *dev, const struct erase_plan *p, char *err, size_t el);
/* milliseconds between two looks at the Sanitize Status log (tests: 0) */
extern unsigned int erase_poll_ms;

/* what the MiB at sector START of FD reads as: "zeros", "ones (0xff)" or
 * "not zeros" */
const char *erase_mib(int fd, uint64_t start);

#endif
