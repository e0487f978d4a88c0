// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe monitor: watch every active array; on each member state
 * change (and at start for members that are not ok), when an array
 * appears or goes, when a member's drive changes what it says of its
 * health (drivewatch.c) and as a replace goes, print a line, keep it in
 * the history and run the --exec hook (hooks.c); write the Prometheus
 * textfile (metrics.c) at every poll.  Arrays are polled every
 * --interval SECS and at once on a dm event (dmwait.c).  The rules and
 * words of the sh monitor (scripts/lib/monitor.sh), which it replaces.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "cmds.h"
#include "conf.h"
#include "dev.h"
#include "dm.h"
#include "dmwait.h"
#include "extprog.h"
#include "drivewatch.h"
#include "histlog.h"
#include "hooks.h"
#include "inprog.h"
#include "member.h"
#include "metrics.h"
#include "opts.h"
#include "out.h"
#include "str.h"
#include "table.h"

#define MON_INTERVAL "10"
#define MON_EXEC_TIMEOUT "60"

extern char **environ;

struct mon_args {
	char *exec, *exec_timeout, *textfile, *interval, *operand;
	bool exec_given, config, once;
};

/* what the monitor knows of an array: the last look's member states
 * (present: it was there), its drives' last readings, its replace */
struct arr {
	char name[128];
	bool present;
	char **prev;
	size_t nprev;
	struct drive_prev *dp;
	size_t ndp;
	char prevrep[1024], seen[64];
	struct arr *next;
};

static struct arr *arrs;
static struct mon_args A;
static long interval, exec_timeout;
static bool first = true;
static int wake_pipe[2] = { -1, -1 };
static volatile sig_atomic_t stop_sig;
static pid_t *takers;
static size_t ntakers;

/* ---- events --------------------------------------------------------------- */
static const char *nz(const char *s)
{
	return s ? s : "";
}

/*
 * fire: EVENT of ARRAY said, kept in the history and handed to the hook:
 * MEMBER, DEVICE, OLD, NEW, ARRAYSTATE, UUID, SERIAL, DETAIL ("" or NULL
 * where they do not apply)
 */
