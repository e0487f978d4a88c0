// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a member's drive identity (ident.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev.h"
#include "ident.h"
#include "out.h"

void ident_clean(char *s, char sep)
{
	size_t r, w = 0;
	bool gap = false;

	for (r = 0; s[r]; r++) {
		unsigned char c = (unsigned char)s[r];

		if (c < '!' || c > '~') {
			gap = w > 0;
			continue;
		}
		if (gap)
			s[w++] = sep;
		gap = false;
		s[w++] = (char)c;
	}
	s[w] = 0;
}

/* setf: DST (LEN bytes) = PRE S, cut to fit */
static void setf(char *dst, size_t len, const char *pre, const char *s)
{
	size_t pl = strlen(pre), sl = strlen(s);

	if (pl >= len)
		pl = len - 1;
	memcpy(dst, pre, pl);
	if (sl > len - 1 - pl)
		sl = len - 1 - pl;
	memcpy(dst + pl, s, sl);
	dst[pl + sl] = 0;
}

void ident_none(struct ident *d)
{
	memset(d, 0, sizeof(*d));
	strcpy(d->type, "other");
}

bool ident_of(const char *dev, struct ident *d)
{
	char *sd, dir[PATH_MAX], v[512];
	static const char *const wwids[] = { "wwid", "device/wwid" };
	static const char *const models[] = { "device/model", "device/device/model" };
	size_t i;

	ident_none(d);
	if (is_dir(dev, ".")) {
		pathf(dir, sizeof(dir), "%s", dev);
	} else {
		sd = dev_sysdir(dev);
		if (!sd)
			return false;
		pathf(dir, sizeof(dir), "%s", sd);
		free(sd);
	}
	if (!attr_at(dir, "size", d->size, sizeof(d->size)))
		return false;
	/* a partition: its own size and number, its disk's identity */
	if (path_exists(dir, "partition")) {
		attr_at(dir, "partition", d->part, sizeof(d->part));
		strncat(dir, "/..", sizeof(dir) - strlen(dir) - 1);
	}
	if (is_dir(dir, "dm")) {
		strcpy(d->type, "dm");
		if (attr_at(dir, "dm/uuid", v, sizeof(v)) && v[0]) {
			ident_clean(v, '_');
			setf(d->id, sizeof(d->id), "dm-uuid:", v);
		}
		return true;
	}
	if (is_dir(dir, "loop")) {
		strcpy(d->type, "loop");
		return true;
	}
	if (is_dir(dir, "md")) {
		strcpy(d->type, "md");
		return true;
	}
	if (path_exists(dir, "nsid"))
		strcpy(d->type, "nvme");
	else if (path_exists(dir, "device/vendor") && path_exists(dir, "device/model"))
		strcpy(d->type, "scsi");
	for (i = 0; i < 2; i++) {
		char f[PATH_MAX];

		pathf(f, sizeof(f), "%s/%s", dir, wwids[i]);
		if (sysfs_word(f, v, sizeof(v))) {
			ident_clean(v, '_');
			setf(d->id, sizeof(d->id), "", v);
			break;
		}
	}
	if (drive_serial(dir, v, sizeof(v))) {
		ident_clean(v, '_');
		setf(d->serial, sizeof(d->serial), "", v);
	}
	for (i = 0; i < 2; i++) {
		char f[PATH_MAX];

		pathf(f, sizeof(f), "%s/%s", dir, models[i]);
		if (access(f, R_OK))
			continue;
		read_attr(f, v, sizeof(v));
		ident_clean(v, ' ');
		setf(d->model, sizeof(d->model), "", v);
		break;
	}
	return true;
}

void ident_line(const struct ident *d, char *buf, size_t len)
{
	snprintf(buf, len, "size:%s type:%s id:%s serial:%s%s%s model:%s",
		 d->size[0] ? d->size : "0", d->type,
		 d->id[0] ? d->id : "none", d->serial[0] ? d->serial : "none",
		 d->part[0] ? " part:" : "", d->part, d->model);
}

