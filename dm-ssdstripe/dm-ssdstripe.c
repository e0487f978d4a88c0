// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * dm-ssdstripe: RAID-0 striping across SSDs with the data layout of the
 * kernel's "striped" target, discard/write-zeroes/secure-erase passed down
 * as one bio per member, and discard limits that scale with the members.
 */

#include <linux/device-mapper.h>

#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "compat.h"

#define DM_MSG_PREFIX "ssdstripe"

/* Stop raising events for a member after this many errors (as dm-stripe). */
#define SSDSTRIPE_ERROR_EVENT_LIMIT 15

/* Room for the feature arguments to come (health thresholds). */
#define SSDSTRIPE_MAX_FEATURE_ARGS 8

/*
 * Geometry of the array.  Immutable once the table is live, so the map
 * path reads it without locking.
 */
struct ssdstripe_geom {
	unsigned int members;
	unsigned int chunk;		/* sectors */
	int members_shift;		/* log2(members), or -1 if not pow2 */
	int chunk_shift;		/* log2(chunk), or -1 if not pow2 */
};

struct ssdstripe_member {
	struct dm_dev *dev;
	sector_t offset;
	atomic_t error_count;
};

struct ssdstripe_c {
	struct ssdstripe_geom geom;
	sector_t width;			/* sectors used on each member */
	bool discard_passdown;
	struct dm_target *ti;
	struct work_struct trigger_event;
	struct ssdstripe_member member[];
};

/* The part of a table line that can be checked without opening devices. */
struct ssdstripe_params {
	unsigned int members;
	unsigned int chunk;
	bool no_discard_passdown;
	char **member_argv;		/* <dev> <offset> pairs */
};

static int ssdstripe_log2_or_neg(unsigned int v)
{
	return is_power_of_2(v) ? ilog2(v) : -1;
}

static void ssdstripe_geom_init(struct ssdstripe_geom *g, unsigned int members,
				unsigned int chunk)
{
	g->members = members;
	g->chunk = chunk;
	g->members_shift = ssdstripe_log2_or_neg(members);
	g->chunk_shift = ssdstripe_log2_or_neg(chunk);
}

/*
 * Map target-relative @sector to a member and a member-relative sector
 * (before the member's offset is added).  Chunk k lives on member k mod N
 * at (k div N) * chunk, exactly as dm-stripe lays it out.
 */
static void ssdstripe_map_sector(const struct ssdstripe_geom *g, sector_t sector,
				 unsigned int *member, sector_t *result)
{
	sector_t chunk = sector;
	sector_t chunk_offset;

	if (g->chunk_shift < 0) {
		chunk_offset = sector_div(chunk, g->chunk);
	} else {
		chunk_offset = chunk & (g->chunk - 1);
		chunk >>= g->chunk_shift;
	}

	if (g->members_shift < 0) {
		*member = sector_div(chunk, g->members);
	} else {
		*member = chunk & (g->members - 1);
		chunk >>= g->members_shift;
	}

	if (g->chunk_shift < 0)
		chunk *= g->chunk;
	else
		chunk <<= g->chunk_shift;

	*result = chunk + chunk_offset;
}

/*
 * First member-relative sector of @member at or after target-relative
 * @sector.  Used for both ends of a discard range: the member's share of
 * [start, end) is [lower(start), lower(end)).
 */
static sector_t ssdstripe_member_lower(const struct ssdstripe_geom *g,
				       sector_t sector, unsigned int member)
{
	unsigned int m;
	sector_t r, tmp;

	ssdstripe_map_sector(g, sector, &m, &r);
	if (m == member)
		return r;

	/* Not on this member: move to the start of a chunk boundary. */
	if (g->chunk_shift < 0) {
		tmp = r;
		r -= sector_div(tmp, g->chunk);
	} else {
		r &= ~(sector_t)(g->chunk - 1);
	}

	/* Member comes before the hit in this row: its next chunk is a row on. */
	if (member < m)
		r += g->chunk;

	return r;
}

