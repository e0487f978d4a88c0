// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe scrub: a read-only surface scan of every member's data
 * region, at a rate that leaves the array usable, as md's "check" and
 * ZFS's scrub; a RAID-0 has no copy to repair from, so a scrub finds
 * latent unreadable sectors before a file system (or a replace) does,
 * and names them.
 *
 * The scan's state is $SSDSTRIPE_RUNDIR/scrub/NAME.state (KEY=VALUE
 * lines: pid, state, pct, eta, bad, rate, end; written whole and renamed
 * into place), which status and detail read (inprog.c); the ranges found
 * go to NAME.bad, one line each: MEMBER DEVICE FIRST-LAST ARRAY-RANGES;
 * a scrub in the background writes its messages to NAME.log.
 * Exit: 0 every member read (or started, with --background; or
 * stopped), 1 unreadable sectors found or the scan failed, 2 usage,
 * 3 refused, 4 no such array; 130 a scan stopped by INT or TERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "badscan.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "fsfiles.h"
#include "histlog.h"
#include "inprog.h"
#include "opts.h"
#include "out.h"
#include "table.h"

#define SCRUB_RATE "64"		/* MB/s, the default --rate */
#define SCRUB_STEP 2048		/* sectors read at a time (1 MiB) */
#define SCRUB_SAY 131072	/* sectors between two progress lines (64 MiB) */

struct scrub_args {
	const char *rate;	/* MB/s, as given */
	bool bg, stop, all;
	struct operands names;
};

static char *run;		/* $SSDSTRIPE_RUNDIR/scrub */

static void scrub_opt(void *ctx, const char *name, const char *value)
{
	struct scrub_args *a = ctx;

	if (!name) {
		operands_add(&a->names, value);
	} else if (!strcmp(name, "--rate")) {
		if (!*value || value[0] == '0' || strspn(value, "0123456789") != strlen(value))
			usage_die("--rate is a whole number of MB/s, 1 or more, not '%s'", value);
		a->rate = value;
	} else if (!strcmp(name, "--background")) {
		a->bg = true;
	} else if (!strcmp(name, "--stop")) {
		a->stop = true;
	} else if (!strcmp(name, "--all")) {
		a->all = true;
	}
}

/* mkdir_p: DIR and its parents */
static bool mkdir_p(const char *dir)
{
	char *p = xstrdup(dir);
	size_t i, n = strlen(p);
	bool ok = true;

	for (i = 1; i <= n && ok; i++) {
		if (p[i] != '/' && p[i])
			continue;
		p[i] = 0;
		if (mkdir(p, 0777) && errno != EEXIST)
			ok = false;
		p[i] = dir[i];
	}
	free(p);
	return ok && is_dir(dir, ".");
}

static const char *plural_ranges(uint64_t n, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64 " unreadable range%s", n, n == 1 ? "" : "s");
	return buf;
}

/* a positive pid, or 0 */
static pid_t pid_of(const char *s)
{
	long v;
	char *e;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return 0;
	errno = 0;
	v = strtol(s, &e, 10);
	return errno || v <= 0 || v > INT_MAX ? 0 : (pid_t)v;
}

/* ---- --stop ---------------------------------------------------------------- */
static int scrub_stop(const struct scrub_args *a)
{
	size_t i;

	if (a->all || a->bg)
		usage_die("--stop goes with array names alone");
	if (!a->names.n)
		usage_die("--stop needs an array name");
	for (i = 0; i < a->names.n; i++) {
		const char *nm = a->names.v[i];
		char st[32], pct[24], pid[24];
		pid_t p;
		int w;

		if (!scrub_now_of(nm, st, pct, pid) || strcmp(st, "running")) {
			warn("no scrub of %s runs", nm);
			continue;
		}
		p = pid_of(pid);
		if (p) {
			kill(p, SIGTERM);
			for (w = 0; w < 20 && !kill(p, 0); w++)
				nanosleep(&(struct timespec){ .tv_nsec = 500000000 }, NULL);
		}
		if (!scrub_now_of(nm, st, pct, pid))
			st[0] = pct[0] = 0;
		say("scrub of %s: %s at %s%%", nm, st, *pct ? pct : "0");
	}
	return EX_OK;
}

/* ---- the scan ---------------------------------------------------------- */
static volatile sig_atomic_t got_stop;

static void on_stop(int sig)
{
	(void)sig;
	got_stop = 1;
}

/*
 * stop_signals: INT and TERM recorded (ON), or back to their default; one
 * ignored when this process started stays ignored, as a shell's trap
 * leaves it (a scrub in the background, started by a shell with &, has
 * INT ignored)
 */
