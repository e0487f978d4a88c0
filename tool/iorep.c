// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe iostat's report (iorep.h).  Figure for figure and byte for
 * byte what the sh tool's awk printed: its doubles, its printf formats,
 * and its bookkeeping, down to a histogram row's bounds being the last
 * ones read in this report.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "arraysys.h"
#include "iorep.h"
#include "lathist.h"
#include "out.h"

/* a counter: array NAME's member I, file SLOT (MC_*, then MC_N + bucket) */
struct iorep_val {
	char *name;
	unsigned int i, slot;
	size_t seq;
	double v;
};

struct vals {
	struct iorep_val *v;
	size_t n, cap;
};

void iorep_init(struct iorep *r, enum iorep_mode mode)
{
	memset(r, 0, sizeof(*r));
	r->mode = mode;
}

void iorep_add(struct iorep *r, const char *name, const char *sys)
{
	r->a = realloc(r->a, (r->na + 1) * sizeof(*r->a));
	if (!r->a)
		die(EX_FAILED, "out of memory");
	r->a[r->na].name = xstrdup(name);
	r->a[r->na].sys = xstrdup(sys);
	r->a[r->na].gone = false;
	r->na++;
}

static void vals_free(struct iorep_val *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

void iorep_free(struct iorep *r)
{
	size_t i;

	for (i = 0; i < r->na; i++) {
		free(r->a[i].name);
		free(r->a[i].sys);
	}
	free(r->a);
	vals_free(r->prev, r->nprev);
	memset(r, 0, sizeof(*r));
}

static void vals_add(struct vals *s, const char *name, unsigned int i, unsigned int slot, double v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			die(EX_FAILED, "out of memory");
	}
	s->v[s->n] = (struct iorep_val){ xstrdup(name), i, slot, s->n, v };
	s->n++;
}

static int key_cmp(const void *x, const void *y)
{
	const struct iorep_val *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return 0;
}

static int val_cmp(const void *x, const void *y)
{
	const struct iorep_val *a = x, *b = y;
	int c = key_cmp(x, y);

	return c ? c : a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* vals_keep: S sorted, of each key the last value taken (the sh read its
 * file of them in order, a later line over an earlier) */
static void vals_keep(struct vals *s)
{
	size_t i, o = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), val_cmp);
	for (i = 0; i < s->n; i++) {
		if (i + 1 < s->n && !key_cmp(&s->v[i], &s->v[i + 1])) {
			free(s->v[i].name);
			continue;
		}
		s->v[o++] = s->v[i];
	}
	s->n = o;
}

/* delta: what counter KEY gained since the last report: all of CUR when
 * it was not taken then, or went backwards */
static double delta(const struct iorep *r, const char *name, unsigned int i, unsigned int slot,
		    double cur)
{
	struct iorep_val k = { (char *)name, i, slot, 0, 0 }, *p;

	p = r->nprev ? bsearch(&k, r->prev, r->nprev, sizeof(*r->prev), key_cmp) : NULL;
	return p && p->v <= cur ? cur - p->v : cur;
}

/* the report's state: what the awk kept across its arrays */
struct rep {
	struct iorep *r;
	struct vals next;
	double dt;
	char ub[LATHIST_MAX][LATHIST_BOUND];	/* the bounds last read */
	size_t nb0;				/* the most buckets of a member */
	double allh[LATHIST_MAX];
	double (*hrow)[LATHIST_MAX];		/* -w: member I's bucket B */
	size_t nhrow;
};

static struct json_object *jfixed(double v, const char *fmt)
{
	char b[330];	/* %.2f of the largest double */

	snprintf(b, sizeof(b), fmt, v);
	return json_object_new_double_s(v, b);
}

static struct json_object *jlat(const struct lat_us *l)
{
	char b[LATHIST_BOUND + 1];

	if (l->kind == LAT_NONE)
		return NULL;
	if (l->kind == LAT_US)
		return json_object_new_int64(l->us);
	return json_object_new_string(lat_text(l, b, sizeof(b)));
}

/*
 * row: member I's row (I < 0: the all row) of DL and histogram H; text
 * into ROWS, JSON as the object it returns, -w into hrow
 */