/*
 * The share of target-relative range [start, start + len) that lands on
 * @member, as member-relative [*begin, *end).  Returns false when the
 * member holds none of it.
 */
static bool ssdstripe_member_range(const struct ssdstripe_geom *g,
				   sector_t start, sector_t len,
				   unsigned int member,
				   sector_t *begin, sector_t *end)
{
	*begin = ssdstripe_member_lower(g, start, member);
	*end = ssdstripe_member_lower(g, start + len, member);

	return *begin < *end;
}

/*
 * Largest discard a single array bio may carry so that no member's share
 * exceeds that member's own limit @member_max.  Any window of N * k * chunk
 * logical sectors gives every member exactly k * chunk sectors, whatever
 * its alignment.
 */
static unsigned int ssdstripe_scaled_limit(const struct ssdstripe_geom *g,
					   unsigned int member_max)
{
	unsigned int per_member, scaled;

	if (!member_max || member_max < g->chunk || g->members == 1)
		return member_max;

	per_member = member_max - member_max % g->chunk;
	if (check_mul_overflow(per_member, g->members, &scaled)) {
		/* Largest multiple of a full stripe that fits. */
		scaled = UINT_MAX / g->members;
		scaled -= scaled % g->chunk;
		scaled *= g->members;
	}

	return scaled;
}

/* Strict decimal numbers: no sign, no trailing junk, no overflow. */
static int ssdstripe_parse_uint(const char *arg, unsigned int *out)
{
	return kstrtouint(arg, 10, out);
}

static int ssdstripe_parse_sector(const char *arg, sector_t *out)
{
	unsigned long long tmp;
	int r;

	r = kstrtoull(arg, 10, &tmp);
	if (r)
		return r;
	if (tmp != (sector_t)tmp)
		return -ERANGE;
	*out = tmp;

	return 0;
}

static int ssdstripe_parse_features(struct dm_arg_set *as,
				    struct ssdstripe_params *p, char **error)
{
	static const struct dm_arg _args[] = {
		{0, SSDSTRIPE_MAX_FEATURE_ARGS, "Invalid number of feature arguments"},
	};
	unsigned int argc;
	const char *arg;
	int r;

	/* dm_read_arg_group() uses sscanf(), which wraps on overflow. */
	if (kstrtouint(as->argv[0], 10, &argc)) {
		*error = _args[0].error;
		return -EINVAL;
	}

	r = dm_read_arg_group(_args, as, &argc, error);
	if (r)
		return r;

	while (argc--) {
		arg = dm_shift_arg(as);

		if (!strcasecmp(arg, "no_discard_passdown")) {
			if (p->no_discard_passdown) {
				*error = "Duplicate no_discard_passdown argument";
				return -EINVAL;
			}
			p->no_discard_passdown = true;
			continue;
		}

		*error = "Unrecognised feature argument";
		return -EINVAL;
	}

	if (as->argc) {
		*error = "Too many arguments";
		return -EINVAL;
	}

	return 0;
}

/*
 * Check everything in a table line that does not need the member devices:
 * counts, numbers, the geometry against the target length, and features.
 */
static int ssdstripe_parse_params(unsigned int argc, char **argv, sector_t len,
				  struct ssdstripe_params *p, char **error)
{
	struct dm_arg_set as;
	sector_t width, offset;
	unsigned int i;

	memset(p, 0, sizeof(*p));

	if (argc < 2) {
		*error = "Not enough arguments";
		return -EINVAL;
	}

	if (ssdstripe_parse_uint(argv[0], &p->members) || !p->members) {
		*error = "Invalid member count";
		return -EINVAL;
	}

	if (ssdstripe_parse_uint(argv[1], &p->chunk) || !p->chunk) {
		*error = "Invalid chunk size";
		return -EINVAL;
	}

	if (p->members > (argc - 2) / 2) {
		*error = "Not enough destinations specified";
		return -EINVAL;
	}
	p->member_argv = argv + 2;