static void fire(const char *event, const char *array, const char *member, const char *dev, const char *old,
		 const char *new, const char *astate, const char *uuid, const char *serial, const char *detail)
{
	char ts[32], *line, *hd, *what;
	time_t t = time(NULL);
	struct tm tm;

	member = nz(member), dev = nz(dev), old = nz(old), new = nz(new), astate = nz(astate);
	uuid = nz(uuid), serial = nz(serial), detail = nz(detail);
	localtime_r(&t, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	line = xasprintf("%s %s: %s%s%s%s%s%s%s%s%s%s%s%s%s%s", ts, array, event, *member ? " member " : "", member,
			 *dev ? " (" : "", dev, *dev ? ")" : "", *old ? " " : "", old, *old ? " ->" : "",
			 *new ? " " : "", new, *astate ? ", array " : "", astate, *detail ? ": " : "");
	say("%s%s", line, detail);
	free(line);
	hd = xasprintf("%s%s%s%s%s%s%s%s%s%s (monitor)", dev, *dev ? ": " : "", old, *old ? " -> " : "", new,
		       *astate ? ", array " : "", astate, *detail ? ": " : "", detail, "");
	history_add(event, array, uuid, member, serial, hd);
	free(hd);
	if (!A.exec || !*A.exec)
		return;
	{
		char *env[] = {
			xasprintf("SSDSTRIPE_EVENT=%s", event), xasprintf("SSDSTRIPE_ARRAY=%s", array),
			xasprintf("SSDSTRIPE_MEMBER=%s", member), xasprintf("SSDSTRIPE_DEVICE=%s", dev),
			xasprintf("SSDSTRIPE_OLD_STATE=%s", old), xasprintf("SSDSTRIPE_STATE=%s", new),
			xasprintf("SSDSTRIPE_ARRAY_STATE=%s", astate), xasprintf("SSDSTRIPE_UUID=%s", uuid),
			xasprintf("SSDSTRIPE_SERIAL=%s", serial), xasprintf("SSDSTRIPE_DETAIL=%s", detail), NULL,
		};
		size_t k;

		what = xasprintf("%s %s%s%s", event, array, *member ? " member " : "", member);
		hook_run(A.exec, env, what);
		free(what);
		for (k = 0; env[k]; k++)
			free(env[k]);
	}
}

/* ---- what the monitor keeps of each array ------------------------------- */
static struct arr *arr_of(const char *name)
{
	struct arr *a, **pp;

	for (a = arrs; a; a = a->next)
		if (!strcmp(a->name, name))
			return a;
	a = xmalloc(sizeof(*a));
	memset(a, 0, sizeof(*a));
	cpy(a->name, sizeof(a->name), name);
	/* kept in name order: the removed ones are told in it */
	for (pp = &arrs; *pp && strcmp((*pp)->name, name) < 0; pp = &(*pp)->next)
		;
	a->next = *pp;
	*pp = a;
	return a;
}

static struct drive_prev *drive_prev_of(struct arr *a, size_t i)
{
	if (i >= a->ndp) {
		struct drive_prev *n = xmalloc((i + 1) * sizeof(*n));

		memset(n, 0, (i + 1) * sizeof(*n));
		if (a->ndp)
			memcpy(n, a->dp, a->ndp * sizeof(*n));
		free(a->dp);
		a->dp = n;
		a->ndp = i + 1;
	}
	return &a->dp[i];
}

/* the uuid of an array, asked once per look at it */
struct uu {
	const char *name;
	char v[64];
	bool have;
};

static const char *uu_get(struct uu *u)
{
	if (!u->have) {
		array_uuid(u->name, u->v, sizeof(u->v));
		u->have = true;
	}
	return u->v;
}

/* the drive events of a member (drivewatch.c) */
struct dctx {
	const char *name, *astate;
	struct uu *u;
};

static void drive_fire(void *ctx, const char *event, unsigned int i, const char *dev, const char *serial,
		       const char *old, const char *new, const char *detail)
{
	struct dctx *d = ctx;
	char m[16];

	snprintf(m, sizeof(m), "%u", i);
	fire(event, d->name, m, dev, old, new, d->astate, uu_get(d->u), serial, detail);
}

/* ---- a replace ------------------------------------------------------------ */
static const char *run_dir(void)
{
	const char *r = getenv("SSDSTRIPE_RUNDIR");

	return r && *r ? r : "/run/ssdstripe";
}

static void reap_takers(void)
{
	size_t i = 0;
	int ws;

	while (i < ntakers) {
		if (waitpid(takers[i], &ws, WNOHANG) == takers[i]) {
			takers[i] = takers[--ntakers];
			continue;
		}
		i++;
	}
}

/*
 * takeover: a copy under array NAME that no process waits for (it was
 * killed, or the machine's session ended): the monitor starts one, as
 * dmeventd takes over an LVM mirror, for with handle_errors a drive error
 * during the copy would hold the array's writes until something acts.
 * 'replace --finish' locks the copy: of two started at once, one waits.
 */
static void takeover(const char *name)
{
	const char *prog = getenv("SSDSTRIPE_PROGRAM");
	char *dir = xasprintf("%s/replace", run_dir()), *log = xasprintf("%s/%s.log", dir, name);
	/* this program (SSDSTRIPE_PROGRAM names another) */
	char *self = prog && *prog ? xstrdup(prog) : realpath("/proc/self/exe", NULL);
	char *argv[] = { self ? self : PROG, "replace", "--finish", (char *)name, NULL };
	pid_t pid;

	mkdir(run_dir(), 0755);
	mkdir(dir, 0755);
	warn("monitor: no process waits for the copy under %s (it was killed): '%s replace --finish %s' takes it over (its log: %s)",
	     name, PROG, name, log);
	if (!spawn_session(NULL, argv, environ, log, &pid)) {
		pid_t *n = xmalloc((ntakers + 1) * sizeof(*n));

		if (ntakers)
			memcpy(n, takers, ntakers * sizeof(*n));
		free(takers);
		takers = n;
		takers[ntakers++] = pid;
	}
	free(self);
	free(dir);
	free(log);
}

/* field: the K-th (from 0) of the |-separated fields of S into BUF */
static void field(const char *s, int k, char *buf, size_t len)
{
	const char *e;

	for (; k > 0 && s; k--) {
		s = strchr(s, '|');
		if (s)
			s++;
	}
	if (!s) {
		buf[0] = 0;
		return;
	}
	e = s + strcspn(s, "|");
	snprintf(buf, len, "%.*s", (int)(e - s), s);
}

/* was_copying: the look P (member|from|to|state|quarter) saw it copying */
static bool was_copying(const char *p)
{
	char st[300];

	field(p, 3, st, sizeof(st));
	return !strcmp(st, "copying");
}

/* started_of: the started= line of a replace's state file FILE */
static void kv_file(const char *file, const char *key, char *buf, size_t len)
{
	char line[1024];
	size_t kl = strlen(key);
	FILE *f = fopen(file, "re");

	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, key, kl) && line[kl] == '=')
			cpy(buf, len, line + kl + 1);
	}
	fclose(f);
}

