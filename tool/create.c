// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe create: make a new array of the devices given, in their
 * order: a label on each member, then /dev/mapper/NAME; or, with
 * --assume-clean, write back the labels some members of an array lost
 * (create's help text, help.c, says what each refusal is for).
 *
 * Every check runs on every device, and every refusal is said on a line
 * of its own, before anything is written.  Each device is held open with
 * O_EXCL from its check to its last write: a device someone claims
 * meanwhile (a mount, swap, a device-mapper or md device built on it, a
 * virtual machine) is refused, and one that is held is claimed by nobody
 * else while it is written.  The array is activated from the labels just
 * written, as assemble would (the same table, message and history line).
 * Exit: 0 created, 1 failed, 2 usage, 3 refused, 4 a device not found.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arraylabels.h"
#include "blk.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "geometry.h"
#include "histlog.h"
#include "ident.h"
#include "label.h"
#include "opts.h"
#include "out.h"
#include "probe.h"

struct cr_args {
	const char *name, *chunk, *op;
	bool trim, force, clean;
	struct operands ops;
};

/* a device given: its canonical path, the O_EXCL descriptor, its size */
struct mdev {
	char *dev;
	int fd;
	dev_t rdev;
	uint64_t size;
};

static int refuse_rc;
static char *forced;		/* what --force accepted, a line each */

static void refusal(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refusal(int rc, const char *fmt, ...)
{
	va_list ap;
	char m[4096];

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	warn("%s", m);
	if (rc > refuse_rc)
		refuse_rc = rc;
}

static void forced_add(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void forced_add(const char *fmt, ...)
{
	va_list ap;
	char m[4096], *t;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	t = xasprintf("%s%s\n", forced ? forced : "", m);
	free(forced);
	forced = t;
}

/* forced_say: what --force accepted, a warning a line */
static void forced_say(void)
{
	char *save = NULL, *l;

	for (l = forced ? strtok_r(forced, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save))
		warn("%s", l);
	free(forced);
	forced = NULL;
}

static const char *bare(const char *dev)
{
	return strncmp(dev, "/dev/", 5) ? dev : dev + 5;
}

static const char *plural_s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static bool dm_exists(const char *name)
{
	struct dm_dev_info i;

	return dm_info_of(name, &i);
}

/* the name of the active device of array UUID (malloc'd), NULL if none */
static char *active_of_uuid(const char *uuid)
{
	char *u = xasprintf(DM_UUID_PREFIX "%s", uuid), *n = dm_name_of_uuid(u);

	free(u);
	return n;
}

static char *newuuid(void)
{
	char buf[64];

	if (!read_attr("/proc/sys/kernel/random/uuid", buf, sizeof(buf)) || !buf[0])
		die(EX_FAILED, "cannot read a new uuid from /proc/sys/kernel/random/uuid");
	return xstrdup(buf);
}

/* lbs: DEV's logical block size in sectors (at least 1) */
static uint64_t lbs(const char *dev)
{
	uint64_t b = blk_queue(dev, "logical_block_size") / 512;

	return b ? b : 1;
}

/* pbs: the physical block size in sectors (the logical one where sysfs has none) */
static uint64_t pbs(const char *dev)
{
	uint64_t b = blk_queue(dev, "physical_block_size");

	return b >= 512 ? b / 512 : lbs(dev);
}

/* hold: DEV opened with O_EXCL for its writes, into M; false, refused, when it cannot be */
static bool hold(const char *dev, struct mdev *m)
{
	struct stat st, held;

	m->fd = -1;
	if (stat(dev, &st) || !S_ISBLK(st.st_mode)) {
		refusal(EX_NOTFOUND, "%s: not a block device", dev);
		return false;
	}
	m->fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (m->fd < 0 && errno == EBUSY) {
		refusal(EX_REFUSED, "%s is in use (another program holds it open exclusively); refusing to create", dev);
		return false;
	}
	if (m->fd < 0) {
		refusal(EX_FAILED, "cannot open %s: %s", dev, strerror(errno));
		return false;
	}
	if (fstat(m->fd, &held) || !S_ISBLK(held.st_mode) || held.st_rdev != st.st_rdev) {
		refusal(EX_REFUSED, "%s changed while it was checked (renamed or replugged); refusing to create", dev);
		close(m->fd);
		m->fd = -1;
		return false;
	}
	m->rdev = st.st_rdev;
	return true;
}

/* ---- the kernel's side ------------------------------------------------------ */
/*
 * activate: the array whose labels were just written to M (N members, in
 * index order), as assemble activates a complete set: the ssdstripe table
 * of their data areas, /dev/mapper/NAME, its message and history line.
 * 0, or assemble's exit code, having said why.
 */
static int activate(const char *name, const char *uuid, const struct mdev *m, unsigned int n,
		    uint64_t chunk, uint64_t offset, uint64_t data)
{
	struct dm_table tb;
	char *act = active_of_uuid(uuid), why[512], hs[32], *list, *t, *du, *detail;
	unsigned int i, ma, mi;
	FILE *f;
	size_t pl = 0;
	bool made;

	if (act) {
		say("array %s is already active as /dev/mapper/%s", name, act);
		free(act);
		return EX_OK;
	}
	if (dm_exists(name)) {
		warn("cannot activate array %s: another device-mapper device has that name", name);
		return EX_REFUSED;
	}
	for (i = 0; i < n; i++) {
		struct label l;
		bool same;

		if (in_use(m[i].dev, why, sizeof(why))) {
			warn("cannot activate array %s: member %s is %s", name, m[i].dev, why);
			return EX_REFUSED;
		}
		/* the devices were let go by name: the table is made from the
		 * labels read back, as assemble would, not from what was meant */
		same = label_read(m[i].dev, &l) == LABEL_OK && !strcmp(l.f[LK_UUID], uuid) &&
		       label_num(&l, LK_INDEX) == i && label_num(&l, LK_COUNT) == n &&
		       label_num(&l, LK_CHUNK) == chunk && label_num(&l, LK_OFFSET) == offset &&
		       label_num(&l, LK_DATA) == data;
		label_free(&l);
		if (!same) {
			warn("cannot activate array %s: %s no longer carries the label of its member %u just written (renamed or replugged?); 'ssdstripe assemble %s' activates it from its labels",
			     name, m[i].dev, i, name);
			return EX_FAILED;
		}
	}
	tb.n = 1;
	tb.t = xmalloc(sizeof(*tb.t));
	tb.t[0].start = 0;
	tb.t[0].len = data * n;
	tb.t[0].type = xstrdup("ssdstripe");
	f = open_memstream(&tb.t[0].params, &pl);
	if (!f)
		die(EX_FAILED, "out of memory");
	fprintf(f, "%u %" PRIu64, n, chunk);
	for (i = 0; i < n; i++) {
		if (!blk_majmin(m[i].dev, &ma, &mi)) {
			fclose(f);
			dm_table_free(&tb);
			warn("%s is gone", m[i].dev);
			return EX_FAILED;
		}
		fprintf(f, " %u:%u %" PRIu64, ma, mi, offset);
	}
	if (fclose(f))
		die(EX_FAILED, "out of memory");
	dm_need_ssdstripe();
	du = xasprintf(DM_UUID_PREFIX "%s", uuid);
	/* created without a table (no udev cookie there: dm.h), loaded, and
	 * resumed with a cookie whose udev processing is waited for, as
	 * 'dmsetup create --table' does */
	made = dm_create_empty(name, du);
	if (!made || !dm_load(name, &tb) || !dm_resume(name, NULL)) {
		snprintf(why, sizeof(why), "%s", dm_last_error());
		if (made)
			dm_remove(name);
		dm_table_free(&tb);
		free(du);
		/* the udev rule (assemble --incremental) may have won the race */
		act = active_of_uuid(uuid);
		if (act) {
			say("array %s is already active as /dev/mapper/%s", name, act);
			free(act);
			return EX_OK;
		}
		warn("cannot create the device-mapper device %s: %s", name, why);
		return EX_FAILED;
	}
	dm_table_free(&tb);
	free(du);
	{
		char node[PATH_MAX];
		struct stat st;

		snprintf(node, sizeof(node), "/dev/mapper/%s", name);
		if (stat(node, &st) && (!dm_mknode(name) || stat(node, &st)))
			warn("no /dev/mapper/%s node", name);
	}
	list = xstrdup("");
	for (i = 0; i < n; i++) {
		t = xasprintf("%s %s", list, bare(m[i].dev));
		free(list);
		list = t;
	}
	say("assembled %s from%s (%s)", name, list, human(hs, sizeof(hs), data * n));
	detail = xasprintf("from%s (%s)", list, hist_cmd ? hist_cmd : "");
	history_add("assembled", name, uuid, "", "", detail);
	free(detail);
	free(list);
	return EX_OK;
}

/* ---- writes ---------------------------------------------------------------- */
/* partitions_left: the kernel names of M's partitions, space-separated ("" none) */
static char *partitions_left(const struct mdev *m)
{
	size_t n, i;
	char **v = blk_partitions(m->dev, &n), *s = xstrdup(""), *t;

	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s%s", s, *s ? " " : "", v[i]);
		free(s);
		s = t;
	}
	names_free(v, n);
	return s;
}

/*
 * drop_partitions: the kernel forgets M's partitions once its table is
 * zeroed: BLKRRPART through the O_EXCL descriptor, else each deleted
 * (BLKPG); a moment's retry while udev still probes one
 */
static void drop_partitions(const struct mdev *m)
{
	char *left = partitions_left(m), err[256] = "";
	int tries, e;

	for (tries = 0; *left && tries < 10; tries++) {
		if (tries)
			usleep(100000);
		if (!blk_drop_partitions(m->fd))
			snprintf(err, sizeof(err), "BLKRRPART: %s", strerror(errno));
		free(left);
		left = partitions_left(m);
		if (!*left)
			break;
		e = blk_del_partitions(m->fd, m->dev);
		if (e)
			snprintf(err + strlen(err), sizeof(err) - strlen(err), "%sBLKPG: %s",
				 err[0] ? "; " : "", strerror(e));
		free(left);
		left = partitions_left(m);
	}
	if (*left)
		warn("%s: the kernel still shows partitions %s (%s); they are gone after a reboot",
		     m->dev, left, err[0] ? err : "?");
	free(left);
}

static bool can_discard(const char *dev)
{
	return blk_queue(dev, "discard_max_bytes") != 0;
}

/* trim_device: M discarded whole, a GiB at a time, with progress */
static void trim_device(const struct mdev *m)
{
	uint64_t size = m->size * 512, step = 1024ULL * 1024 * 1024, off = 0, len;
	int e;

	if (!can_discard(m->dev)) {
		warn("%s does not support discard; --trim skipped for it", m->dev);
		return;
	}
	while (off < size) {
		len = off + step > size ? size - off : step;
		e = blk_discard(m->fd, off / 512, len / 512);
		if (e)
			die(EX_FAILED, "trim of %s failed at byte %" PRIu64 ": %s", m->dev, off, strerror(e));
		off += len;
		printf("trim %s: %3d%%\n", m->dev, (int)(off * 100 / size));
	}
}

/* op_discard: M's spare area, from FROM (where its data ends) to its
 * tail, discarded; says what it did, or why the drive was not told (then
 * the area is spare only if never written) */
static void op_discard(const struct mdev *m, uint64_t from)
{
	uint64_t to = m->size - LABEL_TAIL, len;
	char hs[32];
	int e;

	if (m->size < LABEL_TAIL || to <= from)
		return;
	len = to - from;
	if (!can_discard(m->dev)) {
		warn("%s does not support discard: its %s of spare area is left as it is (spare for the drive only if never written; '" PROG " sanitize' erases a stopped array's members first)",
		     m->dev, human(hs, sizeof(hs), len));
		return;
	}
	e = blk_discard(m->fd, from, len);
	if (e)
		warn("discard of %s's spare area failed (%s): it is spare for the drive only if never written",
		     m->dev, strerror(e));
	else
		say("member %s: %s spare area discarded", bare(m->dev), human(hs, sizeof(hs), len));
}

/* devs_of: the paths of M (N of them), an array that lives as long as M's paths */
static char **devs_of(const struct mdev *m, unsigned int n)
{
	static char **v;
	unsigned int i;

	free(v);
	v = xmalloc((n ? n : 1) * sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = m[i].dev;
	return v;
}

static void release(struct mdev *m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (m[i].fd >= 0)
			close(m[i].fd);
		m[i].fd = -1;
	}
}

/* ---- create ----------------------------------------------------------------- */
/* create_geo: a geometry --force accepts: refused without it, said with it */
static void create_geo(bool force, const char *why)
{
	if (force)
		forced_add("%s (--force)", why);
	else
		refusal(EX_REFUSED, "%s; refusing to create (--force accepts it)", why);
}

/* name_taken: a label on some device names an array NAME (active or not) */
static bool name_taken(const char *name)
{
	size_t n, i;
	char **c = dev_candidates(&n);
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		struct label l;

		if (label_read(c[i], &l) == LABEL_OK && !strcmp(l.f[LK_NAME], name))
			found = true;
		label_free(&l);
	}
	names_free(c, n);
	return found;
}

static char *next_free_name(void)
{
	unsigned int i;

	for (i = 0;; i++) {
		char *n = xasprintf("ss%u", i);

		if (!dm_exists(n) && !name_taken(n))
			return n;
		free(n);
	}
}

static bool given(const struct mdev *m, unsigned int n, const char *dev)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(m[i].dev, dev))
			return true;
	return false;
}

