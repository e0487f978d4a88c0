// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * The sysfs directory /sys/block/dm-<n>/ssdstripe: its attributes, its
 * kobjects and their release, and which table of a device owns it across
 * a reload.
 */

#include <linux/device-mapper.h>

#include <linux/blkdev.h>
#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "ssdstripe.h"
#include "ssdstripe-stats.h"

#define DM_MSG_PREFIX "ssdstripe"

/*
 * /sys/block/dm-<n>/ssdstripe belongs to the live table.  A reloaded
 * table coexists with the live one until resume, so the directory is
 * created at resume (taking it over from the previous table of the same
 * device) and removed when the owning table is destroyed.
 */
static DEFINE_MUTEX(ssdstripe_sysfs_lock);	/* guards the lists, sysfs_*, resumed */
static LIST_HEAD(ssdstripe_sysfs_owners);
/* Every ssdstripe segment of every table, for the takeover at resume. */
static LIST_HEAD(ssdstripe_segments);

struct ssdstripe_kobj {
	struct kobject kobj;
	struct ssdstripe_c *sc;
	unsigned int member;
};

enum ssdstripe_attr_kind {
	SSDSTRIPE_A_VERSION,
	SSDSTRIPE_A_CHUNK,
	SSDSTRIPE_A_MEMBERS,
	SSDSTRIPE_A_ARRAY_STATE,
	SSDSTRIPE_A_GATHER_FALLBACKS,
	SSDSTRIPE_A_STATE,
	SSDSTRIPE_A_IOS,
	SSDSTRIPE_A_SECTORS,
	SSDSTRIPE_A_ERRORS,
	SSDSTRIPE_A_ALL_ERRORS,
	SSDSTRIPE_A_RETRIES,
	SSDSTRIPE_A_INFLIGHT,
	SSDSTRIPE_A_LATENCY,
	SSDSTRIPE_A_HISTOGRAM,
	SSDSTRIPE_A_WAITING,
	SSDSTRIPE_A_STALLS,
};

struct ssdstripe_attr {
	struct attribute attr;
	enum ssdstripe_attr_kind kind;
	enum ssdstripe_op op;
};

#define SSDSTRIPE_ATTR_NAMED(_var, _file, _kind, _op)			\
	static struct ssdstripe_attr ssdstripe_attr_##_var = {		\
		.attr = { .name = _file, .mode = 0444 },		\
		.kind = _kind, .op = _op,				\
	}
#define SSDSTRIPE_ATTR(_name, _kind, _op)				\
	SSDSTRIPE_ATTR_NAMED(_name, __stringify(_name), _kind, _op)