static const char *no_dev(const char *p)
{
	return strncmp(p, "/dev/", 5) ? p : p + 5;
}

/*
 * mon_replace: events of a replace of one of NAME's members: started,
 * progress (every quarter), read errors, done or stopped (when its mirror
 * is gone: done if the member is on the replace's NEW now)
 */
static void mon_replace(struct arr *a, struct uu *u)
{
	char now[1024], p[1024], f[PATH_MAX], detail[1200], k[32], to[256], st[300] = "", why[512] = "";
	char from[256] = "", at[64] = "", pct[24], m[32];
	struct replace_now r;
	struct ss_table t;
	struct dm_table tb;
	char *dev = NULL;
	int rc;

	cpy(p, sizeof(p), a->prevrep);
	rc = replace_now(a->name, &r);
	if (rc == 2)
		return;
	if (rc == 0) {
		if (!r.watched && !A.once)
			takeover(a->name);
		snprintf(pct, sizeof(pct), "%s", *r.percent ? r.percent : "0");
		snprintf(now, sizeof(now), "%ld|%s|%s|%s|%ld", r.member, r.from, r.to, r.state,
			 strtol(pct, NULL, 10) / 25 * 25);
		if (!strcmp(now, p))
			return;
		cpy(a->prevrep, sizeof(a->prevrep), now);
		/* this replace is told as it goes: not again from what it leaves */
		pathf(f, sizeof(f), "%s/replace/%s", run_dir(), a->name);
		kv_file(f, "started", a->seen, sizeof(a->seen));
		snprintf(m, sizeof(m), "%ld", r.member);
		snprintf(detail, sizeof(detail), "%s onto %s, %s%% copied", r.from, r.to, pct);
		if (!*p)
			fire("replace-started", a->name, m, r.to, NULL, "copying", NULL, uu_get(u), NULL, detail);
		if (strcmp(r.state, "copying") && (!*p || was_copying(p))) {
			snprintf(detail, sizeof(detail), "%s: '%s replace --finish %s' says which ranges", r.state, PROG,
				 a->name);
			fire("replace-read-errors", a->name, m, r.to, "copying", r.state, NULL, uu_get(u), NULL, detail);
		} else if (*p) {
			char np[32];

			snprintf(np, sizeof(np), "%s%%", pct);
			fire("replace-progress", a->name, m, r.to, NULL, np, NULL, uu_get(u), NULL, detail);
		}
		return;
	}
	/* how the last one ended, as the replace left it (NAME.last) */
	pathf(f, sizeof(f), "%s/replace/%s.last", run_dir(), a->name);
	kv_file(f, "state", st, sizeof(st));
	kv_file(f, "why", why, sizeof(why));
	kv_file(f, "member", k, sizeof(k));
	kv_file(f, "from", from, sizeof(from));
	kv_file(f, "to", to, sizeof(to));
	kv_file(f, "started", at, sizeof(at));
	detail[0] = 0;
	if (!*p) {
		/* not seen in progress: one that began and ended between two
		 * looks (a source that fails at once stops within a second) is
		 * told now, from what it left, once; one from before this
		 * monitor started is not news */
		if (!*at || !*k || !strcmp(at, a->seen))
			return;
		cpy(a->seen, sizeof(a->seen), at);
		if (first)
			return;
		snprintf(detail, sizeof(detail), "%s onto %s (begun and ended between two looks)", no_dev(from),
			 no_dev(to));
		fire("replace-started", a->name, k, no_dev(to), NULL, "copying", NULL, uu_get(u), NULL, detail);
		snprintf(p, sizeof(p), "%s|%s|%s|copying|0", k, no_dev(from), no_dev(to));
	}
	a->prevrep[0] = 0;
	field(p, 0, k, sizeof(k));
	field(p, 2, to, sizeof(to));
	if (!dm_table_of(a->name, &tb))
		return;
	if (tb.n && !strcmp(tb.t[0].type, "ssdstripe")) {
		char err[128];
		unsigned long ki = strtoul(k, NULL, 10);

		if (table_parse(tb.t[0].len, tb.t[0].params, &t, err, sizeof(err))) {
			if (ki < t.n)
				dev = dev_of_majmin(t.mm[ki]);
			table_free(&t);
		} else {
			dm_table_free(&tb);
			return;
		}
	} else {
		dm_table_free(&tb);
		return;
	}
	dm_table_free(&tb);
	if (dev && !strcmp(no_dev(dev), to)) {
		fire("replace-done", a->name, k, to, NULL, to, NULL, uu_get(u), NULL, detail);
		free(dev);
		return;
	}
	/* read errors the last look missed (the replace stops within a second) */
	if (!strcmp(st, "read errors") && was_copying(p)) {
		snprintf(detail, sizeof(detail), "%s; '%s replace' said which ranges", why, PROG);
		fire("replace-read-errors", a->name, k, to, "copying", st, NULL, uu_get(u), NULL, detail);
	}
	snprintf(detail, sizeof(detail), "the member is on %s%s%s%s", dev ? no_dev(dev) : "", *why ? " (" : "", why,
		 *why ? ")" : "");
	fire("replace-stopped", a->name, k, to, NULL, NULL, NULL, uu_get(u), NULL, detail);
	free(dev);
}

