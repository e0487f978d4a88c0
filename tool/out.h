/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: messages, exit codes and the small formats every command
 * prints (times, plurals).  Text a command prints goes through here.
 */
#ifndef SSDSTRIPE_OUT_H
#define SSDSTRIPE_OUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define PROG "ssdstripe"

/* exit codes of every command (ssdstripe(8), "EXIT STATUS") */
enum {
	EX_OK = 0,
	EX_FAILED = 1,
	EX_USAGE = 2,
	EX_REFUSED = 3,
	EX_NOTFOUND = 4,
	EX_SLOW = 5,
	EX_ERRORING = 6,
	EX_ARRAY_FAILED = 7,
};

/* the command being run ("" before one is known), for usage_die */
extern const char *cur_cmd;

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void usage_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* iso_time: "2026-11-25T08:00:00Z" of T into BUF (at least 21 bytes) */
char *iso_time(char *buf, size_t len, int64_t t);
/* SECTORS as "1.5 GiB", into BUF */
char *human(char *buf, size_t len, uint64_t sectors);

void *xmalloc(size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
