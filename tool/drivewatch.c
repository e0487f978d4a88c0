// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the monitor's drive events (drivewatch.h), the rules of the
 * sh monitor's drive_watch (scripts/lib/smart.sh), event for event.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "drivewatch.h"
#include "smart.h"
#include "str.h"

static bool digits(const char *s)
{
	return strspn(s, "0123456789") == strlen(s);
}

void smart_throttled(const char *oc, const char *os, const char *c, const char *s, char *buf, size_t len)
{
	buf[0] = 0;
	if (!digits(oc) || !digits(os) || !digits(c) || !digits(s) || !*oc || !*c)
		return;
	if (*os && *s && strtoull(s, NULL, 10) > strtoull(os, NULL, 10))
		snprintf(buf, len, "thermally throttled for %llu s", strtoull(s, NULL, 10) - strtoull(os, NULL, 10));
	else if (strtoull(c, NULL, 10) > strtoull(oc, NULL, 10))
		snprintf(buf, len, "thermally throttled");
}

/* disk_serial: the serial of the drive holding block device DEV */
static void disk_serial(const char *dev, char *buf, size_t len)
{
	char b[PATH_MAX], up[PATH_MAX + 4], *rp;

	buf[0] = 0;
	if (!pathf(b, sizeof(b), "/sys/class/block/%s", dev))
		return;
	if (path_exists(b, "partition")) {
		snprintf(up, sizeof(up), "%s/..", b);
		rp = realpath(up, NULL);
		if (rp) {
			cpy(b, sizeof(b), rp);
			free(rp);
		}
	}
	if (!drive_serial(b, buf, len))
		buf[0] = 0;
}

static void dash(char *dst, size_t len, const char *v)
{
	cpy(dst, len, *v ? v : "-");
}

void drive_watch(struct drive_prev *p, const char *asys, unsigned int i, const char *state,
		 const char *old_state, int *rc, char *throttled, size_t tlen, drive_fire_fn fire, void *ctx)
{
	char l[PATH_MAX], dev[256], serial[256] = "", oh[16], om[24], oc[24], os[24], d[300];
	const char *h, *media;
	bool have_serial = false;
	struct smart_rec r;

	throttled[0] = 0;
	pathf(l, sizeof(l), "%s/members/%u/block", asys, i);
	dev_link_name(l, dev, sizeof(dev));
	smart_read(dev, &r);
	h = r.v[SK_HEALTH];
	media = r.v[SK_MEDIA];
	cpy(oh, sizeof(oh), p->have ? p->health : "");
	cpy(om, sizeof(om), p->have ? p->media : "-");
	cpy(oc, sizeof(oc), p->have ? p->tcount : "-");
	cpy(os, sizeof(os), p->have ? p->tsecs : "-");
	if (!strcmp(h, "critical")) {
		if (*rc < 6)
			*rc = 6;
	} else if (!strcmp(h, "warning")) {
		if (*rc < 5)
			*rc = 5;
	} else if (!strcmp(h, "unknown")) {
		return;
	}
	cpy(p->health, sizeof(p->health), h);
	dash(p->media, sizeof(p->media), media);
	dash(p->tcount, sizeof(p->tcount), r.v[SK_TCOUNT]);
	dash(p->tsecs, sizeof(p->tsecs), r.v[SK_TSECS]);
	p->have = true;
#define SERIAL() (have_serial ? serial : (disk_serial(dev, serial, sizeof(serial)), have_serial = true, serial))
	if (strcmp(oh, h) && (*oh || strcmp(h, "ok")))
		fire(ctx, "drive-health", i, dev, SERIAL(), *oh ? oh : "unknown", h,
		     *r.v[SK_WHY] ? r.v[SK_WHY] : "the drive reports no warning");
	if (*om && *media && digits(om) && digits(media) && strtoull(media, NULL, 10) > strtoull(om, NULL, 10)) {
		snprintf(d, sizeof(d), "%llu new media errors: the drive lost data",
			 strtoull(media, NULL, 10) - strtoull(om, NULL, 10));
		fire(ctx, "media-errors", i, dev, SERIAL(), om, media, d);
	}
	if (!strcmp(oc, "-"))
		*oc = 0;
	if (!strcmp(os, "-"))
		*os = 0;
	smart_throttled(oc, os, r.v[SK_TCOUNT], r.v[SK_TSECS], throttled, tlen);
	if (!strcmp(state, "slow") && !strcmp(old_state, "slow") && *throttled) {
		snprintf(d, sizeof(d), "slow: %s", throttled);
		fire(ctx, "drive-throttled", i, dev, SERIAL(), "slow", "slow", d);
	}
#undef SERIAL
}