static struct json_object *row(struct rep *p, long i, const char *dv, const char *st,
			       const double dl[MC_N], const struct lathist *h, FILE *rows)
{
	struct lat_us ms, p50, p99;
	double dt = p->dt;
	size_t b;

	if (p->r->mode == IOREP_HIST) {
		if (i >= 0) {
			if ((size_t)i >= p->nhrow) {
				p->hrow = realloc(p->hrow, ((size_t)i + 1) * sizeof(*p->hrow));
				if (!p->hrow)
					die(EX_FAILED, "out of memory");
				memset(p->hrow + p->nhrow, 0, ((size_t)i + 1 - p->nhrow) * sizeof(*p->hrow));
				p->nhrow = (size_t)i + 1;
			}
			for (b = 0; b < h->n; b++)
				p->hrow[i][b] = h->count[b];
		}
		return NULL;
	}
	lathist_mean(h, &ms);
	lathist_quantile(h, 0.5, &p50);
	lathist_quantile(h, 0.99, &p99);
	if (p->r->mode == IOREP_JSON) {
		struct json_object *o = json_object_new_object(), *ha = json_object_new_array();

		if (i >= 0) {
			json_object_object_add(o, "index", json_object_new_int64(i));
			json_object_object_add(o, "device", json_object_new_string(dv));
		}
		json_object_object_add(o, "state", json_object_new_string(st));
		json_object_object_add(o, "reads_per_s", jfixed(dl[MC_READ_IOS] / dt, "%.1f"));
		json_object_object_add(o, "writes_per_s", jfixed(dl[MC_WRITE_IOS] / dt, "%.1f"));
		json_object_object_add(o, "read_mb_per_s",
				       jfixed(dl[MC_READ_SECTORS] * 512 / 1e6 / dt, "%.2f"));
		json_object_object_add(o, "write_mb_per_s",
				       jfixed(dl[MC_WRITE_SECTORS] * 512 / 1e6 / dt, "%.2f"));
		json_object_object_add(o, "latency_mean_us", jlat(&ms));
		json_object_object_add(o, "latency_p50_us", jlat(&p50));
		json_object_object_add(o, "latency_p99_us", jlat(&p99));
		json_object_object_add(o, "inflight", json_object_new_int64(awk_int(dl[MC_INFLIGHT])));
		json_object_object_add(o, "errors", json_object_new_int64(awk_int(dl[MC_ERRORS])));
		json_object_object_add(o, "retries", json_object_new_int64(awk_int(dl[MC_RETRIES])));
		for (b = 0; b < h->n; b++) {
			struct json_object *pair = json_object_new_array();

			json_object_array_add(pair, strcmp(h->bound[b], "inf") ?
					      json_object_new_int64(awk_int(awk_num(h->bound[b]))) :
					      NULL);
			json_object_array_add(pair, json_object_new_int64(awk_int(h->count[b])));
			json_object_array_add(ha, pair);
		}
		json_object_object_add(o, "histogram", ha);
		return o;
	}
	if (rows) {
		char idx[32], m[32], q50[32], q99[32];

		if (i >= 0)
			snprintf(idx, sizeof(idx), "%ld", i);
		else
			snprintf(idx, sizeof(idx), "all");
		fprintf(rows, "  %-3s %-12s %8.1f %8.1f %7.2f %7.2f %8s %8s %8s %4lld %5lld %5lld  %s\n",
			idx, i < 0 ? "-" : dv, dl[MC_READ_IOS] / dt, dl[MC_WRITE_IOS] / dt,
			dl[MC_READ_SECTORS] * 512 / 1e6 / dt, dl[MC_WRITE_SECTORS] * 512 / 1e6 / dt,
			lat_text(&ms, m, sizeof(m)), lat_text(&p50, q50, sizeof(q50)),
			lat_text(&p99, q99, sizeof(q99)), awk_int(dl[MC_INFLIGHT]),
			awk_int(dl[MC_ERRORS]), awk_int(dl[MC_RETRIES]), st);
	}
	return NULL;
}

/* one array's part of the report; false when it is no longer active */
static bool array_report(struct rep *p, const struct iorep_array *a, size_t *na, FILE *out,
			 struct json_object *jarrays)
{
	struct iorep *r = p->r;
	char ast[256], st[256], dv[256];
	double all[MC_N] = { 0 }, dl[MC_N];
	struct json_object *jmembers = NULL, *jo;
	char *rows = NULL;
	size_t rowslen = 0, b;
	FILE *rf = NULL;
	unsigned int nm, i;
	struct lathist h, hall;
	int f;

