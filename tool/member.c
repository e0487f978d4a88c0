// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a member's record (member.h), read in one pass from sysfs,
 * the labels, the drive (smart.c) and its controller (fabric.c).
 */
#include <glob.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "str.h"
#include "dev.h"
#include "dm.h"
#include "fabric.h"
#include "ident.h"
#include "member.h"
#include "jstr.h"
#include "out.h"
#include "smart.h"
#include "table.h"

/*
 * The fields (member.sh's MEMBER_FIELDS): the sysfs file of a counter
 * (0 when absent), the JSON key and kind (n number, N number or null
 * when empty, s string or null when empty, S string), the views whose
 * JSON carries it, and its column in each view's table: position,
 * header, format and how it shows (num as is, str - when empty, rec as
 * str and, for a gone device, what the labels recorded, dev the device's
 * name or "(gone)", human sectors as 1.5 GiB, size human or - when gone,
 * temp 42C or -)
 */
struct col {
	int pos;
	const char *hdr, *fmt, *show;
};
static const struct fdef {
	const char *sysfs, *key;
	char kind;
	const char *in;
	struct col c[2];	/* MV_STATUS, MV_DETAIL */
} F[MF_N] = {
	[MF_INDEX] = { NULL, "index", 'n', "sd", { { 1, "#", "%-2s", "num" }, { 1, "#", "%-2s", "num" } } },
	[MF_DEV] = { NULL, "device", 'S', "sd", { { 2, "DEVICE", "%-14s", "dev" }, { 2, "DEVICE", "%-14s", "dev" } } },
	[MF_MODEL] = { NULL, "model", 's', "sd",
		       { { 3, "MODEL", "%-20.20s", "rec" }, { 3, "MODEL", "%-20.20s", "rec" } } },
	[MF_SERIAL] = { NULL, "serial", 's', "sd",
			{ { 4, "SERIAL", "%-12.12s", "rec" }, { 4, "SERIAL", "%-12.12s", "rec" } } },
	[MF_FW] = { NULL, NULL, 0, "", { { 0 }, { 0 } } },
	[MF_SIZE] = { NULL, "size_sectors", 'n', "d", { { 0 }, { 5, "SIZE", "%10s", "size" } } },
	[MF_RID] = { NULL, "recorded_id", 's', "sd", { { 0 }, { 0 } } },
	[MF_RSERIAL] = { NULL, "recorded_serial", 's', "sd", { { 0 }, { 0 } } },
	[MF_RMODEL] = { NULL, "recorded_model", 's', "sd", { { 0 }, { 0 } } },
	[MF_STATE] = { NULL, "state", 'S', "sd", { { 5, "STATE", "%-8s", "num" }, { 6, "STATE", "%-8s", "num" } } },
	[MF_READ_IOS] = { "read_ios", "read_ios", 'n', "s", { { 6, "READS", "%10s", "num" }, { 0 } } },
	[MF_WRITE_IOS] = { "write_ios", "write_ios", 'n', "s", { { 7, "WRITES", "%10s", "num" }, { 0 } } },
	[MF_FLUSH_IOS] = { "flush_ios", "flush_ios", 'n', "s", { { 0 }, { 0 } } },
	[MF_DISCARD_IOS] = { "discard_ios", "discard_ios", 'n', "s", { { 10, "DISCARDS", "%10s", "num" }, { 0 } } },
	[MF_WZ_IOS] = { "write_zeroes_ios", "write_zeroes_ios", 'n', "s", { { 0 }, { 0 } } },
	[MF_READ_SECT] = { "read_sectors", "read_sectors", 'n', "s", { { 0 }, { 0 } } },
	[MF_WRITE_SECT] = { "write_sectors", "write_sectors", 'n', "s", { { 0 }, { 0 } } },
	[MF_DISCARD_SECT] = { "discard_sectors", "discard_sectors", 'n', "s",
			      { { 11, "TRIMMED", "%10s", "human" }, { 0 } } },
	[MF_WZ_SECT] = { "write_zeroes_sectors", "write_zeroes_sectors", 'n', "s", { { 0 }, { 0 } } },
	[MF_ERRORS] = { "errors", "errors", 'n', "sd", { { 8, "ERRORS", "%6s", "num" }, { 7, "ERRORS", "%6s", "num" } } },
	[MF_READ_ERR] = { "read_errors", "read_errors", 'n', "s", { { 0 }, { 0 } } },
	[MF_WRITE_ERR] = { "write_errors", "write_errors", 'n', "s", { { 0 }, { 0 } } },
	[MF_FLUSH_ERR] = { "flush_errors", "flush_errors", 'n', "s", { { 0 }, { 0 } } },
	[MF_DISCARD_ERR] = { "discard_errors", "discard_errors", 'n', "s", { { 0 }, { 0 } } },
	[MF_WZ_ERR] = { "write_zeroes_errors", "write_zeroes_errors", 'n', "s", { { 0 }, { 0 } } },
	[MF_RETRIES] = { "retries", "retries", 'n', "sd", { { 0 }, { 8, "RETRIES", "%7s", "num" } } },
	[MF_INFLIGHT] = { "inflight", "inflight", 'n', "s", { { 0 }, { 0 } } },
	[MF_LATENCY] = { "latency_us", "latency_us", 'n', "sd",
			 { { 9, "LAT_US", "%8s", "num" }, { 9, "LAT_US", "%8s", "num" } } },
	[MF_WAITING] = { "waiting_ms", "waiting_ms", 'n', "sd", { { 0 }, { 0 } } },
	[MF_STALLS] = { "stalls", "stalls", 'n', "sd", { { 0 }, { 0 } } },
	[MF_TEMP] = { NULL, "temperature_c", 'N', "s", { { 12, "TEMP", "%5s", "temp" }, { 0 } } },
	[MF_DRIVE] = { NULL, "drive_health", 'S', "sd",
		       { { 13, "DRIVE", "%-8s", "str" }, { 10, "DRIVE", "%-8s", "str" } } },
	[MF_DRIVE_WHY] = { NULL, "drive_why", 's', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_SOURCE] = { NULL, "drive_source", 'S', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_CRIT] = { NULL, "drive_critical_warning", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_WEAR] = { NULL, "drive_wear_pct", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_SPARE] = { NULL, "drive_spare_pct", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_SPARE_T] = { NULL, "drive_spare_threshold_pct", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_MEDIA] = { NULL, "drive_media_errors", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_UNSAFE] = { NULL, "drive_unsafe_shutdowns", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_POH] = { NULL, "drive_power_on_hours", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_TEMP] = { NULL, "drive_temperature_c", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_WTIME] = { NULL, "drive_warning_temp_minutes", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_CTIME] = { NULL, "drive_critical_temp_minutes", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_TCOUNT] = { NULL, "drive_throttle_count", 'N', "sd", { { 0 }, { 0 } } },
	[MF_DRIVE_TSECS] = { NULL, "drive_throttle_seconds", 'N', "sd", { { 0 }, { 0 } } },
	[MF_TRANSPORT] = { NULL, "transport", 's', "sd",
			   { { 14, "TRANSPORT", "%-9s", "str" }, { 11, "TRANSPORT", "%-9s", "str" } } },
	[MF_ADDRESS] = { NULL, "address", 's', "sd",
			 { { 15, "ADDRESS", "%-21s", "str" }, { 12, "ADDRESS", "%-21s", "str" } } },
	[MF_NQN] = { NULL, "subsysnqn", 's', "sd", { { 16, "NQN", "%s", "str" }, { 13, "NQN", "%s", "str" } } },
	[MF_CONTROLLER] = { NULL, "controller", 's', "sd", { { 0 }, { 0 } } },
	[MF_CTRL_STATE] = { NULL, "controller_state", 's', "sd", { { 0 }, { 0 } } },
};

