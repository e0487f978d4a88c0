// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: an array's members as their labels say (labelset.h).  The
 * same rules, in the same order, with the same words as the sh library's
 * check_set and its helpers (scripts/lib/assemble.sh) had.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk.h"
#include "dev.h"
#include "dm.h"
#include "labelset.h"
#include "out.h"
#include "probe.h"

/* ---- collect ----------------------------------------------------------- */
static bool candidate(const char *name, void *ctx)
{
	static const char *const skip[] = { "ram", "zram", "sr", "fd", "nbd" };
	char dir[PATH_MAX], v[256];
	char **h;
	size_t i, nh;

	(void)ctx;
	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return false;
	if (!pathf(dir, sizeof(dir), "/sys/class/block/%s", name) || !path_exists(dir, "dev"))
		return false;
	if (!strncmp(name, "loop", 4) && !path_exists(dir, "loop/backing_file"))
		return false;
	if (attr_at(dir, "hidden", v, sizeof(v)) && !strcmp(v, "1"))
		return false;
	/* a held device is seen through its holder (dm-linear, multipath):
	 * reading it too would show every label twice */
	if (!pathf(v, sizeof(v), "%s/holders", dir))
		return false;
	h = dir_names(v, &nh);
	names_free(h, nh);
	if (nh)
		return false;
	if (!attr_at(dir, "size", v, sizeof(v)) ||
	    strtoull(v, NULL, 10) <= LABEL_DATA_OFFSET + LABEL_TAIL)
		return false;
	/* our own arrays are not members of anything */
	if (attr_at(dir, "dm/uuid", v, sizeof(v)) &&
	    !strncmp(v, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)))
		return false;
	return true;
}

char **lset_candidates(size_t *n)
{
	size_t nall, nn, i, k = 0;
	char **all = block_names(&nall);
	char **v = names_keep(all, nall, candidate, NULL, &nn), *p;

	for (i = 0; i < nn; i++) {
		p = dev_path(v[i]);
		free(v[i]);
		if (p)
			v[k++] = p;
	}
	*n = k;
	return v;
}

static void rec_add(struct lrec **v, size_t *n, const char *dev, struct label *l, uint64_t size,
		    const char *what)
{
	struct lrec *r;

	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		die(EX_FAILED, "out of memory");
	r = &(*v)[(*n)++];
	r->dev = xstrdup(dev);
	r->l = *l;
	r->size = size;
	r->what = what ? xstrdup(what) : NULL;
}

void lset_collect(struct lset *s, char *const *devs, size_t n)
{
	char what[512];
	struct label l;
	enum label_rc rc;
	size_t i;
	int k;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++) {
		rc = label_read(devs[i], &l);
		if (rc == LABEL_NONE) {
			label_free(&l);
			continue;
		}
		if (foreign_signature(devs[i], what, sizeof(what))) {
			/* a damaged one's fields say nothing */
			if (rc != LABEL_OK)
				for (k = 0; k < LK_NKEYS; k++) {
					free(l.f[k]);
					l.f[k] = NULL;
				}
			rec_add(&s->sh, &s->nsh, devs[i], &l, 0, what);
			continue;
		}
		if (rc == LABEL_OK)
			rec_add(&s->lab, &s->nlab, devs[i], &l, blk_size(devs[i]), NULL);
		else
			rec_add(&s->dmg, &s->ndmg, devs[i], &l, 0, NULL);
	}
}

static void recs_free(struct lrec *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].dev);
		free(v[i].what);
		label_free(&v[i].l);
	}
	free(v);
}

void lset_free(struct lset *s)
{
	recs_free(s->lab, s->nlab);
	recs_free(s->sh, s->nsh);
	recs_free(s->dmg, s->ndmg);
	memset(s, 0, sizeof(*s));
}

const char *lrec_f(const struct lrec *r, enum label_key k)
{
	return r->l.f[k] ? r->l.f[k] : "";
}

/* a number field as awk's $F + 0 reads it: 0 when absent */
static uint64_t num(const struct lrec *r, enum label_key k)
{
	return strtoull(lrec_f(r, k), NULL, 10);
}