/* the drive ids seen so far ("serial:X" or "wwn:X", white space as _) and their device */
struct drive_seen {
	char id[300];
	const char *dev;
};

static int create_new(const struct cr_args *a, uint64_t chunk)
{
	struct mdev *m = xmalloc(a->ops.n * sizeof(*m));
	struct drive_seen *seen = NULL;
	size_t nseen = 0, j;
	unsigned int n = 0, i, op = a->op ? (unsigned int)atoi(a->op) : 0;
	dev_t *mms = xmalloc(a->ops.n * sizeof(*mms));
	size_t nmm = 0;
	uint64_t min = 0, data = 0, all;
	const char *mindev = NULL;
	char why[2048], hs[32], hs2[32], *name, *uuid, *members, chs[24], datas[24], offs[24],
	     created[24], *list, *t;
	char (*texts)[LABEL_BLOCK + 1];
	struct newlab nl;
	int rc;

	refuse_rc = 0;
	probe_setup();
	if (a->ops.n == 1)
		create_geo(a->force, "one member: an array of one device stripes nothing (it is that device behind a label)");
	if (chunk_why(chunk, why, sizeof(why)))
		create_geo(a->force, why);
	for (j = 0; j < a->ops.n; j++) {
		const char *d = a->ops.v[j];
		char *c = dev_canon(d), ids[2][300], sig[1024];
		struct stat st;
		struct label l;
		size_t x, ni, k;
		uint64_t lb, pb;

		if (!c || stat(c, &st)) {
			refusal(EX_NOTFOUND, "%s: not a block device", d);
			free(c);
			continue;
		}
		for (x = 0; x < nmm && mms[x] != st.st_rdev; x++)
			;
		if (x < nmm) {
			refusal(EX_REFUSED, "%s: given twice", d);
			free(c);
			continue;
		}
		mms[nmm++] = st.st_rdev;
		if (in_use(c, why, sizeof(why))) {
			refusal(EX_REFUSED, "%s is in use (%s); refusing to create", c, why);
			free(c);
			continue;
		}
		/* held from here to its last write */
		m[n].dev = c;
		if (!hold(c, &m[n])) {
			free(c);
			continue;
		}
		switch (label_read_fd(m[n].fd, &l)) {
		case LABEL_OK:
			snprintf(sig, sizeof(sig), "an ssdstripe label (member %s of array %s)",
				 l.f[LK_INDEX], l.f[LK_NAME]);
			break;
		case LABEL_DAMAGED:
		case LABEL_UNSUPPORTED:
			/* a member whose label was torn, or one of an array a newer
			 * tool made: data as much as a valid one is */
			snprintf(sig, sizeof(sig), "an ssdstripe label this tool cannot read (%s)", l.err);
			break;
		default:
			if (!foreign_signature(c, sig, sizeof(sig)))
				sig[0] = 0;
		}
		label_free(&l);
		if (sig[0] && a->force)
			forced_add("%s carries %s: overwriting (--force)", c, sig);
		else if (sig[0])
			refusal(EX_REFUSED, "%s carries %s; refusing to create (--force overwrites it)", c, sig);
		lb = lbs(c);
		if (chunk % lb)
			refusal(EX_REFUSED, "chunk of %" PRIu64 " sectors is not a multiple of %s's logical block size (%" PRIu64 " bytes)",
				chunk, c, lb * 512);
		/* a chunk boundary inside a physical block: every write across
		 * it is a read-modify-write in the drive */
		pb = pbs(c);
		if (!(chunk % pb == 0 || chunk % lb != 0 || (chunk % 8 != 0 && pb <= 8))) {
			snprintf(why, sizeof(why), "a chunk of %s is not a multiple of %s's physical block size (%" PRIu64 " bytes): the drive reads and rewrites a block at every chunk boundary",
				 human(hs, sizeof(hs), chunk), c, pb * 512);
			create_geo(a->force, why);
		}
		ni = blk_drive_ids(c, ids);
		for (x = 0; x < ni; x++) {
			char *p;

			for (p = ids[x]; *p; p++)
				if (*p == ' ')
					*p = '_';
		}
		for (x = 0; x < ni; x++) {
			for (k = 0; k < nseen && strcmp(seen[k].id, ids[x]); k++)
				;
			if (k < nseen) {
				char *colon = strchr(ids[x], ':');

				snprintf(why, sizeof(why), "%s and %s are on one physical drive (%.*s %s): striping them gains no speed",
					 seen[k].dev, c, (int)(colon - ids[x]), ids[x], colon + 1);
				if (a->force)
					forced_add("%s (--force)", why);
				else
					refusal(EX_REFUSED, "%s; refusing to create (--force accepts it)", why);
				break;
			}
		}
		for (x = 0; x < ni; x++) {
			seen = realloc(seen, (nseen + 1) * sizeof(*seen));
			if (!seen)
				die(EX_FAILED, "out of memory");
			memcpy(seen[nseen].id, ids[x], sizeof(seen[nseen].id));
			seen[nseen].id[sizeof(seen[nseen].id) - 1] = 0;
			seen[nseen++].dev = c;
		}
		m[n].size = blk_size(c);
		if (!mindev || m[n].size < min) {
			min = m[n].size;
			mindev = c;
		}
		n++;
	}
	/* the geometry: every member gives the smallest one's space past the
	 * label area, less the tail and the spare area, in whole chunks */
	if (mindev) {
		data = op_data(min, chunk, op);
		if (!data)
			refusal(EX_REFUSED, "a chunk of %s is larger than %s holds (%s less the 2 MiB label area and tail%s%s%s)",
				human(hs, sizeof(hs), chunk), mindev, human(hs2, sizeof(hs2), min),
				a->op ? ", and " : "", a->op ? a->op : "", a->op ? " % spare" : "");
	}
	if (data) {
		/* what a member leaves unused beyond the spare area asked for */
		all = op_data(min, chunk, 0);
		for (i = 0; i < n; i++) {
			uint64_t unused = m[i].size - LABEL_DATA_OFFSET - LABEL_TAIL - all;

			if (unused > chunk || unused * 20 > min) {
				char h1[32], h2[32], h3[32], h4[32];

				snprintf(why, sizeof(why), "%s would leave %s of its %s unused (chunk %s, smallest member %s)",
					 m[i].dev, human(h1, sizeof(h1), unused), human(h2, sizeof(h2), m[i].size),
					 human(h3, sizeof(h3), chunk), human(h4, sizeof(h4), min));
				if (a->force)
					forced_add("%s (--force)", why);
				else
					refusal(EX_REFUSED, "%s; refusing to create (--force accepts the waste)", why);
			}
		}
	}
	name = a->name ? xstrdup(a->name) : next_free_name();
	if (dm_exists(name))
		refusal(EX_REFUSED, "a device-mapper device called %s already exists", name);
	if (refuse_rc)
		die(refuse_rc, "create refused; nothing was written");
	/* the same name on other devices would make 'assemble NAME' ambiguous
	 * (after the devices' checks: reading every label is slow in a VM) */
	{
		size_t nc, x;
		char **c = dev_candidates(&nc);

		for (x = 0; x < nc; x++) {
			struct label l;

			if (given(m, n, c[x]))
				continue;
			if (label_read(c[x], &l) == LABEL_OK && !strcmp(l.f[LK_NAME], name))
				refusal(EX_REFUSED, "an array called %s already exists on %s (see '" PROG " list')",
					name, c[x]);
			label_free(&l);
		}
		names_free(c, nc);
	}
	if (refuse_rc)
		die(refuse_rc, "create refused; nothing was written");
	uuid = newuuid();
	members = xstrdup("");
	for (i = 0; i < n; i++) {
		char *u = newuuid();

		t = xasprintf("%s%s%s", members, i ? "," : "", u);
		free(members);
		free(u);
		members = t;
	}
	/* every label, each recording every member's drive, before the first
	 * write: they must fit their block */
	snprintf(chs, sizeof(chs), "%" PRIu64, chunk);
	snprintf(datas, sizeof(datas), "%" PRIu64, data);
	snprintf(offs, sizeof(offs), "%d", LABEL_DATA_OFFSET);
	snprintf(created, sizeof(created), "%lld", (long long)time(NULL));
	memset(&nl, 0, sizeof(nl));
	nl.name = name;
	nl.uuid = uuid;
	nl.count = n;
	nl.chunk = chs;
	nl.offset = offs;
	nl.data = datas;
	nl.members = members;
	nl.created = created;
	nl.gen = "1";
	nl.op = a->op;
	texts = xmalloc((n ? n : 1) * sizeof(*texts));
	if (!labels_make(devs_of(m, n), n, NULL, &nl, texts, why, sizeof(why)))
		die(EX_REFUSED, "%s; create refused; nothing was written", why);
	forced_say();
	dm_need_ssdstripe();

	if (a->trim)
		for (i = 0; i < n; i++)
			trim_device(&m[i]);
	for (i = 0; i < n; i++) {
		int e;

		/* labels of an earlier life inside partitions would come back
		 * with the partitions; the partitions themselves go with the table */
		label_wipe_partitions(m[i].dev);
		/* stale signatures at either end would still be found by blkid */
		if (blk_zero(m[i].fd, 0, LABEL_DATA_OFFSET) || m[i].size < LABEL_TAIL ||
		    blk_zero(m[i].fd, m[i].size - LABEL_TAIL, LABEL_TAIL))
			die(EX_FAILED, "cannot write to %s", m[i].dev);
		drop_partitions(&m[i]);
		e = label_write_fd(m[i].fd, texts[i]);
		if (e)
			die(EX_FAILED, "cannot write the label to %s: %s", m[i].dev, strerror(e));
		say("member %s: %s, uses %s", bare(m[i].dev), human(hs, sizeof(hs), m[i].size),
		    human(hs2, sizeof(hs2), data));
		/* the spare area, once (--trim discarded it all already) */
		if (a->op && !a->trim)
			op_discard(&m[i], LABEL_DATA_OFFSET + data);
	}
	/* let go of the members only to have device-mapper claim them */
	release(m, n);
	human(hs, sizeof(hs), chunk);
	human(hs2, sizeof(hs2), data * n);
	say("created array %s: %u member%s, chunk %s, %s%s%s%s (uuid %s)", name, n, plural_s(n), hs, hs2,
	    a->op ? ", " : "", a->op ? a->op : "", a->op ? " % of each member spare" : "", uuid);
	list = xstrdup("");
	for (i = 0; i < n; i++) {
		t = xasprintf("%s %s", list, bare(m[i].dev));
		free(list);
		list = t;
	}
	t = xasprintf("%u member%s, chunk %s, %s:%s (%s)", n, plural_s(n), hs, hs2, list,
		      hist_cmd ? hist_cmd : "");
	history_add("created", name, uuid, "", "", t);
	free(t);
	free(list);
	/* the array from the labels just written, as a later assemble reads them */
	rc = activate(name, uuid, m, n, chunk, LABEL_DATA_OFFSET, data);
	if (rc)
		die(EX_FAILED, "created the labels, but could not activate %s", name);
	for (i = 0; i < n; i++)
		free(m[i].dev);
	free(m);
	free(mms);
	free(seen);
	free(texts);
	free(name);
	free(uuid);
	free(members);
	return EX_OK;
}

