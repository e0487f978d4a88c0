// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe list: one line per array, the active ones and those whose
 * labels are on this system's devices but that are not active (reads
 * labels, writes nothing).  On stderr: the members of an active array
 * that are gone, the members missing from an inactive one, a member
 * claimed twice (what assemble does with it), and each member whose label
 * another signature shadows.  Exit: 0, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "labelset.h"
#include "member.h"
#include "opts.h"
#include "out.h"

static void row(const char *name, const char *state, const char *members, uint64_t size,
		uint64_t chunk, const char *uuid)
{
	char hs[48], hc[48];

	say("%-16s %-9s %7s %10s %9s %s", name, state, members, human(hs, sizeof(hs), size),
	    human(hc, sizeof(hc), chunk), uuid);
}

/* list_gone: a line on stderr for each member of active array NAME (its
 * statistics at ASYS, its dm uuid without our prefix UUID) that is gone */
static void list_gone(const char *name, const char *asys, const char *uuid)
{
	struct recorded rec;
	struct notes nt;
	char cnt[32], f[4200];
	unsigned long n, i;
	const char *p, *e;

	if (!attr_at(asys, "member_count", cnt, sizeof(cnt)))
		return;
	n = strtoul(cnt, NULL, 10);
	recorded_load(asys, uuid, &rec);
	notes_init(&nt, 0);
	for (i = 0; i < n; i++) {
		struct member m;

		memset(&m, 0, sizeof(m));
		m.gone = pathf(f, sizeof(f), "%s/members/%lu", asys, i) && member_gone(f, &rec);
		gone_note(&m, (unsigned int)i, &rec, &nt);
	}
	notes_end(&nt);
	for (p = nt.gone; p && *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, '\n');
		if (!strncmp(p, "  ", 2))
			p += 2;
		warn("array %s: %.*s", name, (int)(e - p), p);
	}
	notes_free(&nt);
	recorded_free(&rec);
}

static void list_active(void)
{
	size_t n, i;
	char **names = dm_arrays(&n);

	for (i = 0; i < n; i++) {
		struct dm_dev_info info;
		char *d = dm_sysdir(names[i]), *asys, count[32], size[32], chunk[32];
		char **states = NULL;
		size_t ns = 0;
		const char *u = "", *state = "";

		if (dm_info_of(names[i], &info)) {
			u = info.uuid;
			if (!strncmp(u, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)))
				u += strlen(DM_UUID_PREFIX);
		}
		asys = xasprintf("%s/ssdstripe", d ? d : "");
		if (array_snapshot(asys, &states, &ns))
			state = array_state_of(states, ns);
		if (!attr_at(asys, "member_count", count, sizeof(count)))
			snprintf(count, sizeof(count), "?");
		if (!d || !attr_at(d, "size", size, sizeof(size)))
			size[0] = 0;
		if (!attr_at(asys, "chunk_sectors", chunk, sizeof(chunk)))
			chunk[0] = 0;
		row(names[i], state, count, strtoull(size, NULL, 10), strtoull(chunk, NULL, 10),
		    *u ? u : "-");
		list_gone(names[i], asys, u);
		states_free(states, ns);
		free(asys);
		free(d);
	}
	names_free(names, n);
}

/* the members of array UUID found (distinct slots, of labels that are
 * members: no unfinished copy, no retired one) and the slots claimed twice */
static void members_found(const struct lset *s, const char *uuid, unsigned long *have,
			  unsigned long *dups)
{
	const char **idx = xmalloc((s->nlab + 1) * sizeof(*idx));
	unsigned long *cnt = xmalloc((s->nlab + 1) * sizeof(*cnt));
	size_t i, j, n = 0;

	for (i = 0; i < s->nlab; i++) {
		const struct lrec *r = &s->lab[i];
		const char *st = lrec_f(r, LK_STATE);

		if (strcmp(lrec_f(r, LK_UUID), uuid) || !strcmp(st, "copying") || !strcmp(st, "replaced"))
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(idx[j], lrec_f(r, LK_INDEX)))
				break;
		if (j == n) {
			idx[n] = lrec_f(r, LK_INDEX);
			cnt[n++] = 0;
		}
		cnt[j]++;
	}
	*have = n;
	*dups = 0;
	for (j = 0; j < n; j++)
		if (cnt[j] > 1)
			(*dups)++;
	free(idx);
	free(cnt);
}