/* ---- the drives the labels record ---------------------------------------- */
bool lset_rec_ident(const struct lset *s, const char *uuid, unsigned int k, struct ident *i)
{
	const char *line = NULL;
	uint64_t g = 0;
	size_t r, d;

	for (r = 0; r < s->nlab; r++) {
		const struct lrec *x = &s->lab[r];

		if (strcmp(lrec_f(x, LK_UUID), uuid))
			continue;
		for (d = 0; d < x->l.ndrives; d++) {
			if (x->l.drives[d].k != k || (line && num(x, LK_GEN) <= g))
				continue;
			line = x->l.drives[d].ident;
			g = num(x, LK_GEN);
		}
	}
	if (!line)
		return false;
	ident_parse(line, i);
	return true;
}

/* ---- the set ------------------------------------------------------------- */
static void loser(struct lcheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void loser(struct lcheck *c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die(EX_FAILED, "out of memory");
	va_end(ap);
	c->losers = realloc(c->losers, (c->nlosers + 1) * sizeof(*c->losers));
	if (!c->losers)
		die(EX_FAILED, "out of memory");
	c->losers[c->nlosers++] = s;
}

/* by index, then by device (sort -t'|' -kINDEXn on lines that start
 * with the device) */
static void by_index(const struct lrec **v, size_t n)
{
	size_t i, j;
	const struct lrec *t;

	for (i = 1; i < n; i++) {
		t = v[i];
		for (j = i; j > 0; j--) {
			uint64_t a = num(v[j - 1], LK_INDEX), b = num(t, LK_INDEX);

			if (a < b || (a == b && strcmp(v[j - 1]->dev, t->dev) <= 0))
				break;
			v[j] = v[j - 1];
		}
		v[j] = t;
	}
}

static void drop(const struct lrec **v, size_t *n, size_t at)
{
	memmove(&v[at], &v[at + 1], (*n - at - 1) * sizeof(*v));
	(*n)--;
}

static uint64_t max_gen(const struct lrec *const *v, size_t n)
{
	uint64_t m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (num(v[i], LK_GEN) > m)
			m = num(v[i], LK_GEN);
	return m;
}

/* the first of V (N) that claims member K, other than NOT */
static const struct lrec *claim(const struct lrec *const *v, size_t n, uint64_t k, const struct lrec *not)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (num(v[i], LK_INDEX) == k && v[i] != not && (!not || strcmp(v[i]->dev, not->dev)))
			return v[i];
	return NULL;
}

/*
 * switched: the label R (state copying) is its member's now: a replace's
 * switch wrote the other members' labels, recording this drive for the
 * member, and was cut before this one: the newest labels of KEEP are
 * newer than it, mark no replace, and record this device's drive (the
 * one rule, ident_switched_copy(), that create --assume-clean and
 * replace --finish apply too)
 */
static bool switched(const struct lset *s, const char *uuid, const struct lrec *r,
		     const struct lrec *const *keep, size_t nk)
{
	uint64_t mx = max_gen(keep, nk);
	bool replacing = false;
	struct ident i;
	size_t j;

	for (j = 0; j < nk; j++)
		if (num(keep[j], LK_GEN) == mx && *lrec_f(keep[j], LK_REPLACING))
			replacing = true;
	if (!lset_rec_ident(s, uuid, (unsigned int)num(r, LK_INDEX), &i))
		return false;
	return ident_switched_copy(r->dev, num(r, LK_GEN), mx, replacing, &i);
}

