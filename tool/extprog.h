/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the documented external programs the tool runs (hdparm,
 * udevadm), each with an argv by posix_spawn, never through a shell;
 * standard input /dev/null, the output captured.
 */
#ifndef SSDSTRIPE_EXTPROG_H
#define SSDSTRIPE_EXTPROG_H

#include <stdbool.h>
#include <sys/types.h>

enum spawn_out {
	SPAWN_OUT,		/* standard output captured, errors dropped */
	SPAWN_BOTH,		/* standard output and errors captured, as 2>&1 */
	SPAWN_NONE,		/* both dropped */
};

/*
 * spawn_run: ARGV[0] (searched in PATH unless it has a /) run with ARGV;
 * what WHICH says captured into *OUT (malloc'd, NUL-terminated; OUT may
 * be NULL for SPAWN_NONE).  Its exit status, 128+N when killed by signal
 * N, or -1 when it could not be run (*OUT then says why)
 */
int spawn_run(char *const argv[], enum spawn_out which, char **out);
/* the unit tests' stand-in for spawn_run; NULL: the real one */
extern int (*spawn_stub)(char *const argv[], enum spawn_out which, char **out);

/*
 * spawn_session: PATH (NULL: ARGV[0], searched in PATH unless it has a /)
 * started with ARGV and environment ENV in a session of its own, every signal at its
 * default and none blocked, standard input /dev/null, its output appended
 * to LOG (NULL: ours); not waited for.  0 and *PID, or the error number.
 */
int spawn_session(const char *path, char *const argv[], char *const env[], const char *log, pid_t *pid);

/* spawn_found: PROG runs: a path that is executable, or a name in PATH */
bool spawn_found(const char *prog);
/* the last line of TEXT (its trailing newlines dropped), in place */
char *last_line(char *text);

#endif