/* ---- notes ------------------------------------------------------------ */
static FILE *mstream(char **s, size_t *l)
{
	FILE *f = open_memstream(s, l);

	if (!f)
		die(EX_FAILED, "out of memory");
	return f;
}

void notes_init(struct notes *n, int fabric_say)
{
	memset(n, 0, sizeof(*n));
	n->g = mstream(&n->gone, &n->gl);
	n->f = mstream(&n->fabric, &n->fl);
	n->d = mstream(&n->drive, &n->dl);
	n->c = mstream(&n->crit, &n->cl);
	n->w = mstream(&n->warn, &n->wl);
	n->fabric_say = fabric_say;
}

void notes_end(struct notes *n)
{
	FILE **f[] = { &n->g, &n->f, &n->d, &n->c, &n->w };
	size_t i;

	for (i = 0; i < 5; i++)
		if (*f[i]) {
			fclose(*f[i]);
			*f[i] = NULL;
		}
}

void notes_free(struct notes *n)
{
	notes_end(n);
	free(n->gone);
	free(n->fabric);
	free(n->drive);
	free(n->crit);
	free(n->warn);
	memset(n, 0, sizeof(*n));
}

/* ---- what the labels record ------------------------------------------- */
bool member_gone(const char *msys, const struct recorded *r)
{
	char f[PATH_MAX], mm[64];
	size_t i;

	if (!pathf(f, sizeof(f), "%s/block/dev", msys) || access(f, F_OK))
		return true;
	if (!r || !r->ndevs)
		return false;
	read_attr(f, mm, sizeof(mm));
	for (i = 0; i < r->ndevs; i++)
		if (!strcmp(r->devs[i], mm))
			return false;
	return true;
}

