// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: NVMe admin commands through the kernel's ioctl (nvme.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/nvme_ioctl.h>

#include "nvme.h"

/* opcodes (NVM Express Base Specification, "Admin Command Set") */
enum {
	OP_GET_LOG = 0x02,
	OP_IDENTIFY = 0x06,
	OP_FORMAT = 0x80,
	OP_SANITIZE = 0x84,
};

/* milliseconds the kernel waits for a command; a format erases the whole
 * namespace before it completes (nvme-cli waits 600 s for it too) */
#define TIMEOUT_FORMAT 600000u

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg);
}

int (*nvme_ioctl)(int fd, unsigned long req, void *arg) = sys_ioctl;

int nvme_admin(int fd, struct nvme_admin_cmd *cmd)
{
	int rc = nvme_ioctl(fd, NVME_IOCTL_ADMIN_CMD, cmd);

	if (rc < 0)
		return errno ? -errno : -EIO;
	return rc;
}

uint32_t nvme_nsid(int fd)
{
	int rc = nvme_ioctl(fd, NVME_IOCTL_ID, NULL);

	return rc > 0 ? (uint32_t)rc : 0;
}

int nvme_identify(int fd, uint8_t cns, uint32_t nsid, void *buf)
{
	struct nvme_admin_cmd c;

	memset(&c, 0, sizeof(c));
	memset(buf, 0, NVME_ID_SIZE);
	c.opcode = OP_IDENTIFY;
	c.nsid = nsid;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = NVME_ID_SIZE;
	c.cdw10 = cns;
	return nvme_admin(fd, &c);
}

int nvme_ns_allocated(int fd, unsigned int *n)
{
	uint8_t list[NVME_ID_SIZE];
	uint32_t after = 0, id;
	size_t i;
	int rc;

	*n = 0;
	for (;;) {
		rc = nvme_identify(fd, NVME_CNS_NS_ALLOCATED, after, list);
		if (rc)
			return rc;
		/* NSIDs above AFTER, ascending, a zero ending the list */
		for (i = 0; i < NVME_ID_SIZE / 4; i++) {
			id = (uint32_t)nvme_le(list, i * 4, 4);
			if (!id || id <= after)
				return 0;
			(*n)++;
		}
		after = id;
	}
}

int nvme_get_log(int fd, uint8_t lid, uint32_t nsid, void *buf, uint32_t len)
{
	struct nvme_admin_cmd c;
	uint32_t numd = len / 4 - 1;

	memset(&c, 0, sizeof(c));
	memset(buf, 0, len);
	c.opcode = OP_GET_LOG;
	c.nsid = nsid;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.cdw10 = lid | (numd & 0xffff) << 16;
	c.cdw11 = numd >> 16;
	return nvme_admin(fd, &c);
}

int nvme_format(int fd, uint32_t nsid, unsigned int lbaf, unsigned int ms, unsigned int pi,
		unsigned int pil, unsigned int ses)
{
	struct nvme_admin_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_FORMAT;
	c.nsid = nsid;
	/* LBAF bits 3:0, MSET 4, PI 7:5, PIL 8, SES 11:9, LBAFU (the
	 * format's upper bits) 13:12 */
	c.cdw10 = (lbaf & 15) | (ms & 1) << 4 | (pi & 7) << 5 | (pil & 1) << 8 |
		  (ses & 7) << 9 | (lbaf >> 4 & 3) << 12;
	c.timeout_ms = TIMEOUT_FORMAT;
	return nvme_admin(fd, &c);
}

int nvme_sanitize(int fd, unsigned int sanact)
{
	struct nvme_admin_cmd c;

	memset(&c, 0, sizeof(c));
	c.opcode = OP_SANITIZE;
	c.cdw10 = sanact & 7;
	return nvme_admin(fd, &c);
}

const char *nvme_strerror(int rc, char *buf, size_t len)
{
	static const struct {
		int sc;
		const char *what;
	} known[] = {
		{ 0x1, "Invalid Command Opcode" },
		{ 0x2, "Invalid Field in Command" },
		{ 0x6, "Internal Error" },
		{ 0xb, "Invalid Namespace or Format" },
		{ 0x1c, "Sanitize Failed" },
		{ 0x1d, "Sanitize In Progress" },
		{ 0x20, "Namespace is Write Protected" },
		{ 0x10a, "Invalid Format" },
	};
	size_t i;

	if (rc < 0) {
		snprintf(buf, len, "%s", strerror(-rc));
		return buf;
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if ((rc & 0x7ff) == known[i].sc) {
			snprintf(buf, len, "NVMe status 0x%x, %s", (unsigned int)rc, known[i].what);
			return buf;
		}
	}
	snprintf(buf, len, "NVMe status 0x%x", (unsigned int)rc);
	return buf;
}

uint64_t nvme_le(const void *b, size_t off, size_t len)
{
	const uint8_t *p = (const uint8_t *)b + off;
	uint64_t v = 0;

	while (len--)
		v = v << 8 | p[len];
	return v;
}
