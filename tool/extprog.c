// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: running the documented external programs (extprog.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dev.h"
#include "out.h"
#include "extprog.h"

extern char **environ;

int (*spawn_stub)(char *const argv[], enum spawn_out which, char **out);

bool spawn_found(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	char f[PATH_MAX];

	if (!prog || !*prog)
		return false;
	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (p = path && *path ? path : "/usr/bin:/bin"; ; p = e + 1) {
		e = strchrnul(p, ':');
		if (pathf(f, sizeof(f), "%.*s/%s", (int)(e - p), e == p ? "." : p, prog) &&
		    !access(f, X_OK))
			return true;
		if (!*e)
			return false;
	}
}

char *last_line(char *text)
{
	size_t n = strlen(text);
	char *p;

	while (n && text[n - 1] == '\n')
		text[--n] = 0;
	p = strrchr(text, '\n');
	return p ? p + 1 : text;
}

int spawn_run(char *const argv[], enum spawn_out which, char **out)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2] = { -1, -1 }, st, e;
	pid_t pid;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t r;

	if (spawn_stub)
		return spawn_stub(argv, which, out);
	if (out)
		*out = NULL;
	if (which != SPAWN_NONE && pipe2(pipefd, O_CLOEXEC))
		goto fail;
	/* each file action can fail (ENOMEM): a child run without its
	 * redirection could read our stdin or write into our output */
	e = posix_spawn_file_actions_init(&fa);
	if (!e)
		e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e && which == SPAWN_NONE)
		e = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (!e && which != SPAWN_NONE)
		e = posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	if (!e && which == SPAWN_BOTH)
		e = posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
	else if (!e)
		e = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (!e)
		e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (e) {
		if (pipefd[0] >= 0)
			close(pipefd[0]);
		errno = e;
		goto fail;
	}
	while (pipefd[0] >= 0) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			if (!buf)
				die(EX_FAILED, "out of memory");
		}
		r = read(pipefd[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (out) {
		if (!buf)
			buf = xstrdup("");
		else
			buf[len] = 0;
		*out = buf;
	} else {
		free(buf);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
fail:
	if (out)
		*out = xasprintf("cannot run %s: %s", argv[0], strerror(errno));
	return -1;
}

int spawn_session(const char *path, char *const argv[], char *const env[], const char *log, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int e;

	e = posix_spawn_file_actions_init(&fa);
	if (e)
		return e;
	e = posix_spawnattr_init(&at);
	if (e) {
		posix_spawn_file_actions_destroy(&fa);
		return e;
	}
	e = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!e && log)
		e = posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (!e && log)
		e = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	sigemptyset(&none);
	sigfillset(&dfl);
	if (!e)
		e = posix_spawnattr_setsigmask(&at, &none);
	if (!e)
		e = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!e)
		e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK |
					     POSIX_SPAWN_SETSIGDEF);
	if (!e)
		e = path ? posix_spawn(pid, path, &fa, &at, argv, env) :
			   posix_spawnp(pid, argv[0], &fa, &at, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return e;
}