/* table_devs: the members' MAJ:MIN of NAME's live ssdstripe table */
static void table_devs(const char *name, struct recorded *r)
{
	struct dm_table tb;
	struct ss_table t;
	char err[128];
	size_t i;

	if (!dm_table_of(name, &tb))
		return;
	for (i = 0; i < tb.n; i++) {
		unsigned int k;

		if (strcmp(tb.t[i].type, "ssdstripe"))
			continue;
		if (table_parse(tb.t[i].len, tb.t[i].params, &t, err, sizeof(err))) {
			r->devs = xmalloc((t.n + 1) * sizeof(*r->devs));
			for (k = 0; k < t.n; k++)
				r->devs[k] = xstrdup(t.mm[k]);
			r->ndevs = t.n;
			table_free(&t);
		}
		break;
	}
	dm_table_free(&tb);
}

void recorded_load(const char *asys, const char *uuid, struct recorded *r)
{
	char f[PATH_MAX], name[256], cnt[32], d[256];
	unsigned long n, i;
	uint64_t g = 0;

	memset(r, 0, sizeof(*r));
	if (!uuid || !*uuid)
		return;
	if (pathf(f, sizeof(f), "%s/../dm/name", asys) && read_attr(f, name, sizeof(name)) && *name)
		table_devs(name, r);
	if (!attr_at(asys, "member_count", cnt, sizeof(cnt)))
		return;
	n = strtoul(cnt, NULL, 10);
	for (i = 0; i < n && i < TABLE_MAX_MEMBERS; i++) {
		struct label l;
		char *dev;

		if (!pathf(f, sizeof(f), "%s/members/%lu", asys, i) || member_gone(f, r))
			continue;
		pathf(f, sizeof(f), "%s/members/%lu/block", asys, i);
		dev_link_name(f, d, sizeof(d));
		dev = *d ? dev_path(d) : NULL;
		if (!dev)
			continue;
		memset(&l, 0, sizeof(l));
		if (label_read(dev, &l) != LABEL_OK || !l.f[LK_UUID] || strcmp(l.f[LK_UUID], uuid)) {
			label_free(&l);
			free(dev);
			continue;
		}
		free(dev);
		/* the first label that has a creation time gives it, and its spare area */
		if (!*r->created) {
			cpy(r->created, sizeof(r->created), l.f[LK_CREATED] ? l.f[LK_CREATED] : "");
			cpy(r->op, sizeof(r->op), l.f[LK_OP] ? l.f[LK_OP] : "");
		}
		if (r->have_best && label_num(&l, LK_GEN) <= g) {
			label_free(&l);
			continue;
		}
		if (r->have_best)
			label_free(&r->best);
		r->best = l;
		r->have_best = true;
		g = label_num(&l, LK_GEN);
	}
}

void recorded_free(struct recorded *r)
{
	size_t i;

	if (r->have_best)
		label_free(&r->best);
	for (i = 0; i < r->ndevs; i++)
		free(r->devs[i]);
	free(r->devs);
	memset(r, 0, sizeof(*r));
}

/* rec_ident: what the labels record for member I */
static bool rec_ident(const struct recorded *r, unsigned int i, struct ident *id)
{
	const char *line;

	if (!r || !r->have_best)
		return false;
	line = label_drive(&r->best, i);
	if (!line)
		return false;
	ident_parse(line, id);
	return true;
}

/* ---- one member ------------------------------------------------------- */
static void set(struct member *m, enum mfield f, const char *v)
{
	cpy(m->v[f], sizeof(m->v[f]), v ? v : "");
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && strchr(" \t\n\r\v\f", s[n - 1]))
		s[--n] = 0;
}

