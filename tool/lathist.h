/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a member's latency histogram (sysfs latency_histogram: a
 * line "<upper bound in us> <count>" per power-of-two bucket, "inf" for
 * the last, unbounded one) and what iostat makes of it: the mean and the
 * quantiles, estimated as Prometheus's histogram_quantile does (within a
 * bucket linearly).  The arithmetic is the sh tool's awk, step for step,
 * in doubles, so the figures are the same to the microsecond.
 */
#ifndef SSDSTRIPE_LATHIST_H
#define SSDSTRIPE_LATHIST_H

#include <stdbool.h>
#include <stddef.h>

#define LATHIST_MAX 64		/* buckets read; the module has 18 */
#define LATHIST_BOUND 24	/* a bound's text, with its NUL */

struct lathist {
	size_t n;
	char bound[LATHIST_MAX][LATHIST_BOUND];	/* as the file says it: "16", "inf" */
	double count[LATHIST_MAX];
};

/*
 * lathist_parse: TEXT (the file's contents) into H: every line a bucket,
 * its first word the bound and its second the count (awk_num); lines
 * past LATHIST_MAX left
 */
void lathist_parse(const char *text, struct lathist *h);

/* awk_num: the number awk makes of S (strtod's, else 0) */
double awk_num(const char *s);

/*
 * awk_int: what the sh tool's awk (mawk) printed of D with %d: cut
 * toward 0 and clamped to an int (2147483647), NaN -2147483647
 */
long long awk_int(double d);

/* a latency figure: none (no completion), a value, or above the last bound */
struct lat_us {
	enum { LAT_NONE, LAT_US, LAT_ABOVE } kind;
	long long us;
	char above[LATHIST_BOUND];	/* LAT_ABOVE: the bound it is above */
};

/* lathist_quantile: the Q-quantile of H's completions (Q 0.5: the median) */
void lathist_quantile(const struct lathist *h, double q, struct lat_us *out);
/* lathist_mean: the mean, each completion at its bucket's middle (2x the
 * bound below for the unbounded one) */
void lathist_mean(const struct lathist *h, struct lat_us *out);
/* lat_text: "-", "812" or ">1048576" into BUF */
char *lat_text(const struct lat_us *l, char *buf, size_t len);

#endif
