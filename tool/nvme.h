/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: NVMe admin commands through the kernel's passthrough ioctl
 * (NVME_IOCTL_ADMIN_CMD of linux/nvme_ioctl.h) on a namespace's block
 * device: no nvme-cli process, no parsing of its text.  The commands and
 * their fields are the NVM Express Base Specification's; the answers are
 * its binary structures, which callers read with nvme_le.  Root (or
 * CAP_SYS_ADMIN) is needed, as for nvme-cli.
 *
 * Every call returns 0 when the drive completed the command, a positive
 * NVMe status (the completion's status field, e.g. 0x2 Invalid Field in
 * Command) when it refused it, or -errno when the ioctl itself failed;
 * nvme_strerror puts any of them in words.
 */
#ifndef SSDSTRIPE_NVME_H
#define SSDSTRIPE_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NVME_ID_SIZE 4096		/* an Identify answer, bytes */

/* Identify's CNS values the tool uses */
enum {
	NVME_CNS_NS = 0x00,		/* Identify Namespace (NSID) */
	NVME_CNS_CTRL = 0x01,		/* Identify Controller */
	NVME_CNS_NS_ACTIVE = 0x02,	/* active NSIDs above NSID, attached here */
	NVME_CNS_NS_ALLOCATED = 0x10,	/* allocated NSIDs above NSID, attached or not */
};

/* log pages */
enum {
	NVME_LOG_SMART = 0x02,
	NVME_LOG_SANITIZE = 0x81,	/* Sanitize Status, 512 bytes */
};

struct nvme_admin_cmd;

/*
 * the ioctl the commands go through: ioctl(2) itself, which unit tests
 * replace with canned answers (REQ: NVME_IOCTL_ID, NVME_IOCTL_ADMIN_CMD)
 */
extern int (*nvme_ioctl)(int fd, unsigned long req, void *arg);

/* nvme_admin: CMD submitted on FD as it is; 0, an NVMe status or -errno */
int nvme_admin(int fd, struct nvme_admin_cmd *cmd);
/* the namespace ID of the namespace block device open as FD; 0 if none */
uint32_t nvme_nsid(int fd);
/* Identify CNS for NSID into BUF (NVME_ID_SIZE bytes) */
int nvme_identify(int fd, uint8_t cns, uint32_t nsid, void *buf);
/*
 * the allocated namespaces of the NVM subsystem (Identify CNS 0x10, page
 * after page): how many there are into N
 */
int nvme_ns_allocated(int fd, unsigned int *n);
/* Get Log Page LID for NSID, LEN bytes (a multiple of 4) into BUF */
int nvme_get_log(int fd, uint8_t lid, uint32_t nsid, void *buf, uint32_t len);
/*
 * Format NVM of namespace NSID: LBA format LBAF (0-63), metadata settings
 * MS, protection PI and PIL, secure erase setting SES (0 none, 1 user data
 * erase, 2 cryptographic erase)
 */
int nvme_format(int fd, uint32_t nsid, unsigned int lbaf, unsigned int ms, unsigned int pi,
		unsigned int pil, unsigned int ses);
/* Sanitize with action SANACT (1 exit failure mode, 2 block erase, 3
 * overwrite, 4 crypto erase) */
int nvme_sanitize(int fd, unsigned int sanact);
/* RC of one of these in words into BUF */
const char *nvme_strerror(int rc, char *buf, size_t len);
/* the little-endian number of LEN (at most 8) bytes at OFF of B */
uint64_t nvme_le(const void *b, size_t off, size_t len);

#endif