static void trim(char *s)
{
	size_t i = strspn(s, " \t\n\r\v\f");

	memmove(s, s + i, strlen(s + i) + 1);
	rtrim(s);
}

/* first_readable: the first of DIR/NAMES that can be read, into P */
static bool first_readable(const char *dir, const char *const *names, char *p, size_t len)
{
	for (; *names; names++)
		if (pathf(p, len, "%s/%s", dir, *names) && !access(p, R_OK))
			return true;
	return false;
}

static void temp_of(const char *b, struct member *m)
{
	static const char *const pat[] = {
		"%s/device/hwmon*/temp1_input", "%s/device/hwmon/hwmon*/temp1_input",
		"%s/device/device/hwmon/hwmon*/temp1_input",
	};
	char p[PATH_MAX], v[64];
	size_t i, k;

	for (i = 0; i < 3; i++) {
		glob_t g;

		if (!pathf(p, sizeof(p), pat[i], b) || glob(p, 0, NULL, &g))
			continue;
		for (k = 0; k < g.gl_pathc; k++) {
			if (access(g.gl_pathv[k], R_OK) || !read_attr(g.gl_pathv[k], v, sizeof(v)))
				continue;
			snprintf(m->v[MF_TEMP], sizeof(m->v[MF_TEMP]), "%lld", strtoll(v, NULL, 10) / 1000);
			globfree(&g);
			return;
		}
		globfree(&g);
	}
}

/* who: "I (DEVICE[, serial S])", as the drive's lines name the member */
static char *who(const struct member *m)
{
	char *p = dev_pretty(m->v[MF_DEV]), *w;

	w = xasprintf("%s (%s%s%s)", m->v[MF_INDEX], p, *m->v[MF_SERIAL] ? ", serial " : "",
		      m->v[MF_SERIAL]);
	free(p);
	return w;
}

static void smart_gather(const char *b, struct member *m, struct notes *nt)
{
	static const enum mfield to[SK_N] = {
		[SK_SOURCE] = MF_DRIVE_SOURCE, [SK_HEALTH] = MF_DRIVE, [SK_WHY] = MF_DRIVE_WHY,
		[SK_CRITICAL] = MF_DRIVE_CRIT, [SK_WEAR] = MF_DRIVE_WEAR, [SK_SPARE] = MF_DRIVE_SPARE,
		[SK_SPARE_T] = MF_DRIVE_SPARE_T, [SK_MEDIA] = MF_DRIVE_MEDIA, [SK_UNSAFE] = MF_DRIVE_UNSAFE,
		[SK_POH] = MF_DRIVE_POH, [SK_TEMP] = MF_DRIVE_TEMP, [SK_WTIME] = MF_DRIVE_WTIME,
		[SK_CTIME] = MF_DRIVE_CTIME, [SK_TCOUNT] = MF_DRIVE_TCOUNT, [SK_TSECS] = MF_DRIVE_TSECS,
	};
	struct smart_rec r;
	const char *base = strrchr(b, '/');
	char *w;
	int k;

	smart_read(base ? base + 1 : b, &r);
	for (k = 0; k < SK_N; k++)
		set(m, to[k], r.v[k]);
	if (!nt)
		return;
	if (strcmp(r.v[SK_HEALTH], "critical") && strcmp(r.v[SK_HEALTH], "warning"))
		return;
	w = who(m);
	if (!strcmp(r.v[SK_HEALTH], "critical")) {
		if (nt->drive_rc < 6)
			nt->drive_rc = 6;
		fprintf(nt->c, "%s%s", ftell(nt->c) ? "|" : "", w);
	} else if (!strcmp(r.v[SK_HEALTH], "warning")) {
		if (nt->drive_rc < 5)
			nt->drive_rc = 5;
		fprintf(nt->w, "%s%s", ftell(nt->w) ? "|" : "", w);
	}
	fprintf(nt->d, "  drive of member %s is %s: %s\n", w, r.v[SK_HEALTH], r.v[SK_WHY]);
	free(w);
}

