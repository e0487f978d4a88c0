// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a replace's copy and a scrub, as status and detail show
 * them (inprog.h).
 */
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "str.h"
#include "dev.h"
#include "dm.h"
#include "inprog.h"
#include "jstr.h"
#include "label.h"
#include "out.h"
#include "table.h"

static const char *run_dir(void)
{
	const char *r = getenv("SSDSTRIPE_RUNDIR");

	return r && *r ? r : "/run/ssdstripe";
}

/* ---- a replace ---------------------------------------------------------- */
struct rinfo {
	char mirror[128];
	long member;
	char from[256], to[256];	/* without /dev/ */
	char percent[24], state[300], rate[32], eta[32];
	bool watched;
};

/* live_table: array NAME's live ssdstripe table */
static bool live_table(const char *name, struct ss_table *t)
{
	struct dm_table tb;
	char err[128];
	bool ok = false;

	if (!dm_table_of(name, &tb))
		return false;
	if (tb.n && !strcmp(tb.t[0].type, "ssdstripe"))
		ok = table_parse(tb.t[0].len, tb.t[0].params, t, err, sizeof(err));
	dm_table_free(&tb);
	return ok;
}

/* bare: the /dev path of MM without /dev/ */
static void bare(const char *mm, char *buf, size_t len)
{
	char *d = dev_of_majmin(mm);

	cpy(buf, len, d ? (strncmp(d, "/dev/", 5) ? d : d + 5) : "");
	free(d);
}

/* is_watcher: PID is an ssdstripe replace process (the one that waits for
 * a copy), not some other that took over a stale pid */