	for (i = 0; i < p->members; i++) {
		if (ssdstripe_parse_sector(p->member_argv[2 * i + 1], &offset)) {
			*error = "Invalid device offset";
			return -EINVAL;
		}
	}

	width = len;
	if (sector_div(width, p->members)) {
		*error = "Target length not divisible by number of members";
		return -EINVAL;
	}

	if (sector_div(width, p->chunk)) {
		*error = "Target length not divisible by chunk size";
		return -EINVAL;
	}

	as.argc = argc - 2 - 2 * p->members;
	as.argv = argv + 2 + 2 * p->members;
	if (as.argc)
		return ssdstripe_parse_features(&as, p, error);

	return 0;
}

static void ssdstripe_trigger_event(struct work_struct *work)
{
	struct ssdstripe_c *sc = container_of(work, struct ssdstripe_c,
					      trigger_event);

	dm_table_event(sc->ti->table);
}

static void ssdstripe_put_members(struct dm_target *ti, struct ssdstripe_c *sc,
				  unsigned int count)
{
	while (count--)
		dm_put_device(ti, sc->member[count].dev);
}

/* Open member @i and check it can hold its share of the array. */
static int ssdstripe_get_member(struct dm_target *ti, struct ssdstripe_c *sc,
				unsigned int i, char **member_argv)
{
	struct ssdstripe_member *m = &sc->member[i];
	struct block_device *bdev;
	unsigned int lbs, j;
	sector_t end;
	int r;

	/* Cannot fail: ssdstripe_parse_params() checked every offset. */
	r = ssdstripe_parse_sector(member_argv[2 * i + 1], &m->offset);
	if (r) {
		ti->error = "Invalid device offset";
		return r;
	}

	r = dm_get_device(ti, member_argv[2 * i], dm_table_get_mode(ti->table),
			  &m->dev);
	if (r) {
		ti->error = "Device lookup failed";
		return r;
	}
	bdev = m->dev->bdev;

	for (j = 0; j < i; j++) {
		if (sc->member[j].dev->bdev == bdev) {
			ti->error = "Duplicate member device";
			goto bad;
		}
	}

	lbs = bdev_logical_block_size(bdev) >> SECTOR_SHIFT;
	if (sc->geom.chunk % lbs) {
		ti->error = "Chunk size not a multiple of member logical block size";
		goto bad;
	}

	if (m->offset % lbs) {
		ti->error = "Member offset not aligned to logical block size";
		goto bad;
	}

	if (check_add_overflow(m->offset, sc->width, &end) ||
	    end > bdev_nr_sectors(bdev)) {
		ti->error = "Member device too small for target";
		goto bad;
	}

	atomic_set(&m->error_count, 0);
	return 0;

bad:
	dm_put_device(ti, m->dev);
	return -EINVAL;
}

/*
 * Construct a striped mapping with the layout of dm-stripe:
 *
 * <#members> <chunk_sectors> <dev> <offset> [<dev> <offset>]...
 *	[<#feature_args> [no_discard_passdown]]
 */
static int ssdstripe_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct ssdstripe_params p;
	struct ssdstripe_c *sc;
	unsigned int i;
	int r;

	r = ssdstripe_parse_params(argc, argv, ti->len, &p, &ti->error);
	if (r)
		return r;

	sc = kzalloc(struct_size(sc, member, p.members), GFP_KERNEL);
	if (!sc) {
		ti->error = "Cannot allocate ssdstripe context";
		return -ENOMEM;
	}

	ssdstripe_geom_init(&sc->geom, p.members, p.chunk);
	sc->width = div_u64(ti->len, p.members);
	sc->discard_passdown = !p.no_discard_passdown;
	sc->ti = ti;
	INIT_WORK(&sc->trigger_event, ssdstripe_trigger_event);

	r = dm_set_target_max_io_len(ti, p.chunk);
	if (r)
		goto bad_free;

	for (i = 0; i < p.members; i++) {
		r = ssdstripe_get_member(ti, sc, i, p.member_argv);
		if (r) {
			ssdstripe_put_members(ti, sc, i);
			goto bad_free;
		}
	}

	ti->num_flush_bios = p.members;
	ti->num_discard_bios = sc->discard_passdown ? p.members : 0;
	ti->num_secure_erase_bios = p.members;
	ti->num_write_zeroes_bios = p.members;
	ti->per_io_data_size = sizeof(unsigned int);
	ti->private = sc;

	return 0;