/* set_losers: take out of the set the labels that never take part */
static void losers(const struct lset *s, const char *uuid, struct lcheck *c)
{
	const struct lrec **st = xmalloc((c->n + 1) * sizeof(*st)), **keep = xmalloc((c->n + 1) * sizeof(*keep));
	const char **why = xmalloc((c->n + 1) * sizeof(*why));
	uint64_t *older = xmalloc((c->n + 1) * sizeof(*older));
	size_t i, j, ns = 0, nk = 0;
	char t[32];

	/* the retired and unfinished first, in their order; then of two
	 * claims on one member, the one of an older generation */
	for (i = 0; i < c->n; i++) {
		const char *state = lrec_f(c->set[i], LK_STATE);

		if (!strcmp(state, "copying") || !strcmp(state, "replaced")) {
			why[ns] = state;
			older[ns] = 0;
			st[ns++] = c->set[i];
		}
	}
	for (i = 0; i < c->n; i++) {
		const struct lrec *r = c->set[i];
		const char *state = lrec_f(r, LK_STATE);
		uint64_t g = 0, n = 0;

		if (!strcmp(state, "copying") || !strcmp(state, "replaced"))
			continue;
		for (j = 0; j < c->n; j++) {
			const char *sj = lrec_f(c->set[j], LK_STATE);

			if (!strcmp(sj, "copying") || !strcmp(sj, "replaced") ||
			    num(c->set[j], LK_INDEX) != num(r, LK_INDEX))
				continue;
			n++;
			if (num(c->set[j], LK_GEN) > g)
				g = num(c->set[j], LK_GEN);
		}
		if (n > 1 && num(r, LK_GEN) < g) {
			why[ns] = "older";
			older[ns] = g;
			st[ns++] = r;
		} else {
			keep[nk++] = r;
		}
	}
	for (i = 0; i < ns; i++) {
		const struct lrec *r = st[i], *by;

		if (!strcmp(why[i], "copying") && switched(s, uuid, r, keep, nk)) {
			keep[nk++] = r;
			loser(c, "%s: holds member %s of array %s: the switch of a replace onto it was cut short after the other members recorded it, before its own label said so; taken as member %s ('%s replace --finish %s' writes its label)",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), lrec_f(r, LK_INDEX), PROG,
			      lrec_f(r, LK_NAME));
			continue;
		}
		by = claim(keep, nk, num(r, LK_INDEX), NULL);
		if (!strcmp(why[i], "copying")) {
			loser(c, "%s: an unfinished copy of member %s of array %s (a replace onto it was cut short): not assembled; '%s replace %s %s %s' starts the copy over, '%s wipe %s' frees it",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), PROG, lrec_f(r, LK_NAME),
			      by ? by->dev : "OLD", r->dev, PROG, r->dev);
		} else if (!strcmp(why[i], "replaced")) {
			const char *rb = lrec_f(r, LK_REPBY), *ra = lrec_f(r, LK_REPAT);

			if (*ra)
				iso_time(t, sizeof(t), (int64_t)strtoll(ra, NULL, 10));
			loser(c, "%s: was member %s of array %s until it was replaced%s%s%s%s: not assembled; '%s wipe %s' frees it",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), *rb ? " by " : "", rb,
			      *ra ? " on " : "", *ra ? t : "", PROG, r->dev);
		} else {
			loser(c, "%s: an older label of member %s of array %s (generation %s; %s carries generation %llu): the member moved on since (a replace); not assembled; '%s wipe %s' frees it",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), lrec_f(r, LK_GEN),
			      by ? by->dev : "another device", (unsigned long long)older[i], PROG, r->dev);
		}
	}
	by_index(keep, nk);
	memcpy(c->set, keep, nk * sizeof(*keep));
	c->n = nk;
	free(st);
	free(keep);
	free(why);
	free(older);
}

/* set_superseded: a label older than the set's newest whose device is
 * not the drive the newest labels record for its member */
static void superseded(const struct lset *s, const char *uuid, struct lcheck *c)
{
	uint64_t mx = max_gen(c->set, c->n);
	const struct lrec **scan = xmalloc((c->n + 1) * sizeof(*scan)), *by;
	size_t i, j, n = c->n;
	struct ident id, d;
	char iw[1200];

	memcpy(scan, c->set, n * sizeof(*scan));
	for (i = 0; i < n; i++) {
		const struct lrec *r = scan[i];

		if (num(r, LK_GEN) >= mx)
			continue;
		if (!lset_rec_ident(s, uuid, (unsigned int)num(r, LK_INDEX), &id) || !ident_known(&id))
			continue;
		if (!ident_of(r->dev, &d))
			ident_none(&d);
		if (ident_match(&d, &id))
			continue;
		ident_words(&id, iw, sizeof(iw));
		for (j = 0; j < c->n; j++)
			if (!strcmp(c->set[j]->dev, r->dev))
				drop(c->set, &c->n, j--);
		by = claim(scan, n, num(r, LK_INDEX), r);
		if (by)
			loser(c, "%s: an older label of member %s of array %s (generation %s; %s is the drive the newest labels record for it): the member moved on since (a replace); not assembled; '%s wipe %s' frees it",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), lrec_f(r, LK_GEN), by->dev,
			      PROG, r->dev);
		else
			loser(c, "%s: an older label of member %s of array %s (generation %s): the newest labels (generation %llu) record another drive for member %s, %s, which is not here; this device holds an older copy of the member (a replace moved it) and is not assembled.  Keep it until %s runs again: attach %s",
			      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), lrec_f(r, LK_GEN),
			      (unsigned long long)mx, lrec_f(r, LK_INDEX), iw, lrec_f(r, LK_NAME), iw);
	}
	free(scan);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* set_tie: two labels of one generation claiming one member: keep the
 * one on the drive the labels record for it, when exactly one is */