/* ---- create --assume-clean ---------------------------------------------------- */
/* the reference: the first label given, and the newest (its drives, its replace marker) */
struct cc_ref {
	const char *dev;	/* NULL: no device kept a label */
	struct label l;		/* the first label of the array given */
	struct label newest;	/* of the highest generation */
	int64_t gen;		/* the highest generation; -1 none */
};

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* the identity the newest labels record for member K; false if none */
static bool rec_drive(const struct cc_ref *r, unsigned int k, struct ident *i)
{
	const char *line = r->gen >= 0 ? label_drive(&r->newest, k) : NULL;

	if (!line)
		return false;
	ident_parse(line, i);
	return true;
}

/*
 * create_clean_state: DEV's label of array NAME may stand as member K, by
 * the rules assemble applies (Documentation/ssdstripe-label.rst,
 * "Replacing a member"): not a retired member (state replaced); not an
 * unfinished copy (state copying), unless the newest labels given record
 * its drive for member K and mark no replace, as after a switch cut short
 * (ident_switched_copy, the rule replace --finish applies); and not a
 * label older than the newest whose drive is not the one the newest
 * labels record for member K (superseded: a replace moved the member).
 * Else false, and WHY says why.
 */
static bool create_clean_state(const struct cc_ref *r, const char *name, unsigned int k,
			       const char *dev, char *why, size_t wl)
{
	struct label l;
	struct ident rec, d;
	char iw[1600];
	bool ok = true;
	const char *st;

	why[0] = 0;
	if (label_read(dev, &l) != LABEL_OK) {
		label_free(&l);
		return true;
	}
	st = l.f[LK_STATE] ? l.f[LK_STATE] : "";
	if (!strcmp(st, "replaced")) {
		snprintf(why, wl, "%s was member %u of %s until it was replaced%s%s: not a member (give the drive that replaced it); '" PROG " wipe %s' frees it",
			 dev, k, name, l.f[LK_REPBY] && *l.f[LK_REPBY] ? " by " : "",
			 l.f[LK_REPBY] ? l.f[LK_REPBY] : "", dev);
		ok = false;
	} else if (!strcmp(st, "copying")) {
		const char *rp = r->newest.f[LK_REPLACING];

		if (!(rec_drive(r, k, &rec) &&
		      ident_switched_copy(dev, label_num(&l, LK_GEN), (uint64_t)r->gen, rp && *rp, &rec))) {
			snprintf(why, wl, "%s is an unfinished copy of member %u of %s (a replace onto it was cut short): not a member (give the drive it was copied from)",
				 dev, k, name);
			ok = false;
		}
	} else if ((int64_t)label_num(&l, LK_GEN) < r->gen && rec_drive(r, k, &rec) &&
		   ident_known(&rec)) {
		if (!ident_of(dev, &d))
			ident_none(&d);
		if (!ident_match(&d, &rec)) {
			ident_words(&rec, iw, sizeof(iw));
			snprintf(why, wl, "%s holds an older label of member %u of %s (generation %s; the newest, %" PRId64 ", record %s for it): a replace moved the member; give that drive",
				 dev, k, name, l.f[LK_GEN], r->gen, iw);
			ok = false;
		}
	}
	label_free(&l);
	return ok;
}