static bool is_watcher(const char *pid)
{
	char p[64], buf[4096];
	size_t n, i;
	FILE *f;

	if (!*pid || strspn(pid, "0123456789") != strlen(pid) ||
	    !pathf(p, sizeof(p), "/proc/%s/cmdline", pid))
		return false;
	f = fopen(p, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	for (i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = 0;
	return strstr(buf, " replace ") != NULL;
}

/* replace_info: 0 a replace runs (R), 1 none, 2 its copy's device is not
 * under the array or holds no mirror (being set up or taken down) */
static int replace_info(const char *name, struct rinfo *r)
{
	struct dm_dev_info info, mi;
	struct ss_table t;
	struct dm_table tb;
	char u[160], mm[32], f[PATH_MAX], line[256];
	char *old = NULL, *new = NULL, *m;
	const char *uu = "";
	uint64_t sync = 0, total = 0;
	char w[3] = "";
	unsigned int k;
	size_t i;
	FILE *sf;

	memset(r, 0, sizeof(*r));
	r->member = -1;
	if (dm_info_of(name, &info))
		uu = !strncmp(info.uuid, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)) ?
		     info.uuid + strlen(DM_UUID_PREFIX) : info.uuid;
	snprintf(u, sizeof(u), "%sREPLACE-%s", DM_UUID_PREFIX, uu);
	m = dm_name_of_uuid(u);
	if (!m)
		return 1;
	cpy(r->mirror, sizeof(r->mirror), m);
	free(m);
	if (!live_table(name, &t))
		return 1;
	if (dm_info_of(r->mirror, &mi)) {
		snprintf(mm, sizeof(mm), "%u:%u", mi.major, mi.minor);
		for (k = 0; k < t.n; k++)
			if (!strcmp(t.mm[k], mm))
				r->member = k;
	}
	table_free(&t);
	if (r->member < 0)
		return 2;
	if (!dm_table_of(r->mirror, &tb))
		return 2;
	for (i = 0; i < tb.n && !old; i++)
		if (!strcmp(tb.t[i].type, "mirror"))
			mirror_legs_parse(tb.t[i].params, &old, &new);
	dm_table_free(&tb);
	if (!old)
		return 2;
	bare(old, r->from, sizeof(r->from));
	bare(new, r->to, sizeof(r->to));
	free(old);
	free(new);
	snprintf(r->state, sizeof(r->state), "copying");
	if (pathf(f, sizeof(f), "%s/replace/%s.pid", run_dir(), name) && read_attr(f, line, sizeof(line)) &&
	    is_watcher(line))
		r->watched = true;
	/* the copy's state from the mirror targets of its table (one per run
	 * of regions), the worst health letter of each leg */
	if (dm_status_of(r->mirror, &tb)) {
		for (i = 0; i < tb.n; i++) {
			uint64_t s, tt;
			char h[3];
			int l;

			if (strcmp(tb.t[i].type, "mirror") || !mirror_status_parse(tb.t[i].params, &s, &tt, h))
				continue;
			sync += s;
			total += tt;
			for (l = 0; l < 2; l++)
				if (!w[l] || w[l] == 'A')
					w[l] = h[l];
		}
		dm_table_free(&tb);
	}
	if (total > 0) {
		snprintf(r->percent, sizeof(r->percent), "%" PRIu64, sync * 100 / total);
		if (w[0] != 'A')
			snprintf(r->state, sizeof(r->state), "read errors on %s", r->from);
		if (w[1] && w[1] != 'A')
			snprintf(r->state, sizeof(r->state), "%s failed", r->to);
	}
	if (pathf(f, sizeof(f), "%s/replace/%s", run_dir(), name) && (sf = fopen(f, "re"))) {
		while (fgets(line, sizeof(line), sf)) {
			line[strcspn(line, "\n")] = 0;
			if (!strncmp(line, "rate=", 5))
				cpy(r->rate, sizeof(r->rate), line + 5);
			else if (!strncmp(line, "eta=", 4))
				cpy(r->eta, sizeof(r->eta), line + 4);
		}
		fclose(sf);
	}
	return 0;
}

int replace_now(const char *name, struct replace_now *rn)
{
	struct rinfo r;
	int rc = replace_info(name, &r);

	memset(rn, 0, sizeof(*rn));
	rn->member = r.member;
	cpy(rn->from, sizeof(rn->from), r.from);
	cpy(rn->to, sizeof(rn->to), r.to);
	cpy(rn->percent, sizeof(rn->percent), r.percent);
	cpy(rn->state, sizeof(rn->state), r.state);
	rn->watched = r.watched;
	return rc;
}

bool replace_progress(const char *name, long *member, char *percent, size_t len)
{
	struct rinfo r;

	if (replace_info(name, &r))
		return false;
	*member = r.member;
	cpy(percent, len, r.percent);
	return true;
}

void replace_say(const char *name)
{
	struct rinfo r;
	int rc = replace_info(name, &r);
	char h[64] = "";

	if (rc == 2) {
		say("  replace: the copy's device %s is being set up or taken down (if no '%s replace' runs: '%s replace --abort %s')",
		    r.mirror, PROG, PROG, name);
		return;
	}
	if (rc) {
		/* no copy runs, but the labels say one did: cut short */
		struct ss_table t;
		struct label l;
		char *d;

		if (!live_table(name, &t))
			return;
		d = t.n ? dev_of_majmin(t.mm[0]) : NULL;
		table_free(&t);
		if (!d)
			return;
		memset(&l, 0, sizeof(l));
		if (label_read(d, &l) == LABEL_OK && l.f[LK_REPLACING] && *l.f[LK_REPLACING])
			say("  a replace of member %s was cut short (the array runs on its old drive): '%s replace %s OLD NEW' starts it over ('%s assemble' named the new drive an unfinished copy)",
			    l.f[LK_REPLACING], PROG, name, PROG);
		label_free(&l);
		free(d);
		return;
	}
	if (*r.rate) {
		char hb[48];

		snprintf(h, sizeof(h), ", %s/s", human(hb, sizeof(hb), strtoull(r.rate, NULL, 10) / 512));
	}
	say("  replace: member %ld, %s onto %s: %s%% copied%s%s%s%s (%s)", r.member, r.from, r.to,
	    *r.percent ? r.percent : "?", h, *r.eta ? ", " : "", r.eta, *r.eta ? "s left" : "", r.state);
	if (!r.watched)
		say("  no ssdstripe process waits for this copy (it was killed): '%s replace --finish %s' completes it, '%s replace --abort %s' stops it; until then a drive error during the copy holds the array's writes",
		    PROG, name, PROG, name);
	if (strcmp(r.state, "copying"))
		say("  the replace cannot complete as it is: '%s replace --finish %s' says why, '%s replace --abort %s' goes back to %s",
		    PROG, name, PROG, name, r.from);
}

struct json_object *replace_json(const char *name)
{
	struct rinfo r;
	struct json_object *o;

	if (replace_info(name, &r))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "member", json_object_new_int64(r.member));
	json_object_object_add(o, "from", jstr(r.from));
	json_object_object_add(o, "to", jstr(r.to));
	json_object_object_add(o, "percent", *r.percent ? json_object_new_int64(strtoll(r.percent, NULL, 10)) : NULL);
	json_object_object_add(o, "state", jstr(r.state));
	json_object_object_add(o, "rate_bytes", *r.rate ? json_object_new_int64(strtoll(r.rate, NULL, 10)) : NULL);
	json_object_object_add(o, "eta_seconds", *r.eta ? json_object_new_int64(strtoll(r.eta, NULL, 10)) : NULL);
	return o;
}