static void stop_signals(bool on)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on ? on_stop : SIG_DFL;
	/* no SA_RESTART: a wait for the rate ends at once */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* the scan of one array */
struct scan {
	const char *nm, *rate;
	char uuid[64];
	uint64_t total, done, bad;
	FILE *badf;
	/* the unreadable pieces of the piece read last */
	uint64_t (*p)[2];
	size_t np, cap;
	/* the array ranges of every line (the files in them) and the
	 * history's detail */
	uint64_t (*ar)[2];
	size_t nar, arcap;
	char *hist;
};

/* now_cs: centiseconds since boot, as /proc/uptime has them */
static int64_t now_cs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (int64_t)ts.tv_sec * 100 + ts.tv_nsec / 10000000;
}

/* state: the scrub's state file rewritten (atomically): pid, then LINES */
static void state(const char *nm, const char *lines)
{
	char *f = xasprintf("%s/%s.state.new", run, nm), *t = xasprintf("%s/%s.state", run, nm);
	char *text = xasprintf("pid=%ld\n%s", (long)getpid(), lines);
	int fd = open(f, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	size_t len = strlen(text);
	bool ok = fd >= 0 && write(fd, text, len) == (ssize_t)len;

	if (fd >= 0 && close(fd))
		ok = false;
	if (ok)
		rename(f, t);
	free(text);
	free(f);
	free(t);
}

static void piece_bad(void *ctx, uint64_t first, uint64_t last)
{
	struct scan *s = ctx;

	if (s->np == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->p = realloc(s->p, s->cap * sizeof(*s->p));
		if (!s->p)
			die(EX_FAILED, "out of memory");
	}
	s->p[s->np][0] = first;
	s->p[s->np][1] = last;
	s->np++;
}

/* stopped: the scan's end on INT or TERM (Ctrl-C, --stop): where it
 * stopped kept in the state, said, and in the history */
static void __attribute__((noreturn)) stopped(struct scan *s)
{
	uint64_t pct = s->done * 100 / s->total;
	char *l, r[64], *d;

	l = xasprintf("state=stopped\npct=%" PRIu64 "\nbad=%" PRIu64 "\nrate=%s\nend=%lld\n", pct, s->bad,
		      s->rate, (long long)time(NULL));
	state(s->nm, l);
	free(l);
	say("scrub of %s stopped at %" PRIu64 "%%", s->nm, pct);
	d = xasprintf("at %" PRIu64 "%%, %s found", pct, plural_ranges(s->bad, r, sizeof(r)));
	history_add("scrub-stopped", s->nm, s->uuid, "", "", d);
	free(d);
	exit(130);
}

/* found: the unreadable pieces of member K (on DEV) in S->p, kept and said */
static void found(struct scan *s, const struct ss_table *t, unsigned int k, const char *dev)
{
	size_t i, j;

	for (i = 0; i < s->np; i++) {
		uint64_t f = s->p[i][0], l = s->p[i][1];
		size_t nr = geo_array_ranges(t->chunk, t->n, k, f, l, NULL, 0);
		uint64_t (*ar)[2] = calloc(nr + 1, sizeof(*ar));
		char *a = xstrdup(""), *x;

		if (!ar)
			die(EX_FAILED, "out of memory");
		geo_array_ranges(t->chunk, t->n, k, f, l, ar, nr);
		for (j = 0; j < nr; j++) {
			x = xasprintf("%s%s%" PRIu64 "-%" PRIu64, a, j ? " " : "", ar[j][0], ar[j][1]);
			free(a);
			a = x;
			if (s->nar == s->arcap) {
				s->arcap = s->arcap ? s->arcap * 2 : 16;
				s->ar = realloc(s->ar, s->arcap * sizeof(*s->ar));
				if (!s->ar)
					die(EX_FAILED, "out of memory");
			}
			s->ar[s->nar][0] = ar[j][0];
			s->ar[s->nar][1] = ar[j][1];
			s->nar++;
		}
		if (s->badf) {
			fprintf(s->badf, "%u %s %" PRIu64 "-%" PRIu64 " %s\n", k, dev, f, l, a);
			fflush(s->badf);
		}
		say("scrub %s: member %u (%s) cannot read its data sectors %" PRIu64 "-%" PRIu64 " (array sectors %s)",
		    s->nm, k, dev, f, l, a);
		/* the history names each range's first array range */
		x = xasprintf("%s%smember %u data sectors %" PRIu64 "-%" PRIu64 " (array %.*s)", s->hist,
			      *s->hist ? "; " : "", k, f, l, (int)strcspn(a, " "), a);
		free(s->hist);
		s->hist = x;
		s->bad++;
		free(a);
		free(ar);
	}
	s->np = 0;
}

/* scrub_run: read every member's data region of array NM at up to RATE
 * MB/s; false when ranges could not be read */
static bool scrub_run(const char *nm, const char *rate_s)
{
	struct scan s = { .nm = nm, .rate = rate_s };
	struct ss_table t;
	struct dm_table tb;
	char err[128], r[64], *f, *d;
	uint64_t rate = strtoull(rate_s, NULL, 10), per, said = 0;
	int64_t t0, el;
	unsigned int k;
	void *buf;
	bool ok;

	if (!rate)	/* none: --rate takes 1 or more */
		rate = 1;
	ok = dm_table_of(nm, &tb);
	if (ok) {
		ok = tb.n && !strcmp(tb.t[0].type, "ssdstripe") &&
		     table_parse(tb.t[0].len, tb.t[0].params, &t, err, sizeof(err));
		dm_table_free(&tb);
	}
	if (!ok || !t.n)
		die(EX_FAILED, "cannot read the table of %s", nm);
	per = t.len / t.n;
	s.total = t.len;
	s.hist = xstrdup("");
	array_uuid(nm, s.uuid, sizeof(s.uuid));
	f = xasprintf("%s/%s.bad", run, nm);
	s.badf = fopen(f, "we");
	free(f);
	buf = badscan_buf();
	t0 = now_cs();
	got_stop = 0;
	stop_signals(true);
	f = xasprintf("state=running\npct=0\nbad=0\nrate=%s\n", rate_s);
	state(nm, f);
	free(f);
	d = xasprintf("every member's data region, up to %s MB/s (%s)", rate_s, hist_cmd ? hist_cmd : "");
	history_add("scrub-started", nm, s.uuid, "", "", d);
	free(d);
	for (k = 0; k < t.n; k++) {
		char *dev = dev_of_majmin(t.mm[k]);
		const char *bare;
		uint64_t off = strtoull(t.off[k], NULL, 10), at = 0;
		int fd;

		if (!dev)
			die(EX_FAILED, "member %u of %s (%s) has no device node", k, nm, t.mm[k]);
		bare = strncmp(dev, "/dev/", 5) ? dev : dev + 5;
		/* a device that cannot be opened is read nowhere (as dd's reads) */
		fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
		while (at < per) {
			uint64_t n = per - at < SCRUB_STEP ? per - at : SCRUB_STEP, want;

			badscan(fd, buf, off + at, n, off, piece_bad, &s);
			if (got_stop)
				stopped(&s);
			found(&s, &t, k, bare);
			at += n;
			s.done += n;
			/* the rate: ahead of it, wait; the state every 64 MiB */
			el = now_cs() - t0;
			want = s.done * 512 / 10000 / rate;	/* centiseconds at the rate */
			if ((int64_t)want > el + 100) {
				nanosleep(&(struct timespec){ .tv_sec = (time_t)(((int64_t)want - el) / 100) }, NULL);
				if (got_stop)
					stopped(&s);
				el = now_cs() - t0;
			}
			if (s.done - said >= SCRUB_SAY || s.done == s.total) {
				uint64_t pct = s.done * 100 / s.total;
				uint64_t eta = (s.total - s.done) * (uint64_t)(el / 100 + 1) / s.done;

				said = s.done;
				f = xasprintf("state=running\npct=%" PRIu64 "\neta=%" PRIu64 "\nbad=%" PRIu64 "\nrate=%s\n",
					      pct, eta, s.bad, rate_s);
				state(nm, f);
				free(f);
				if (!getenv("SCRUB_QUIET") || !*getenv("SCRUB_QUIET"))
					say("scrub %s: %" PRIu64 "%% (member %u), %" PRIu64 "s left, %s", nm, pct, k, eta,
					    plural_ranges(s.bad, r, sizeof(r)));
			}
			if (got_stop)
				stopped(&s);
		}
		if (fd >= 0)
			close(fd);
		free(dev);
	}
	free(buf);
	if (s.badf)
		fclose(s.badf);
	stop_signals(false);
	if (got_stop)
		stopped(&s);
	f = xasprintf("state=finished\npct=100\nbad=%" PRIu64 "\nrate=%s\nend=%lld\n", s.bad, rate_s,
		      (long long)time(NULL));
	state(nm, f);
	free(f);
	if (!s.bad) {
		say("scrub of %s finished: every member's data region read without error", nm);
		history_add("scrub-finished", nm, s.uuid, "", "", "no unreadable sector");
	} else {
		char *files = fs_files(d = xasprintf("/dev/mapper/%s", nm), (const uint64_t (*)[2])s.ar, s.nar);

		free(d);
		say("scrub of %s finished: %s (listed above and in %s/%s.bad): the data there is lost%s%s", nm,
		    plural_ranges(s.bad, r, sizeof(r)), run, nm, *files ? "; files in them: " : "", files);
		say("restore what they hold from backup; a drive with unreadable sectors is failing: '%s replace --ignore-read-errors %s OLD NEW' moves the array off it",
		    PROG, nm);
		d = xasprintf("%s: %s", r, s.hist);
		history_add("scrub-finished", nm, s.uuid, "", "", d);
		free(d);
		free(files);
	}
	ok = !s.bad;
	table_free(&t);
	free(s.p);
	free(s.ar);
	free(s.hist);
	return ok;
}

/* ---- --background ------------------------------------------------------ */
/* background: a process of its own (its session, its log) scrubs NM */
static void background(const char *nm, const char *rate)
{
	char *log = xasprintf("%s/%s.log", run, nm), *self = realpath("/proc/self/exe", NULL);
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die(EX_FAILED, "cannot start the scrub of %s: %s", nm, strerror(errno));
	if (!pid) {
		char *argv[] = { (char *)PROG, "scrub", "--rate", (char *)rate, "--", (char *)nm, NULL };
		int in = open("/dev/null", O_RDONLY), out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (in < 0 || out < 0)
			_exit(EX_FAILED);
		setsid();
		dup2(in, 0);
		dup2(out, 1);
		dup2(out, 2);
		if (in > 2)
			close(in);
		if (out > 2)
			close(out);
		setenv("SCRUB_QUIET", "1", 1);
		/* as a shell's & started it: INT and QUIT ignored, TERM stops it */
		signal(SIGINT, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		execv(self ? self : "/proc/self/exe", argv);
		_exit(127);
	}
	say("scrub of %s goes on in the background ('%s status %s' shows it; its log: %s)", nm, PROG, nm, log);
	free(self);
	free(log);
}

int cmd_scrub(int argc, char **argv)
{
	struct scrub_args a = { .rate = SCRUB_RATE };
	const char *rd = getenv("SSDSTRIPE_RUNDIR");
	char **all = NULL;
	size_t i, nall = 0;
	int rc = EX_OK;

	opts_parse(argc, argv, "--rate= --background --stop --all", scrub_opt, &a, help_of);
	run = xasprintf("%s/scrub", rd && *rd ? rd : "/run/ssdstripe");
	if (!mkdir_p(run))
		die(EX_FAILED, "cannot make %s", run);
	if (a.stop) {
		rc = scrub_stop(&a);
		goto out;
	}
	if (a.all) {
		if (a.names.n || a.bg)
			usage_die("--all goes without names and without --background");
		all = dm_arrays(&nall);
		if (!nall) {
			say("no active arrays");
			goto out;
		}
		for (i = 0; i < nall; i++)
			operands_add(&a.names, all[i]);
	}
	if (!a.names.n)
		usage_die("scrub needs an array name (or --all)");
	for (i = 0; i < a.names.n; i++) {
		const char *nm = a.names.v[i];
		char st[32], pct[24], pid[24], u[64];
		char *mu, *m;

		if (!dm_is_array(nm))
			die(EX_NOTFOUND, "%s is not an active ssdstripe array", nm);
		if (scrub_now_of(nm, st, pct, pid) && !strcmp(st, "running"))
			die(EX_REFUSED, "a scrub of %s runs already (pid %s): '%s status %s' shows it, '%s scrub --stop %s' stops it",
			    nm, pid, PROG, nm, PROG, nm);
		array_uuid(nm, u, sizeof(u));
		if (*u) {
			mu = xasprintf("%sREPLACE-%s", DM_UUID_PREFIX, u);
			m = dm_name_of_uuid(mu);
			free(mu);
			if (m)
				die(EX_REFUSED, "a replace of a member of %s runs: scrub it when the replace has ended", nm);
		}
	}
	if (a.bg) {
		for (i = 0; i < a.names.n; i++)
			background(a.names.v[i], a.rate);
		goto out;
	}
	for (i = 0; i < a.names.n; i++)
		if (!scrub_run(a.names.v[i], a.rate))
			rc = EX_FAILED;
out:
	names_free(all, nall);
	operands_free(&a.names);
	free(run);
	return rc;
}
