// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe replace: move one member of an active array onto a new drive
 * while the array is in use, as pvmove moves a striped LV off a PV: the
 * kernel's mirror target (dm-raid1, core log) is stacked under the array
 * in place of the old member by a table reload, copies it onto the new
 * drive while every write goes to both, and when the copy is complete one
 * more reload puts the array on the new drive.  The labels record each
 * step with a higher generation, in an order that leaves a complete member
 * behind a power cut at any moment (Documentation/ssdstripe-label.rst,
 * "Replacing a member"):
 *
 *   the switch writes the other members' labels, recording NEW, before
 *   NEW's own; and every way back to OLD writes the labels that make OLD
 *   the member before a write goes to OLD alone.
 *
 * Every suspend is a critical section (crit.h): what it writes is made
 * before it, nothing runs or is written to a file system inside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "badscan.h"
#include "blk.h"
#include "cmds.h"
#include "crit.h"
#include "dev.h"
#include "dm.h"
#include "fsfiles.h"
#include "histlog.h"
#include "ident.h"
#include "label.h"
#include "opts.h"
#include "out.h"
#include "probe.h"
#include "table.h"

#define REGION 1024			/* sectors per mirror region (512 KiB, as pvmove) */
#define MAX_BAD_RUNS 64

static const char *run_dir(void)
{
	const char *r = getenv("SSDSTRIPE_RUNDIR");

	return r && *r ? r : "/run/ssdstripe";
}

/* ---- the array as the kernel has it ------------------------------------ */
/* arr_read: the live table of array NAME; false when it is none */
static bool arr_read(const char *name, struct ss_table *a)
{
	struct dm_table tb;
	char err[128];
	bool ok = false;

	/* A is read again and again: what it held before goes */
	table_free(a);
	if (!dm_table_of(name, &tb))
		return false;
	if (tb.n == 1 && !strcmp(tb.t[0].type, "ssdstripe"))
		ok = table_parse(tb.t[0].len, tb.t[0].params, a, err, sizeof(err));
	dm_table_free(&tb);
	return ok;
}

/* arr_table: the array's table with member K on MM at OFF */
static void arr_table(const struct ss_table *a, unsigned int k, const char *mm, const char *off,
		      struct dm_table *tb)
{
	tb->n = 1;
	tb->t = xmalloc(sizeof(*tb->t));
	tb->t[0].start = 0;
	tb->t[0].len = a->len;
	tb->t[0].type = xstrdup("ssdstripe");
	tb->t[0].params = table_params(a, k, mm, off);
}

static char *majmin_of(const char *dev)
{
	unsigned int ma, mi;

	if (!blk_majmin(dev, &ma, &mi))
		return NULL;
	return xasprintf("%u:%u", ma, mi);
}

static char *dm_majmin(const char *name)
{
	struct dm_dev_info i;

	if (!dm_info_of(name, &i))
		return NULL;
	return xasprintf("%u:%u", i.major, i.minor);
}

/* ---- the replace's state ------------------------------------------------ */
static char *nm, *uuid, *mir, *old, *new;
static unsigned int k;
static struct ss_table A;
static bool ignore_errs;

/* the labels: TPL member 0's (the array's fields), GEN the highest */
static struct label tpl;
static uint64_t gen_max;

static char *mirror_uuid(void)
{
	return xasprintf(DM_UUID_PREFIX "REPLACE-%s", uuid);
}

/* mirror_of: the name of the array's replace mirror, if any */
static char *mirror_of(void)
{
	char *u = mirror_uuid(), *n = dm_name_of_uuid(u);

	free(u);
	return n;
}

/*
 * copy_status: the copy's state from the mirror targets of MIR's table
 * (one per run of regions; regions OLD could not be read in lie on OLD
 * alone, linear): SYNC and TOTAL regions, HEALTH a letter per leg, OLD's
 * then NEW's, the worst of the targets'; false when it holds no mirror
 * (it holds OLD alone: a retreat)
 */
static bool copy_status(uint64_t *sync, uint64_t *total, char health[3])
{
	struct dm_table st;
	size_t i;
	unsigned int n = 0, j;

	*sync = *total = 0;
	strcpy(health, "AA");
	if (!mir || !dm_status_of(mir, &st))
		return false;
	for (i = 0; i < st.n; i++) {
		uint64_t s, t;
		char h[3];

		if (strcmp(st.t[i].type, "mirror") || !mirror_status_parse(st.t[i].params, &s, &t, h))
			continue;
		*sync += s;
		*total += t;
		for (j = 0; j < 2; j++)
			if (health[j] == 'A')
				health[j] = h[j];
		n++;
	}
	dm_table_free(&st);
	return n && *total;
}

/*
 * copy_legs: OLD's and NEW's MAJ:MIN from the copy's table, as text (a
 * NEW pulled out since has no node, but its number is in the table): the
 * first mirror target's legs; or, when the copy holds OLD alone (a way back
 * cut short), its linear target's device, and NEW NULL
 */
static bool copy_legs(char **omm, char **nmm)
{
	struct dm_table tb;
	size_t i;
	bool ok = false;

	*omm = *nmm = NULL;
	if (!dm_table_of(mir, &tb))
		return false;
	for (i = 0; i < tb.n && !ok; i++)
		ok = !strcmp(tb.t[i].type, "mirror") && mirror_legs_parse(tb.t[i].params, omm, nmm);
	if (!ok && tb.n == 1 && !strcmp(tb.t[0].type, "linear")) {
		char mm[32];

		if (sscanf(tb.t[0].params, "%31s", mm) == 1) {
			*omm = xstrdup(mm);
			ok = true;
		}
	}
	dm_table_free(&tb);
	return ok;
}

/* copy_badregs: the regions MIR's table leaves on OLD alone (bitmap) */
static unsigned char *copy_badregs(uint64_t nreg, bool *any)
{
	unsigned char *bad = calloc(nreg + 1, 1);
	struct dm_table tb;
	size_t i;
	uint64_t x;

	if (!bad)
		die(EX_FAILED, "out of memory");
	*any = false;
	if (!dm_table_of(mir, &tb))
		return bad;
	for (i = 0; i < tb.n; i++) {
		if (strcmp(tb.t[i].type, "linear"))
			continue;
		for (x = tb.t[i].start / REGION; x < (tb.t[i].start + tb.t[i].len + REGION - 1) / REGION && x < nreg; x++) {
			bad[x] = 1;
			*any = true;
		}
	}
	dm_table_free(&tb);
	return bad;
}

/*
 * copy_table: the copy's table over member k's data area: the kernel's
 * mirror target over every run of regions, OLD first (the source, where
 * reads go), with handle_errors (a write a leg fails is held back,
 * unacknowledged, until the tool puts the array back on OLD); the regions
 * BAD marks (OLD could not be read in them) linear on OLD alone
 */
static void copy_table(const char *omm, const char *nmm, const unsigned char *bad,
		       struct dm_table *tb)
{
	uint64_t len = label_num(&tpl, LK_DATA), off = label_num(&tpl, LK_OFFSET);
	uint64_t nreg = (len + REGION - 1) / REGION, x, s = 0;
	int t = -1;

	tb->n = 0;
	tb->t = NULL;
	for (x = 0; x <= nreg; x++) {
		int b = x < nreg ? (bad && bad[x]) : -1;
		uint64_t e;

		if (x == 0) {
			t = b;
			continue;
		}
		if (b == t)
			continue;
		e = x * REGION < len ? x * REGION : len;
		tb->t = realloc(tb->t, (tb->n + 1) * sizeof(*tb->t));
		if (!tb->t)
			die(EX_FAILED, "out of memory");
		tb->t[tb->n].start = s;
		tb->t[tb->n].len = e - s;
		/* a mirror target shorter than its region is refused by the
		 * kernel's dirty log: such a last piece stays on OLD alone and is
		 * copied at the switch, as a region OLD could not be read in */
		if (!t && e - s < REGION)
			t = 1;
		if (t) {
			tb->t[tb->n].type = xstrdup("linear");
			tb->t[tb->n].params = xasprintf("%s %" PRIu64, omm, off + s);
		} else {
			tb->t[tb->n].type = xstrdup("mirror");
			tb->t[tb->n].params = xasprintf("core 1 %d 2 %s %" PRIu64 " %s %" PRIu64 " 1 handle_errors",
							REGION, omm, off + s, nmm, off + s);
		}
		tb->n++;
		s = e;
		t = b;
	}
}

/* ---- labels -------------------------------------------------------------- */
/*
 * read_labels: the label of every member (DEVS in index order): TPL the
 * array's (member 0's), GEN_MAX the highest generation.  False, saying
 * why, when one is not a label of the array at its index.
 */
static bool read_labels(char **devs)
{
	unsigned int i;

	gen_max = 0;
	for (i = 0; i < A.n; i++) {
		struct label l;

		if (label_read(devs[i], &l) != LABEL_OK) {
			warn("%s (member %u) carries no valid ssdstripe label%s%s%s: replace needs an array made by '" PROG " create'",
			     devs[i], i, l.err[0] ? " (" : "", l.err, l.err[0] ? ")" : "");
			label_free(&l);
			return false;
		}
		if (strcmp(l.f[LK_UUID], uuid) || label_num(&l, LK_INDEX) != i) {
			warn("%s is member %u of the live table, but its label says member %s of array %s (%s)",
			     devs[i], i, l.f[LK_INDEX], l.f[LK_NAME], l.f[LK_UUID]);
			label_free(&l);
			return false;
		}
		if (label_num(&l, LK_GEN) > gen_max)
			gen_max = label_num(&l, LK_GEN);
		if (i == 0) {
			label_free(&tpl);
			tpl = l;
		} else {
			label_free(&l);
		}
	}
	return true;
}

/* a label block made before it is written: the device and its text */
struct lblock {
	char *dev;
	char text[LABEL_BLOCK];
	long len;
	unsigned int k;
	int fd;
};

/*
 * make_labels: the labels of members WHICH (NULL: every member) of the
 * array, recording the drives of DEVS, with generation GEN, STATE and
 * REPLACING ("" none); ONTO, if set, receives the one label instead of its
 * member.  Every label is made (and its device opened) before any is
 * written.  False, saying why, when one cannot be.
 */