	if (!arraysys_attr(a->sys, "state", ast, sizeof(ast)) || !*ast ||
	    !arraysys_member_count(a->sys, &nm))
		return false;
	for (b = 0; b < p->nb0; b++)
		p->allh[b] = 0;
	if (r->have && r->mode == IOREP_TEXT) {
		rf = open_memstream(&rows, &rowslen);
		if (!rf)
			die(EX_FAILED, "out of memory");
	}
	if (r->have && r->mode == IOREP_JSON)
		jmembers = json_object_new_array();
	for (i = 0; i < nm; i++) {
		uint64_t v[MC_N];

		if (!arraysys_member_dev(a->sys, i, dv, sizeof(dv)))
			snprintf(dv, sizeof(dv), "(gone)");
		arraysys_counters(a->sys, i, v);
		for (f = 0; f < MC_N; f++) {
			vals_add(&p->next, a->name, i, (unsigned int)f, (double)v[f]);
			dl[f] = f == MC_INFLIGHT ? (double)v[f] :
				delta(r, a->name, i, (unsigned int)f, (double)v[f]);
		}
		arraysys_member_attr(a->sys, i, "state", st, sizeof(st));
		arraysys_hist(a->sys, i, &h);
		for (b = 0; b < h.n; b++) {
			memcpy(p->ub[b], h.bound[b], LATHIST_BOUND);
			vals_add(&p->next, a->name, i, MC_N + (unsigned int)b, h.count[b]);
			h.count[b] = delta(r, a->name, i, MC_N + (unsigned int)b, h.count[b]);
			p->allh[b] += h.count[b];
		}
		if (h.n > p->nb0)
			p->nb0 = h.n;
		for (f = 0; f < MC_N; f++)
			all[f] += dl[f];
		if (!r->have)
			continue;
		jo = row(p, i, dv, st, dl, &h, rf);
		if (jo)
			json_object_array_add(jmembers, jo);
	}
	if (!r->have)
		return true;
	hall.n = p->nb0;
	for (b = 0; b < hall.n; b++) {
		memcpy(hall.bound[b], p->ub[b], LATHIST_BOUND);
		hall.count[b] = p->allh[b];
	}
	if (r->mode == IOREP_JSON) {
		jo = json_object_new_object();
		json_object_object_add(jo, "name", json_object_new_string(a->name));
		json_object_object_add(jo, "state", json_object_new_string(ast));
		json_object_object_add(jo, "members", jmembers);
		json_object_object_add(jo, "all", row(p, -1, "", ast, all, &hall, NULL));
		json_object_array_add(jarrays, jo);
		(*na)++;
		return true;
	}
	fprintf(out, "%s%s (%s), %.1f s%s\n", (*na)++ ? "\n" : "", a->name, ast, p->dt,
		r->mode == IOREP_HIST ? ": completions per latency bucket" : "");
	if (r->mode == IOREP_HIST) {
		fprintf(out, "  %-9s", "LAT_US");
		for (i = 0; i < nm; i++)
			fprintf(out, " %9u", i);
		fprintf(out, " %9s\n", "all");
		for (b = 0; b < hall.n; b++) {
			char lab[LATHIST_BOUND + 2];

			if (strcmp(hall.bound[b], "inf"))
				snprintf(lab, sizeof(lab), "<=%s", hall.bound[b]);
			else
				snprintf(lab, sizeof(lab), ">%s", b ? hall.bound[b - 1] : "");
			fprintf(out, "  %-9s", lab);
			for (i = 0; i < nm; i++)
				fprintf(out, " %9lld", i < p->nhrow ? awk_int(p->hrow[i][b]) : 0LL);
			fprintf(out, " %9lld\n", awk_int(hall.count[b]));
		}
		return true;
	}
	fprintf(out, "  %-3s %-12s %8s %8s %7s %7s %8s %8s %8s %4s %5s %5s  %s\n", "#", "DEVICE",
		"r/s", "w/s", "rMB/s", "wMB/s", "mean_us", "p50_us", "p99_us", "qd", "err", "retry",
		"state");
	if (rf) {
		fclose(rf);
		fputs(rows ? rows : "", out);
		free(rows);
	}
	row(p, -1, "", ast, all, &hall, out);
	return true;
}

void iorep_report(struct iorep *r, double now, long long epoch, FILE *out)
{
	struct rep p = { .r = r };
	struct json_object *top = NULL, *jarrays = NULL;
	size_t i, j, o, na = 0;

	p.dt = r->have ? now - r->prev_time : 0;
	if (r->have && r->mode == IOREP_JSON) {
		top = json_object_new_object();
		jarrays = json_object_new_array();
		json_object_object_add(top, "version", json_object_new_int(1));
		json_object_object_add(top, "time", json_object_new_int64(epoch));
		json_object_object_add(top, "interval_s", jfixed(p.dt, "%.2f"));
	}
	for (i = 0; i < r->na; i++) {
		if (array_report(&p, &r->a[i], &na, out, jarrays))
			continue;
		if (r->have) {
			warn("%s is no longer active", r->a[i].name);
			r->a[i].gone = true;
		}
	}
	if (top) {
		json_object_object_add(top, "arrays", jarrays);
		fprintf(out, "%s\n", json_object_to_json_string_ext(top, JSON_C_TO_STRING_PLAIN |
								     JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(top);
	}
	fflush(out);
	free(p.hrow);
	/* the counters taken, for the next report */
	vals_keep(&p.next);
	vals_free(r->prev, r->nprev);
	r->prev = p.next.v;
	r->nprev = p.next.n;
	r->have = true;
	r->prev_time = now;
	/* an array gone: no more reports of it (of any entry of its name) */
	for (i = 0; i < r->na; i++) {
		if (!r->a[i].gone)
			continue;
		for (j = 0; j < r->na; j++)
			if (!strcmp(r->a[j].name, r->a[i].name))
				r->a[j].gone = true;
	}
	for (i = o = 0; i < r->na; i++) {
		if (r->a[i].gone) {
			free(r->a[i].name);
			free(r->a[i].sys);
			continue;
		}
		r->a[o++] = r->a[i];
	}
	r->na = o;
}
