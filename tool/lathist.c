// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a member's latency histogram and its figures (lathist.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lathist.h"

double awk_num(const char *s)
{
	/* mawk and busybox awk both: strtod's number (hex, inf and nan too) */
	return strtod(s, NULL);
}

void lathist_parse(const char *text, struct lathist *h)
{
	const char *l = text;

	h->n = 0;
	while (*l && h->n < LATHIST_MAX) {
		const char *end = strchr(l, '\n'), *w;
		size_t ll = end ? (size_t)(end - l) : strlen(l), wl;
		char line[128];

		/* awk splits on blanks: the first word, then the second */
		if (ll >= sizeof(line))
			ll = sizeof(line) - 1;
		memcpy(line, l, ll);
		line[ll] = 0;
		w = line + strspn(line, " \t");
		wl = strcspn(w, " \t");
		snprintf(h->bound[h->n], LATHIST_BOUND, "%.*s", (int)(wl < LATHIST_BOUND ? wl : LATHIST_BOUND - 1), w);
		w += wl;
		w += strspn(w, " \t");
		h->count[h->n] = awk_num(w);
		h->n++;
		if (!end)
			break;
		l = end + 1;
	}
}

long long awk_int(double d)
{
	/*
	 * mawk's d_to_I (Debian's awk, which the sh tool ran with): an int,
	 * out of range clamped, NaN the least
	 */
	if (d >= (double)INT_MAX)
		return INT_MAX;
	if (d > -(double)INT_MAX)
		return (long long)d;
	return -INT_MAX;
}

static bool is_inf(const char *bound)
{
	return !strcmp(bound, "inf");
}

void lathist_quantile(const struct lathist *h, double q, struct lat_us *out)
{
	double t = 0, r, c = 0, lo = 0;
	const char *los = "0";
	size_t i;

	for (i = 0; i < h->n; i++)
		t += h->count[i];
	memset(out, 0, sizeof(*out));
	out->kind = LAT_NONE;
	if (t == 0)
		return;
	r = q * t;
	for (i = 0; i < h->n; i++) {
		if (c + h->count[i] >= r && h->count[i] > 0) {
			if (is_inf(h->bound[i]))
				break;
			out->kind = LAT_US;
			/* awk's %d: the double cut toward 0 */
			out->us = awk_int(lo + (awk_num(h->bound[i]) - lo) * (r - c) / h->count[i]);
			return;
		}
		c += h->count[i];
		lo = awk_num(h->bound[i]);
		los = h->bound[i];
	}
	out->kind = LAT_ABOVE;
	snprintf(out->above, sizeof(out->above), "%s", los);
}

void lathist_mean(const struct lathist *h, struct lat_us *out)
{
	double t = 0, s = 0, lo = 0, mid;
	size_t i;

	for (i = 0; i < h->n; i++)
		t += h->count[i];
	memset(out, 0, sizeof(*out));
	out->kind = LAT_NONE;
	if (t == 0)
		return;
	for (i = 0; i < h->n; i++) {
		mid = is_inf(h->bound[i]) ? 2 * lo : (lo + awk_num(h->bound[i])) / 2;
		s += h->count[i] * mid;
		lo = awk_num(h->bound[i]);
	}
	out->kind = LAT_US;
	out->us = awk_int(s / t);
}

char *lat_text(const struct lat_us *l, char *buf, size_t len)
{
	if (l->kind == LAT_NONE)
		snprintf(buf, len, "-");
	else if (l->kind == LAT_US)
		snprintf(buf, len, "%lld", l->us);
	else
		snprintf(buf, len, ">%s", l->above);
	return buf;
}
