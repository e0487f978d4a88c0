/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the configuration file ($SSDSTRIPE_CONF, default
 * /etc/ssdstripe.conf; ssdstripe.conf(5)) as the commands in C read it:
 * a keyword's value, its problems said once, and the ARRAY lines of the
 * active arrays.  The sh part (scripts/lib/config.sh) reads it the same way.
 */
#ifndef SSDSTRIPE_CONF_H
#define SSDSTRIPE_CONF_H

#include <stddef.h>
#include <stdio.h>

const char *conf_path(void);
/*
 * conf_value: the value of the last "KEY value..." line into BUF: the
 * rest of the line without its comment (unless KEY's value is text); ""
 * when there is none or the file cannot be read
 */
void conf_value(const char *key, char *buf, size_t len);
/* conf_problems: FILE's problems, "line N: what: what is done instead"
 * lines, to OUT; their count, -1 when FILE cannot be read */
int conf_problems(FILE *file, FILE *out);
/* conf_warn_once: the configuration file's problems said on stderr, once */
void conf_warn_once(void);
/* conf_scan: an ARRAY line for each active array (detail --scan) */
void conf_scan(void);

#endif