static bool make_labels(char **devs, const bool *which, uint64_t gen, const char *state,
			const char *replacing, const char *repby, const char *repat,
			const char *onto, struct lblock **out, size_t *nout)
{
	struct label l;
	char genw[24], idx[16], line[2048], **members, *save = NULL, *ml, *w;
	unsigned int i;
	size_t nm_ = 0;
	bool ok = true;

	*out = NULL;
	*nout = 0;
	memset(&l, 0, sizeof(l));
	memcpy(l.f, tpl.f, sizeof(l.f));
	snprintf(genw, sizeof(genw), "%" PRIu64, gen);
	l.f[LK_GEN] = genw;
	l.f[LK_STATE] = (char *)state;
	l.f[LK_REPLACING] = (char *)replacing;
	l.f[LK_REPBY] = (char *)repby;
	l.f[LK_REPAT] = (char *)repat;
	l.ndrives = A.n;
	l.drives = calloc(A.n, sizeof(*l.drives));
	members = calloc(A.n, sizeof(char *));
	if (!l.drives || !members)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < A.n; i++) {
		struct ident d;

		if (!ident_of(devs[i], &d))
			ident_none(&d);
		ident_line(&d, line, sizeof(line));
		l.drives[i].k = i;
		l.drives[i].ident = xstrdup(line);
	}
	ml = xstrdup(tpl.f[LK_MEMBERS]);
	for (w = strtok_r(ml, ",", &save); w && nm_ < A.n; w = strtok_r(NULL, ",", &save))
		members[nm_++] = w;
	for (i = 0; i < A.n && ok; i++) {
		struct lblock *b;

		if (which && !which[i])
			continue;
		if (i >= nm_) {
			warn("the array's member list has no uuid for member %u", i);
			ok = false;
			break;
		}
		snprintf(idx, sizeof(idx), "%u", i);
		l.f[LK_INDEX] = idx;
		l.f[LK_MEMBER] = members[i];
		*out = realloc(*out, (*nout + 1) * sizeof(**out));
		if (!*out)
			die(EX_FAILED, "out of memory");
		b = &(*out)[(*nout)++];
		memset(b->text, 0, sizeof(b->text));
		b->k = i;
		b->dev = xstrdup(onto ? onto : devs[i]);
		b->fd = -1;
		b->len = label_format(&l, b->text, sizeof(b->text));
		if (b->len < 0) {
			warn("a label of these %u members would take more than the %d bytes of its block (each label records every member's drive): use fewer members",
			     A.n, LABEL_BLOCK);
			ok = false;
			break;
		}
		b->fd = open(b->dev, O_RDWR | O_CLOEXEC);
		if (b->fd < 0) {
			warn("cannot open %s to write its label: %s", b->dev, strerror(errno));
			ok = false;
		}
	}
	for (i = 0; i < A.n; i++)
		free(l.drives[i].ident);
	free(l.drives);
	free(members);
	free(ml);
	return ok;
}

static void free_labels(struct lblock *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (b[i].fd >= 0)
			close(b[i].fd);
		free(b[i].dev);
	}
	free(b);
}

/*
 * write_labels: the labels made, in order; nothing allocated, nothing
 * printed (a critical section may be open): false with WHY filled
 */
static bool write_labels(struct lblock *b, size_t n, char *why, size_t wl)
{
	size_t i;
	int e;

	for (i = 0; i < n; i++) {
		e = label_write_fd(b[i].fd, b[i].text);
		if (e) {
			snprintf(why, wl, "cannot write the label of member %u to %s: %s",
				 b[i].k, b[i].dev, strerror(e));
			return false;
		}
	}
	return true;
}

/* labels_now: make and write at once (no section open); false said why */
static bool labels_now(char **devs, const bool *which, uint64_t gen, const char *state,
		       const char *replacing, const char *repby, const char *repat,
		       const char *onto)
{
	struct lblock *b;
	size_t n;
	char why[512];
	bool ok = make_labels(devs, which, gen, state, replacing, repby, repat, onto, &b, &n);

	if (ok && !write_labels(b, n, why, sizeof(why))) {
		warn("%s", why);
		ok = false;
	}
	free_labels(b, n);
	return ok;
}

/* pick: which members' labels to write: member I alone, or with OTHERS
 * every member but I */
static bool *pick(unsigned int i, bool others)
{
	bool *w = calloc(A.n, sizeof(bool));
	unsigned int j;

	if (!w)
		die(EX_FAILED, "out of memory");
	for (j = 0; j < A.n; j++)
		w[j] = (j == i) != others;
	return w;
}

/* devs_with: the members' devices by index, DEV for member k */
static char **devs_with(const char *dev)
{
	char **d = calloc(A.n, sizeof(char *));
	unsigned int i;

	if (!d)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < A.n; i++) {
		d[i] = i == k ? xstrdup(dev) : dev_of_majmin(A.mm[i]);
		if (!d[i])
			die(EX_FAILED, "member %s of %s has no device node: is it gone? ('" PROG " status %s')",
			    A.mm[i], nm, nm);
	}
	return d;
}

static void devs_free(char **d)
{
	unsigned int i;

	for (i = 0; d && i < A.n; i++)
		free(d[i]);
	free(d);
}

/* ---- the state file status reads ---------------------------------------- */
static const char *const state_keys[] = {
	"member", "from", "to", "state", "started", "percent", "rate", "eta", "why",
};
#define NSTATE (sizeof(state_keys) / sizeof(state_keys[0]))
static char state_v[NSTATE][256];

/* state_dir: the directory of the replace's state files, made if need be */
static void state_dir(void)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/replace", run_dir());
	mkdir(run_dir(), 0755);
	mkdir(p, 0755);
}

static void state_path(char *p, size_t l, const char *suffix)
{
	snprintf(p, l, "%s/replace/%s%s", run_dir(), nm, suffix);
}

static void state_load(void)
{
	char p[PATH_MAX], line[512];
	FILE *f;
	size_t i;

	state_path(p, sizeof(p), "");
	f = fopen(p, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = 0;
		line[strcspn(eq + 1, "\n") + (size_t)(eq + 1 - line)] = 0;
		for (i = 0; i < NSTATE; i++)
			if (!strcmp(line, state_keys[i]))
				snprintf(state_v[i], sizeof(state_v[i]), "%s", eq + 1);
	}
	if (f)
		fclose(f);
}

/* state_set: KEY=VALUE into the state file (NULL KEY: write it as it is) */
static void state_set(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void state_set(const char *key, const char *fmt, ...)
{
	char p[PATH_MAX], t[PATH_MAX];
	va_list ap;
	size_t i;
	FILE *f;

	for (i = 0; key && i < NSTATE; i++) {
		if (strcmp(key, state_keys[i]))
			continue;
		va_start(ap, fmt);
		vsnprintf(state_v[i], sizeof(state_v[i]), fmt, ap);
		va_end(ap);
	}
	state_dir();
	state_path(p, sizeof(p), "");
	state_path(t, sizeof(t), ".new");
	f = fopen(t, "we");
	if (!f)
		return;
	for (i = 0; i < NSTATE; i++)
		if (state_v[i][0] || i < 4)
			fprintf(f, "%s=%s\n", state_keys[i], state_v[i]);
	if (fclose(f) == 0)
		rename(t, p);
}

/* state_done: the state file kept for the monitor (NAME.last), no pid */
static void state_done(void)
{
	char p[PATH_MAX], l[PATH_MAX];

	state_path(p, sizeof(p), "");
	state_path(l, sizeof(l), ".last");
	rename(p, l);
	state_path(p, sizeof(p), ".pid");
	unlink(p);
}

/* watcher: the pid of the ssdstripe process that waits for the copy, 0 none */
static pid_t watcher(void)
{
	char p[PATH_MAX], c[4096];
	long pid = 0;
	FILE *f;
	int fd;
	ssize_t n, i;

	state_path(p, sizeof(p), ".pid");
	f = fopen(p, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &pid) != 1)
		pid = 0;
	fclose(f);
	if (pid <= 0)
		return 0;
	/* an ssdstripe replace process, not another that took over the pid */
	snprintf(p, sizeof(p), "/proc/%ld/cmdline", pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, c, sizeof(c) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	c[n] = 0;
	for (i = 0; i < n; i++)
		if (!c[i])
			c[i] = ' ';
	return strstr(c, " replace ") ? (pid_t)pid : 0;
}

static void pid_write(pid_t pid)
{
	char p[PATH_MAX];
	FILE *f;

	state_dir();
	state_path(p, sizeof(p), ".pid.new");
	f = fopen(p, "we");
	if (f) {
		char to[PATH_MAX];

		fprintf(f, "%ld\n", (long)pid);
		state_path(to, sizeof(to), ".pid");
		/* whole or not at all: a reader never sees it empty */
		if (!fclose(f))
			rename(p, to);
	}
}

/*
 * claim_copy: the lock of the process that waits for the copy, held until
 * it exits: of two started at once (the monitor's takeover and an
 * admin's --finish), one is refused
 */
static void claim_copy(bool wait)
{
	char p[PATH_MAX];
	int fd, i;

	state_dir();
	state_path(p, sizeof(p), ".lock");
	fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die(EX_FAILED, "cannot open %s: %s", p, strerror(errno));
	for (i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (!wait)
			die(EX_REFUSED, "another process waits for this copy already ('" PROG " status %s')", nm);
		if (i > 600)
			die(EX_FAILED, "another process has held the copy of %s for 60 s: nothing was changed ('" PROG " status %s')",
			    nm, nm);
		usleep(100000);
	}
	/* left open: the lock goes with the process */
}

static void hist(const char *event, const char *detail)
{
	char ks[16], *d = xasprintf("%s (%s)", detail, hist_cmd ? hist_cmd : "");

	snprintf(ks, sizeof(ks), "%u", k);
	history_add(event, nm, uuid, ks, "", d);
	free(d);
}

static const char *bare(const char *dev)
{
	return strncmp(dev, "/dev/", 5) ? dev : dev + 5;
}

/* ---- device-mapper steps --------------------------------------------------- */
/*
 * copy_to_old: the copy's device holds OLD alone: suspended without a
 * flush (writes the mirror held after a leg's error go back to
 * device-mapper, not failed: hold_bio in dm-raid1.c), loaded with OLD and
 * resumed (they go to OLD now).  Only once the labels make OLD the member.
 * The caller holds a critical section; COOKIE is waited for after it.
 */
static bool copy_to_old(const struct dm_table *tb, uint32_t *cookie)
{
	if (!dm_suspend(mir, true))
		return false;
	if (!dm_load(mir, tb)) {
		dm_resume(mir, cookie);
		return false;
	}
	return dm_resume(mir, cookie);
}

/* old_table: the copy's table holding OLD alone, for copy_to_old */
static bool old_table(struct dm_table *tb)
{
	char *omm = majmin_of(old);

	if (!omm)
		return false;
	tb->n = 1;
	tb->t = xmalloc(sizeof(*tb->t));
	tb->t[0].start = 0;
	tb->t[0].len = label_num(&tpl, LK_DATA);
	tb->t[0].type = xstrdup("linear");
	tb->t[0].params = xasprintf("%s %s", omm, tpl.f[LK_OFFSET]);
	free(omm);
	return true;
}

/* copy_to_old_now: copy_to_old in a critical section of its own */
static bool copy_to_old_now(void)
{
	const char *devs[] = { mir, NULL };
	struct dm_table tb;
	uint32_t cookie = 0;
	bool ok;

	if (!old_table(&tb))
		return false;
	if (!crit_enter(devs, crit_bound())) {
		dm_table_free(&tb);
		return false;
	}
	ok = copy_to_old(&tb, &cookie);
	crit_leave();
	dm_wait_cookie(cookie);
	dm_table_free(&tb);
	return ok;
}

/*
 * labels_name_not_old: some other member's label, of a generation at least
 * OLD's, records for member k a drive that is not OLD's (or none that can
 * be told): the switch had begun, and moving writes onto OLD alone could
 * lose them.  Decided from the labels alone: NEW may be gone.
 */
static bool labels_name_not_old(void)
{
	struct ident dold, rec;
	struct label l;
	uint64_t og = 0;
	unsigned int i;
	bool found = false;
	char *d;

	if (!ident_of(old, &dold))
		ident_none(&dold);
	if (label_read(old, &l) == LABEL_OK)
		og = label_num(&l, LK_GEN);
	label_free(&l);
	for (i = 0; i < A.n && !found; i++) {
		if (i == k)
			continue;
		d = dev_of_majmin(A.mm[i]);
		if (d && label_read(d, &l) == LABEL_OK && label_num(&l, LK_GEN) >= og &&
		    label_drive(&l, k)) {
			ident_parse(label_drive(&l, k), &rec);
			found = !ident_match(&dold, &rec);
		}
		if (d)
			label_free(&l);
		free(d);
	}
	return found;
}

/* new_gen: a generation above every label of the replace, NEW's included */
static uint64_t new_gen(char **devs)
{
	struct label l;
	uint64_t g = 0;
	unsigned int i;

	for (i = 0; i < A.n; i++) {
		if (label_read(devs[i], &l) == LABEL_OK && label_num(&l, LK_GEN) > g)
			g = label_num(&l, LK_GEN);
		label_free(&l);
	}
	if (new && label_read(new, &l) == LABEL_OK && !strcmp(l.f[LK_UUID], uuid) &&
	    label_num(&l, LK_GEN) > g)
		g = label_num(&l, LK_GEN);
	label_free(&l);
	return g + 1;
}

/* k_first: member k's label block first, the others in index order: on
 * the way back OLD's label is the first to outrank NEW's */
static void k_first(struct lblock *b, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (b[i].k == k) {
			struct lblock t = b[i];

			memmove(b + 1, b, i * sizeof(*b));
			b[0] = t;
			return;
		}
	}
}

