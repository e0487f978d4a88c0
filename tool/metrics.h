/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the monitor's Prometheus textfile (ssdstripe(8), "monitor"),
 * for node_exporter's textfile collector: every metric of the arrays and
 * their members (array.h's and member.h's fields) with its HELP and TYPE,
 * then its samples.  node_exporter's conventions: base units (bytes,
 * seconds), counters end in _total, a state is one series per possible
 * value, identity is an _info metric of value 1.  Every sample is
 * labelled array (the name), uuid (from the label; empty for a raw
 * dmsetup array) and, for members, member (the index in the table) and
 * serial (empty where the device has none); these are stable across
 * boots, the kernel's device name is not and lives only in
 * ssdstripe_member_info.
 */
#ifndef SSDSTRIPE_METRICS_H
#define SSDSTRIPE_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * a replace in progress on an array, as the textfile shows it: its
 * member and how much it copied (percent, "" unknown); the caller's
 * (the monitor follows the copy, inprog.c reads it)
 */
typedef bool (*metrics_replace_fn)(const char *name, long *member, char *percent, size_t len);

/* metrics_text: the textfile of every active array into OUT */
void metrics_text(FILE *out, metrics_replace_fn rep);
/*
 * metrics_write: the textfile at PATH, replaced atomically (a file beside
 * it, then renamed); false with the reason in WHY ("Permission denied")
 */
bool metrics_write(const char *path, metrics_replace_fn rep, char *why, size_t len);
/* errno's words as the sh tool's shell said them, for a file it cannot make */
const char *metrics_errstr(int e);

#endif