static void tie(const struct lset *s, const char *uuid, struct lcheck *c)
{
	char **idx = xmalloc((c->n + 1) * sizeof(*idx)), iw[1200];
	size_t i, j, ni = c->n;
	struct ident id, d;

	for (i = 0; i < ni; i++)
		idx[i] = xstrdup(lrec_f(c->set[i], LK_INDEX));
	/* the duplicated indices, as sort | uniq -d gives them */
	qsort(idx, ni, sizeof(*idx), cmp_str);
	for (i = 0; i + 1 < ni; i++) {
		const struct lrec *ok = NULL;
		uint64_t k;
		size_t n = 0;

		if (strcmp(idx[i], idx[i + 1]) || (i && !strcmp(idx[i], idx[i - 1])))
			continue;
		k = strtoull(idx[i], NULL, 10);
		if (!lset_rec_ident(s, uuid, (unsigned int)k, &id) || !ident_known(&id))
			continue;
		for (j = 0; j < c->n; j++) {
			if (num(c->set[j], LK_INDEX) != k)
				continue;
			if (ident_of(c->set[j]->dev, &d) && ident_match(&d, &id)) {
				ok = c->set[j];
				n++;
			}
		}
		if (n != 1)
			continue;
		ident_words(&id, iw, sizeof(iw));
		for (j = 0; j < c->n; j++)
			if (num(c->set[j], LK_INDEX) == k && strcmp(c->set[j]->dev, ok->dev))
				loser(c, "%s: carries the label of member %llu of array %s, but its drive is not the one the labels record for member %llu (%s, which is %s): a copy of the label; not assembled; '%s wipe %s' frees it",
				      c->set[j]->dev, (unsigned long long)k, lrec_f(c->set[0], LK_NAME),
				      (unsigned long long)k, iw, ok->dev, PROG, c->set[j]->dev);
		for (j = 0; j < c->n; j++)
			if (num(c->set[j], LK_INDEX) == k && strcmp(c->set[j]->dev, ok->dev))
				drop(c->set, &c->n, j--);
	}
	for (i = 0; i < ni; i++)
		free(idx[i]);
	free(idx);
}

static int refuse(struct lcheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct lcheck *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return 3;
}

/* the position (from 0) of member uuid M in the comma list L, or -1 */
static long member_pos(const char *l, const char *m)
{
	size_t n = strlen(m);
	long pos = 0;

	for (;;) {
		const char *e = strchrnul(l, ',');

		if ((size_t)(e - l) == n && !strncmp(l, m, n))
			return pos;
		if (!*e)
			return -1;
		l = e + 1;
		pos++;
	}
}