/*
 * retreat: the array back on OLD alone, from any state of the copy, and
 * nothing acknowledged lost: the mirror acknowledges a write only once OLD
 * has it.  In order: every member's label with a generation above any of
 * the replace's, OLD member k (OLD's first), no replace marked (from here
 * a boot takes OLD); NEW's label erased; then the writes moved: the copy's
 * device onto OLD alone, the array reloaded onto OLD, the copy's device
 * removed.  When the labels cannot be written and some already name another
 * drive than OLD for member k (a switch cut short), no write is moved to
 * OLD alone: false, the array runs on as it is, through the copy.  NEW may
 * be NULL (gone, or a way back cut short).
 */
static bool retreat(void)
{
	struct dm_table tb;
	struct lblock *lb = NULL;
	size_t nlb = 0;
	char **devs, *omm, mmk[32], why[512];
	uint64_t sync, total;
	char health[3];
	struct label l;
	int fd;
	bool labelled;

	if (!arr_read(nm, &A)) {
		warn("cannot read the table of %s", nm);
		return false;
	}
	devs = devs_with(old);
	labelled = read_labels(devs) &&
		   make_labels(devs, NULL, new_gen(devs), "", "", "", "", NULL, &lb, &nlb);
	if (labelled) {
		k_first(lb, nlb);
		labelled = write_labels(lb, nlb, why, sizeof(why));
		if (!labelled)
			warn("%s", why);
	}
	if (labelled || nlb)
		free_labels(lb, nlb);
	if (!labelled) {
		if (labels_name_not_old()) {
			warn("the labels of %s cannot be made to name %s again, and some name another drive for member %u: nothing is moved onto %s alone; %s runs on through the copy ('" PROG " replace --finish %s' or '--abort' tries again)",
			     nm, old, k, old, nm, nm);
			devs_free(devs);
			return false;
		}
		warn("the labels of %s still mark the replace: assemble takes %s all the same", nm, old);
	}
	fd = new ? open(new, O_RDWR | O_CLOEXEC) : -1;
	if (new && (fd < 0 || label_erase(fd))) {
		int g = label_read(new, &l) == LABEL_OK;

		warn("cannot erase %s's label%s%s%s%s%s: the labels written before outrank it, but take %s out of this system before anything assembles %s again",
		     new, g ? " (generation " : "", g ? l.f[LK_GEN] : "",
		     g && l.f[LK_STATE] ? ", " : "", g && l.f[LK_STATE] ? l.f[LK_STATE] : "",
		     g ? ")" : "", new, nm);
		label_free(&l);
	}
	if (fd >= 0)
		close(fd);
	if (copy_status(&sync, &total, health) && !copy_to_old_now()) {
		warn("cannot put the copy's device %s on %s alone (writes to member %u of %s may wait): 'dmsetup resume %s', then '" PROG " replace --abort %s'",
		     mir, old, k, nm, mir, nm);
		devs_free(devs);
		return false;
	}
	omm = majmin_of(old);
	snprintf(mmk, sizeof(mmk), "%s", omm ? omm : "?");
	free(omm);
	arr_table(&A, k, mmk, tpl.f[LK_OFFSET], &tb);
	/* one ioctl suspends, swaps and resumes: nothing runs meanwhile */
	if (!dm_load(nm, &tb) || !dm_resume(nm, NULL)) {
		warn("cannot reload %s onto %s (%s): it runs on %s through %s, which holds %s alone; '" PROG " replace --abort %s' tries again",
		     nm, old, dm_last_error(), old, mir, old, nm);
		dm_table_free(&tb);
		devs_free(devs);
		return false;
	}
	dm_table_free(&tb);
	if (!dm_remove(mir))
		warn("cannot remove the copy's device %s (remove it: 'dmsetup remove %s')", mir, mir);
	/* the state stays behind for the monitor, which says why it stopped */
	state_done();
	devs_free(devs);
	return true;
}

/* ---- unreadable ranges ------------------------------------------------------ */
struct ranges {
	uint64_t (*r)[2];	/* first, last: member data sectors */
	size_t n;
};

static void ranges_add(struct ranges *g, uint64_t f, uint64_t l)
{
	if (g->n && g->r[g->n - 1][1] + 1 == f) {
		g->r[g->n - 1][1] = l;
		return;
	}
	g->r = realloc(g->r, (g->n + 1) * sizeof(*g->r));
	if (!g->r)
		die(EX_FAILED, "out of memory");
	g->r[g->n][0] = f;
	g->r[g->n][1] = l;
	g->n++;
}

static void *dio_buf;

/* dio_read: N sectors of FD at sector AT, direct; true when read whole */
static bool dio_read(int fd, uint64_t at, uint64_t n)
{
	ssize_t r = pread(fd, dio_buf, (size_t)(n * 512), (off_t)(at * 512));

	return r == (ssize_t)(n * 512);
}

/* bad_piece: badscan's unreadable piece, into the ranges CTX */
static void bad_piece(void *ctx, uint64_t first, uint64_t last)
{
	ranges_add(ctx, first, last);
}

/* bad_ranges: the member data sectors of OLD that cannot be read */
static void bad_ranges(struct ranges *g)
{
	uint64_t start = label_num(&tpl, LK_OFFSET), end = start + label_num(&tpl, LK_DATA), at;
	int fd = open(old, O_RDONLY | O_DIRECT | O_CLOEXEC);

	g->r = NULL;
	g->n = 0;
	if (fd < 0)
		return;
	for (at = start; at < end; at += BADSCAN_MAX)
		badscan(fd, dio_buf, at, end - at < BADSCAN_MAX ? end - at : BADSCAN_MAX, start, bad_piece, g);
	close(fd);
}

/* describe: RANGES as member data sectors, array sectors and files */
static void describe(const struct ranges *g, char **list, char **alist, char **files)
{
	size_t i, cap = 0, nar = 0;
	char *l = xstrdup(""), *a = xstrdup(""), *t;
	uint64_t c = A.chunk, (*arr_r)[2] = NULL;

	for (i = 0; i < g->n; i++) {
		t = xasprintf("%s%s%" PRIu64 "-%" PRIu64, l, i ? ", " : "", g->r[i][0], g->r[i][1]);
		free(l);
		l = t;
		{
			size_t nr = geo_array_ranges(c, A.n, k, g->r[i][0], g->r[i][1], NULL, 0), j;
			uint64_t (*ar)[2] = calloc(nr + 1, sizeof(*ar));

			if (!ar)
				die(EX_FAILED, "out of memory");
			geo_array_ranges(c, A.n, k, g->r[i][0], g->r[i][1], ar, nr);
			for (j = 0; j < nr; j++) {
				t = xasprintf("%s%s%" PRIu64 "-%" PRIu64, a, *a ? ", " : "", ar[j][0], ar[j][1]);
				free(a);
				a = t;
				if (nar == cap) {
					cap = cap ? cap * 2 : 16;
					arr_r = realloc(arr_r, cap * sizeof(*arr_r));
					if (!arr_r)
						die(EX_FAILED, "out of memory");
				}
				arr_r[nar][0] = ar[j][0];
				arr_r[nar++][1] = ar[j][1];
			}
			free(ar);
		}
	}
	*list = l;
	*alist = a;
	/* the files of an ext2/3/4 file system in them, where debugfs tells
	 * (fsfiles.c, as scrub names them) */
	if (nar) {
		char *dev = xasprintf("/dev/mapper/%s", nm);

		*files = fs_files(dev, (const uint64_t (*)[2])arr_r, nar);
		free(dev);
	} else {
		*files = xstrdup("");
	}
	free(arr_r);
}

/*
 * salvage: with the array suspended, the regions BAD marks (they lay on
 * OLD alone) from OLD to NEW: the runs between the blocks of RANGES in one
 * read each, those blocks one at a time (a block that failed at the scan
 * is not read again: a dying drive can take seconds over each).  What OLD
 * cannot give now is zeroed on NEW and added to LOST.  Inside a critical
 * section: FDs and the buffer opened and LOST sized before; false when NEW
 * cannot be written.
 */