bad_free:
	kfree(sc);
	return r;
}

static void ssdstripe_dtr(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	ssdstripe_put_members(ti, sc, sc->geom.members);
	flush_work(&sc->trigger_event);
	kfree(sc);
}

static void ssdstripe_set_member(struct bio *bio, unsigned int member)
{
	*(unsigned int *)dm_per_bio_data(bio, sizeof(unsigned int)) = member;
}

static int ssdstripe_map_range(struct ssdstripe_c *sc, struct bio *bio,
			       unsigned int member)
{
	sector_t begin, end;

	if (!ssdstripe_member_range(&sc->geom,
				    dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
				    bio_sectors(bio), member, &begin, &end)) {
		/* Nothing of this range lives on @member. */
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}

	ssdstripe_set_member(bio, member);
	bio_set_dev(bio, sc->member[member].dev->bdev);
	bio->bi_iter.bi_sector = begin + sc->member[member].offset;
	bio->bi_iter.bi_size = to_bytes(end - begin);

	return DM_MAPIO_REMAPPED;
}

static int ssdstripe_map(struct dm_target *ti, struct bio *bio)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int member;
	sector_t sector;

	if (unlikely(bio->bi_opf & REQ_PREFLUSH)) {
		/* Empty flush: dm core clones it once per member. */
		member = dm_bio_get_target_bio_nr(bio);
		ssdstripe_set_member(bio, member);
		bio_set_dev(bio, sc->member[member].dev->bdev);
		return DM_MAPIO_REMAPPED;
	}

	if (unlikely(bio_op(bio) == REQ_OP_DISCARD ||
		     bio_op(bio) == REQ_OP_SECURE_ERASE ||
		     bio_op(bio) == REQ_OP_WRITE_ZEROES))
		return ssdstripe_map_range(sc, bio, dm_bio_get_target_bio_nr(bio));

	ssdstripe_map_sector(&sc->geom,
			     dm_target_offset(ti, bio->bi_iter.bi_sector),
			     &member, &sector);
	ssdstripe_set_member(bio, member);
	bio->bi_iter.bi_sector = sector + sc->member[member].offset;
	bio_set_dev(bio, sc->member[member].dev->bdev);

	return DM_MAPIO_REMAPPED;
}

static int ssdstripe_end_io(struct dm_target *ti, struct bio *bio,
			    blk_status_t *error)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int member;
	int count;

	if (likely(!*error))
		return DM_ENDIO_DONE;

	/* Read-ahead may fail; an unsupported operation is not a fault. */
	if ((bio->bi_opf & REQ_RAHEAD) || *error == BLK_STS_NOTSUPP)
		return DM_ENDIO_DONE;

	member = *(unsigned int *)dm_per_bio_data(bio, sizeof(unsigned int));
	if (WARN_ON_ONCE(member >= sc->geom.members))
		return DM_ENDIO_DONE;

	count = atomic_inc_return(&sc->member[member].error_count);
	if (count <= SSDSTRIPE_ERROR_EVENT_LIMIT)
		schedule_work(&sc->trigger_event);
	if (count == 1)
		DMERR_LIMIT("%s: I/O error on member %u (%s)",
			    dm_table_device_name(ti->table), member,
			    sc->member[member].dev->name);

	return DM_ENDIO_DONE;
}

static char ssdstripe_member_letter(struct ssdstripe_member *m)
{
	return atomic_read(&m->error_count) ? 'D' : 'A';
}

