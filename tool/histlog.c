// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the history log (histlog.h): its writer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dev.h"
#include "histlog.h"
#include "out.h"

char *hist_cmd;

static const char *env_or(const char *name, const char *def)
{
	const char *v = getenv(name);

	return v && *v ? v : def;
}

/* mkdirs: DIR and its parents */
static bool mkdirs(const char *dir)
{
	char p[PATH_MAX];
	size_t i, n = strlen(dir);

	if (n >= sizeof(p))
		return false;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i])
			continue;
		p[i] = 0;
		if (mkdir(p, 0755) && errno != EEXIST)
			return false;
		p[i] = dir[i];
	}
	return true;
}

/* append: TEXT (LEN bytes) to FILE */
static bool append(const char *file, const char *text, size_t len)
{
	int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, text, len) == (ssize_t)len;
	return !close(fd) && ok;
}

static char *slurp(const char *file, size_t *len)
{
	FILE *f = fopen(file, "re");
	char *buf = NULL;
	size_t cap = 0;
	FILE *m;
	int c;

	*len = 0;
	if (!f)
		return NULL;
	m = open_memstream(&buf, &cap);
	if (!m)
		die(EX_FAILED, "out of memory");
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	*len = cap;
	return buf;
}

/* flush: what waited in PENDING appended to LOG; false when LOG cannot be written */
static bool flush(const char *pending, const char *log)
{
	struct stat st;
	char tmp[PATH_MAX + 16], *text, *later;
	size_t len, ll;
	bool ok;

	if (stat(pending, &st) || !st.st_size)
		return true;
	pathf(tmp, sizeof(tmp), "%s.%ld", pending, (long)getpid());
	/* one process takes it: rename is atomic */
	if (rename(pending, tmp))
		return true;
	text = slurp(tmp, &len);
	ok = text && append(log, text, len);
	free(text);
	if (ok) {
		unlink(tmp);
		return true;
	}
	/* put it back for the next try (before anything added meanwhile) */
	later = slurp(pending, &ll);
	if (later)
		append(tmp, later, ll);
	free(later);
	rename(tmp, pending);
	return false;
}

static void rotate(const char *log)
{
	const char *m = env_or("SSDSTRIPE_HISTORY_MAX", "1048576");
	char *end;
	long max = strtol(m, &end, 10);
	char from[PATH_MAX + 8], to[PATH_MAX + 8];
	struct stat st;
	int i;

	/* a size that is no number rotates nothing, as the sh part's test did */
	if (*end || end == m || stat(log, &st) || st.st_size < max)
		return;
	for (i = HIST_KEEP; i > 1; i--) {
		pathf(from, sizeof(from), "%s.%d", log, i - 1);
		pathf(to, sizeof(to), "%s.%d", log, i);
		if (!access(from, F_OK))
			rename(from, to);
	}
	pathf(to, sizeof(to), "%s.1", log);
	rename(log, to);
}

/* field: TEXT on one line, without tabs, "-" when empty */
static void field(FILE *f, const char *text)
{
	const char *p;

	fputc('\t', f);
	if (!text || !*text) {
		fputc('-', f);
		return;
	}
	for (p = text; *p; p++)
		fputc(*p == '\t' || *p == '\n' ? ' ' : *p, f);
}

void hist_paths(char *log, size_t ll, char *pending, size_t pl)
{
	pathf(log, ll, "%s/history.log", env_or("SSDSTRIPE_HISTORY_DIR", "/var/log/ssdstripe"));
	pathf(pending, pl, "%s/history.pending", env_or("SSDSTRIPE_RUNDIR", "/run/ssdstripe"));
}

bool hist_pending_only;

void history_add(const char *event, const char *array, const char *uuid,
		 const char *member, const char *serial, const char *detail)
{
	static bool said;
	const char *dir = env_or("SSDSTRIPE_HISTORY_DIR", "/var/log/ssdstripe");
	const char *run = env_or("SSDSTRIPE_RUNDIR", "/run/ssdstripe");
	char log[PATH_MAX], pending[PATH_MAX], t[32], *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);

	if (!f)
		die(EX_FAILED, "out of memory");
	fputs(iso_time(t, sizeof(t), (int64_t)time(NULL)), f);
	field(f, event);
	field(f, array);
	field(f, uuid);
	field(f, member);
	field(f, serial);
	field(f, detail);
	fputc('\n', f);
	fclose(f);
	hist_paths(log, sizeof(log), pending, sizeof(pending));
	if (!hist_pending_only && mkdirs(dir) && flush(pending, log) && append(log, line, len)) {
		rotate(log);
	} else if (!(mkdirs(run) && append(pending, line, len)) && !said) {
		said = true;
		warn("cannot keep this in the history (%s, %s): %s %s", log, pending,
		     event, array ? array : "");
	}
	free(line);
}