static void fabric_gather(const char *b, struct member *m, struct notes *nt)
{
	struct fabric f;
	char *p, tmo[64];

	if (!fabric_of(b, &f))
		return;
	set(m, MF_TRANSPORT, f.transport);
	set(m, MF_ADDRESS, f.address);
	set(m, MF_NQN, f.subsysnqn);
	set(m, MF_CONTROLLER, f.controller);
	set(m, MF_CTRL_STATE, f.state);
	if (!*f.transport || !strcmp(f.transport, "pcie") || !nt || !nt->fabric_say)
		return;
	p = dev_pretty(m->v[MF_DEV]);
	if (*f.state && strcmp(f.state, "live")) {
		if (!attr_at(f.ctrl, "fast_io_fail_tmo", tmo, sizeof(tmo)))
			snprintf(tmo, sizeof(tmo), "off");
		fprintf(nt->f, "  member %s (%s, %s %s): controller %s is %s, not live: the storage host or the link to it is down; ",
			m->v[MF_INDEX], p, f.transport, f.address, f.controller, f.state);
		if (!strcmp(tmo, "off"))
			fprintf(nt->f, "its I/O waits until ctrl_loss_tmo ends (fast_io_fail_tmo is off)\n");
		else
			fprintf(nt->f, "its I/O waits, and fails %s s after the link was lost (fast_io_fail_tmo)\n", tmo);
	}
	if (nt->fabric_say == 2 && attr_at(f.ctrl, "fast_io_fail_tmo", tmo, sizeof(tmo)) && !strcmp(tmo, "off"))
		fprintf(nt->f, "  member %s (%s, %s %s): fast_io_fail_tmo is off: when the link drops, I/O waits until ctrl_loss_tmo ends (set it, see ssdstripe-fabric)\n",
			m->v[MF_INDEX], p, f.transport, f.address);
	free(p);
}

void member_read(const char *asys, unsigned int i, const char *state, const struct recorded *r,
		 struct notes *nt, struct member *m)
{
	static const char *const models[] = { "device/model", "device/device/model", NULL };
	static const char *const fws[] = { "device/firmware_rev", "device/device/firmware_rev", "device/rev", NULL };
	char ms[PATH_MAX], p[PATH_MAX], b[PATH_MAX], v[512];
	struct ident id;
	int k;

	memset(m, 0, sizeof(*m));
	snprintf(m->v[MF_INDEX], sizeof(m->v[MF_INDEX]), "%u", i);
	set(m, MF_STATE, state);
	pathf(ms, sizeof(ms), "%s/members/%u", asys, i);
	pathf(p, sizeof(p), "%s/block", ms);
	dev_link_name(p, m->v[MF_DEV], sizeof(m->v[MF_DEV]));
	m->gone = member_gone(ms, r);
	if (m->gone)
		m->v[MF_DEV][0] = 0;
	if (rec_ident(r, i, &id)) {
		set(m, MF_RID, id.id);
		set(m, MF_RSERIAL, id.serial);
		set(m, MF_RMODEL, id.model);
	}
	pathf(b, sizeof(b), "/sys/class/block/%s", m->v[MF_DEV]);
	if (!attr_at(b, "size", m->v[MF_SIZE], sizeof(m->v[MF_SIZE])))
		set(m, MF_SIZE, "0");
	if (*m->v[MF_DEV] && path_exists(b, "partition")) {
		char up[PATH_MAX + 4], *rp;

		snprintf(up, sizeof(up), "%s/..", b);
		rp = realpath(up, NULL);
		if (rp) {
			cpy(b, sizeof(b), rp);
			free(rp);
		}
	}
	if (first_readable(b, models, p, sizeof(p))) {
		read_attr(p, v, sizeof(v));
		rtrim(v);
		set(m, MF_MODEL, v);
	}
	drive_serial(b, m->v[MF_SERIAL], sizeof(m->v[MF_SERIAL]));
	if (first_readable(b, fws, p, sizeof(p))) {
		read_attr(p, v, sizeof(v));
		trim(v);
		set(m, MF_FW, v);
	}
	temp_of(b, m);
	for (k = 0; k < MF_N; k++) {
		if (!F[k].sysfs)
			continue;
		if (!attr_at(ms, F[k].sysfs, m->v[k], sizeof(m->v[k])))
			set(m, (enum mfield)k, "0");
	}
	smart_gather(b, m, nt);
	fabric_gather(b, m, nt);
}

