/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a member's record and the one list of its fields, from
 * which status and detail (tables and --json) and the monitor's textfile
 * (metrics.c) are written, as scripts/lib/member.sh's MEMBER_FIELDS had
 * them: the same fields, names and order.
 */
#ifndef SSDSTRIPE_MEMBER_H
#define SSDSTRIPE_MEMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "label.h"

/* the fields, in the order of the JSON objects (member.sh, smart.sh,
 * transport.sh's MEMBER_FIELDS lines) */
enum mfield {
	MF_INDEX, MF_DEV, MF_MODEL, MF_SERIAL, MF_FW, MF_SIZE, MF_RID, MF_RSERIAL, MF_RMODEL,
	MF_STATE, MF_READ_IOS, MF_WRITE_IOS, MF_FLUSH_IOS, MF_DISCARD_IOS, MF_WZ_IOS,
	MF_READ_SECT, MF_WRITE_SECT, MF_DISCARD_SECT, MF_WZ_SECT, MF_ERRORS, MF_READ_ERR,
	MF_WRITE_ERR, MF_FLUSH_ERR, MF_DISCARD_ERR, MF_WZ_ERR, MF_RETRIES, MF_INFLIGHT,
	MF_LATENCY, MF_WAITING, MF_STALLS, MF_TEMP,
	MF_DRIVE, MF_DRIVE_WHY, MF_DRIVE_SOURCE, MF_DRIVE_CRIT, MF_DRIVE_WEAR, MF_DRIVE_SPARE,
	MF_DRIVE_SPARE_T, MF_DRIVE_MEDIA, MF_DRIVE_UNSAFE, MF_DRIVE_POH, MF_DRIVE_TEMP,
	MF_DRIVE_WTIME, MF_DRIVE_CTIME, MF_DRIVE_TCOUNT, MF_DRIVE_TSECS,
	MF_TRANSPORT, MF_ADDRESS, MF_NQN, MF_CONTROLLER, MF_CTRL_STATE,
	MF_N
};

/* the views: status (s) and detail (d) */
enum mview { MV_STATUS, MV_DETAIL };

struct member {
	char v[MF_N][512];
	bool gone;
};

/*
 * what the labels of an array record (recorded_load): the highest
 * generation's label of the members still there (its drive lines), the
 * creation time and spare area of the first, the members' MAJ:MIN as the
 * live table has them; all empty for a raw dmsetup array
 */
struct recorded {
	struct label best;
	bool have_best;
	char created[32], op[8];
	char **devs;
	size_t ndevs;
};

/* the lines under a table and what the drives add to the exit code */
struct notes {
	char *gone, *fabric, *drive;
	size_t gl, fl, dl;
	FILE *g, *f, *d;
	int drive_rc;
	char *crit, *warn;	/* "1 (nvme1n1, serial S)|..." */
	size_t cl, wl;
	FILE *c, *w;
	int fabric_say;		/* 0 none, 1 status (state), 2 detail (all) */
};

void notes_init(struct notes *n, int fabric_say);
/* notes_end: the streams closed, the strings complete */
void notes_end(struct notes *n);
void notes_free(struct notes *n);

void recorded_load(const char *asys, const char *uuid, struct recorded *r);
void recorded_free(struct recorded *r);
/* member_gone: member MSYS's device is gone, or is not the table's */
bool member_gone(const char *msys, const struct recorded *r);
/* member_read: member I of the array at ASYS, in STATE; NT gets its notes */
void member_read(const char *asys, unsigned int i, const char *state, const struct recorded *r,
		 struct notes *nt, struct member *m);
/* gone_note: NT's line for a member whose device is gone */
void gone_note(const struct member *m, unsigned int i, const struct recorded *r, struct notes *nt);
/* the member as the view's JSON object */
struct json_object *member_json(const struct member *m, enum mview v);
/* the view's table row of M, or its header (M NULL) */
void member_row(FILE *out, const struct member *m, enum mview v);
/* drive_head: what an array's line says of its drives (", drive critical
 * on member ...") into BUF */
void drive_head(const char *crit, const char *warn, char *buf, size_t len);
/* jnum: V as a JSON number (a string when it is none) */
struct json_object *jnum(const char *v);

#endif
