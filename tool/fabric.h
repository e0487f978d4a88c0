/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: how a member is reached (Documentation/ssdstripe-fabric.rst):
 * an NVMe namespace is served by a controller on a transport (pcie for a
 * local SSD; tcp, rdma or fc for one another host exports), at an
 * address, in a subsystem (NQN).  From sysfs, as scripts/lib/transport.sh
 * reads it.
 */
#ifndef SSDSTRIPE_FABRIC_H
#define SSDSTRIPE_FABRIC_H

#include <limits.h>
#include <stdbool.h>

struct fabric {
	char transport[32], address[256], subsysnqn[256];
	char controller[64], state[32];
	char ctrl[PATH_MAX];		/* the controller's sysfs directory */
};

/* fabric_of: F of the namespace whose block sysfs directory is BLOCKSYS;
 * false (F empty) for anything but an NVMe namespace */
bool fabric_of(const char *blocksys, struct fabric *f);
/* fabric_address: a controller's address file as host:port (an IPv6
 * host in brackets); a PCIe address as it is */
void fabric_address(const char *a, char *buf, size_t len);

#endif