/*
 * create_clean_ident: DEV is the drive the newest label of the array
 * records for lost member K; else false, and WHY says why it cannot be
 * told or what differs
 */
static bool create_clean_ident(const struct cc_ref *r, const char *name, unsigned int k,
			       const char *dev, char *why, size_t wl)
{
	struct ident rec, d;
	char iw[1600], dw[1600];
	char **found;
	size_t nf, x, n;

	why[0] = 0;
	if (!r->newest.ndrives) {
		snprintf(why, wl, "labels of version 1 record no drive identity: cannot tell that %s is the lost member %u of %s",
			 dev, k, name);
		return false;
	}
	if (!rec_drive(r, k, &rec)) {
		snprintf(why, wl, "the labels of %s record no drive for member %u: cannot tell that %s is it",
			 name, k, dev);
		return false;
	}
	ident_words(&rec, iw, sizeof(iw));
	if (!ident_known(&rec)) {
		snprintf(why, wl, "nothing recorded identifies member %u of %s (%s): cannot tell that %s is it",
			 k, name, iw, dev);
		return false;
	}
	if (!ident_of(dev, &d))
		ident_none(&d);
	if (ident_match(&d, &rec))
		return true;
	ident_full(&rec, iw, sizeof(iw));
	ident_full(&d, dw, sizeof(dw));
	snprintf(why, wl, "%s is not member %u of %s: its labels record %s for it, and %s is %s",
		 dev, k, name, iw, dev, dw);
	found = ident_find(&rec, &nf);
	for (x = 0; x < nf; x++) {
		n = strlen(why);
		snprintf(why + n, wl - n, "%s%s", x ? " " : "; the recorded drive is present as ", found[x]);
	}
	names_free(found, nf);
	return false;
}

