/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the configuration file (ssdstripe.conf(5), $SSDSTRIPE_CONF or
 * /etc/ssdstripe.conf) as the sh library's config.sh reads it: its lines
 * scanned into records, the value of a keyword, and its problems, said on
 * stderr once per run with their lines, as every command that reads the
 * file says them.
 */
#ifndef SSDSTRIPE_CONF_H
#define SSDSTRIPE_CONF_H

#include <stdbool.h>
#include <stddef.h>

/* one line of the file */
struct conf_line {
	unsigned int no;	/* its line number, from 1 */
	char *text;		/* the line as written, without its newline */
};

struct conf {
	struct conf_line *l;
	size_t n;
};

/* the file's path: $SSDSTRIPE_CONF, else /etc/ssdstripe.conf */
const char *conf_path(void);
/* conf_scan: the lines of PATH into C; false (C empty) when it cannot be
 * read.  Free with conf_free */
bool conf_scan(const char *path, struct conf *c);
void conf_free(struct conf *c);
/* conf_parse: the lines of TEXT (LEN bytes) into C, as conf_scan reads a file */
void conf_parse(const char *text, size_t len, struct conf *c);
/*
 * conf_value: the value of the last "KEY value..." line of C: the rest of
 * the line, without its comment (a # at its start or after a blank) and
 * trailing blanks, unless KEY's value is text (malloc'd; "" when none)
 */
char *conf_value(const struct conf *c, const char *key);
/*
 * conf_problems: each problem of C, "line N: what is wrong: what is done
 * instead", handed to TELL in the order of the lines; their count
 */
size_t conf_problems(const struct conf *c, void (*tell)(const char *problem, void *ctx), void *ctx);
/* conf_warn_once: the problems of conf_path() said once on stderr,
 * "PATH line N: ..."; their count (0 the second time) */
size_t conf_warn_once(void);

#endif
