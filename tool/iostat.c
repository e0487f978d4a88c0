// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe iostat [-w] [--json] [NAME...] [INTERVAL [COUNT]]: a live
 * per-member view, as 'zpool iostat -v -l' and 'iostat -x' give one: a
 * report (iorep.h) per INTERVAL seconds, COUNT of them (without COUNT
 * until interrupted; without INTERVAL one report of the next second), of
 * each array named (all active arrays when none is).  A whole number that
 * names no active array is INTERVAL, then COUNT.  Reads only.  Exit: 0,
 * 2 usage, 4 no such array.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arraysys.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "iorep.h"
#include "lathist.h"
#include "opts.h"
#include "out.h"

struct io_args {
	enum iorep_mode mode;
	struct operands names;
	const char *interval, *count;
	unsigned long long ival, cval;
};

/* whole: a whole number of 1 or more, as the sh's test -gt 0 took one */
static bool whole_pos(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v > 0 && *v <= (unsigned long long)INT64_MAX;
}

/* io_word: an operand: INTERVAL, COUNT or an array name */
static void io_word(struct io_args *a, const char *w)
{
	if (*w && !w[strspn(w, "0123456789")] && (a->interval || a->count || !dm_is_array(w))) {
		if (!a->interval) {
			if (!whole_pos(w, &a->ival))
				usage_die("INTERVAL is a whole number of seconds, 1 or more, not '%s'", w);
			a->interval = w;
		} else if (!a->count) {
			if (!whole_pos(w, &a->cval))
				usage_die("COUNT is a whole number, 1 or more, not '%s'", w);
			a->count = w;
		} else {
			usage_die("'%s': INTERVAL and COUNT are given already", w);
		}
		return;
	}
	if (a->interval)
		usage_die("'%s': array names come before INTERVAL and COUNT", w);
	operands_add(&a->names, w);
}

static void io_opt(void *ctx, const char *name, const char *value)
{
	struct io_args *a = ctx;

	if (!name) {
		io_word(a, value);
	} else if (!strcmp(name, "--histogram")) {
		if (a->mode == IOREP_JSON)
			usage_die("-w or --json, not both");
		a->mode = IOREP_HIST;
	} else if (!strcmp(name, "--json")) {
		if (a->mode == IOREP_HIST)
			usage_die("-w or --json, not both");
		a->mode = IOREP_JSON;
	}
}

static volatile sig_atomic_t io_stop;

static void on_signal(int sig)
{
	(void)sig;
	io_stop = 1;
}

/*
 * io_signals: SIGINT and SIGTERM end the reports with exit 130, as the sh
 * tool's trap did; one ignored when the command started stays ignored
 * (a job a script put in the background ignores SIGINT), as the shell
 * kept it
 */
static void io_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/* the uptime in seconds, as /proc/uptime says it */
static double uptime(void)
{
	char b[128];

	read_attr("/proc/uptime", b, sizeof(b));
	return awk_num(b);
}

/* io_sleep: S seconds, or until SIGINT or SIGTERM (then exit 130, as the
 * sh's trap did) */
static void io_sleep(unsigned long long s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = 0 };

	while (!io_stop && nanosleep(&ts, &ts) && errno == EINTR)
		;
	if (io_stop)
		exit(130);
}

int cmd_iostat(int argc, char **argv)
{
	struct io_args a = { .mode = IOREP_TEXT };
	struct iorep r;
	unsigned long long k;
	char **all = NULL;
	size_t i, nall = 0;

	opts_parse(argc, argv, "--histogram|-w --json", io_opt, &a, help_of);
	if (!a.names.n) {
		all = dm_arrays(&nall);
		if (!nall) {
			say("no active arrays");
			return EX_OK;
		}
		for (i = 0; i < nall; i++)
			operands_add(&a.names, all[i]);
	}
	iorep_init(&r, a.mode);
	for (i = 0; i < a.names.n; i++) {
		char *s;

		if (!dm_is_array(a.names.v[i]))
			die(EX_NOTFOUND, "%s is not an active ssdstripe array", a.names.v[i]);
		s = arraysys_dir(a.names.v[i]);
		if (!s)
			die(EX_FAILED, "%s has no sysfs statistics (not the first target of its table?)",
			    a.names.v[i]);
		iorep_add(&r, a.names.v[i], s);
		free(s);
	}
	io_signals();

	iorep_report(&r, uptime(), (long long)time(NULL), stdout);
	for (k = 0;; k++) {
		io_sleep(a.interval ? a.ival : 1);
		if (k && a.mode != IOREP_JSON)
			putchar('\n');
		iorep_report(&r, uptime(), (long long)time(NULL), stdout);
		if (io_stop)
			exit(130);
		if (!r.na || !a.interval || (a.count && k + 1 >= a.cval))
			break;
	}
	iorep_free(&r);
	operands_free(&a.names);
	names_free(all, nall);
	return EX_OK;
}