struct salv {
	int ofd, nfd;
	uint64_t off;
	uint64_t (*lost)[2];
	size_t nlost, cap;
};

static int copy_blocks(struct salv *s, uint64_t at, uint64_t n)
{
	if (!dio_read(s->ofd, s->off + at, n))
		return 2;
	if (pwrite(s->nfd, dio_buf, (size_t)(n * 512), (off_t)((s->off + at) * 512)) != (ssize_t)(n * 512))
		return 1;
	return 0;
}

static bool lost_add(struct salv *s, uint64_t f, uint64_t l)
{
	if (s->nlost && s->lost[s->nlost - 1][1] + 1 == f) {
		s->lost[s->nlost - 1][1] = l;
		return true;
	}
	if (s->nlost == s->cap)
		return false;
	s->lost[s->nlost][0] = f;
	s->lost[s->nlost][1] = l;
	s->nlost++;
	return true;
}

static bool salvage_piece(struct salv *s, uint64_t at, uint64_t n, bool block)
{
	uint64_t x, b;
	/* a block that failed at the scan is not read again: a dying drive
	 * can take seconds over each, and the array is suspended */
	int rc = block ? 2 : copy_blocks(s, at, n);

	if (rc == 1)
		return false;
	if (!rc)
		return true;
	for (x = at; x < at + n; x += b) {
		b = at + n - x < 8 ? at + n - x : 8;
		/* a block tried once already is not read again */
		rc = block ? 2 : copy_blocks(s, x, b);
		if (rc == 1)
			return false;
		if (rc == 2) {
			memset(dio_buf, 0, (size_t)(b * 512));
			if (pwrite(s->nfd, dio_buf, (size_t)(b * 512), (off_t)((s->off + x) * 512)) !=
			    (ssize_t)(b * 512))
				return false;
			if (!lost_add(s, x, x + b - 1))
				return false;
		}
	}
	return true;
}

static bool salvage(struct salv *s, const unsigned char *bad, uint64_t nreg, const struct ranges *g)
{
	uint64_t len = label_num(&tpl, LK_DATA), r, st, e, x, f, l, y;
	size_t j;

	for (r = 0; r < nreg; r++) {
		if (!bad[r])
			continue;
		st = r * REGION;
		e = st + REGION < len ? st + REGION : len;
		x = st;
		for (j = 0; j < g->n; j++) {
			if (g->r[j][1] < st || g->r[j][0] >= e)
				continue;
			f = g->r[j][0] > x ? g->r[j][0] : x;
			l = g->r[j][1] < e - 1 ? g->r[j][1] : e - 1;
			if (f > x && !salvage_piece(s, x, f - x, false))
				return false;
			for (y = f; y <= l; y += 8)
				if (!salvage_piece(s, y, l - y + 1 < 8 ? l - y + 1 : 8, true))
					return false;
			x = l + 1;
		}
		if (x < e && !salvage_piece(s, x, e - x, false))
			return false;
	}
	return true;
}

/* ---- the switch ------------------------------------------------------------ */
struct susp {
	const char *name;
	bool ok, done;
	pthread_mutex_t m;
};

static void *suspender(void *arg)
{
	struct susp *s = arg;
	/* the bare ioctl: the main thread calls libdevmapper meanwhile */
	bool ok = crit_suspend(s->name);

	pthread_mutex_lock(&s->m);
	s->ok = ok;
	s->done = true;
	pthread_mutex_unlock(&s->m);
	return NULL;
}

static bool susp_done(struct susp *s)
{
	bool d;

	pthread_mutex_lock(&s->m);
	d = s->done;
	pthread_mutex_unlock(&s->m);
	return d;
}

/*
 * suspend_array: suspend the array.  A write a leg of the copy fails
 * meanwhile is held by the mirror, and the suspend would wait for it for
 * good: while it waits, a leg's error puts the copy's device on OLD alone
 * (the held writes go there: MOVED), and the caller then finds no mirror
 * in it.  Before the switch's first label OLD is the member by the labels
 * already; were some to name another drive (a switch cut short before,
 * NAMES_OTHER), BACK, the labels that name OLD, are written first, and
 * without them nothing is moved.
 */
static bool suspend_array(struct lblock *back, size_t nback, bool names_other,
			  const struct dm_table *oldtb, uint32_t *cookie, bool *moved)
{
	struct susp s = { .name = nm, .m = PTHREAD_MUTEX_INITIALIZER };
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	pthread_t t;
	pthread_attr_t ta;
	uint64_t sync, total;
	char health[3], why[512];
	bool tried = false;

	*moved = false;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, 256 * 1024);
	if (pthread_create(&t, &ta, suspender, &s)) {
		pthread_attr_destroy(&ta);
		return crit_suspend(nm);
	}
	pthread_attr_destroy(&ta);
	while (!susp_done(&s)) {
		if (!tried && copy_status(&sync, &total, health) && strcmp(health, "AA")) {
			tried = true;
			if (names_other && !write_labels(back, nback, why, sizeof(why)))
				crit_note("%s: the writes a drive failed stay held", why);
			else if (copy_to_old(oldtb, cookie))
				*moved = true;
			else
				crit_note("cannot put the copy's device %s on %s alone: the writes a drive failed stay held",
					  mir, old);
		}
		nanosleep(&ts, NULL);
	}
	pthread_join(t, NULL);
	return s.ok;
}

struct switch_plan {
	struct lblock *others, *mine, *back;
	size_t nothers, nmine, nback;
	struct dm_table onto_new, onto_old;
	bool names_other;
	struct salv sv;
	unsigned char *bad;
	uint64_t nreg;
	bool anybad;
	int newfd;
};

enum sw_rc {
	SW_DONE,	/* on NEW */
	SW_BACK,	/* go back to OLD: the labels name it */
	SW_STUCK,	/* on the copy, both legs alike; labels may name NEW */
	SW_SUSPENDED,	/* suspended with its table on NEW loaded; labels name NEW */
};

/*
 * switch_stuck: a label of the switch could not be written, or the table
 * not loaded, and some labels may name NEW: the labels that name OLD are
 * tried (then the caller goes back to OLD), and the array resumes on the
 * copy, whose legs are in sync: every write goes to both, so that OLD and
 * NEW stay alike whichever the labels name
 */
static enum sw_rc switch_stuck(struct switch_plan *p, uint32_t *cookie, char *why, size_t wl)
{
	char why2[512];
	bool back = write_labels(p->back, p->nback, why2, sizeof(why2)), ok;

	crit_step(true);
	ok = dm_resume(nm, cookie);
	crit_leave();
	if (!ok) {
		snprintf(why, wl, "cannot resume %s (%s): it is suspended on the copy, both drives alike; 'dmsetup resume %s' resumes it, then '" PROG " replace --finish %s'",
			 nm, dm_last_error(), nm, nm);
		return SW_SUSPENDED;
	}
	return back ? SW_BACK : SW_STUCK;
}

/*
 * back_out: before the switch's first label, the array resumed as it was
 * (on the copy, or on OLD through it when a drive failed a write) and the
 * section left: SW_BACK; SW_SUSPENDED when it cannot be resumed
 */
static enum sw_rc back_out(uint32_t *cookie, char *why, size_t wl)
{
	bool ok = dm_resume(nm, cookie);

	crit_leave();
	if (ok)
		return SW_BACK;
	snprintf(why, wl, "cannot resume %s (%s): it is suspended, its labels name %s; 'dmsetup resume %s' resumes it, then '" PROG " replace --abort %s'",
		 nm, dm_last_error(), old, nm, nm);
	return SW_SUSPENDED;
}

/*
 * the switch itself, a critical section: suspended, checked, what lay on
 * OLD alone copied, NEW flushed; the other members' labels (recording
 * NEW) then NEW's; the table onto NEW, resumed.  WHY says what failed.
 */
static enum sw_rc switch_section(struct switch_plan *p, const struct ranges *g, char *why, size_t wl,
				 uint32_t *cookie)
{
	const char *devs[] = { nm, NULL };
	uint64_t sync, total;
	char health[3];
	bool moved, suspended;

	if (!crit_enter(devs, crit_bound())) {
		snprintf(why, wl, "cannot lock memory for the switch");
		return SW_BACK;
	}
	crit_hook("suspending");
	/* 5. nothing moves: the array suspended, its writes on both legs */
	suspended = suspend_array(p->back, p->nback, p->names_other, &p->onto_old, cookie, &moved);
	if (!suspended || moved) {
		snprintf(why, wl, "cannot suspend %s to switch it%s", nm,
			 moved ? " (a drive failed a write meanwhile)" : "");
		return back_out(cookie, why, wl) == SW_BACK ? SW_BACK : SW_SUSPENDED;
	}
	crit_hook("suspended");
	if (!copy_status(&sync, &total, health) || sync != total || strcmp(health, "AA")) {
		snprintf(why, wl, "the copy was not complete after all (%" PRIu64 "/%" PRIu64 " regions, legs %s)",
			 sync, total, health);
		return back_out(cookie, why, wl);
	}
	/* what lay on OLD alone: copied now that nothing writes */
	if (p->anybad && !salvage(&p->sv, p->bad, p->nreg, g)) {
		snprintf(why, wl, "%s could not be written while copying around the unreadable ranges", new);
		return back_out(cookie, why, wl);
	}
	/* NEW's cache flushed before anything says it holds the member */
	if (fsync(p->newfd)) {
		snprintf(why, wl, "%s could not be flushed", new);
		return back_out(cookie, why, wl);
	}
	/* from the first label on, a resume (the watchdog's) could send a
	 * write where the labels do not say: none until the table is loaded */
	if (!crit_step(false)) {
		crit_leave();
		snprintf(why, wl, "the switch took longer than its bound of %u s (SSDSTRIPE_SWITCH_TIMEOUT) and the watchdog resumed %s",
			 crit_bound(), nm);
		return SW_BACK;
	}
	/* 6. the other members record NEW's drive for member k, generation
	 * G+2: from here a boot without NEW takes neither drive (OLD is
	 * superseded), a boot with NEW takes NEW (recorded), which holds
	 * everything: the array is suspended */
	if (!write_labels(p->others, p->nothers, why, wl))
		return switch_stuck(p, cookie, why, wl);
	crit_hook("relabelled");
	/* 7. NEW's own label, generation G+2, no state */
	if (!write_labels(p->mine, p->nmine, why, wl))
		return switch_stuck(p, cookie, why, wl);
	crit_hook("switch");
	/* 8. the array onto NEW: one reload */
	if (!dm_load(nm, &p->onto_new)) {
		snprintf(why, wl, "cannot load the table onto %s (%s)", new, dm_last_error());
		return switch_stuck(p, cookie, why, wl);
	}
	crit_step(true);
	if (!dm_resume(nm, cookie)) {
		crit_leave();
		snprintf(why, wl, "cannot resume %s on %s (%s): it is suspended with its table onto %s loaded, and its labels name %s; 'dmsetup resume %s' puts it on %s",
			 nm, new, dm_last_error(), new, new, nm, new);
		return SW_SUSPENDED;
	}
	crit_leave();
	return SW_DONE;
}

