// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: an active array's record (array.h).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "str.h"
#include "array.h"
#include "jstr.h"
#include "dev.h"
#include "dm.h"
#include "out.h"
#include "table.h"

/* member state -> 0 ok, 1 slow, 2 erroring, 3 stalled, 4 failed (the
 * kernel's order: a stall outranks errors, a failed member everything) */
static int rank(const char *s)
{
	static const char *const r[] = { "ok", "slow", "erroring", "stalled" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, r[i]))
			return i;
	return 4;
}

const char *array_state_of(char **states, size_t n)
{
	static const char *const a[] = { "optimal", "slow", "erroring", "stalled", "failed" };
	int w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (rank(states[i]) > w)
			w = rank(states[i]);
	return a[w];
}

void states_free(char **states, size_t n)
{
	names_free(states, n);
}

bool array_snapshot(const char *sys, char ***states, size_t *n)
{
	char v[64], f[PATH_MAX];
	unsigned long c, i;

	*states = NULL;
	*n = 0;
	if (!attr_at(sys, "member_count", v, sizeof(v)))
		return false;
	c = strtoul(v, NULL, 10);
	if (c > TABLE_MAX_MEMBERS)
		return false;
	*states = xmalloc((c + 1) * sizeof(**states));
	for (i = 0; i < c; i++) {
		if (!pathf(f, sizeof(f), "%s/members/%lu/state", sys, i) || !read_attr(f, v, sizeof(v))) {
			states_free(*states, i);
			*states = NULL;
			return false;
		}
		(*states)[i] = xstrdup(v);
	}
	*n = c;
	return true;
}

int state_rc(const char *s)
{
	if (!strcmp(s, "optimal"))
		return EX_OK;
	if (!strcmp(s, "slow"))
		return EX_SLOW;
	if (!strcmp(s, "erroring") || !strcmp(s, "stalled"))
		return EX_ERRORING;
	return EX_ARRAY_FAILED;
}

void array_uuid(const char *name, char *buf, size_t len)
{
	struct dm_dev_info info;
	size_t pl = strlen(DM_UUID_PREFIX);

	buf[0] = 0;
	if (dm_info_of(name, &info) && !strncmp(info.uuid, DM_UUID_PREFIX, pl))
		cpy(buf, len, info.uuid + pl);
}

/* feats: the live table's feature words (detail.sh's table_features) */
static void feats(const char *name, struct array *a)
{
	struct dm_table tb;
	struct ss_table t;
	char err[128];
	size_t i;

	a->pd = a->stats = true;
	if (!dm_table_of(name, &tb))
		return;
	for (i = 0; i < tb.n; i++) {
		char *w, *save = NULL, *s;
		unsigned long cnt, j;

		if (strcmp(tb.t[i].type, "ssdstripe"))
			continue;
		if (!table_parse(tb.t[i].len, tb.t[i].params, &t, err, sizeof(err)))
			break;
		s = xstrdup(t.feat);
		w = strtok_r(s, " ", &save);
		cnt = w ? strtoul(w, NULL, 10) : 0;
		a->feat = xmalloc((cnt + 1) * sizeof(*a->feat));
		for (j = 0; j < cnt && (w = strtok_r(NULL, " ", &save)); j++) {
			char *k, *p;

			for (p = w; *p; p++)
				*p = (char)tolower((unsigned char)*p);
			if (!strcmp(w, "no_discard_passdown")) {
				a->pd = false;
			} else if (!strcmp(w, "no_stats")) {
				a->stats = false;
			} else {
				k = w;
				w = strtok_r(NULL, " ", &save);
				j++;
				a->feat[a->nfeat++] = xasprintf("%s %s", k, w ? w : "");
			}
		}
		free(s);
		table_free(&t);
		break;
	}
	dm_table_free(&tb);
}

const char *array_feat(const struct array *a, const char *word)
{
	size_t i, l = strlen(word);

	for (i = 0; i < a->nfeat; i++)
		if (!strncmp(a->feat[i], word, l) && a->feat[i][l] == ' ')
			return a->feat[i] + l + 1;
	return NULL;
}