/*
 * others_check: a member said to be lost must not be somewhere else: the
 * labels on the devices not given (the valid ones first, then those that
 * carry another signature now), but those assemble leaves out
 */
static void others_check(const struct cc_ref *r, const char *name, const struct mdev *m,
			 unsigned int n)
{
	size_t nc, x;
	char **c = dev_candidates(&nc), sig[1024];
	struct label *ls = xmalloc((nc ? nc : 1) * sizeof(*ls));
	int *kind = xmalloc((nc ? nc : 1) * sizeof(*kind));	/* 0 none, 1 valid, 2 shadowed */
	int pass;

	for (x = 0; x < nc; x++) {
		kind[x] = 0;
		if (label_read(c[x], &ls[x]) != LABEL_OK || given(m, n, c[x]))
			continue;
		kind[x] = foreign_signature(c[x], sig, sizeof(sig)) ? 2 : 1;
	}
	for (pass = 1; pass <= 2; pass++) {
		for (x = 0; x < nc; x++) {
			const struct label *l = &ls[x];
			const char *st;

			if (kind[x] != pass)
				continue;
			st = l->f[LK_STATE] ? l->f[LK_STATE] : "";
			/* a label assemble leaves out is no member elsewhere: a
			 * retired one, an unfinished copy, one older than the
			 * newest given */
			if (!strcmp(st, "replaced") || !strcmp(st, "copying"))
				continue;
			if (r->dev && !strcmp(l->f[LK_UUID], r->l.f[LK_UUID]) &&
			    (int64_t)label_num(l, LK_GEN) < r->gen)
				continue;
			if (r->dev && !strcmp(l->f[LK_UUID], r->l.f[LK_UUID]))
				refusal(EX_REFUSED, "%s carries a label of array %s (uuid %s): that member is not lost (see '" PROG " examine %s')",
					c[x], name, r->l.f[LK_UUID], c[x]);
			else if (!r->dev && !strcmp(l->f[LK_NAME], name))
				refusal(EX_REFUSED, "%s carries a label of an array called %s: use the devices that carry its labels",
					c[x], name);
		}
	}
	for (x = 0; x < nc; x++)
		label_free(&ls[x]);
	free(ls);
	free(kind);
	names_free(c, nc);
}