static struct ranges bad_scan;	/* what OLD could not give at the scan */
static int passes = 1;

static void say_lost(const struct salv *s)
{
	struct ranges g = { s->lost, s->nlost };
	char *l, *a, *f;

	if (!s->nlost)
		return;
	describe(&g, &l, &a, &f);
	say("lost (unreadable on %s, zeroed on %s): member data sectors %s; array sectors %s", old, new, l, a);
	if (*f)
		say("files in them: %s", f);
	free(l);
	free(a);
	free(f);
}

/*
 * replace_switch: the copy is complete (but for regions left on OLD by
 * --ignore-read-errors): put the array on NEW.  Everything the switch
 * writes is made first; then the critical section (switch_section).
 */
static int replace_switch(void)
{
	struct switch_plan p;
	char **devs_new, **devs_old, why[1024], *nmm, repat[24], iw[1024], hs[32];
	bool *w, *wk;
	struct ident d;
	uint32_t cookie = 0;
	enum sw_rc rc;
	uint64_t g, i;

	memset(&p, 0, sizeof(p));
	p.newfd = -1;
	if (!arr_read(nm, &A))
		die(EX_FAILED, "cannot read the table of %s", nm);
	devs_old = devs_with(old);
	devs_new = devs_with(new);
	if (!read_labels(devs_old))
		die(EX_FAILED, "cannot read the labels of %s; the copy goes on: '" PROG " replace --finish %s' tries again", nm, nm);
	/* after a cut in the switch, assemble tells NEW from OLD by the drive
	 * the labels record: a NEW that cannot be told now is not switched to */
	if (!ident_of(new, &d) || !ident_known(&d))
		die(EX_FAILED, "%s cannot be identified now (no serial number, WWN or device-mapper uuid): not switching onto it; the copy goes on ('" PROG " replace --abort %s' goes back to %s)",
		    new, nm, old);
	g = new_gen(devs_old) > gen_max + 1 ? new_gen(devs_old) : gen_max + 1;
	p.names_other = labels_name_not_old();
	if (!old_table(&p.onto_old))
		die(EX_FAILED, "%s is gone; the copy goes on", old);
	wk = pick(k, false);
	p.nreg = (label_num(&tpl, LK_DATA) + REGION - 1) / REGION;
	p.bad = copy_badregs(p.nreg, &p.anybad);
	w = pick(k, true);
	if (!make_labels(devs_new, w, g, "", "", "", "", NULL, &p.others, &p.nothers) ||
	    !make_labels(devs_new, wk, g, "", "", "", "", NULL, &p.mine, &p.nmine) ||
	    !make_labels(devs_old, NULL, g + 1, "", "", "", "", NULL, &p.back, &p.nback))
		die(EX_FAILED, "cannot make the labels of the switch; the copy goes on: '" PROG " replace --finish %s' tries again", nm);
	/* on the way back, OLD's label is the first to outrank NEW's */
	k_first(p.back, p.nback);
	free(w);
	free(wk);
	nmm = majmin_of(new);
	if (!nmm)
		die(EX_FAILED, "%s is gone; the copy goes on", new);
	arr_table(&A, k, nmm, tpl.f[LK_OFFSET], &p.onto_new);
	free(nmm);
	p.newfd = open(new, O_RDWR | O_CLOEXEC);
	if (p.newfd < 0)
		die(EX_FAILED, "cannot open %s: %s; the copy goes on", new, strerror(errno));
	if (p.anybad) {
		p.sv.ofd = open(old, O_RDONLY | O_DIRECT | O_CLOEXEC);
		p.sv.nfd = open(new, O_RDWR | O_DIRECT | O_CLOEXEC);
		p.sv.off = label_num(&tpl, LK_OFFSET);
		/* a lost range per 4 KiB block of the regions left on OLD, at most */
		for (i = 0; i < p.nreg; i++)
			p.sv.cap += p.bad[i] ? REGION / 8 : 0;
		p.sv.cap++;
		p.sv.lost = calloc(p.sv.cap, sizeof(*p.sv.lost));
		if (p.sv.ofd < 0 || p.sv.nfd < 0 || !p.sv.lost)
			die(EX_FAILED, "cannot open %s and %s to copy around the unreadable ranges; the copy goes on", old, new);
	}
	rc = switch_section(&p, &bad_scan, why, sizeof(why), &cookie);
	dm_wait_cookie(cookie);
	if (crit_got_int)
		say("an interrupt came during the switch: it ran to its end first");
	if (rc == SW_SUSPENDED)
		die(EX_FAILED, "%s", why);
	if (rc == SW_BACK) {
		warn("%s: putting %s back on %s", why, nm, old);
		if (!retreat())
			exit(EX_FAILED);
		die(EX_FAILED, "the replace of member %u of %s is stopped: %s runs on %s as before", k, nm, nm, old);
	}
	if (rc == SW_STUCK)
		die(EX_FAILED, "%s: %s runs on through the copy, both drives alike; '" PROG " replace --finish %s' switches again, '" PROG " replace --abort %s' goes back to %s",
		    why, nm, nm, nm, old);
	crit_hook("switched");
	if (!dm_remove(mir))
		warn("cannot remove the copy's device %s (remove it: 'dmsetup remove %s')", mir, mir);
	/* 9. OLD says it was replaced, and by what; like every label of the
	 * generation, it records NEW's drive for member k */
	ident_words(&d, iw, sizeof(iw));
	snprintf(repat, sizeof(repat), "%lld", (long long)time(NULL));
	wk = pick(k, false);
	if (!labels_now(devs_new, wk, g, "replaced", "", iw, repat, old))
		warn("could not mark %s replaced (assemble leaves it out all the same: an older label of a member that moved on); '" PROG " wipe %s' erases its label",
		     old, old);
	free(wk);
	state_set("state", "done");
	state_done();
	say_lost(&p.sv);
	say("member %u of %s is now %s (was %s); %s is free: '" PROG " wipe %s' erases its retired label",
	    k, nm, new, old, old, old);
	/* the array keeps overprovision % of each member spare: told to NEW */
	if (tpl.f[LK_OP]) {
		uint64_t from = label_num(&tpl, LK_OFFSET) + label_num(&tpl, LK_DATA);
		uint64_t to = blk_size(new) - LABEL_TAIL;
		int fd, e;

		if (to > from) {
			human(hs, sizeof(hs), to - from);
			if (!blk_queue(new, "discard_max_bytes")) {
				warn("%s does not support discard: its %s of spare area is left as it is (spare for the drive only if never written; '" PROG " sanitize' erases a stopped array's members first)",
				     new, hs);
			} else if ((fd = open(new, O_RDWR | O_CLOEXEC)) < 0 ||
				   (e = blk_discard(fd, from, to - from))) {
				warn("discard of %s's spare area failed (%s): it is spare for the drive only if never written",
				     new, strerror(fd < 0 ? errno : e));
				if (fd >= 0)
					close(fd);
			} else {
				close(fd);
				say("member %s: %s spare area discarded", bare(new), hs);
			}
		}
	}
	{
		char *det;

		if (p.sv.nlost) {
			struct ranges gl = { p.sv.lost, p.sv.nlost };
			char *l, *a, *f;

			describe(&gl, &l, &a, &f);
			det = xasprintf("now %s, was %s; lost (zeroed) array sectors %s", bare(new), bare(old), a);
			free(l);
			free(a);
			free(f);
		} else {
			det = xasprintf("now %s, was %s", bare(new), bare(old));
		}
		hist("replaced", det);
		free(det);
	}
	free_labels(p.others, p.nothers);
	free_labels(p.mine, p.nmine);
	free_labels(p.back, p.nback);
	dm_table_free(&p.onto_new);
	dm_table_free(&p.onto_old);
	free(p.bad);
	free(p.sv.lost);
	devs_free(devs_new);
	devs_free(devs_old);
	return EX_OK;
}

static void detach_to_log(void)
{
	char p[PATH_MAX];
	int fd;

	snprintf(p, sizeof(p), "%s/replace/%s.log", run_dir(), nm);
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	if (fd > 2)
		close(fd);
	signal(SIGHUP, SIG_IGN);
	say("the terminal went away (HUP): the copy goes on, and this log tells how it ends");
}

static int old_failed(const char *health);

/*
 * wait_copy: the copy's progress, every second, until it is complete (then
 * replace_switch) or a leg reports an error (then back to OLD).  An
 * interrupt stops the replace; a HUP (the terminal gone) leaves it to go
 * on, its output to the log.
 */
static int wait_copy(void)
{
	uint64_t sync, total, s0 = 0, done_s, all_s;
	char health[3], hd[32], ha[32], hr[32];
	time_t t0 = time(NULL);
	int tl = -1;
	bool first = true;

	crit_signals();
	for (;;) {
		unsigned int pct;
		time_t el;
		uint64_t rate = 0, eta = 0;
		bool has_rate = false;

		if (crit_got_hup) {
			crit_got_hup = 0;
			detach_to_log();
		}
		if (crit_got_int) {
			say("%s", "");
			warn("interrupted: stopping the replace");
			if (!retreat())
				exit(EX_FAILED);
			say("the replace of member %u of %s is stopped: the array runs on %s as before; %s was given nothing to keep",
			    k, nm, old, new);
			exit(130);
		}
		if (!copy_status(&sync, &total, health))
			die(EX_FAILED, "cannot read the copy's status (%s)", mir);
		if (strcmp(health, "AA")) {
			if (health[1] == 'A')
				return old_failed(health);
			state_set("state", "failed");
			state_set("why", "%s failed during the copy", new);
			warn("%s failed during the copy (mirror legs %s): putting %s back on %s", new, health, nm, old);
			if (!retreat())
				exit(EX_FAILED);
			warn("the replace of member %u of %s is stopped: %s runs on %s as before, every write on it; %s was given nothing to keep.  Check %s ('" PROG " smart %s'), or replace onto another drive",
			     k, nm, nm, old, new, new, new);
			exit(EX_FAILED);
		}
		if (first) {
			s0 = sync;
			first = false;
		}
		done_s = sync * REGION;
		all_s = total * REGION;
		pct = (unsigned int)(sync * 100 / total);
		el = time(NULL) - t0;
		if (el > 0 && sync > s0) {
			rate = (sync - s0) * REGION * 512 / (uint64_t)el;
			eta = (total - sync) * (uint64_t)el / (sync - s0);
			has_rate = true;
		}
		state_set("percent", "%u", pct);
		if (has_rate) {
			state_set("rate", "%" PRIu64, rate);
			state_set("eta", "%" PRIu64, eta);
		}
		if (tl != (int)pct) {
			human(hd, sizeof(hd), done_s);
			human(ha, sizeof(ha), all_s);
			if (has_rate) {
				human(hr, sizeof(hr), rate / 512);
				say("replace %s member %u: %u%% (%s of %s, %s/s, %" PRIu64 "s left)", nm, k, pct, hd, ha, hr, eta);
			} else {
				say("replace %s member %u: %u%% (%s of %s)", nm, k, pct, hd, ha);
			}
			fflush(stdout);
			tl = (int)pct;
		}
		/* the rig's mid-copy look: the mirror stacked, the labels
		 * marking the replace, the writes going to both */
		crit_hook("copying");
		if (sync == total)
			break;
		sleep(1);
	}
	return replace_switch();
}