/* the number of comma-separated words of LIST ("" none) */
static uint64_t list_len(const char *list)
{
	uint64_t n = *list ? 1 : 0;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/*
 * missing_all: array UUID has labels in S, every one set aside: each of
 * its members is missing (the count from its newest label, bounded by that
 * label's member list); 4, or 0 when no label gives a count
 */
static int missing_all(const struct lset *s, const char *uuid, struct lcheck *c)
{
	const struct lrec *newest = NULL;
	uint64_t count, k;
	size_t i;

	for (i = 0; i < s->nlab; i++)
		if (!strcmp(lrec_f(&s->lab[i], LK_UUID), uuid) &&
		    (!newest || num(&s->lab[i], LK_GEN) > num(newest, LK_GEN)))
			newest = &s->lab[i];
	if (!newest)
		return 0;
	count = num(newest, LK_COUNT);
	if (count > list_len(lrec_f(newest, LK_MEMBERS)))
		count = list_len(lrec_f(newest, LK_MEMBERS));
	c->missing = xmalloc((count + 1) * sizeof(*c->missing));
	for (k = 0; k < count; k++)
		c->missing[c->nmissing++] = (unsigned int)k;
	return c->nmissing ? 4 : 0;
}

int lset_check(const struct lset *s, const char *uuid, struct lcheck *c)
{
	static const struct {
		enum label_key k;
		const char *name;
	} same[] = {
		{ LK_NAME, "name" }, { LK_COUNT, "count" }, { LK_CHUNK, "chunk_sectors" },
		{ LK_OFFSET, "data_offset" }, { LK_DATA, "data_sectors" },
	};
	const struct lrec *ref;
	uint64_t count, k;
	size_t i, j, f;
	bool *seen;

	memset(c, 0, sizeof(*c));
	c->set = xmalloc((s->nlab + 1) * sizeof(*c->set));
	for (i = 0; i < s->nlab; i++)
		if (!strcmp(lrec_f(&s->lab[i], LK_UUID), uuid))
			c->set[c->n++] = &s->lab[i];
	by_index(c->set, c->n);
	losers(s, uuid, c);
	superseded(s, uuid, c);
	tie(s, uuid, c);
	/* every label set aside (retired, an unfinished copy, superseded):
	 * no member of the array is here, which is incomplete, not complete */
	if (!c->n)
		return missing_all(s, uuid, c);
	/* the first member (lowest index) is the reference for the geometry */
	ref = c->set[0];
	for (i = 0; i < c->n; i++) {
		const struct lrec *r = c->set[i];
		long pos;

		for (f = 0; f < sizeof(same) / sizeof(same[0]); f++)
			if (strcmp(lrec_f(r, same[f].k), lrec_f(ref, same[f].k)))
				return refuse(c, "%s: %s %s differs from %s on %s (mismatched member)", r->dev,
					      same[f].name, lrec_f(r, same[f].k), lrec_f(ref, same[f].k), ref->dev);
		if (strcmp(lrec_f(r, LK_MEMBERS), lrec_f(ref, LK_MEMBERS)))
			return refuse(c, "%s: its member list differs from %s's (mismatched member of array %s)",
				      r->dev, ref->dev, lrec_f(r, LK_NAME));
		if (num(r, LK_INDEX) >= num(r, LK_COUNT))
			return refuse(c, "%s: member index %s is beyond the array's %s members", r->dev,
				      lrec_f(r, LK_INDEX), lrec_f(r, LK_COUNT));
		pos = member_pos(lrec_f(r, LK_MEMBERS), lrec_f(r, LK_MEMBER));
		if (pos < 0)
			return refuse(c, "%s: its member uuid %s is not in array %s's member list", r->dev,
				      lrec_f(r, LK_MEMBER), lrec_f(r, LK_NAME));
		if ((uint64_t)pos != num(r, LK_INDEX))
			return refuse(c, "%s: label says member %s but array %s's member list puts it at %ld (reordered member)",
				      r->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME), pos);
		for (j = 0; j < i; j++)
			if (num(c->set[j], LK_INDEX) == num(r, LK_INDEX))
				return refuse(c, "%s and %s both claim to be member %s of array %s (duplicated member: a cloned disk?)",
					      r->dev, c->set[j]->dev, lrec_f(r, LK_INDEX), lrec_f(r, LK_NAME));
		if (r->size < num(r, LK_OFFSET) + num(r, LK_DATA))
			return refuse(c, "%s: %llu sectors, smaller than its label's data end %llu (truncated member)",
				      r->dev, (unsigned long long)r->size,
				      (unsigned long long)(num(r, LK_OFFSET) + num(r, LK_DATA)));
	}
	count = num(ref, LK_COUNT);
	/* the writer makes count the length of the member list; a label
	 * that says otherwise was not written by it */
	if (count != list_len(lrec_f(ref, LK_MEMBERS)))
		return refuse(c, "%s: count %s but %llu members listed (damaged label)", ref->dev,
			      lrec_f(ref, LK_COUNT), (unsigned long long)list_len(lrec_f(ref, LK_MEMBERS)));
	seen = calloc(count + 1, sizeof(*seen));
	if (!seen)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < c->n; i++)
		seen[num(c->set[i], LK_INDEX)] = true;
	c->missing = xmalloc((count + 1) * sizeof(*c->missing));
	for (k = 0; k < count; k++)
		if (!seen[k])
			c->missing[c->nmissing++] = (unsigned int)k;
	free(seen);
	return c->nmissing ? 4 : 0;
}