static int create_clean(const struct cr_args *a, uint64_t chunk)
{
	struct mdev *m = xmalloc(a->ops.n * sizeof(*m));
	bool *lost = xmalloc(a->ops.n * sizeof(bool)), *lab = xmalloc(a->ops.n * sizeof(bool)), any_lost = false, isnew = false;
	unsigned int n = 0, nd = 0, i, op = a->op ? (unsigned int)atoi(a->op) : 0;
	dev_t *mms = xmalloc(a->ops.n * sizeof(*mms));
	size_t nmm = 0, j;
	uint64_t min = 0;
	const char *mindev = NULL;
	struct cc_ref r;
	char why[4096], hs[32], hs2[32], hs3[32], gens[24], chs[24], datas[24], offs[24], *members = NULL,
	     *uuid = NULL;
	const char *name = a->name;
	char (*texts)[LABEL_BLOCK + 1];
	struct newlab nl;

	memset(&r, 0, sizeof(r));
	r.gen = -1;
	refuse_rc = 0;
	probe_setup();
	for (j = 0; j < a->ops.n; j++) {
		const char *d = a->ops.v[j];
		char *c = dev_canon(d), sig[1024];
		struct stat st;
		struct label l;
		enum label_rc lrc;
		size_t x;

		i = n++;
		lost[i] = lab[i] = false;
		m[i].dev = NULL;
		m[i].fd = -1;
		if (!c || stat(c, &st)) {
			refusal(EX_NOTFOUND, "%s: not a block device", d);
			free(c);
			continue;
		}
		for (x = 0; x < nmm && mms[x] != st.st_rdev; x++)
			;
		if (x < nmm) {
			refusal(EX_REFUSED, "%s: given twice", d);
			free(c);
			continue;
		}
		mms[nmm++] = st.st_rdev;
		m[i].dev = c;
		nd++;
		if (in_use(c, why, sizeof(why))) {
			refusal(EX_REFUSED, "%s is in use (%s); refusing to create", c, why);
			continue;
		}
		/* held from here to its last write */
		if (!hold(c, &m[i]))
			continue;
		m[i].size = blk_size(c);
		if (!mindev || m[i].size < min) {
			min = m[i].size;
			mindev = c;
		}
		lrc = label_read_fd(m[i].fd, &l);
		if (lrc == LABEL_OK) {
			if (strcmp(l.f[LK_NAME], name)) {
				refusal(EX_REFUSED, "%s is member %s of array %s, not of %s; refusing to relabel it",
					c, l.f[LK_INDEX], l.f[LK_NAME], name);
			} else if (label_num(&l, LK_INDEX) != i) {
				refusal(EX_REFUSED, "%s is member %s of array %s, but given as member %u (wrong order)",
					c, l.f[LK_INDEX], name, i);
			} else if (foreign_signature(c, sig, sizeof(sig))) {
				refusal(EX_REFUSED, "%s kept its label of %s but carries %s now: re-used since? refusing",
					c, name, sig);
			} else if (!r.dev) {
				struct label *ref = &r.l;

				r.dev = c;
				if (label_read_fd(m[i].fd, ref) != LABEL_OK)
					die(EX_FAILED, "%s: its label changed while it was read", c);
			} else if (!same_str(l.f[LK_UUID], r.l.f[LK_UUID]) || !same_str(l.f[LK_COUNT], r.l.f[LK_COUNT]) ||
				   !same_str(l.f[LK_CHUNK], r.l.f[LK_CHUNK]) || !same_str(l.f[LK_OFFSET], r.l.f[LK_OFFSET]) ||
				   !same_str(l.f[LK_DATA], r.l.f[LK_DATA]) || !same_str(l.f[LK_MEMBERS], r.l.f[LK_MEMBERS]) ||
				   !same_str(l.f[LK_OP], r.l.f[LK_OP])) {
				refusal(EX_REFUSED, "%s and %s carry labels of two different arrays called %s",
					c, r.dev, name);
			}
			/* the drives the newest label records (none in version 1)
			 * and whether it marks a replace */
			if ((int64_t)label_num(&l, LK_GEN) > r.gen) {
				r.gen = (int64_t)label_num(&l, LK_GEN);
				label_free(&r.newest);
				if (label_read_fd(m[i].fd, &r.newest) != LABEL_OK)
					die(EX_FAILED, "%s: its label changed while it was read", c);
			}
			lab[i] = true;
			label_free(&l);
			continue;
		}
		if (lrc == LABEL_UNSUPPORTED && !a->force) {
			/* a newer tool's label: not ours to judge */
			refusal(EX_REFUSED, "%s: %s; refusing to overwrite it (--force does)", c, l.err);
			label_free(&l);
			continue;
		}
		label_free(&l);
		/* no label, or a damaged one: a member whose label was lost */
		if (foreign_signature(c, sig, sizeof(sig))) {
			refusal(EX_REFUSED, "%s has no label of %s and carries %s: its data was overwritten, or it is not a member of %s",
				c, name, sig, name);
			continue;
		}
		lost[i] = true;
		any_lost = true;
	}
	if (refuse_rc)
		die(refuse_rc, "create --assume-clean refused; nothing was written");
	/* the rules assemble applies to labels (create_clean_state) */
	for (i = 0; i < n; i++)
		if (lab[i] && !create_clean_state(&r, name, i, m[i].dev, why, sizeof(why)))
			refusal(EX_REFUSED, "%s", why);
	if (refuse_rc)
		die(refuse_rc, "create --assume-clean refused; nothing was written");
	if (!any_lost)
		die(EX_REFUSED, "every device still carries its label of %s: nothing to write ('" PROG " assemble %s')",
		    name, name);
	if (dm_exists(name))
		die(EX_REFUSED, "a device-mapper device called %s already exists", name);
	/* a member said to be lost must not be somewhere else */
	others_check(&r, name, m, n);
	if (refuse_rc)
		die(refuse_rc, "create --assume-clean refused; nothing was written");
	memset(&nl, 0, sizeof(nl));
	if (!r.dev) {
		uint64_t data;

		if (!a->force)
			die(EX_REFUSED, "no device carries a label of array %s, so nothing can check the order and chunk; with --force and --chunk, new labels are written in the order given",
			    name);
		if (!a->chunk)
			die(EX_REFUSED, "no device carries a label of array %s: give its chunk (--chunk)", name);
		for (i = 0; i < n; i++)
			if (chunk % lbs(m[i].dev))
				die(EX_REFUSED, "chunk of %" PRIu64 " sectors is not a multiple of %s's logical block size",
				    chunk, m[i].dev);
		uuid = newuuid();
		members = xstrdup("");
		for (i = 0; i < nd; i++) {
			char *u = newuuid(), *t = xasprintf("%s%s%s", members, i ? "," : "", u);

			free(members);
			free(u);
			members = t;
		}
		data = op_data(min, chunk, op);
		if (!data)
			die(EX_REFUSED, "a chunk of %s is larger than the smallest device holds",
			    human(hs, sizeof(hs), chunk));
		snprintf(chs, sizeof(chs), "%" PRIu64, chunk);
		snprintf(datas, sizeof(datas), "%" PRIu64, data);
		snprintf(offs, sizeof(offs), "%d", LABEL_DATA_OFFSET);
		nl.uuid = uuid;
		nl.count = n;
		nl.chunk = chs;
		nl.offset = offs;
		nl.data = datas;
		nl.members = members;
		nl.created = "";
		nl.op = a->op;
		nl.gen = "1";
		isnew = true;
	} else {
		const char *rop = r.l.f[LK_OP] && *r.l.f[LK_OP] ? r.l.f[LK_OP] : NULL;
		uint64_t need = label_num(&r.l, LK_OFFSET) + label_num(&r.l, LK_DATA) + LABEL_TAIL;

		if (n != label_num(&r.l, LK_COUNT))
			die(EX_REFUSED, "array %s has %s members (%s's label), %u devices given",
			    name, r.l.f[LK_COUNT], r.dev, n);
		if (a->chunk && chunk != label_num(&r.l, LK_CHUNK))
			die(EX_REFUSED, "array %s has a chunk of %s (%s's label), not %s", name,
			    human(hs, sizeof(hs), label_num(&r.l, LK_CHUNK)), r.dev, human(hs2, sizeof(hs2), chunk));
		if (a->op && strcmp(a->op, rop ? rop : "0"))
			die(EX_REFUSED, "array %s keeps %s %% of each member spare (%s's label), not %s %%",
			    name, rop ? rop : "no", r.dev, a->op);
		/* every device holds a member's data where the labels put it (a
		 * replace may have put a larger or, past a spare area, a smaller
		 * drive in: what the devices give now need not be the array's) */
		if (min < need)
			die(EX_REFUSED, "%s holds %s; a member of %s needs %s (data at %s, %s of it, and the tail): not a device of %s?",
			    mindev, human(hs, sizeof(hs), min), name, human(hs2, sizeof(hs2), need),
			    human(hs3, sizeof(hs3), label_num(&r.l, LK_OFFSET)),
			    human(why, sizeof(why), label_num(&r.l, LK_DATA)), name);
		/* a lost member is written only onto the drive its labels record */
		for (i = 0; i < n; i++) {
			char w[4096];

			if (!lost[i] || create_clean_ident(&r, name, i, m[i].dev, w, sizeof(w)))
				continue;
			if (a->force)
				forced_add("%s: writing it anyway (--force)", w);
			else
				refusal(EX_REFUSED, "%s; --force writes it anyway", w);
		}
		if (refuse_rc)
			die(refuse_rc, "create --assume-clean refused; nothing was written");
		forced_say();
		snprintf(gens, sizeof(gens), "%" PRId64, r.gen + 1);
		nl.uuid = r.l.f[LK_UUID];
		nl.count = (unsigned int)label_num(&r.l, LK_COUNT);
		nl.chunk = r.l.f[LK_CHUNK];
		nl.offset = r.l.f[LK_OFFSET];
		nl.data = r.l.f[LK_DATA];
		nl.members = r.l.f[LK_MEMBERS];
		nl.created = r.l.f[LK_CREATED];
		nl.op = rop;
		nl.gen = gens;
	}
	/*
	 * every member's label, of the next generation, records the drives of
	 * all the devices given: the survivors' too, or they would go on
	 * naming a drive that is no longer the member's (after --force), or
	 * none (a version 1 label); no replace under way, none retired
	 */
	nl.name = name;
	texts = xmalloc((n ? n : 1) * sizeof(*texts));
	if (!labels_make(devs_of(m, n), n, NULL, &nl, texts, why, sizeof(why)))
		die(EX_REFUSED, "%s; create --assume-clean refused; nothing was written", why);
	dm_need_ssdstripe();
	/* the lost labels first: a run cut short leaves the survivors as they were */
	for (i = 0; i < n; i++) {
		int e;

		if (!lost[i])
			continue;
		e = label_write_fd(m[i].fd, texts[i]);
		if (e)
			die(EX_FAILED, "cannot write the label to %s: %s", m[i].dev, strerror(e));
		say("member %u: wrote %s label of array %s %s %s (nothing else)", i,
		    isnew ? "a new" : "the", name, isnew ? "to" : "back to", bare(m[i].dev));
	}
	for (i = 0; i < n; i++) {
		int e;

		if (lost[i])
			continue;
		e = label_write_fd(m[i].fd, texts[i]);
		if (e)
			die(EX_FAILED, "cannot write the label to %s: %s", m[i].dev, strerror(e));
		say("member %u: rewrote the label of array %s on %s: generation %s, every member's drive (nothing else)",
		    i, name, bare(m[i].dev), nl.gen);
	}
	/* let go of the members only to have device-mapper claim them */
	release(m, n);
	if (activate(name, nl.uuid, m, n, strtoull(nl.chunk, NULL, 10), strtoull(nl.offset, NULL, 10),
		     strtoull(nl.data, NULL, 10)))
		die(EX_FAILED, "wrote the labels, but could not activate %s", name);
	for (i = 0; i < n; i++)
		free(m[i].dev);
	free(m);
	free(mms);
	free(lost);
	free(lab);
	free(texts);
	free(members);
	free(uuid);
	label_free(&r.l);
	label_free(&r.newest);
	return EX_OK;
}