/* ---- a look at every array ------------------------------------------------ */
static bool tf_bad;

static bool is_listed(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* mon_poll: one look at every array; fires events, writes the textfile,
 * starts dm event waiters for new arrays; the status exit code */
static int mon_poll(void)
{
	size_t n = 0, i, k;
	char **names = dm_arrays(&n);
	struct arr *a;
	int rc = 0;

	for (i = 0; names && i < n; i++) {
		char *d = dm_sysdir(names[i]), *sys, **states = NULL, thr[128];
		const char *astate;
		struct uu u = { names[i], "", false };
		struct dctx dc;
		struct stat sb;
		size_t ns = 0;

		if (!d)
			continue;
		sys = xasprintf("%s/ssdstripe", d);
		free(d);
		if (stat(sys, &sb) || !S_ISDIR(sb.st_mode)) {
			free(sys);
			continue;
		}
		if (!A.once)
			dmwait_ensure(names[i]);
		if (!array_snapshot(sys, &states, &ns)) {
			free(sys);
			continue;
		}
		astate = array_state_of(states, ns);
		if (state_rc(astate) > rc)
			rc = state_rc(astate);
		a = arr_of(names[i]);
		if (!a->present && !first)
			fire("array-added", a->name, NULL, NULL, NULL, NULL, astate, uu_get(&u), NULL, NULL);
		dc.name = a->name;
		dc.astate = astate;
		dc.u = &u;
		for (k = 0; k < ns; k++) {
			const char *old = a->present && k < a->nprev ? a->prev[k] : "";
			const char *st = states[k];

			drive_watch(drive_prev_of(a, k), sys, (unsigned int)k, st, *old ? old : st, &rc, thr, sizeof(thr),
				    drive_fire, &dc);
			if ((*old && strcmp(old, st)) || (!*old && strcmp(st, "ok"))) {
				struct member *m = xmalloc(sizeof(*m));
				char det[160] = "";

				member_read(sys, (unsigned int)k, st, NULL, NULL, m);
				/* a slow member whose drive throttled meanwhile: say so */
				if (!strcmp(st, "slow") && *thr)
					snprintf(det, sizeof(det), "slow: %s", thr);
				fire("member-state", a->name, m->v[MF_INDEX], m->v[MF_DEV], *old ? old : "unknown", st,
				     astate, uu_get(&u), m->v[MF_SERIAL], det);
				free(m);
			}
		}
		states_free(a->prev, a->nprev);
		a->prev = states;
		a->nprev = ns;
		a->present = true;
		mon_replace(a, &u);
		free(sys);
	}
	for (a = arrs; a; a = a->next) {
		if (!a->present || is_listed(names, n, a->name))
			continue;
		a->present = false;
		states_free(a->prev, a->nprev);
		a->prev = NULL;
		a->nprev = 0;
		dmwait_forget(a->name);
		fire("array-removed", a->name, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	}
	names_free(names, n);
	first = false;
	if (A.textfile && *A.textfile) {
		char why[256];

		if (metrics_write(A.textfile, replace_progress, why, sizeof(why))) {
			if (tf_bad)
				warn("the textfile %s is written again", A.textfile);
			tf_bad = false;
		} else if (!tf_bad) {
			/* once, not at every poll, until it works again */
			warn("cannot write the textfile %s: %s; trying again at every poll", A.textfile, why);
			tf_bad = true;
		}
	}
	return rc;
}

/* ---- the command ---------------------------------------------------------- */
static void on_signal(int sig)
{
	char c = 0;
	int e = errno;

	stop_sig = sig;
	if (write(wake_pipe[1], &c, 1) < 0) {
		/* the pipe is full: the loop sees the signal anyway */
	}
	errno = e;
}

/* mon_exit: the hooks killed, then exit CODE (the waiters end with us) */
static void __attribute__((noreturn)) mon_exit(int code)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	hooks_stop();
	reap_takers();
	exit(code);
}

static void check_stop(void)
{
	switch (stop_sig) {
	case SIGHUP:
		warn("stopping (HUP)");
		mon_exit(129);
	case SIGINT:
		warn("stopping (INT)");
		mon_exit(130);
	case SIGTERM:
		warn("stopping (TERM)");
		mon_exit(0);
	default:
		return;
	}
}

/* drain: the bytes of the wake pipe read; whether there were any */
static bool drain(void)
{
	char b[256];
	bool any = false;

	while (read(wake_pipe[0], b, sizeof(b)) > 0)
		any = true;
	return any;
}

static void mon_opt(void *ctx, const char *name, const char *value)
{
	struct mon_args *a = ctx;

	if (!name) {
		if (!a->operand)
			a->operand = xstrdup(value);
	} else if (!strcmp(name, "--exec")) {
		free(a->exec);
		a->exec = xstrdup(value);
		a->exec_given = true;
	} else if (!strcmp(name, "--exec-timeout")) {
		free(a->exec_timeout);
		a->exec_timeout = xstrdup(value);
	} else if (!strcmp(name, "--textfile")) {
		free(a->textfile);
		a->textfile = xstrdup(value);
	} else if (!strcmp(name, "--interval")) {
		free(a->interval);
		a->interval = xstrdup(value);
	} else if (!strcmp(name, "--config")) {
		a->config = true;
	} else if (!strcmp(name, "--once")) {
		a->once = true;
	}
}

/* secs: V as a whole number of seconds, 1 or more; -1 when it is not */
static long secs(const char *v)
{
	if (!*v || v[0] == '0' || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9)
		return -1;
	return strtol(v, NULL, 10);
}

/* textfile_check: the textfile can be written (before the first poll: a
 * wrong path is a usage error, not a message at every poll) */
static void textfile_check(const char *p)
{
	char *t;
	struct stat st;
	int fd;

	if (p[strlen(p) - 1] == '/')
		usage_die("--textfile %s names a directory", p);
	if (!stat(p, &st) && S_ISDIR(st.st_mode))
		usage_die("--textfile %s is a directory", p);
	t = xasprintf("%s.tmp.%ld", p, (long)getpid());
	fd = open(t, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		warn("cannot write the textfile %s: %s", p, metrics_errstr(errno));
		warn("(--textfile needs an existing directory this user may write to)");
		exit(EX_USAGE);
	}
	close(fd);
	unlink(t);
	free(t);
}

/* conf_set: *V from the configuration's KEY when the line did not give it */
static void conf_set(const struct conf *c, char **v, const char *key)
{
	if (*v)
		return;
	*v = conf_value(c, key);
}

int cmd_monitor(int argc, char **argv)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	struct sigaction sa, old;
	long next = 0;
	int rc, nh;
	size_t i;

	opts_parse(argc, argv, "--exec= --exec-timeout= --textfile= --interval= --config --once", mon_opt, &A,
		   help_of);
	if (A.operand)
		usage_die("monitor takes options only, no '%s'", A.operand);
	if (A.config) {
		size_t bad = conf_warn_once();
		struct conf c;

		if (bad)
			die(EX_USAGE, "%s: %zu problem%s (above): fix the lines, then start the monitor again (%s config checks the file)",
			    conf_path(), bad, bad == 1 ? "" : "s", PROG);
		conf_scan(conf_path(), &c);
		if (!A.exec_given) {
			free(A.exec);
			A.exec = conf_value(&c, "MONITOR_EXEC");
		}
		conf_set(&c, &A.exec_timeout, "MONITOR_EXEC_TIMEOUT");
		conf_set(&c, &A.textfile, "MONITOR_TEXTFILE");
		conf_set(&c, &A.interval, "MONITOR_INTERVAL");
		conf_free(&c);
	}
	if (!A.interval || !*A.interval) {
		free(A.interval);
		A.interval = xstrdup(MON_INTERVAL);
	}
	if (!A.exec_timeout || !*A.exec_timeout) {
		free(A.exec_timeout);
		A.exec_timeout = xstrdup(MON_EXEC_TIMEOUT);
	}
	interval = secs(A.interval);
	if (interval < 0)
		usage_die("invalid interval '%s'", A.interval);
	exec_timeout = secs(A.exec_timeout);
	if (exec_timeout < 0)
		usage_die("invalid exec timeout '%s'", A.exec_timeout);
	if (A.textfile && *A.textfile)
		textfile_check(A.textfile);
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK))
		die(EX_FAILED, "cannot make a pipe: %s", strerror(errno));
	dmwait_init(wake_pipe[1]);
	/* TERM is how a service is stopped: a clean stop, exit 0 */
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	for (;;) {
		long now = now_s(), d;
		bool woke = drain();
		struct pollfd pf = { wake_pipe[0], POLLIN, 0 };

		check_stop();
		if (woke || now >= next) {
			next = now + interval;
			rc = mon_poll();
			check_stop();
			if (A.once) {
				/* its hooks run to their end (or timeout) before it exits */
				while (hooks_reap(exec_timeout) > 0) {
					struct timespec one = { 1, 0 };

					nanosleep(&one, NULL);
					check_stop();
				}
				mon_exit(rc);
			}
		}
		nh = hooks_reap(exec_timeout);
		reap_takers();
		now = now_s();
		d = next - now;
		/* a running hook is looked at every second (its timeout) */
		if (nh > 0 && d > 1)
			d = 1;
		if (d < 1)
			continue;
		if (poll(&pf, 1, (int)(d * 1000)) < 0 && errno != EINTR)
			die(EX_FAILED, "poll: %s", strerror(errno));
	}
}
