// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a drive's own device, asked about its health (drive.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include "str.h"
#include "dev.h"
#include "drive.h"
#include "extprog.h"
#include "out.h"
#include "smart.h"

bool drive_node(const char *name, char *node, size_t len)
{
	char d[PATH_MAX], *r;
	const char *b;
	struct stat st;

	node[0] = 0;
	if (!*name || strchr(name, '/') || !pathf(d, sizeof(d), "/sys/class/block/%s", name))
		return false;
	if (path_exists(d, "partition")) {
		char up[PATH_MAX + 4];

		snprintf(up, sizeof(up), "%s/..", d);
		r = realpath(up, NULL);
		if (!r)
			return false;
		cpy(d, sizeof(d), r);
		free(r);
	}
	b = strrchr(d, '/');
	b = b ? b + 1 : d;
	/* nvme*n*, sd[a-z]*, hd[a-z]* */
	if (!((!strncmp(b, "nvme", 4) && strchr(b + 4, 'n')) ||
	      ((!strncmp(b, "sd", 2) || !strncmp(b, "hd", 2)) && b[2] >= 'a' && b[2] <= 'z')))
		return false;
	if (!pathf(node, len, "/dev/%s", b))
		return false;
	if (stat(node, &st) || !S_ISBLK(st.st_mode)) {
		node[0] = 0;
		return false;
	}
	return true;
}

bool drive_nvme_log(const char *node, unsigned char *log)
{
	struct nvme_admin_cmd c;
	int fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK), rc;

	if (fd < 0)
		return false;
	memset(&c, 0, sizeof(c));
	memset(log, 0, NVME_LOG_LEN);
	c.opcode = 0x02;			/* Get Log Page */
	c.nsid = 0xffffffff;			/* the controller's, all namespaces */
	c.addr = (unsigned long long)(uintptr_t)log;
	c.data_len = NVME_LOG_LEN;
	c.cdw10 = ((NVME_LOG_LEN / 4 - 1) << 16) | 0x02;	/* NUMDL, LID 2 */
	rc = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	close(fd);
	return rc == 0;
}

char *drive_smartctl(const char *node, size_t *len)
{
	const char *prog = getenv("SSDSTRIPE_SMARTCTL");
	/* -H -A: health and the attributes, nothing written */
	char *argv[] = { NULL, "--json", "-H", "-A", (char *)node, NULL };
	char *out = NULL;

	*len = 0;
	argv[0] = (char *)(prog && *prog ? prog : "smartctl");
	/* smartctl's exit status is a bit mask of findings: its JSON says */
	if (spawn_run(argv, SPAWN_OUT, &out) < 0) {
		free(out);
		return NULL;
	}
	*len = strlen(out);
	return out;
}