static void cr_opt(void *ctx, const char *name, const char *value)
{
	struct cr_args *a = ctx;

	if (!name)
		operands_add(&a->ops, value);
	else if (!strcmp(name, "--name"))
		a->name = value;
	else if (!strcmp(name, "--chunk"))
		a->chunk = value;
	else if (!strcmp(name, "--trim"))
		a->trim = true;
	else if (!strcmp(name, "--force"))
		a->force = true;
	else if (!strcmp(name, "--assume-clean"))
		a->clean = true;
	else if (!strcmp(name, "--overprovision")) {
		if (!valid_op(value))
			usage_die("--overprovision is a whole percentage from 1 to 50, not '%s'", value);
		a->op = value;
	}
}

int cmd_create(int argc, char **argv)
{
	struct cr_args a = { 0 };
	uint64_t chunk = 0;
	int rc;

	opts_parse(argc, argv, "--name= --chunk= --overprovision= --trim --force|-f --assume-clean",
		   cr_opt, &a, help_of);
	if (!a.ops.n)
		usage_die("create needs at least one device");
	if (a.name && !valid_name(a.name))
		usage_die("invalid array name '%s' (letters, digits, . _ -; at most 64)", a.name);
	if (!to_sectors(a.chunk ? a.chunk : DEFAULT_CHUNK, &chunk))
		usage_die("invalid chunk size '%s' (a number with s, K, M, G or T; a plain number is KiB)",
			  a.chunk ? a.chunk : "");
	if (chunk < 8)
		usage_die("chunk size must be at least 4 KiB");
	if (a.clean) {
		if (!a.name)
			usage_die("--assume-clean needs --name NAME (the array's name)");
		if (a.trim)
			usage_die("--assume-clean and --trim contradict each other");
		rc = create_clean(&a, chunk);
	} else {
		rc = create_new(&a, chunk);
	}
	operands_free(&a.ops);
	return rc;
}