static void begin(const unsigned char *bad);

/*
 * old_failed: OLD, the copy's source, reported an error: the array back
 * on OLD (where every acknowledged write is); then, for read errors, the
 * ranges OLD cannot give, and either stop there (the default) or copy
 * around them (--ignore-read-errors)
 */
static int old_failed(const char *health)
{
	char *l, *a, *f;
	unsigned char *bad;
	uint64_t nreg, x;
	size_t i, runs = 0;
	bool prev = false;

	if (health[0] == 'D') {
		state_set("state", "failed");
		state_set("why", "%s failed a write", old);
		warn("%s failed a write during the copy: putting %s back on %s alone", old, nm, old);
		if (!retreat())
			exit(EX_FAILED);
		warn("the replace of member %u of %s is stopped: %s runs on %s alone, where that write failed as it would have without the replace (what wrote it was told so).  A drive that fails writes cannot be copied from while in use: back up what %s holds now",
		     k, nm, nm, old, nm);
		exit(EX_FAILED);
	}
	say("replace %s member %u: %s returned read errors (mirror legs %s); putting %s back on %s to find the ranges it cannot give",
	    nm, k, old, health, nm, old);
	state_set("state", "read errors");
	state_set("why", "%s returned read errors during the copy", old);
	if (!retreat())
		exit(EX_FAILED);
	say("replace %s member %u: reading %s for the ranges it cannot give", nm, k, old);
	free(bad_scan.r);
	bad_ranges(&bad_scan);
	describe(&bad_scan, &l, &a, &f);
	if (!ignore_errs) {
		warn("replace of member %u of %s stopped: %s cannot be read at member data sectors %s (array sectors %s)",
		     k, nm, old, *l ? l : "(none found now: a passing error?)", *a ? a : "?");
		if (*f)
			warn("files there: %s", f);
		warn("nothing was switched: %s runs on %s as before, and %s was given nothing.  Back up what lies there now; '" PROG " replace --ignore-read-errors %s %s %s' copies the rest and lists what is lost",
		     nm, old, new, nm, old, new);
		return EX_FAILED;
	}
	if (++passes > 3)
		die(EX_FAILED, "%s gave new read errors on every pass (now at member data sectors %s): replace stopped, %s runs on %s; back up what it holds",
		    old, *l ? l : "?", nm, old);
	nreg = (label_num(&tpl, LK_DATA) + REGION - 1) / REGION;
	bad = calloc(nreg + 1, 1);
	if (!bad)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < bad_scan.n; i++)
		for (x = bad_scan.r[i][0] / REGION; x <= bad_scan.r[i][1] / REGION && x < nreg; x++)
			bad[x] = 1;
	for (x = 0; x < nreg; x++) {
		if (bad[x] && !prev)
			runs++;
		prev = bad[x];
	}
	if (runs > MAX_BAD_RUNS)
		die(EX_FAILED, "%s cannot be read in %zu places (member data sectors %s): too many to copy around online; %s runs on %s; back up what it holds",
		    old, runs, l, nm, old);
	say("copying around what %s cannot give (member data sectors %s): those regions stay on %s alone until the switch, and what still cannot be read then is listed as lost",
	    old, *l ? l : "none now", old);
	free(l);
	free(a);
	free(f);
	if (!arr_read(nm, &A))
		die(EX_FAILED, "cannot read the table of %s", nm);
	/* still this copy's watcher (the way back removed the pid file), and
	 * the labels as the way back left them: the next generation above */
	pid_write(getpid());
	{
		char **devs = devs_with(old);

		if (!read_labels(devs))
			die(EX_FAILED, "cannot read the labels of %s; it runs on %s", nm, old);
		devs_free(devs);
	}
	begin(bad);
	free(bad);
	return wait_copy();
}

/*
 * stack: the copy made live only with the array suspended (its writes to
 * OLD done), and the array onto it, resumed: a critical section.  Were
 * the mirror live while the array still wrote to OLD directly, a write to
 * a region already copied would be on OLD alone with the region counted
 * in sync.  False (the array runs on OLD as before) saying why in WHY.
 */
static bool stack(const struct dm_table *onto, char *why, size_t wl)
{
	const char *devs[] = { nm, mir, NULL };
	uint32_t cookie = 0;
	bool ok = false;

	if (!crit_enter(devs, crit_bound())) {
		snprintf(why, wl, "cannot lock memory");
		return false;
	}
	if (!dm_suspend(nm, false)) {
		snprintf(why, wl, "cannot suspend %s: %s", nm, dm_last_error());
		goto out;
	}
	/* no resume of the array between the copy going live and the array
	 * being loaded onto it */
	if (!crit_step(false)) {
		snprintf(why, wl, "the suspended time passed its bound");
		goto out;
	}
	if (!dm_resume(mir, &cookie)) {
		snprintf(why, wl, "cannot start the copy %s: %s", mir, dm_last_error());
		crit_step(true);
		dm_resume(nm, &cookie);
		goto out;
	}
	crit_hook("stacking");
	if (!dm_load(nm, onto)) {
		snprintf(why, wl, "cannot load the new table of %s: %s", nm, dm_last_error());
		crit_step(true);
		dm_resume(nm, &cookie);
		goto out;
	}
	crit_step(true);
	if (!dm_resume(nm, &cookie)) {
		snprintf(why, wl, "cannot resume %s with its new table (%s): it is suspended; 'dmsetup resume %s' tries again",
			 nm, dm_last_error(), nm);
		goto out;
	}
	ok = true;
out:
	crit_leave();
	dm_wait_cookie(cookie);
	return ok;
}

/*
 * begin: the copy set up and the array put on it: BAD marks regions OLD
 * could not be read in, left on OLD alone (a second pass of
 * --ignore-read-errors); NULL for the first
 */
static void begin(const unsigned char *bad)
{
	struct dm_table ct, onto;
	char *omm = majmin_of(old), *nmm = majmin_of(new), *mu, *mirmm, **devs, why[512], hs[32];
	bool *wk, ok;
	uint64_t gen, sz;
	int fd;

	if (!omm || !nmm)
		die(EX_FAILED, "%s or %s is gone; the array is unchanged", old, new);
	free(mir);
	mir = xasprintf("%s-replace", nm);
	/* 0. the copy's device loaded, not live: device-mapper claims OLD and
	 * NEW now, so nothing mounts, swaps on or assembles NEW from here on
	 * (and a NEW claimed since the checks is refused) */
	{
		struct dm_dev_info i;

		if (dm_info_of(mir, &i))
			die(EX_REFUSED, "a device-mapper device called %s exists already; nothing else was changed", mir);
	}
	mu = mirror_uuid();
	if (!dm_create_empty(mir, mu))
		die(EX_FAILED, "cannot set up the copy (%s); the array is unchanged", dm_last_error());
	free(mu);
	copy_table(omm, nmm, bad, &ct);
	if (!dm_load(mir, &ct)) {
		dm_remove(mir);
		die(EX_REFUSED, "cannot take %s for the copy (%s: is it in use now?); the array is unchanged, nothing was written",
		    new, dm_last_error());
	}
	dm_table_free(&ct);
	if (crit_got_int) {
		dm_remove(mir);
		die(130, "interrupted: nothing was written");
	}
	/* 1. NEW claims the member, as an unfinished copy; 2. every member
	 * says a replace of member k is under way (generation G+1); an
	 * interrupt from here is acted on by the copy's wait, which goes
	 * back to OLD */
	gen = gen_max + 1;
	devs = devs_with(old);
	if (!bad) {
		sz = blk_size(new);
		fd = open(new, O_RDWR | O_CLOEXEC);
		if (fd < 0 || blk_zero(fd, 0, LABEL_DATA_OFFSET) || sz < LABEL_TAIL ||
		    blk_zero(fd, sz - LABEL_TAIL, LABEL_TAIL)) {
			if (fd >= 0)
				close(fd);
			dm_remove(mir);
			die(EX_FAILED, "cannot write to %s; the array is unchanged", new);
		}
		/* the kernel forgets partitions whose table is gone */
		blk_drop_partitions(fd);
		close(fd);
	}
	wk = pick(k, false);
	{
		char ks[16];

		snprintf(ks, sizeof(ks), "%u", k);
		ok = labels_now(devs, wk, gen, "copying", ks, "", "", new);
		if (!ok) {
			dm_remove(mir);
			die(EX_FAILED, "the array is unchanged; '" PROG " wipe %s' erases what was written to it", new);
		}
		ok = labels_now(devs, NULL, gen, "", ks, "", "", NULL);
	}
	free(wk);
	if (!ok) {
		dm_remove(mir);
		die(EX_FAILED, "the array is unchanged; '" PROG " replace %s %s %s' tries again", nm, old, new);
	}
	crit_hook("labelled");
	mirmm = dm_majmin(mir);
	if (!mirmm) {
		dm_remove(mir);
		die(EX_FAILED, "cannot read the copy's device %s", mir);
	}
	arr_table(&A, k, mirmm, "0", &onto);
	if (!stack(&onto, why, sizeof(why))) {
		warn("%s", why);
		dm_remove(mir);
		die(EX_FAILED, "the array stays on %s; '" PROG " replace %s %s %s' tries again", old, nm, old, new);
	}
	dm_table_free(&onto);
	free(mirmm);
	dm_mknode(mir);
	state_set("member", "%u", k);
	state_set("from", "%s", old);
	state_set("to", "%s", new);
	state_set("state", "copying");
	state_set("started", "%lld", (long long)time(NULL));
	state_set("percent", "0");
	say("replacing member %u of %s: copying %s onto %s (%s)", k, nm, old, new,
	    human(hs, sizeof(hs), label_num(&tpl, LK_DATA)));
	{
		char *d = xasprintf("copying %s onto %s", bare(old), bare(new));

		hist("replace-started", d);
		free(d);
	}
	devs_free(devs);
	free(omm);
	free(nmm);
}

