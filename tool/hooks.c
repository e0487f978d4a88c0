// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the monitor's hooks (hooks.h), run by posix_spawn.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "extprog.h"
#include "hooks.h"
#include "out.h"

extern char **environ;

enum hstate { H_RUN, H_TERM, H_KILL };

struct hook {
	pid_t pid;
	long t0, tterm;
	enum hstate st;
	char *what;
	struct hook *next;
};

static struct hook *hooks;

long now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec;
}

/* envp: the environment with ENV's names replaced by ENV's entries */
static char **envp(char *const env[])
{
	size_t n = 0, k = 0, i, j;
	char **v;

	while (environ[n])
		n++;
	for (j = 0; env[j]; j++)
		;
	v = xmalloc((n + j + 1) * sizeof(*v));
	for (i = 0; i < n; i++) {
		bool ours = false;

		for (j = 0; env[j] && !ours; j++) {
			size_t l = strcspn(env[j], "=") + 1;

			ours = !strncmp(environ[i], env[j], l);
		}
		if (!ours)
			v[k++] = environ[i];
	}
	for (j = 0; env[j]; j++)
		v[k++] = env[j];
	v[k] = NULL;
	return v;
}

void hook_run(const char *cmd, char *const env[], const char *what)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	char **ev = envp(env);
	struct hook *h;
	pid_t pid;
	int e;

	e = spawn_session("/bin/sh", argv, ev, NULL, &pid);
	free(ev);
	if (e) {
		warn("hook for %s: cannot run sh: %s", what, strerror(e));
		return;
	}
	h = xmalloc(sizeof(*h));
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	h->t0 = now_s();
	h->st = H_RUN;
	h->what = xstrdup(what);
	h->next = hooks;
	hooks = h;
}

/* hook_signal: SIG to the hook's process group (its session) */
static void hook_signal(int sig, pid_t pid)
{
	if (kill(-pid, sig))
		kill(pid, sig);
}

int hooks_reap(long timeout)
{
	struct hook **pp = &hooks, *h;
	long now = now_s();
	int n = 0, ws;

	while ((h = *pp)) {
		pid_t r = waitpid(h->pid, &ws, WNOHANG);

		if (r == h->pid || (r < 0 && errno == ECHILD)) {
			int rc = r < 0 ? 0 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);

			if (h->st == H_RUN && rc)
				warn("hook for %s exited with status %d", h->what, rc);
			*pp = h->next;
			free(h->what);
			free(h);
			continue;
		}
		n++;
		if (h->st == H_RUN && now - h->t0 >= timeout) {
			warn("hook for %s (pid %ld) still running after %ld s: killing it (TERM)", h->what,
			     (long)h->pid, timeout);
			hook_signal(SIGTERM, h->pid);
			h->st = H_TERM;
			h->tterm = now;
		} else if (h->st == H_TERM && now - h->tterm >= HOOK_KILL_GRACE) {
			warn("hook for %s (pid %ld) still running %d s after TERM: killing it (KILL)", h->what,
			     (long)h->pid, HOOK_KILL_GRACE);
			hook_signal(SIGKILL, h->pid);
			h->st = H_KILL;
		}
		pp = &h->next;
	}
	return n;
}

void hooks_stop(void)
{
	struct timespec fifth = { 0, 200 * 1000 * 1000 };
	struct hook *h;
	pid_t *all;
	size_t n = 0, k, i;
	int ws;

	for (h = hooks; h; h = h->next)
		n++;
	all = xmalloc((n + 1) * sizeof(*all));
	for (h = hooks; h; h = h->next) {
		siginfo_t si;

		/* one that ended is reaped below, its status said as any other's */
		memset(&si, 0, sizeof(si));
		if (!waitid(P_PID, (id_t)h->pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == h->pid)
			continue;
		warn("stopping: killing the hook for %s (pid %ld)", h->what, (long)h->pid);
		hook_signal(SIGTERM, h->pid);
		h->st = H_TERM;
		h->tterm = now_s();
	}
	k = 0;
	for (h = hooks; h; h = h->next)
		if (h->st == H_TERM)
			all[k++] = h->pid;
	if (!k) {
		hooks_reap(LONG_MAX);
		free(all);
		return;
	}
	for (i = 0; i < HOOK_KILL_GRACE * 5; i++) {
		if (!hooks_reap(LONG_MAX))
			break;
		nanosleep(&fifth, NULL);
	}
	/* the group too: a child of the hook may outlive its sh */
	for (i = 0; i < k; i++)
		hook_signal(SIGKILL, all[i]);
	while ((h = hooks)) {
		waitpid(h->pid, &ws, 0);
		hooks = h->next;
		free(h->what);
		free(h);
	}
	free(all);
}