/* ---- a scrub ------------------------------------------------------------ */
struct sinfo {
	char state[32], pct[24], eta[24], bad[24], rate[24], end[24], pid[24];
};

static bool scrub_info(const char *name, struct sinfo *s)
{
	char f[PATH_MAX], line[256];
	FILE *sf;

	memset(s, 0, sizeof(*s));
	snprintf(s->bad, sizeof(s->bad), "0");
	if (!pathf(f, sizeof(f), "%s/scrub/%s.state", run_dir(), name) || !(sf = fopen(f, "re")))
		return false;
	while (fgets(line, sizeof(line), sf)) {
		static const char *const k[] = { "state", "pct", "eta", "bad", "rate", "end", "pid" };
		char *dst[] = { s->state, s->pct, s->eta, s->bad, s->rate, s->end, s->pid };
		char *eq = strchr(line, '=');
		size_t i;

		line[strcspn(line, "\n")] = 0;
		if (!eq)
			continue;
		*eq = 0;
		for (i = 0; i < 7; i++)
			if (!strcmp(line, k[i]))
				cpy(dst[i], 24, eq + 1);
	}
	fclose(sf);
	/* a scrub whose process is gone without saying how it ended */
	if (!strcmp(s->state, "running") && kill((pid_t)strtol(*s->pid ? s->pid : "0", NULL, 10), 0)) {
		snprintf(s->state, sizeof(s->state), "failed");
		s->eta[0] = 0;
	}
	return true;
}

bool scrub_now_of(const char *name, char state[32], char pct[24], char pid[24])
{
	struct sinfo s;

	if (!scrub_info(name, &s))
		return false;
	cpy(state, 32, s.state);
	cpy(pct, 24, s.pct);
	cpy(pid, 24, s.pid);
	return true;
}

static const char *ranges(const char *bad, char *buf, size_t len)
{
	snprintf(buf, len, "%s unreadable range%s", bad, strcmp(bad, "1") ? "s" : "");
	return buf;
}

void scrub_say(const char *name)
{
	struct sinfo s;
	char r[64], t[32];

	if (!scrub_info(name, &s))
		return;
	if (!strcmp(s.state, "running")) {
		say("  scrub: %s%% read at up to %s MB/s%s%s%s, %s so far ('%s scrub --stop %s' stops it)",
		    *s.pct ? s.pct : "0", s.rate, *s.eta ? ", " : "", s.eta, *s.eta ? "s left" : "",
		    ranges(s.bad, r, sizeof(r)), PROG, name);
	} else if (!strcmp(s.state, "finished")) {
		iso_time(t, sizeof(t), strtoll(s.end, NULL, 10));
		if (!strcmp(s.bad, "0"))
			say("  scrub: finished %s, every member read without error", t);
		else
			say("  scrub: finished %s, %s: data there is lost; %s/scrub/%s.bad lists them ('%s history %s' too); restore what they hold, and replace the drive: '%s replace --ignore-read-errors %s OLD NEW'",
			    t, ranges(s.bad, r, sizeof(r)), run_dir(), name, PROG, name, PROG, name);
	} else {
		say("  scrub: %s at %s%% (%s found): '%s scrub %s' reads it all again", s.state,
		    *s.pct ? s.pct : "0", ranges(s.bad, r, sizeof(r)), PROG, name);
	}
}

struct json_object *scrub_json(const char *name)
{
	struct sinfo s;
	struct json_object *o;
	char t[32];

	if (!scrub_info(name, &s))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "state", jstr(s.state));
	json_object_object_add(o, "percent", json_object_new_int64(strtoll(*s.pct ? s.pct : "0", NULL, 10)));
	json_object_object_add(o, "eta_seconds", *s.eta ? json_object_new_int64(strtoll(s.eta, NULL, 10)) : NULL);
	json_object_object_add(o, "unreadable_ranges", json_object_new_int64(strtoll(s.bad, NULL, 10)));
	json_object_object_add(o, "rate_mb", *s.rate ? json_object_new_int64(strtoll(s.rate, NULL, 10)) : NULL);
	json_object_object_add(o, "ended", *s.end ? jstr(iso_time(t, sizeof(t),
										       strtoll(s.end, NULL, 10))) : NULL);
	return o;
}