struct rp_args {
	bool bg, force, ignore;
	enum { START, FINISH, ABORT } mode;
	struct operands ops;
};

static void rp_opt(void *ctx, const char *name, const char *value)
{
	struct rp_args *a = ctx;

	if (!name)
		operands_add(&a->ops, value);
	else if (!strcmp(name, "--background"))
		a->bg = true;
	else if (!strcmp(name, "--force"))
		a->force = true;
	else if (!strcmp(name, "--ignore-read-errors"))
		a->ignore = true;
	else if (!strcmp(name, "--finish"))
		a->mode = FINISH;
	else if (!strcmp(name, "--abort"))
		a->mode = ABORT;
}

/* find_array: nm and uuid of active array NAME (exit 4 when it is none) */
static void find_array(const char *name)
{
	struct dm_dev_info i;

	nm = xstrdup(name);
	if (!dm_is_array(nm) || !dm_info_of(nm, &i))
		die(EX_NOTFOUND, "%s is not an active ssdstripe array", nm);
	uuid = xstrdup(strncmp(i.uuid, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)) ? "" :
		       i.uuid + strlen(DM_UUID_PREFIX));
}

static char *members_list(void)
{
	char *s = xstrdup(""), *t, *d;
	unsigned int i;

	for (i = 0; i < A.n; i++) {
		d = dev_of_majmin(A.mm[i]);
		t = xasprintf("%s%s ", s, d ? d : A.mm[i]);
		free(s);
		free(d);
		s = t;
	}
	return s;
}

static int refuse_rc;