bool array_info(const char *name, enum array_kind kind, struct array *a)
{
	char *d = dm_sysdir(name);
	struct stat st;

	memset(a, 0, sizeof(*a));
	cpy(a->name, sizeof(a->name), name);
	if (!d)
		return false;
	a->sys = xasprintf("%s/ssdstripe", d);
	free(d);
	if (stat(a->sys, &st) || !S_ISDIR(st.st_mode))
		return false;
	if (!array_snapshot(a->sys, &a->states, &a->n))
		return false;
	cpy(a->state, sizeof(a->state), array_state_of(a->states, a->n));
	attr_at(a->sys, "member_count", a->count, sizeof(a->count));
	attr_at(a->sys, "chunk_sectors", a->chunk, sizeof(a->chunk));
	attr_at(a->sys, "../size", a->size, sizeof(a->size));
	array_uuid(name, a->uuid, sizeof(a->uuid));
	/* the creation time and the members' drives from the labels of the
	 * members still there (arrays made by this tool) */
	recorded_load(a->sys, a->uuid, &a->rec);
	if (kind != AK_DETAIL)
		return true;
	if (*a->rec.created && strspn(a->rec.created, "0123456789") == strlen(a->rec.created))
		iso_time(a->created, sizeof(a->created), strtoll(a->rec.created, NULL, 10));
	cpy(a->op, sizeof(a->op), *a->rec.op ? a->rec.op : "0");
	feats(name, a);
	return true;
}

void array_free(struct array *a)
{
	free(a->sys);
	states_free(a->states, a->n);
	recorded_free(&a->rec);
	names_free(a->feat, a->nfeat);
	memset(a, 0, sizeof(*a));
}

void array_json(const struct array *a, enum array_kind kind, struct json_object *o)
{
	json_object_object_add(o, "name", jstr(a->name));
	json_object_object_add(o, "uuid", *a->uuid ? jstr(a->uuid) : NULL);
	if (kind == AK_DETAIL)
		json_object_object_add(o, "created", *a->created ? jstr(a->created) : NULL);
	json_object_object_add(o, "state", jstr(a->state));
	json_object_object_add(o, "member_count", jnum(a->count));
	json_object_object_add(o, "chunk_sectors", jnum(a->chunk));
	json_object_object_add(o, "size_sectors", jnum(a->size));
	if (kind != AK_DETAIL)
		return;
	json_object_object_add(o, "overprovision_percent", jnum(a->op));
	json_object_object_add(o, "discard_passdown", json_object_new_boolean(a->pd));
	json_object_object_add(o, "stats", json_object_new_boolean(a->stats));
}

static void row(const char *label, const char *v)
{
	printf("  %-20s %s\n", label, v);
}

char *array_member_rows(const struct array *a, enum mview v, struct notes *nt)
{
	char *rows = NULL;
	size_t rl = 0, i;
	FILE *r = open_memstream(&rows, &rl);

	if (!r)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < a->n; i++) {
		struct member m;

		member_read(a->sys, (unsigned int)i, a->states[i], &a->rec, nt, &m);
		member_row(r, &m, v);
		gone_note(&m, (unsigned int)i, &a->rec, nt);
	}
	fclose(r);
	notes_end(nt);
	return rows;
}

void array_rows(const struct array *a, const char *head)
{
	char h[64], v[1024];

	row("uuid", *a->uuid ? a->uuid : "-");
	row("created", *a->created ? a->created : "-");
	snprintf(v, sizeof(v), "%s%s", a->state, head);
	row("state", v);
	row("members", *a->count ? a->count : "-");
	snprintf(v, sizeof(v), "%s (%s sectors)", human(h, sizeof(h), strtoull(a->chunk, NULL, 10)), a->chunk);
	row("chunk", v);
	snprintf(v, sizeof(v), "%s (%s sectors)", human(h, sizeof(h), strtoull(a->size, NULL, 10)), a->size);
	row("size", v);
	if (strcmp(a->op, "0")) {
		snprintf(v, sizeof(v), "%s %% of each member past its data (create --overprovision)", a->op);
		row("spare area", v);
	}
	row("discard passdown", a->pd ? "on" : "off");
	row("statistics", a->stats ? "on" : "off");
}

void advice(const char *name, const char *state)
{
	if (!strcmp(state, "slow"))
		say("  a member is slow: check its cooling, firmware and SMART/NVMe log");
	else if (!strcmp(state, "erroring"))
		say("  a member returned I/O errors: back up now, check its SMART/NVMe log, then '%s clear %s' once understood",
		    PROG, name);
	else if (!strcmp(state, "stalled"))
		say("  a member stopped completing I/O: reads or writes are waiting on it, not lost yet; check its cable, the drive, the fabric link");
	else if (!strcmp(state, "failed"))
		say("  a member has failed: the array has lost data; restore from backup");
}