SSDSTRIPE_ATTR(version, SSDSTRIPE_A_VERSION, 0);
SSDSTRIPE_ATTR(chunk_sectors, SSDSTRIPE_A_CHUNK, 0);
SSDSTRIPE_ATTR(member_count, SSDSTRIPE_A_MEMBERS, 0);
SSDSTRIPE_ATTR_NAMED(array_state, "state", SSDSTRIPE_A_ARRAY_STATE, 0);
SSDSTRIPE_ATTR(gather_fallbacks, SSDSTRIPE_A_GATHER_FALLBACKS, 0);
SSDSTRIPE_ATTR(state, SSDSTRIPE_A_STATE, 0);
SSDSTRIPE_ATTR(read_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(flush_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_FLUSH);
SSDSTRIPE_ATTR(discard_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_ios, SSDSTRIPE_A_IOS, SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(read_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(discard_sectors, SSDSTRIPE_A_SECTORS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_sectors, SSDSTRIPE_A_SECTORS,
	       SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(errors, SSDSTRIPE_A_ALL_ERRORS, 0);
SSDSTRIPE_ATTR(read_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_READ);
SSDSTRIPE_ATTR(write_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_WRITE);
SSDSTRIPE_ATTR(flush_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_FLUSH);
SSDSTRIPE_ATTR(discard_errors, SSDSTRIPE_A_ERRORS, SSDSTRIPE_OP_DISCARD);
SSDSTRIPE_ATTR(write_zeroes_errors, SSDSTRIPE_A_ERRORS,
	       SSDSTRIPE_OP_WRITE_ZEROES);
SSDSTRIPE_ATTR(retries, SSDSTRIPE_A_RETRIES, 0);
SSDSTRIPE_ATTR(inflight, SSDSTRIPE_A_INFLIGHT, 0);
SSDSTRIPE_ATTR(latency_us, SSDSTRIPE_A_LATENCY, 0);
SSDSTRIPE_ATTR(latency_histogram, SSDSTRIPE_A_HISTOGRAM, 0);
SSDSTRIPE_ATTR(waiting_ms, SSDSTRIPE_A_WAITING, 0);
SSDSTRIPE_ATTR(stalls, SSDSTRIPE_A_STALLS, 0);

static struct attribute *ssdstripe_top_attrs[] = {
	&ssdstripe_attr_version.attr,
	&ssdstripe_attr_chunk_sectors.attr,
	&ssdstripe_attr_member_count.attr,
	&ssdstripe_attr_array_state.attr,
	&ssdstripe_attr_gather_fallbacks.attr,
	NULL
};

static struct attribute *ssdstripe_member_attrs[] = {
	&ssdstripe_attr_state.attr,
	&ssdstripe_attr_read_ios.attr,
	&ssdstripe_attr_write_ios.attr,
	&ssdstripe_attr_flush_ios.attr,
	&ssdstripe_attr_discard_ios.attr,
	&ssdstripe_attr_write_zeroes_ios.attr,
	&ssdstripe_attr_read_sectors.attr,
	&ssdstripe_attr_write_sectors.attr,
	&ssdstripe_attr_discard_sectors.attr,
	&ssdstripe_attr_write_zeroes_sectors.attr,
	&ssdstripe_attr_errors.attr,
	&ssdstripe_attr_read_errors.attr,
	&ssdstripe_attr_write_errors.attr,
	&ssdstripe_attr_flush_errors.attr,
	&ssdstripe_attr_discard_errors.attr,
	&ssdstripe_attr_write_zeroes_errors.attr,
	&ssdstripe_attr_retries.attr,
	&ssdstripe_attr_inflight.attr,
	&ssdstripe_attr_latency_us.attr,
	&ssdstripe_attr_latency_histogram.attr,
	&ssdstripe_attr_waiting_ms.attr,
	&ssdstripe_attr_stalls.attr,
	NULL
};

ATTRIBUTE_GROUPS(ssdstripe_top);
ATTRIBUTE_GROUPS(ssdstripe_member);

static ssize_t ssdstripe_show_histogram(struct ssdstripe_member *m, char *buf)
{
	unsigned int b;
	int len = 0;

	for (b = 0; b < SSDSTRIPE_HIST_NR - 1; b++)
		len += sysfs_emit_at(buf, len, "%u %llu\n", 16U << b,
				     SSDSTRIPE_SUM(m, hist[b]));
	len += sysfs_emit_at(buf, len, "inf %llu\n",
			     SSDSTRIPE_SUM(m, hist[SSDSTRIPE_HIST_NR - 1]));

	return len;
}

static ssize_t ssdstripe_attr_show(struct kobject *kobj,
				   struct attribute *attr, char *buf)
{
	struct ssdstripe_kobj *k = container_of(kobj, struct ssdstripe_kobj, kobj);
	struct ssdstripe_attr *a = container_of(attr, struct ssdstripe_attr, attr);
	struct ssdstripe_c *sc = k->sc;
	struct ssdstripe_member *m = &sc->member[k->member];
	u64 v = 0;

	switch (a->kind) {
	case SSDSTRIPE_A_VERSION:
		return sysfs_emit(buf, "%u\n", SSDSTRIPE_SYSFS_ABI_VERSION);
	case SSDSTRIPE_A_CHUNK:
		return sysfs_emit(buf, "%u\n", sc->geom.chunk);
	case SSDSTRIPE_A_MEMBERS:
		return sysfs_emit(buf, "%u\n", sc->geom.members);
	case SSDSTRIPE_A_ARRAY_STATE:
		return sysfs_emit(buf, "%s\n",
				  ssdstripe_array_state_name[READ_ONCE(sc->array_state)]);
	case SSDSTRIPE_A_GATHER_FALLBACKS:
		v = ssdstripe_gather_fallbacks(sc);
		break;
	case SSDSTRIPE_A_STATE:
		return sysfs_emit(buf, "%s\n",
				  ssdstripe_state_name[READ_ONCE(m->state)]);
	case SSDSTRIPE_A_IOS:
		v = SSDSTRIPE_SUM(m, ios[a->op]);
		break;
	case SSDSTRIPE_A_SECTORS:
		v = SSDSTRIPE_SUM(m, sectors[a->op]);
		break;
	case SSDSTRIPE_A_ERRORS:
		v = SSDSTRIPE_SUM(m, errors[a->op]);
		break;
	case SSDSTRIPE_A_ALL_ERRORS:
		v = ssdstripe_member_errors(m);
		break;
	case SSDSTRIPE_A_RETRIES:
		v = SSDSTRIPE_SUM(m, retries);
		break;
	case SSDSTRIPE_A_INFLIGHT:
		/* Per-CPU halves of one count: the sum is what matters. */
		v = max_t(s64, (s64)SSDSTRIPE_SUM(m, inflight), 0);
		break;
	case SSDSTRIPE_A_LATENCY:
		v = READ_ONCE(m->latency_us);
		break;
	case SSDSTRIPE_A_HISTOGRAM:
		return ssdstripe_show_histogram(m, buf);
	case SSDSTRIPE_A_WAITING:
		v = READ_ONCE(m->waiting_ms);
		break;
	case SSDSTRIPE_A_STALLS:
		v = READ_ONCE(m->stalls);
		break;
	}

	return sysfs_emit(buf, "%llu\n", v);
}

static const struct sysfs_ops ssdstripe_sysfs_ops = {
	.show = ssdstripe_attr_show,
};

static void ssdstripe_kobj_release(struct kobject *kobj)
{
	struct ssdstripe_kobj *k = container_of(kobj, struct ssdstripe_kobj, kobj);
	struct ssdstripe_c *sc = k->sc;

	kfree(k);
	if (atomic_dec_and_test(&sc->kobj_count))
		complete(&sc->kobj_released);
}

static const struct kobj_type ssdstripe_top_ktype = {
	.release = ssdstripe_kobj_release,
	.sysfs_ops = &ssdstripe_sysfs_ops,
	.default_groups = ssdstripe_top_groups,
};

static const struct kobj_type ssdstripe_member_ktype = {
	.release = ssdstripe_kobj_release,
	.sysfs_ops = &ssdstripe_sysfs_ops,
	.default_groups = ssdstripe_member_groups,
};

static void __ssdstripe_sysfs_del(struct ssdstripe_c *sc)
{
	unsigned int i;

	for (i = 0; i < sc->geom.members; i++) {
		if (!sc->sysfs_member[i])
			continue;
		sysfs_remove_link(&sc->sysfs_member[i]->kobj, "block");
		kobject_del(&sc->sysfs_member[i]->kobj);
		kobject_put(&sc->sysfs_member[i]->kobj);
		sc->sysfs_member[i] = NULL;
	}
	if (sc->sysfs_members) {
		kobject_del(sc->sysfs_members);
		kobject_put(sc->sysfs_members);
		sc->sysfs_members = NULL;
	}
	if (sc->sysfs_top) {
		kobject_del(&sc->sysfs_top->kobj);
		kobject_put(&sc->sysfs_top->kobj);
		sc->sysfs_top = NULL;
	}
	list_del_init(&sc->sysfs_node);
}

static struct ssdstripe_kobj *ssdstripe_kobj_new(struct ssdstripe_c *sc,
						 unsigned int member,
						 const struct kobj_type *type,
						 struct kobject *parent,
						 const char *name)
{
	struct ssdstripe_kobj *k;

	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return NULL;
	k->sc = sc;
	k->member = member;
	atomic_inc(&sc->kobj_count);
	if (kobject_init_and_add(&k->kobj, type, parent, "%s", name)) {
		kobject_put(&k->kobj);
		return NULL;
	}

	return k;
}

static int __ssdstripe_sysfs_add(struct ssdstripe_c *sc)
{
	struct kobject *disk = &disk_to_dev(dm_disk(sc->md))->kobj;
	struct ssdstripe_kobj *k;
	char name[16];
	unsigned int i;

	list_add(&sc->sysfs_node, &ssdstripe_sysfs_owners);

	sc->sysfs_top = ssdstripe_kobj_new(sc, 0, &ssdstripe_top_ktype, disk,
					   "ssdstripe");
	if (!sc->sysfs_top)
		goto bad;

	sc->sysfs_members = kobject_create_and_add("members",
						   &sc->sysfs_top->kobj);
	if (!sc->sysfs_members)
		goto bad;

	for (i = 0; i < sc->geom.members; i++) {
		snprintf(name, sizeof(name), "%u", i);
		k = ssdstripe_kobj_new(sc, i, &ssdstripe_member_ktype,
				       sc->sysfs_members, name);
		if (!k)
			goto bad;
		sc->sysfs_member[i] = k;
		if (sysfs_create_link(&k->kobj,
				      &sc->member[i].dev->bdev->bd_device.kobj,
				      "block"))
			goto bad;
	}

	return 0;

bad:
	__ssdstripe_sysfs_del(sc);
	return -ENOMEM;
}

/* A new segment (ctr): a reload may later take over what it knows. */
void ssdstripe_sysfs_register(struct ssdstripe_c *sc)
{
	mutex_lock(&ssdstripe_sysfs_lock);
	list_add(&sc->segment_node, &ssdstripe_segments);
	mutex_unlock(&ssdstripe_sysfs_lock);
}

/*
 * At a table's first resume, each of its ssdstripe segments takes over
 * what the segments of the table it replaces knew of the members that
 * stay (ssdstripe_inherit()); a table loaded but never resumed knows
 * nothing.  The old table is suspended, and it cannot be destroyed while
 * we hold the lock (its dtr unregisters first).
 */
static void __ssdstripe_takeover(struct ssdstripe_c *sc)
{
	struct ssdstripe_c *o;

	if (sc->resumed)
		return;
	sc->resumed = true;
	list_for_each_entry(o, &ssdstripe_segments, segment_node) {
		if (o->md == sc->md && o->ti->table != sc->ti->table &&
		    o->resumed)
			ssdstripe_inherit(sc, o);
	}
}

/* Make this table's sysfs directory the device's, at resume. */
void ssdstripe_sysfs_publish(struct ssdstripe_c *sc)
{
	struct ssdstripe_c *o, *tmp;
	unsigned int noio;

	mutex_lock(&ssdstripe_sysfs_lock);
	__ssdstripe_takeover(sc);
	if (sc->sysfs_top)
		goto out;

	list_for_each_entry_safe(o, tmp, &ssdstripe_sysfs_owners, sysfs_node) {
		if (o->md != sc->md)
			continue;
		/* Another ssdstripe segment of this same table owns it. */
		if (o->ti->table == sc->ti->table)
			goto out;
		/* The table this one replaces. */
		__ssdstripe_sysfs_del(o);
	}

	/* The device is suspended: allocations must not recurse into I/O. */
	noio = memalloc_noio_save();
	if (__ssdstripe_sysfs_add(sc))
		DMERR("%s: cannot create sysfs directory",
		      dm_table_device_name(sc->ti->table));
	memalloc_noio_restore(noio);
out:
	mutex_unlock(&ssdstripe_sysfs_lock);
}

/* The segment goes (dtr): its directory, if it owns it, and its takeover. */
void ssdstripe_sysfs_unpublish(struct ssdstripe_c *sc)
{
	mutex_lock(&ssdstripe_sysfs_lock);
	if (!list_empty(&sc->sysfs_node))
		__ssdstripe_sysfs_del(sc);
	list_del_init(&sc->segment_node);
	mutex_unlock(&ssdstripe_sysfs_lock);
}