void lcheck_free(struct lcheck *c)
{
	size_t i;

	for (i = 0; i < c->nlosers; i++)
		free(c->losers[i]);
	free(c->losers);
	free(c->set);
	free(c->missing);
	memset(c, 0, sizeof(*c));
}

/* ---- what is missing ------------------------------------------------------ */
/* MISSING as the sh lists it: " 1 3" */
static char *missing_list(const struct lcheck *c)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < c->nmissing; i++) {
		t = xasprintf("%s %u", s, c->missing[i]);
		free(s);
		s = t;
	}
	return s;
}

/* a member's members field: the Kth uuid of the list, "" if none */
static char *nth_member(const char *list, unsigned int k)
{
	const char *p = list, *e;

	while (k--) {
		p = strchr(p, ',');
		if (!p)
			return xstrdup("");
		p++;
	}
	e = strchrnul(p, ',');
	return xasprintf("%.*s", (int)(e - p), p);
}

void lset_missing_members(const struct lset *s, const struct lcheck *c, const char *name,
			  const char *uuid, const char *tag, bool exact, bool say_create)
{
	char **rest = xmalloc((c->nmissing + 1) * sizeof(*rest)), w[1200], why[512], *ml;
	bool cmd = true;
	size_t m, i, nf, nat;
	struct ident id;

	for (m = 0; m < c->nmissing; m++) {
		unsigned int k = c->missing[m];
		char **found, *at = NULL;

		rest[m] = NULL;
		if (!lset_rec_ident(s, uuid, k, &id)) {
			const char *members = "";
			char *u;

			for (i = 0; i < s->nlab; i++)
				if (!strcmp(lrec_f(&s->lab[i], LK_UUID), uuid)) {
					members = lrec_f(&s->lab[i], LK_MEMBERS);
					break;
				}
			u = nth_member(members, k);
			warn("array %s: member %u (uuid %s; labels of version 1 record no drive identity) not found%s: reseat it, or replace it",
			     name, k, u, tag);
			free(u);
			cmd = false;
			continue;
		}
		ident_words(&id, w, sizeof(w));
		if (!ident_known(&id)) {
			warn("array %s: member %u (%s) not found%s: reseat it, or replace it (nothing recorded identifies it: no other device can be told to be it)",
			     name, k, w, tag);
			cmd = false;
			continue;
		}
		found = ident_find(&id, &nf);
		if (!nf) {
			warn("array %s: member %u (%s) not found%s: reseat it, or replace it", name, k, w, tag);
			cmd = false;
			free(found);
			continue;
		}
		nat = 0;
		for (i = 0; i < nf; i++) {
			char *d = dev_path(found[i]);
			struct label l;
			const char *dn;

			if (!d)
				d = xasprintf("/dev/%s", found[i]);
			dn = d + 5;
			if (in_use(d, why, sizeof(why))) {
				warn("array %s: member %u (%s) not found%s: the drive is present as %s, but in use (%s)",
				     name, k, w, tag, dn, why);
				cmd = false;
				free(d);
				continue;
			}
			switch (label_read(d, &l)) {
			case LABEL_OK:
				if (!strcmp(l.f[LK_UUID], uuid) && strtoull(l.f[LK_INDEX], NULL, 10) == k)
					warn("array %s: member %u (%s) not found%s: the drive is present as %s, with its label (%s)",
					     name, k, w, tag, dn,
					     exact ? "not among the devices given" : "it appeared just now: assemble again");
				else
					warn("array %s: member %u (%s) not found%s: the drive is present as %s, but it carries a label of array %s (member %s) now",
					     name, k, w, tag, dn, l.f[LK_NAME], l.f[LK_INDEX]);
				cmd = false;
				break;
			case LABEL_NONE:
				if (foreign_signature(d, why, sizeof(why))) {
					warn("array %s: member %u (%s) not found%s: the drive is present as %s, without its label, and carries %s now: its data was overwritten?",
					     name, k, w, tag, dn, why);
					cmd = false;
				} else {
					warn("array %s: member %u (%s) not found%s: the drive is present as %s, without a label",
					     name, k, w, tag, dn);
					nat++;
					free(at);
					at = xstrdup(d);
				}
				break;
			default:
				warn("array %s: member %u (%s) not found%s: the drive is present as %s, its label damaged (%s)",
				     name, k, w, tag, dn, l.err);
				nat++;
				free(at);
				at = xstrdup(d);
				break;
			}
			label_free(&l);
			free(d);
		}
		names_free(found, nf);
		/* one device, no more: else it cannot be said which is the member */
		if (nat == 1)
			rest[m] = at;
		else {
			cmd = false;
			free(at);
		}
	}
	/* a damaged label that no recorded identity explains may be a member */
	ml = missing_list(c);
	for (i = 0; i < s->ndmg; i++) {
		bool named = false;

		for (m = 0; m < c->nmissing; m++)
			if (rest[m] && !strcmp(rest[m], s->dmg[i].dev))
				named = true;
		if (!named)
			warn("%s: %s: it may be member%s of array %s", s->dmg[i].dev, s->dmg[i].l.err, ml, name);
	}
	if (cmd && say_create && c->nmissing) {
		/* every member in order: the survivors' devices and the found ones */
		char *list = xstrdup(""), *t;
		uint64_t count = c->n ? num(c->set[0], LK_COUNT) : 0, k;

		for (i = 0; i < s->nlab; i++)
			if (!strcmp(lrec_f(&s->lab[i], LK_UUID), uuid)) {
				count = num(&s->lab[i], LK_COUNT);
				break;
			}
		for (k = 0; k < count && list; k++) {
			const struct lrec *r = claim(c->set, c->n, k, NULL);
			const char *d = r ? r->dev : NULL;

			for (m = 0; !d && m < c->nmissing; m++)
				if (c->missing[m] == k)
					d = rest[m];
			if (!d) {
				free(list);
				list = NULL;
				break;
			}
			t = xasprintf("%s %s", list, d);
			free(list);
			list = t;
		}
		if (list)
			warn("array %s: if only the label of member%s was lost (its data is intact), '%s create --assume-clean --name %s%s' writes it back and nothing else",
			     name, ml, PROG, name, list);
		free(list);
	}
	free(ml);
	for (m = 0; m < c->nmissing; m++)
		free(rest[m]);
	free(rest);
}