static void refusal(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refusal(int rc, const char *fmt, ...)
{
	va_list ap;
	char m[2048];

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	warn("%s", m);
	if (rc > refuse_rc)
		refuse_rc = rc;
}

/* replace_start: every check, then the copy (begin), then its wait */
static int replace_start(const struct rp_args *a)
{
	char *omm, *nmm, **devs, why[1024], *forced = xstrdup(""), *t, hs[32], hn[32], *m;
	char ids[2][300], ids2[2][300];
	struct ident io, in;
	struct label l;
	unsigned int i, ma, mi;
	uint64_t need, sz, lbs_new, lbs_old, pbs;
	size_t ni, nj, x, y;
	bool restart = false;
	int hold;

	memset(&l, 0, sizeof(l));
	find_array(a->ops.v[0]);
	if (!*uuid)
		die(EX_REFUSED, "%s was not made by '" PROG " create' (no array uuid, no labels): replace needs its labels", nm);
	mir = mirror_of();
	if (mir)
		die(EX_REFUSED, "a replace of a member of %s is in progress ('" PROG " status %s'; '" PROG " replace --finish %s' or '--abort')",
		    nm, nm, nm);
	if (!arr_read(nm, &A))
		die(EX_FAILED, "cannot read the table of %s", nm);
	old = dev_canon(a->ops.v[1]);
	if (!old)
		die(EX_NOTFOUND, "%s: not a block device", a->ops.v[1]);
	new = dev_canon(a->ops.v[2]);
	if (!new)
		die(EX_NOTFOUND, "%s: not a block device", a->ops.v[2]);
	omm = majmin_of(old);
	nmm = majmin_of(new);
	if (!omm || !nmm)
		die(EX_NOTFOUND, "%s: not a block device", omm ? new : old);
	for (k = 0; k < A.n && strcmp(A.mm[k], omm); k++)
		;
	if (k == A.n) {
		m = members_list();
		die(EX_REFUSED, "%s is not a member of %s (members: %s)", old, nm, m);
	}
	devs = devs_with(old);
	if (!read_labels(devs))
		die(EX_REFUSED, "replace refused; nothing was written");
	if (strcmp(A.off[k], tpl.f[LK_OFFSET]))
		die(EX_REFUSED, "member %u's offset in the table (%s) is not its label's (%s)", k, A.off[k], tpl.f[LK_OFFSET]);

	/* NEW, checked as create checks a member */
	for (i = 0; i < A.n; i++)
		if (!strcmp(A.mm[i], nmm))
			refusal(EX_REFUSED, "%s is a member of %s already", new, nm);
	for (i = 0; i < A.n && !refuse_rc; i++) {
		sscanf(A.mm[i], "%u:%u", &ma, &mi);
		if (i != k && blk_built_on(new, ma, mi))
			refusal(EX_REFUSED, "%s is built on member %u of %s (%s); refusing to replace onto it", new, i, nm, devs[i]);
	}
	{
		struct dm_dev_info ai;

		if (dm_info_of(nm, &ai) && blk_built_on(new, ai.major, ai.minor))
			refusal(EX_REFUSED, "%s is %s itself or a device built on it; refusing to replace onto it", new, nm);
	}
	/* after a power cut in the switch, assemble tells OLD from NEW by the
	 * drive the newest labels record: NEW must be identifiable */
	if (!ident_of(old, &io))
		ident_none(&io);
	if (!ident_of(new, &in))
		ident_none(&in);
	if (!ident_known(&in))
		refusal(EX_REFUSED, "%s has no serial number, WWN or device-mapper uuid: after a power cut in the switch, assemble could not tell it from %s by the drive the labels record; replace onto a drive that has one",
			new, old);
	if (in_use(new, why, sizeof(why)))
		refusal(EX_REFUSED, "%s is in use (%s); refusing to replace onto it", new, why);
	/* held from here to the copy's claim: nobody takes NEW meanwhile */
	hold = open(new, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (hold < 0 && errno == EBUSY)
		refusal(EX_REFUSED, "%s is held open by another program (a virtual machine, a mount, a device-mapper or md device); refusing to replace onto it",
			new);
	else if (hold < 0)
		refusal(EX_FAILED, "cannot open %s: %s", new, strerror(errno));
	if (hold >= 0 && label_read_fd(hold, &l) == LABEL_OK && !strcmp(l.f[LK_UUID], uuid) &&
	    label_num(&l, LK_INDEX) == k && l.f[LK_STATE] && !strcmp(l.f[LK_STATE], "copying")) {
		/* the copy of an interrupted replace of this very member: again */
		restart = true;
	} else if (hold >= 0) {
		char sig[1024];
		struct label l2;
		bool has = false;

		if (label_read_fd(hold, &l2) == LABEL_OK) {
			snprintf(sig, sizeof(sig), "an ssdstripe label (member %s of array %s)", l2.f[LK_INDEX], l2.f[LK_NAME]);
			has = true;
		} else if (foreign_signature(new, sig, sizeof(sig))) {
			has = true;
		}
		label_free(&l2);
		if (has && a->force) {
			t = xasprintf("%s%s carries %s: overwriting (--force)\n", forced, new, sig);
			free(forced);
			forced = t;
		} else if (has) {
			refusal(EX_REFUSED, "%s carries %s; refusing to replace onto it (--force overwrites it)", new, sig);
		}
	}
	label_free(&l);
	need = label_num(&tpl, LK_OFFSET) + label_num(&tpl, LK_DATA) + LABEL_TAIL;
	sz = blk_size(new);
	if (sz < need) {
		char h1[32], h2[32];

		refusal(EX_REFUSED, "%s holds %s; member %u of %s needs %s (data at %s, %s of it, and the tail)",
			new, human(hs, sizeof(hs), sz), k, nm, human(hn, sizeof(hn), need),
			human(h1, sizeof(h1), label_num(&tpl, LK_OFFSET)), human(h2, sizeof(h2), label_num(&tpl, LK_DATA)));
	}
	/* the array keeps overprovision % of each member spare: a smaller NEW keeps less */
	if (tpl.f[LK_OP] && sz >= need) {
		uint64_t sp = sz - need, want = (sz - label_num(&tpl, LK_OFFSET) - LABEL_TAIL) / 100 * label_num(&tpl, LK_OP);

		if (sp + A.chunk < want) {
			t = xasprintf("%s%s keeps %s spare past its data, less than the %s %% of it that %s keeps on each member (%s): its write speed may drop sooner once full\n",
				      forced, new, human(hs, sizeof(hs), sp), tpl.f[LK_OP], nm, human(hn, sizeof(hn), want));
			free(forced);
			forced = t;
		}
	}
	lbs_new = blk_queue(new, "logical_block_size") / 512;
	lbs_old = blk_queue(old, "logical_block_size") / 512;
	if (lbs_new > lbs_old)
		refusal(EX_REFUSED, "%s has logical blocks of %" PRIu64 " bytes, larger than %s's %" PRIu64 ": the array's users may write smaller ones",
			new, lbs_new * 512, old, lbs_old * 512);
	/* a chunk boundary inside a physical block: every write across it is
	 * a read-modify-write in the drive (create refuses it too) */
	pbs = blk_queue(new, "physical_block_size") / 512;
	if (pbs && A.chunk % pbs && !(A.chunk % 8 && pbs <= 8)) {
		human(hs, sizeof(hs), A.chunk);
		if (a->force) {
			t = xasprintf("%sa chunk of %s is not a multiple of %s's physical block size (%" PRIu64 " bytes): the drive reads and rewrites a block at every chunk boundary (--force)\n",
				      forced, hs, new, pbs * 512);
			free(forced);
			forced = t;
		} else {
			refusal(EX_REFUSED, "a chunk of %s is not a multiple of %s's physical block size (%" PRIu64 " bytes): the drive reads and rewrites a block at every chunk boundary; refusing to replace onto it (--force accepts it)",
				hs, new, pbs * 512);
		}
	}
	ni = blk_drive_ids(new, ids);
	for (x = 0; x < ni; x++) {
		for (i = 0; i < A.n; i++) {
			if (i == k)
				continue;
			nj = blk_drive_ids(devs[i], ids2);
			for (y = 0; y < nj; y++) {
				char *c;

				if (strcmp(ids[x], ids2[y]))
					continue;
				c = strchr(ids[x], ':');
				snprintf(why, sizeof(why), "%s and member %s are on one physical drive (%.*s %s): striping them gains no speed",
					 new, devs[i], (int)(c - ids[x]), ids[x], c + 1);
				if (a->force) {
					t = xasprintf("%s%s (--force)\n", forced, why);
					free(forced);
					forced = t;
				} else {
					refusal(EX_REFUSED, "%s; refusing (--force accepts it)", why);
				}
			}
		}
	}
	if (refuse_rc)
		die(refuse_rc, "replace refused; nothing was written");
	for (t = strtok(forced, "\n"); t; t = strtok(NULL, "\n"))
		warn("%s", t);
	t = dm_load_target("mirror", "dm-mirror");
	if (t)
		die(EX_FAILED, "the kernel's mirror target is not available (modprobe dm-mirror), which replace copies with; nothing was written");
	if (restart)
		say("%s holds an interrupted copy of member %u: starting the copy over", new, k);
	ignore_errs = a->ignore;
	if (!restart && a->force)
		label_wipe_partitions(new);
	if (!a->bg)
		claim_copy(false);
	/* the copy has its watcher from the moment it is stacked: this
	 * process, then the one it starts (the monitor takes over a copy
	 * that has none) */
	pid_write(getpid());
	if (crit_got_int)
		die(130, "interrupted: nothing was written");
	/* let go of NEW only to have device-mapper claim it (begin) */
	close(hold);
	begin(NULL);
	devs_free(devs);
	free(omm);
	free(nmm);
	free(forced);
	if (a->bg) {
		char p[PATH_MAX], *self = realpath("/proc/self/exe", NULL), c;
		pid_t pid;
		int go[2];

		snprintf(p, sizeof(p), "%s/replace/%s.log", run_dir(), nm);
		fflush(stdout);
		fflush(stderr);
		if (pipe(go))
			die(EX_FAILED, "cannot start the process that waits for the copy: %s; '" PROG " replace --finish %s' waits for it",
			    strerror(errno), nm);
		pid = fork();
		if (pid < 0)
			die(EX_FAILED, "cannot start the process that waits for the copy: %s; '" PROG " replace --finish %s' waits for it",
			    strerror(errno), nm);
		if (!pid) {
			int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), nfd = open("/dev/null", O_RDONLY);
			char *argv[] = { (char *)PROG, "replace", "--finish",
					 a->ignore ? "--ignore-read-errors" : NULL, NULL, NULL };

			argv[a->ignore ? 4 : 3] = nm;
			/* on once the pid file names this process */
			close(go[1]);
			while (read(go[0], &c, 1) < 0 && errno == EINTR)
				;
			setsid();
			dup2(nfd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			execv(self ? self : "/proc/self/exe", argv);
			_exit(127);
		}
		pid_write(pid);
		close(go[1]);
		close(go[0]);
		free(self);
		say("the copy goes on in the background ('" PROG " status %s' shows it; its log: %s)", nm, p);
		return EX_OK;
	}
	say("Ctrl-C stops the replace and leaves %s on %s ('--background' leaves the copy to a process of its own)", nm, old);
	return wait_copy();
}

/* mirror_member: k, the index the copy's device holds in the array; false
 * when it is not under it */
static bool mirror_member(void)
{
	char *mm = dm_majmin(mir);
	bool found = false;

	for (k = 0; mm && k < A.n && !found; k++)
		found = !strcmp(A.mm[k], mm);
	if (found)
		k--;
	free(mm);
	return found;
}

/*
 * finish_label: no copy runs, and a member's label says "copying" while
 * the newer labels of the others record its drive: a switch cut after it
 * wrote the others' labels and before the member's own (assemble took the
 * member so).  Its label is written as the switch would have; false when
 * there is none such.
 */
static bool finish_label(void)
{
	char **devs;
	struct label l, o;
	struct ident rec;
	unsigned int i, j;
	uint64_t g = 0;
	bool done = false, ok;

	if (!arr_read(nm, &A))
		return false;
	devs = devs_with("");
	for (i = 0; i < A.n; i++) {
		free(devs[i]);
		devs[i] = dev_of_majmin(A.mm[i]);
		if (!devs[i])
			devs[i] = xstrdup("");
	}
	for (i = 0; i < A.n && !done; i++) {
		if (label_read(devs[i], &l) != LABEL_OK || !l.f[LK_STATE] || strcmp(l.f[LK_STATE], "copying")) {
			label_free(&l);
			continue;
		}
		ok = false;
		for (j = 0; j < A.n; j++) {
			if (j == i || label_read(devs[j], &o) != LABEL_OK) {
				if (j != i)
					label_free(&o);
				continue;
			}
			if (label_drive(&o, i)) {
				ident_parse(label_drive(&o, i), &rec);
				if (ident_switched_copy(devs[i], label_num(&l, LK_GEN), label_num(&o, LK_GEN),
							o.f[LK_REPLACING] != NULL, &rec)) {
					ok = true;
					if (label_num(&o, LK_GEN) > g)
						g = label_num(&o, LK_GEN);
				}
			}
			label_free(&o);
		}
		if (ok) {
			bool *w;

			k = i;
			new = xstrdup(devs[i]);
			if (!read_labels(devs))
				die(EX_FAILED, "cannot read the labels of %s", nm);
			w = pick(i, false);
			if (!labels_now(devs, w, g, "", "", "", "", NULL))
				die(EX_FAILED, "cannot write %s's label", devs[i]);
			free(w);
			say("member %u of %s: %s's label now says it holds the member (a switch onto it was cut short after the other members recorded it)",
			    i, nm, devs[i]);
			done = true;
		}
		label_free(&l);
	}
	devs_free(devs);
	return done;
}

/* legs: OLD and NEW (NEW NULL when gone, or the copy holds OLD alone) of
 * the copy, from its table; false when it holds neither */
static bool legs(void)
{
	char *omm, *nmm;

	if (!copy_legs(&omm, &nmm))
		return false;
	old = dev_of_majmin(omm);
	new = nmm ? dev_of_majmin(nmm) : NULL;
	if (nmm && !new)
		warn("the new drive of the copy, %s, is gone", nmm);
	free(omm);
	free(nmm);
	return old != NULL;
}

static int replace_finish(const char *name)
{
	char **devs;
	pid_t w;

	find_array(name);
	mir = mirror_of();
	if (!mir) {
		if (*uuid && finish_label())
			return EX_OK;
		die(EX_NOTFOUND, "no replace of a member of %s is in progress", nm);
	}
	w = watcher();
	if (w && w != getpid())
		die(EX_REFUSED, "process %ld waits for this copy already ('" PROG " status %s')", (long)w, nm);
	/* the copy is this process's from here: what it is, read after */
	claim_copy(false);
	pid_write(getpid());
	free(mir);
	mir = mirror_of();
	if (!mir)
		die(EX_NOTFOUND, "no replace of a member of %s is in progress (it ended meanwhile)", nm);
	if (!arr_read(nm, &A))
		die(EX_FAILED, "cannot read the replace of %s", nm);
	if (!mirror_member() || !legs())
		die(EX_FAILED, "the copy's device %s holds no copy under %s (a replace being set up or taken down): nothing to finish; '" PROG " replace --abort %s' clears it",
		    mir, nm, nm);
	if (!new)
		die(EX_FAILED, "the copy's device %s holds %s alone (a way back cut short) or its new drive is gone: nothing to finish; '" PROG " replace --abort %s' puts %s on %s",
		    mir, old, nm, nm, old);
	state_load();
	devs = devs_with(old);
	if (!read_labels(devs))
		die(EX_FAILED, "cannot read the labels of %s", nm);
	devs_free(devs);
	return wait_copy();
}

static int replace_abort(const char *name)
{
	char *m;
	pid_t w;
	int i;

	find_array(name);
	mir = mirror_of();
	if (!mir)
		die(EX_NOTFOUND, "no replace of a member of %s is in progress (nothing to abort)", nm);
	w = watcher();
	if (w && w != getpid()) {
		/* it stops the replace itself (it goes back on TERM), or ends
		 * the switch it has begun first */
		kill(w, SIGTERM);
		for (i = 0; !kill(w, 0); i++) {
			if (i > 600)
				die(EX_FAILED, "process %ld, which waits for the copy, did not stop in 60 s; nothing was changed", (long)w);
			usleep(100000);
		}
	}
	/* no other process drives the copy from here (one that holds it
	 * without a pid file, or the monitor's takeover, is waited for) */
	claim_copy(true);
	pid_write(getpid());
	free(mir);
	mir = mirror_of();
	if (!mir) {
		arr_read(nm, &A);
		m = members_list();
		say("the replace of %s has ended (the process that waited for it stopped it, or had switched the array): its members are %s",
		    nm, m);
		free(m);
		return EX_OK;
	}
	state_load();
	if (!arr_read(nm, &A))
		die(EX_FAILED, "cannot read the replace of %s", nm);
	if (!mirror_member()) {
		/* set up or taken down half-way: not under the array, it holds
		 * nothing of it */
		if (!dm_remove(mir))
			die(EX_FAILED, "cannot remove the copy's device %s", mir);
		state_done();
		say("removed the copy's device %s, which held nothing of %s; a new drive given to it keeps a label marking an unfinished copy: '" PROG " wipe' it",
		    mir, nm);
		return EX_OK;
	}
	if (!legs())
		die(EX_FAILED, "the copy's device %s is under %s but names no drive that is here: 'dmsetup table %s' shows what it holds",
		    mir, nm, mir);
	if (label_read(old, &tpl) != LABEL_OK)
		die(EX_FAILED, "cannot read %s's label", old);
	if (!retreat())
		return EX_FAILED;
	say("replace of member %u of %s stopped: the array runs on %s as before%s%s%s", k, nm, old,
	    new ? "; " : "", new ? new : "", new ? " was given nothing to keep" : "");
	m = xasprintf("back on %s%s%s%s", bare(old), new ? "; " : "", new ? bare(new) : "", new ? " given nothing" : "");
	hist("replace-stopped", m);
	free(m);
	return EX_OK;
}

int cmd_replace(int argc, char **argv)
{
	struct rp_args a = { 0 };

	opts_parse(argc, argv, "--background --force|-f --ignore-read-errors --finish --abort",
		   rp_opt, &a, help_of);
	crit_signals();
	/* a reader of the output gone ('| tee' killed) does not stop a
	 * replace half-way: the write fails, the replace goes on */
	signal(SIGPIPE, SIG_IGN);
	crit_hooks();
	dio_buf = aligned_alloc(4096, BADSCAN_MAX * 512);
	if (!dio_buf)
		die(EX_FAILED, "out of memory");
	ignore_errs = a.ignore;
	switch (a.mode) {
	case START:
		if (a.ops.n != 3)
			usage_die("replace needs NAME OLD NEW");
		return replace_start(&a);
	case FINISH:
		if (a.ops.n != 1)
			usage_die("replace --finish needs the array's NAME");
		return replace_finish(a.ops.v[0]);
	case ABORT:
		if (a.ops.n != 1)
			usage_die("replace --abort needs the array's NAME");
		return replace_abort(a.ops.v[0]);
	}
	return EX_FAILED;
}