void gone_note(const struct member *m, unsigned int i, const struct recorded *r, struct notes *nt)
{
	struct ident id;
	char w[2048];
	char **names;
	size_t n, k;

	if (!m->gone)
		return;
	if (!rec_ident(r, i, &id)) {
		fprintf(nt->g, "  member %u is gone: reseat it, or replace it\n", i);
		return;
	}
	ident_words(&id, w, sizeof(w));
	names = ident_known(&id) ? ident_find(&id, &n) : NULL;
	if (!names)
		n = 0;
	if (n) {
		fprintf(nt->g, "  member %u (%s) is gone from the array; the drive is present again as ", i, w);
		for (k = 0; k < n; k++)
			fprintf(nt->g, "%s%s", k ? " " : "", names[k]);
		fprintf(nt->g, ": stop the array and assemble it again (writes while it was gone failed)\n");
	} else {
		fprintf(nt->g, "  member %u (%s) is gone: reseat it, or replace it\n", i, w);
	}
	if (names)
		names_free(names, n);
}

/* ---- as JSON and as a row ----------------------------------------------- */
struct json_object *jnum(const char *v)
{
	char *e;
	long long n;

	if (!*v)
		return NULL;
	n = strtoll(v, &e, 10);
	if (*e || e == v)
		return jstr(v);
	return json_object_new_int64(n);
}

struct json_object *member_json(const struct member *m, enum mview view)
{
	struct json_object *o = json_object_new_object();
	char in = view == MV_STATUS ? 's' : 'd';
	int k;

	for (k = 0; k < MF_N; k++) {
		const char *v = m->v[k];
		struct json_object *j;

		if (!F[k].key || !strchr(F[k].in, in))
			continue;
		switch (F[k].kind) {
		case 'n':
			j = jnum(*v ? v : "0");
			break;
		case 'N':
			j = jnum(v);
			break;
		case 's':
			j = *v ? jstr(v) : NULL;
			break;
		default:
			j = jstr(v);
			break;
		}
		json_object_object_add(o, F[k].key, j);
	}
	return o;
}

void member_row(FILE *out, const struct member *m, enum mview view)
{
	int pos, k;

	fputs(" ", out);
	for (pos = 1;; pos++) {
		const struct col *c = NULL;
		char v[600], *p;

		for (k = 0; k < MF_N && !c; k++)
			if (F[k].c[view].pos == pos)
				c = &F[k].c[view];
		if (!c)
			break;
		k--;
		fputc(' ', out);
		if (!m) {
			fprintf(out, c->fmt, c->hdr);
			continue;
		}
		cpy(v, sizeof(v), m->v[k]);
		if (!strcmp(c->show, "str")) {
			if (!*v)
				snprintf(v, sizeof(v), "-");
		} else if (!strcmp(c->show, "rec")) {
			if (m->gone)
				cpy(v, sizeof(v), m->v[k == MF_MODEL ? MF_RMODEL : MF_RSERIAL]);
			if (!*v)
				snprintf(v, sizeof(v), "-");
		} else if (!strcmp(c->show, "dev")) {
			if (m->gone) {
				snprintf(v, sizeof(v), "(gone)");
			} else {
				p = dev_pretty(m->v[k]);
				cpy(v, sizeof(v), p);
				free(p);
			}
		} else if (!strcmp(c->show, "human")) {
			human(v, sizeof(v), strtoull(m->v[k], NULL, 10));
		} else if (!strcmp(c->show, "size")) {
			if (m->gone)
				snprintf(v, sizeof(v), "-");
			else
				human(v, sizeof(v), strtoull(m->v[k], NULL, 10));
		} else if (!strcmp(c->show, "temp")) {
			if (*m->v[k])
				snprintf(v, sizeof(v), "%sC", m->v[k]);
			else
				snprintf(v, sizeof(v), "-");
		}
		fprintf(out, c->fmt, v);
	}
	fputc('\n', out);
}

void drive_head(const char *crit, const char *warn, char *buf, size_t len)
{
	const char *lists[2] = { crit, warn }, *words[2] = { "critical", "warning" };
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < 2; i++) {
		const char *l = lists[i] ? lists[i] : "", *last = strrchr(l, '|'), *s;

		if (!*l)
			continue;
		if (!last) {
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, ", drive %s on member %s%s",
					      words[i], l, i ? "" : ": replace it");
			continue;
		}
		/* "1 (a), 2 (b) and 3 (c)" */
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, ", drives %s on members ", words[i]);
		for (s = l; s < last;) {
			const char *e = strchr(s, '|');

			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%.*s", s == l ? "" : ", ",
					      (int)(e - s), s);
			s = e + 1;
		}
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " and %s%s", last + 1,
				      i ? "" : ": replace them");
	}
	if (n >= len && len)
		buf[len - 1] = 0;
}