char *lset_missing_words(const struct lset *s, const struct lcheck *c, const char *uuid)
{
	char *out = xstrdup(""), *t, w[1200];
	struct ident id;
	size_t m;

	for (m = 0; m < c->nmissing; m++) {
		if (lset_rec_ident(s, uuid, c->missing[m], &id)) {
			ident_words(&id, w, sizeof(w));
			t = xasprintf("%s%smember %u (%s)", out, m ? ", " : "", c->missing[m], w);
		} else {
			t = xasprintf("%s%smember %u", out, m ? ", " : "", c->missing[m]);
		}
		free(out);
		out = t;
	}
	return out;
}

bool lset_has_shadowed(const struct lset *s, const char *uuid)
{
	size_t i;

	for (i = 0; i < s->nsh; i++)
		if (!strcmp(lrec_f(&s->sh[i], LK_UUID), uuid))
			return true;
	return false;
}

void lset_refuse_shadowed(const struct lset *s, const char *uuid)
{
	size_t i, j;

	for (i = 0; i < s->nsh; i++) {
		const struct lrec *r = &s->sh[i];
		const char *name = lrec_f(r, LK_NAME);
		bool again = false;
		char *of;

		if (*uuid && strcmp(lrec_f(r, LK_UUID), uuid))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(s->sh[j].dev, r->dev))
				again = true;
		if (again)
			continue;
		of = *name ? xasprintf("member %s of array %s", lrec_f(r, LK_INDEX), name)
			   : xstrdup("a damaged ssdstripe label");
		warn("refusing %s: it carries %s now, over its old label (%s): re-used since the array was made? ('%s wipe %s' drops the old label)",
		     strncmp(r->dev, "/dev/", 5) ? r->dev : r->dev + 5, r->what, of, PROG, r->dev);
		free(of);
		if (!*name)
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(lrec_f(&s->sh[j], LK_UUID), lrec_f(r, LK_UUID)) && *lrec_f(&s->sh[j], LK_NAME))
				again = true;
		if (!again)
			warn("array %s not assembled", name);
	}
}
