/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the device-mapper tables and status lines the tool reads and
 * writes, as text: an array's ssdstripe table, a replace's mirror target
 * (dm-raid1), and the stripe's geometry (a member's sectors as array
 * sectors).  Pure functions, no I/O: unit-tested and fuzzed.
 */
#ifndef SSDSTRIPE_TABLE_H
#define SSDSTRIPE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TABLE_MAX_MEMBERS 256

/* an ssdstripe target: "N CHUNK MAJ:MIN OFFSET ... [FEATURES]" */
struct ss_table {
	uint64_t len, chunk;	/* sectors */
	unsigned int n;
	char **mm, **off;	/* by index: maj:min and data offset, as words */
	char *feat;		/* the feature words, with their count; "" none */
};

/* PARAMS of an ssdstripe target of LEN sectors into T; false, ERR saying
 * why, when they are not an ssdstripe table */
bool table_parse(uint64_t len, const char *params, struct ss_table *t, char *err, size_t el);
void table_free(struct ss_table *t);
/* T's parameters with member K on MM at OFF (malloc'd) */
char *table_params(const struct ss_table *t, unsigned int k, const char *mm, const char *off);
/*
 * one mirror target's status ("2 OLD NEW SYNC/TOTAL 1 HEALTH ..."): the
 * regions in sync and in all, and a letter per leg (A alive, D write
 * failure, S copy failure, R read failure, F or U failed otherwise)
 */
bool mirror_status_parse(const char *params, uint64_t *sync, uint64_t *total, char health[3]);
/* one mirror target's table ("core 1 REGION 2 OLD OFF NEW OFF ..."): its
 * legs' MAJ:MIN (OLD, NEW; malloc'd) */
bool mirror_legs_parse(const char *params, char **old_mm, char **new_mm);
/*
 * member K's data sectors F..L of a stripe of N members and CHUNK sectors,
 * as array sector ranges (a chunk at a time: the stripe interleaves them),
 * at most MAX into OUT; returns how many there are
 */
size_t geo_array_ranges(uint64_t chunk, unsigned int n, unsigned int k, uint64_t f, uint64_t l,
			uint64_t (*out)[2], size_t max);

#endif