/* one inactive array, R the label that gives its geometry */
static void list_inactive(const struct lset *s, const struct lrec *r)
{
	const char *uuid = lrec_f(r, LK_UUID), *name = lrec_f(r, LK_NAME), *st = "inactive";
	uint64_t count = strtoull(lrec_f(r, LK_COUNT), NULL, 10);
	unsigned long have, dups;
	struct lcheck c;
	char *act, *dmu, members[64];
	size_t i;
	int rc;

	dmu = xasprintf("%s%s", DM_UUID_PREFIX, uuid);
	act = dm_name_of_uuid(dmu);
	free(dmu);
	if (act) {
		free(act);
		return;
	}
	members_found(s, uuid, &have, &dups);
	if (lset_has_shadowed(s, uuid))
		st = "shadowed";
	snprintf(members, sizeof(members), "%lu/%s", have, lrec_f(r, LK_COUNT));
	row(name, st, members, strtoull(lrec_f(r, LK_DATA), NULL, 10) * count,
	    strtoull(lrec_f(r, LK_CHUNK), NULL, 10), uuid);
	if (strcmp(st, "inactive") || (have >= count && !dups))
		return;
	rc = lset_check(s, uuid, &c);
	/* a slot claimed twice: what assemble says of it (which label loses,
	 * or the refusal of a tie) */
	if (dups) {
		for (i = 0; i < c.nlosers; i++)
			warn("%s", c.losers[i]);
		if (rc == EX_REFUSED)
			warn("%s", c.why);
	}
	if (rc == EX_NOTFOUND)
		lset_missing_members(s, &c, name, uuid, "", false, true);
	lcheck_free(&c);
}

static int by_uuid(const void *a, const void *b)
{
	const struct lrec *const *x = a, *const *y = b;

	return strcmp(lrec_f(*x, LK_UUID), lrec_f(*y, LK_UUID));
}

int cmd_list(int argc, char **argv)
{
	struct flag_operands line = { 0 };
	const struct lrec **geo;
	struct lset s;
	char **devs;
	size_t nd, i, n = 0;

	opts_parse(argc, argv, "", flag_operands_opt, &line, help_of);
	if (line.ops.n)
		usage_die("list takes no arguments ('%s')", line.ops.v[0]);
	operands_free(&line.ops);
	devs = lset_candidates(&nd);
	lset_collect(&s, devs, nd);
	names_free(devs, nd);
	say("%-16s %-9s %7s %10s %9s %s", "NAME", "STATE", "MEMBERS", "SIZE", "CHUNK", "UUID");
	list_active();
	/* the geometry from any member, labelled or shadowed (same fields):
	 * the first of each array's, by uuid */
	geo = xmalloc((s.nlab + s.nsh + 1) * sizeof(*geo));
	for (i = 0; i < s.nlab + s.nsh; i++) {
		const struct lrec *r = i < s.nlab ? &s.lab[i] : &s.sh[i - s.nlab];
		size_t j;

		if (!*lrec_f(r, LK_UUID))
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(lrec_f(geo[j], LK_UUID), lrec_f(r, LK_UUID)))
				break;
		if (j == n)
			geo[n++] = r;
	}
	/* stable for the first of each uuid: there is only one per uuid */
	qsort(geo, n, sizeof(*geo), by_uuid);
	for (i = 0; i < n; i++)
		list_inactive(&s, geo[i]);
	free(geo);
	for (i = 0; i < s.nsh; i++) {
		const struct lrec *r = &s.sh[i];
		const char *name = lrec_f(r, LK_NAME);

		if (*name)
			warn("%s: member %s of array %s: label shadowed by %s (assemble refuses it)", r->dev,
			     lrec_f(r, LK_INDEX), name, r->what);
		else
			warn("%s: label shadowed by %s (assemble refuses it)", r->dev, r->what);
	}
	lset_free(&s);
	return EX_OK;
}