static void ssdstripe_status(struct dm_target *ti, status_type_t type,
			     unsigned int status_flags, char *result,
			     unsigned int maxlen)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int sz = 0;
	unsigned int i;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u ", sc->geom.members);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT("%s ", sc->member[i].dev->name);
		DMEMIT("1 ");
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT("%c", ssdstripe_member_letter(&sc->member[i]));
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%u %u", sc->geom.members, sc->geom.chunk);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT(" %s %llu", sc->member[i].dev->name,
			       (unsigned long long)sc->member[i].offset);
		if (!sc->discard_passdown)
			DMEMIT(" 1 no_discard_passdown");
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",members=%u,chunk_size=%u,discard_passdown=%c",
		       sc->geom.members, sc->geom.chunk,
		       sc->discard_passdown ? 'y' : 'n');
		for (i = 0; i < sc->geom.members; i++) {
			DMEMIT(",member_%u_device_name=%s", i,
			       sc->member[i].dev->name);
			DMEMIT(",member_%u_physical_start=%llu", i,
			       (unsigned long long)sc->member[i].offset);
			DMEMIT(",member_%u_status=%c", i,
			       ssdstripe_member_letter(&sc->member[i]));
		}
		DMEMIT(";");
		break;
	}
}

static int ssdstripe_iterate_devices(struct dm_target *ti,
				     iterate_devices_callout_fn fn, void *data)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int i;
	int r = 0;

	for (i = 0; i < sc->geom.members && !r; i++)
		r = fn(ti, sc->member[i].dev, sc->member[i].offset, sc->width,
		       data);

	return r;
}

static void ssdstripe_io_hints(struct dm_target *ti,
			       struct queue_limits *limits)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_geom *g = &sc->geom;
	unsigned int io_min, io_opt;

	limits->chunk_sectors = g->chunk;

	if (!check_shl_overflow(g->chunk, SECTOR_SHIFT, &io_min) &&
	    !check_mul_overflow(io_min, g->members, &io_opt)) {
		limits->io_min = io_min;
		limits->io_opt = io_opt;
	}

	/*
	 * @limits holds the smallest member limits here.  dm-stripe passes
	 * them on unchanged, so a large discard is split into pieces that
	 * each give every member only 1/N of what it accepts.
	 */
	limits->max_write_zeroes_sectors =
		ssdstripe_scaled_limit(g, limits->max_write_zeroes_sectors);
	limits->max_secure_erase_sectors =
		ssdstripe_scaled_limit(g, limits->max_secure_erase_sectors);

	if (!sc->discard_passdown) {
		limits->max_discard_sectors = 0;
		limits->max_hw_discard_sectors = 0;
		limits->discard_granularity = 0;
		return;
	}

	limits->max_hw_discard_sectors =
		ssdstripe_scaled_limit(g, limits->max_hw_discard_sectors);
	limits->max_discard_sectors =
		ssdstripe_scaled_limit(g, limits->max_discard_sectors);
}

static struct target_type ssdstripe_target = {
	.name		 = "ssdstripe",
	.version	 = {1, 0, 0},
	.features	 = DM_TARGET_PASSES_INTEGRITY | DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = ssdstripe_ctr,
	.dtr		 = ssdstripe_dtr,
	.map		 = ssdstripe_map,
	.end_io		 = ssdstripe_end_io,
	.status		 = ssdstripe_status,
	.iterate_devices = ssdstripe_iterate_devices,
	.io_hints	 = ssdstripe_io_hints,
};
module_dm(ssdstripe);

MODULE_DESCRIPTION(DM_NAME " RAID-0 striping for SSDs with discard pass-through");
MODULE_AUTHOR("The dm-ssdstripe authors");
MODULE_LICENSE("GPL");

#if IS_ENABLED(CONFIG_DM_SSDSTRIPE_KUNIT_TEST)
#include "dm_ssdstripe_kunit.c"
#endif
