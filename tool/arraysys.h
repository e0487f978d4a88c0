/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: an active array as the module shows it in sysfs
 * (Documentation/ABI/testing/sysfs-block-dm-ssdstripe): its statistics
 * directory, found by name through libdevmapper's major:minor, and what
 * iostat, status, detail and the monitor read there: the member count, a
 * member's state, device, counters and latency histogram.
 */
#ifndef SSDSTRIPE_ARRAYSYS_H
#define SSDSTRIPE_ARRAYSYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lathist.h"

/*
 * arraysys_dir: the statistics directory of active array NAME,
 * /sys/devices/virtual/block/dm-N/ssdstripe (malloc'd); NULL when NAME is
 * no device or has none (its ssdstripe target is not the table's first)
 */
char *arraysys_dir(const char *name);

/* arraysys_attr: the first line of ASYS/FILE, false (BUF empty) if none */
bool arraysys_attr(const char *asys, const char *file, char *buf, size_t len);
/* arraysys_member_attr: the first line of member I's FILE (members/I/FILE) */
bool arraysys_member_attr(const char *asys, unsigned int i, const char *file, char *buf,
			  size_t len);
/* arraysys_member_count: member_count, false if it cannot be read */
bool arraysys_member_count(const char *asys, unsigned int *n);

/* a member's counters, in the order iostat reads them */
enum member_counter {
	MC_READ_IOS, MC_WRITE_IOS, MC_READ_SECTORS, MC_WRITE_SECTORS,
	MC_ERRORS, MC_RETRIES, MC_INFLIGHT, MC_N
};
/* the sysfs file of each (read_ios ... inflight) */
extern const char *const member_counter_file[MC_N];
/*
 * arraysys_counters: member I's counters; one that cannot be read, or
 * whose line is not a whole number, is 0
 */
void arraysys_counters(const char *asys, unsigned int i, uint64_t v[MC_N]);
/* arraysys_hist: member I's latency_histogram; false (H empty) if none */
bool arraysys_hist(const char *asys, unsigned int i, struct lathist *h);
/*
 * arraysys_member_dev: the kernel name of member I's device ("nvme0n1"),
 * the last part of its block link; false (BUF empty) without the link
 */
bool arraysys_member_dev(const char *asys, unsigned int i, char *buf, size_t len);

#endif
