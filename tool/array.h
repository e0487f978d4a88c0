/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: an active array's record and the one list of its fields
 * (scripts/lib/array.sh's ARRAY_FIELDS): status and detail write their
 * --json objects and detail its rows from it.
 */
#ifndef SSDSTRIPE_ARRAY_H
#define SSDSTRIPE_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "member.h"

enum array_kind { AK_STATUS, AK_DETAIL };

struct array {
	char name[128], uuid[64], created[32], state[16];
	char count[24], chunk[24], size[24], op[8];
	bool pd, stats;
	char *sys;		/* its statistics directory, .../ssdstripe */
	char **states;		/* by member, as read with the array state */
	size_t n;
	struct recorded rec;
	char **feat;		/* the live table's feature words: "key value" pairs */
	size_t nfeat;
};

/* the member states' worst, as the kernel derives the array state */
const char *array_state_of(char **states, size_t n);
/* array_snapshot: the member states of the array at SYS (.../ssdstripe);
 * false when one cannot be read */
bool array_snapshot(const char *sys, char ***states, size_t *n);
void states_free(char **states, size_t n);
/* state_rc: an array state's exit code (0, 5, 6 or 7) */
int state_rc(const char *state);
/* array_uuid: the label uuid of active array NAME ("" a raw dmsetup one) */
void array_uuid(const char *name, char *buf, size_t len);
/* array_info: A of active array NAME as KIND shows it; false when it has
 * no statistics directory or its state cannot be read */
bool array_info(const char *name, enum array_kind kind, struct array *a);
void array_free(struct array *a);
/* array_feat: the value of WORD in the live table's features, NULL none */
const char *array_feat(const struct array *a, const char *word);
/* array_json: the fields of KIND's object into O */
void array_json(const struct array *a, enum array_kind kind, struct json_object *o);
/* array_rows: detail's rows of the array's fields (HEAD: drive_head's) */
void array_rows(const struct array *a, const char *head);
/*
 * array_member_rows: A's member table rows in view V (malloc'd text, the
 * header not included), each member read once; NT gets the notes of the
 * members and is ended, so that the array's line can say what the drives
 * say before the rows are printed
 */
char *array_member_rows(const struct array *a, enum mview v, struct notes *nt);
/* advice: what the admin should do about an array in STATE */
void advice(const char *name, const char *state);

#endif