void ident_parse(const char *line, struct ident *i)
{
	const char *p = line;

	ident_none(i);
	while (*p) {
		const char *sp;
		size_t n;
		char *dst = NULL;
		size_t dl = 0;

		if (!strncmp(p, "model:", 6)) {
			snprintf(i->model, sizeof(i->model), "%s", p + 6);
			break;
		}
		sp = strchr(p, ' ');
		n = sp ? (size_t)(sp - p) : strlen(p);
		if (n >= 5 && !strncmp(p, "size:", 5)) {
			dst = i->size, dl = sizeof(i->size), p += 5, n -= 5;
		} else if (n >= 5 && !strncmp(p, "type:", 5)) {
			dst = i->type, dl = sizeof(i->type), p += 5, n -= 5;
		} else if (n >= 3 && !strncmp(p, "id:", 3)) {
			dst = i->id, dl = sizeof(i->id), p += 3, n -= 3;
		} else if (n >= 7 && !strncmp(p, "serial:", 7)) {
			dst = i->serial, dl = sizeof(i->serial), p += 7, n -= 7;
		} else if (n >= 5 && !strncmp(p, "part:", 5)) {
			dst = i->part, dl = sizeof(i->part), p += 5, n -= 5;
		}
		if (dst)
			snprintf(dst, dl, "%.*s", (int)n, p);
		p += n;
		if (*p == ' ')
			p++;
	}
	if (!strcmp(i->id, "none"))
		i->id[0] = 0;
	if (!strcmp(i->serial, "none"))
		i->serial[0] = 0;
}

bool ident_known(const struct ident *i)
{
	return i->id[0] || i->serial[0];
}

bool ident_match(const struct ident *d, const struct ident *i)
{
	if (!ident_known(i))
		return false;
	if (strcmp(d->size, i->size) || strcmp(d->part, i->part))
		return false;
	if (i->id[0])
		return !strcmp(d->id, i->id);
	return !strcmp(d->serial, i->serial) && !strcmp(d->model, i->model);
}

void ident_words(const struct ident *i, char *buf, size_t len)
{
	if (i->serial[0]) {
		snprintf(buf, len, "%s%sserial %s", i->model, i->model[0] ? ", " : "", i->serial);
	} else if (!strcmp(i->type, "dm")) {
		const char *u = i->id;

		if (!strncmp(u, "dm-uuid:", 8))
			u += 8;
		if (i->id[0])
			snprintf(buf, len, "a device-mapper device (%s), no serial", u);
		else
			snprintf(buf, len, "a device-mapper device, no serial");
	} else if (!strcmp(i->type, "loop")) {
		snprintf(buf, len, "a loop device, no serial");
	} else if (!strcmp(i->type, "md")) {
		snprintf(buf, len, "an md device, no serial");
	} else {
		snprintf(buf, len, "%s, no serial", i->model[0] ? i->model : "a device");
	}
	if (i->part[0]) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ", partition %s", i->part);
	}
}

void ident_full(const struct ident *i, char *buf, size_t len)
{
	size_t n;

	ident_words(i, buf, len);
	n = strlen(buf);
	if (i->id[0] && strncmp(i->id, "dm-uuid:", 8))
		n += (size_t)snprintf(buf + n, len - n, ", id %s", i->id);
	if (n < len)
		snprintf(buf + n, len - n, ", %s sectors", i->size[0] ? i->size : "?");
}

char **ident_find(const struct ident *i, size_t *n)
{
	char **names, **found = NULL, v[32], dir[PATH_MAX];
	size_t nn, k;
	struct ident d;

	*n = 0;
	if (!ident_known(i))
		return NULL;
	names = block_names(&nn);
	for (k = 0; k < nn; k++) {
		pathf(dir, sizeof(dir), "/sys/class/block/%s", names[k]);
		if (!attr_at(dir, "size", v, sizeof(v)) || strcmp(v, i->size))
			continue;
		if (attr_at(dir, "hidden", v, sizeof(v)) && !strcmp(v, "1"))
			continue;
		if (!ident_of(dir, &d) || !ident_match(&d, i))
			continue;
		found = realloc(found, (*n + 1) * sizeof(*found));
		if (!found)
			die(EX_FAILED, "out of memory");
		found[(*n)++] = xstrdup(names[k]);
	}
	names_free(names, nn);
	return found;
}

bool ident_switched_copy(const char *dev, uint64_t gen, uint64_t maxgen, bool replacing,
			 const struct ident *rec)
{
	struct ident d;

	if (maxgen <= gen || replacing || !ident_known(rec))
		return false;
	if (!ident_of(dev, &d))
		return false;
	return ident_match(&d, rec);
}
