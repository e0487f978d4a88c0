// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * dm-ssdstripe: RAID-0 striping across SSDs with the data layout of the
 * kernel's "striped" target, discard/write-zeroes/secure-erase passed down
 * as one bio per member, discard limits that scale with the members, and
 * per-member statistics and health (ok, slow, erroring, stalled, failed) in
 * sysfs.
 *
 * This file is the target: table parsing, ctr/dtr, map/end_io, status,
 * message and io_hints.  Health is in ssdstripe-health.c, sysfs in
 * ssdstripe-sysfs.c, the layout arithmetic in ssdstripe-geom.h, reads and
 * writes across chunks in ssdstripe-gather.c, per-member accounting in
 * ssdstripe-stats.[ch].
 */

#include <linux/device-mapper.h>

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "ssdstripe-stats.h"

#define DM_MSG_PREFIX "ssdstripe"

/* Room for every feature with its value. */
#define SSDSTRIPE_MAX_FEATURE_ARGS 16

/*
 * dm-stripe's A (alive) and D (dead), plus S (slow), E (erroring) and H
 * (stalled: I/O hangs on it).
 */
static const char ssdstripe_state_letter[] = {
	[SSDSTRIPE_OK] = 'A',
	[SSDSTRIPE_SLOW] = 'S',
	[SSDSTRIPE_ERRORING] = 'E',
	[SSDSTRIPE_STALLED] = 'H',
	[SSDSTRIPE_FAILED] = 'D',
};

#define SSDSTRIPE_TUNABLE(_name, _field, _min, _max, _def, _error)	\
	{ .name = _name, .min = _min, .max = _max, .def = _def,	\
	  .offset = offsetof(struct ssdstripe_thresholds, _field),	\
	  .error = _error }

const struct ssdstripe_tunable ssdstripe_tunables[] = {
	SSDSTRIPE_TUNABLE("health_window_ms", window_ms, 100, 60000, 1000,
			  "Invalid health_window_ms value"),
	SSDSTRIPE_TUNABLE("slow_factor", slow_factor, 2, 1000, 4,
			  "Invalid slow_factor value"),
	SSDSTRIPE_TUNABLE("slow_min_latency_us", slow_min_latency_us, 0,
			  10000000, 200, "Invalid slow_min_latency_us value"),
	SSDSTRIPE_TUNABLE("slow_windows", slow_windows, 1, 1000, 3,
			  "Invalid slow_windows value"),
	SSDSTRIPE_TUNABLE("recover_windows", recover_windows, 1, 1000, 3,
			  "Invalid recover_windows value"),
	SSDSTRIPE_TUNABLE("min_ios", min_ios, 1, 1000000, 16,
			  "Invalid min_ios value"),
	SSDSTRIPE_TUNABLE("fail_windows", fail_windows, 1, 1000, 3,
			  "Invalid fail_windows value"),
	/*
	 * A healthy SSD completes a read or write within a second even
	 * behind a deep queue or a garbage-collection pause; NVMe gives up
	 * on a command after 30 s (nvme_core.io_timeout) and a fabric member
	 * may queue I/O for ctrl_loss_tmo (600 s).  5 s names a hung drive or
	 * a dropped link well before either.  0: no stall detection.
	 */
	SSDSTRIPE_TUNABLE("stall_ms", stall_ms, 0, 3600000, 5000,
			  "Invalid stall_ms value"),
};
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_tunables);

VISIBLE_IF_KUNIT void
ssdstripe_thresholds_default(struct ssdstripe_thresholds *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		*ssdstripe_tunable_ptr(t, &ssdstripe_tunables[i]) =
			ssdstripe_tunables[i].def;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_thresholds_default);

VISIBLE_IF_KUNIT const struct ssdstripe_tunable *
ssdstripe_find_tunable(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++)
		if (!strcasecmp(name, ssdstripe_tunables[i].name))
			return &ssdstripe_tunables[i];

	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_find_tunable);

/*
 * The thresholds' defaults, read-only in /sys/module/dm_ssdstripe/parameters/
 * for the tools: "dmsetup table" leaves out a threshold at its default, so
 * they could not tell its value without a copy of the table above.  Not
 * settable: a table line must mean the same wherever it is loaded.  A value
 * given anyway (modprobe slow_factor=5, the kernel command line) is ignored
 * with a warning, as an unknown parameter would be, so that the module still
 * loads; a bare name without "=value" is refused by the kernel's parser.
 */
static const struct ssdstripe_tunable *
ssdstripe_param_tunable(const struct kernel_param *kp)
{
	/* kp->name is MODULE_PARAM_PREFIX (empty in a module) and the name */
	return ssdstripe_find_tunable(kp->name + sizeof("" MODULE_PARAM_PREFIX) - 1);
}

static int ssdstripe_param_get(char *buffer, const struct kernel_param *kp)
{
	const struct ssdstripe_tunable *tu = ssdstripe_param_tunable(kp);

	if (!tu)
		return -ENOENT;

	return sysfs_emit(buffer, "%u\n", tu->def);
}

#define SSDSTRIPE_PARAM_IGNORED						\
	"parameter %s=%s ignored: it is read-only, the default %u of every "	\
	"table; give a table the feature %s <value>, or use dmsetup message "	\
	"<device> 0 %s <value>"

static int ssdstripe_param_set(const char *val, const struct kernel_param *kp)
{
	const struct ssdstripe_tunable *tu = ssdstripe_param_tunable(kp);

	if (tu)
		DMWARN(SSDSTRIPE_PARAM_IGNORED, tu->name, val ? val : "",
		       tu->def, tu->name, tu->name);

	return 0;
}

static const struct kernel_param_ops ssdstripe_param_ops = {
	.set = ssdstripe_param_set,
	.get = ssdstripe_param_get,
};

module_param_cb(health_window_ms, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(health_window_ms, "Default health_window_ms of a table (read-only)");
module_param_cb(slow_factor, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(slow_factor, "Default slow_factor of a table (read-only)");
module_param_cb(slow_min_latency_us, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(slow_min_latency_us, "Default slow_min_latency_us of a table (read-only)");
module_param_cb(slow_windows, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(slow_windows, "Default slow_windows of a table (read-only)");
module_param_cb(recover_windows, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(recover_windows, "Default recover_windows of a table (read-only)");
module_param_cb(min_ios, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(min_ios, "Default min_ios of a table (read-only)");
module_param_cb(fail_windows, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(fail_windows, "Default fail_windows of a table (read-only)");
module_param_cb(stall_ms, &ssdstripe_param_ops, NULL, 0444);
MODULE_PARM_DESC(stall_ms, "Default stall_ms of a table (read-only)");

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

/* Set tunable @tu in @t from @value, within its bounds. */
static int ssdstripe_set_tunable(struct ssdstripe_thresholds *t,
				 const struct ssdstripe_tunable *tu,
				 const char *value)
{
	unsigned int v;

	if (!value || ssdstripe_parse_uint(value, &v) || v < tu->min ||
	    v > tu->max)
		return -EINVAL;
	WRITE_ONCE(*ssdstripe_tunable_ptr(t, tu), v);

	return 0;
}

static bool ssdstripe_tunable_is_stall(const struct ssdstripe_tunable *tu)
{
	return tu->offset == offsetof(struct ssdstripe_thresholds, stall_ms);
}

/*
 * What thresholds @t of a table with accounting on (@stats) must say
 * together, or NULL.  A stall is measured from one health sample to the
 * next (ssdstripe_health_stall()): a stall_ms shorter than a window is
 * not a time the measure can tell.  Without accounting nothing is
 * measured.
 */
static const char *ssdstripe_check_thresholds(const struct ssdstripe_thresholds *t,
					      bool stats)
{
	if (stats && t->stall_ms && t->stall_ms < t->window_ms)
		return "stall_ms shorter than health_window_ms";

	return NULL;
}

static int ssdstripe_parse_features(struct dm_arg_set *as,
				    struct ssdstripe_params *p, char **error)
{
	static const struct dm_arg _args[] = {
		{0, SSDSTRIPE_MAX_FEATURE_ARGS, "Invalid number of feature arguments"},
	};
	const struct ssdstripe_tunable *tu;
	unsigned int argc, bit;
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

		if (!strcasecmp(arg, "no_stats")) {
			if (p->no_stats) {
				*error = "Duplicate no_stats argument";
				return -EINVAL;
			}
			p->no_stats = true;
			continue;
		}

		tu = ssdstripe_find_tunable(arg);
		if (!tu) {
			*error = "Unrecognised feature argument";
			return -EINVAL;
		}
		bit = tu - ssdstripe_tunables;
		if (p->tunables_set & BIT(bit)) {
			*error = "Duplicate health threshold argument";
			return -EINVAL;
		}
		if (!argc || ssdstripe_set_tunable(&p->thr, tu,
						   dm_shift_arg(as))) {
			*error = (char *)tu->error;
			return -EINVAL;
		}
		argc--;
		p->tunables_set |= BIT(bit);
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
 * The offsets parsed are kept in p->offset, which the caller frees with
 * kfree() whether the line was accepted or not.
 */
VISIBLE_IF_KUNIT int ssdstripe_parse_params(unsigned int argc, char **argv,
					    sector_t len, struct ssdstripe_params *p,
					    char **error)
{
	const struct ssdstripe_tunable *stall;
	struct dm_arg_set as;
	const char *bad;
	sector_t width;
	unsigned int i;
	int r;

	memset(p, 0, sizeof(*p));
	ssdstripe_thresholds_default(&p->thr);

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

	p->offset = kcalloc(p->members, sizeof(*p->offset), GFP_KERNEL);
	if (!p->offset) {
		*error = "Cannot allocate member offsets";
		return -ENOMEM;
	}
	for (i = 0; i < p->members; i++) {
		if (ssdstripe_parse_sector(p->member_argv[2 * i + 1],
					   &p->offset[i])) {
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
	if (as.argc) {
		r = ssdstripe_parse_features(&as, p, error);
		if (r)
			return r;
	}

	/* Stall detection counts on accounting: no_stats turns it off. */
	stall = ssdstripe_find_tunable("stall_ms");
	if (p->no_stats && p->thr.stall_ms &&
	    (p->tunables_set & BIT(stall - ssdstripe_tunables))) {
		*error = "Cannot measure stall_ms with no_stats";
		return -EINVAL;
	}
	bad = ssdstripe_check_thresholds(&p->thr, !p->no_stats);
	if (bad) {
		*error = (char *)bad;
		return -EINVAL;
	}

	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_parse_params);

/* --- target ------------------------------------------------------------ */

/* Account a clone that map sends to @member (ssdstripe-stats.h). */
static __always_inline void
ssdstripe_account_clone(struct ssdstripe_c *sc, struct bio *bio,
			unsigned int member)
{
	ssdstripe_account_start(sc, &ssdstripe_clone_data(sc->ti, bio)->io, bio,
				member);
}

static void ssdstripe_put_members(struct dm_target *ti, struct ssdstripe_c *sc,
				  unsigned int count)
{
	while (count--) {
		dm_put_device(ti, sc->member[count].dev);
		free_percpu(sc->member[count].stats);
	}
}

/* Open member @i and check it can hold its share of the array. */
static int ssdstripe_get_member(struct dm_target *ti, struct ssdstripe_c *sc,
				unsigned int i,
				const struct ssdstripe_params *p)
{
	struct ssdstripe_member *m = &sc->member[i];
	struct block_device *bdev;
	unsigned int lbs, j;
	sector_t end;
	int r;

	m->offset = p->offset[i];
	r = dm_get_device(ti, p->member_argv[2 * i],
			  dm_table_get_mode(ti->table), &m->dev);
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

	m->stats = alloc_percpu(struct ssdstripe_stats);
	if (!m->stats) {
		ti->error = "Cannot allocate member statistics";
		r = -ENOMEM;
		goto bad_put;
	}

	atomic_set(&m->error_events, 0);
	return 0;

bad:
	r = -EINVAL;
bad_put:
	dm_put_device(ti, m->dev);
	return r;
}

static void ssdstripe_free(struct ssdstripe_c *sc)
{
	ssdstripe_gather_exit(sc);
	mutex_destroy(&sc->health_lock);
	kfree(sc->sysfs_member);
	kfree(sc->next);
	kfree(sc->samples);
	kfree(sc->scratch);
	kfree(sc);
}

/*
 * Construct a striped mapping with the layout of dm-stripe:
 *
 * <#members> <chunk_sectors> <dev> <offset> [<dev> <offset>]...
 *	[<#feature_args> [no_discard_passdown] [no_stats]
 *	 [<health threshold> <value>]...]
 *
 * Health thresholds: health_window_ms, slow_factor, slow_min_latency_us,
 * slow_windows, recover_windows, min_ios, fail_windows, stall_ms (0, or
 * at least health_window_ms; not with no_stats).
 */
static int ssdstripe_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct ssdstripe_params p;
	struct ssdstripe_c *sc;
	unsigned int i;
	int r;

	r = ssdstripe_parse_params(argc, argv, ti->len, &p, &ti->error);
	if (r)
		goto bad_params;

	sc = kzalloc(struct_size(sc, member, p.members), GFP_KERNEL);
	if (!sc) {
		ti->error = "Cannot allocate ssdstripe context";
		r = -ENOMEM;
		goto bad_params;
	}
	/* two sorted sets of peers (ssdstripe_health_update) */
	sc->scratch = kcalloc(p.members, 2 * sizeof(*sc->scratch), GFP_KERNEL);
	sc->samples = kcalloc(p.members, sizeof(*sc->samples), GFP_KERNEL);
	sc->next = kcalloc(p.members, sizeof(*sc->next), GFP_KERNEL);
	sc->sysfs_member = kcalloc(p.members, sizeof(*sc->sysfs_member),
				   GFP_KERNEL);
	if (!sc->scratch || !sc->samples || !sc->next || !sc->sysfs_member) {
		ti->error = "Cannot allocate ssdstripe context";
		r = -ENOMEM;
		goto bad_free;
	}

	ssdstripe_geom_init(&sc->geom, p.members, p.chunk);
	sc->width = div_u64(ti->len, p.members);
	sc->discard_passdown = !p.no_discard_passdown;
	sc->stats = !p.no_stats;
	sc->thr = p.thr;
	sc->ti = ti;
	sc->md = dm_table_get_md(ti->table);
	mutex_init(&sc->health_lock);
	seqcount_mutex_init(&sc->state_seq, &sc->health_lock);
	atomic_set(&sc->kobj_count, 1);
	init_completion(&sc->kobj_released);
	INIT_WORK(&sc->trigger_event, ssdstripe_trigger_event);
	INIT_DELAYED_WORK(&sc->health_work, ssdstripe_health_work);
	INIT_LIST_HEAD(&sc->sysfs_node);
	INIT_LIST_HEAD(&sc->segment_node);

	/*
	 * No max_io_len: a read or write reaches map whole, and map either
	 * gathers it or splits it at its first chunk's end itself.
	 */
	sc->may_gather = p.members > 1 &&
		     p.members <= SSDSTRIPE_GATHER_MAX_MEMBERS;
	if (sc->may_gather) {
		r = ssdstripe_gather_init(sc);
		if (r) {
			ti->error = "Cannot allocate gather bio set";
			goto bad_free;
		}
	}

	for (i = 0; i < p.members; i++) {
		r = ssdstripe_get_member(ti, sc, i, &p);
		if (r) {
			ssdstripe_put_members(ti, sc, i);
			goto bad_free;
		}
	}

	ti->num_flush_bios = p.members;
	ti->num_discard_bios = sc->discard_passdown ? p.members : 0;
	ti->num_secure_erase_bios = p.members;
	ti->num_write_zeroes_bios = p.members;
	ti->per_io_data_size = sc->may_gather ?
		ssdstripe_gather_req_size(p.members) :
		sizeof(struct ssdstripe_clone_data);
	ti->private = sc;
	kfree(p.offset);
	ssdstripe_sysfs_register(sc);

	return 0;

bad_free:
	ssdstripe_free(sc);
bad_params:
	kfree(p.offset);
	return r;
}

static void ssdstripe_dtr(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	cancel_delayed_work_sync(&sc->health_work);
	ssdstripe_sysfs_unpublish(sc);
	/* Every release function of ours runs before the module can go. */
	if (!atomic_dec_and_test(&sc->kobj_count))
		wait_for_completion(&sc->kobj_released);
	flush_work(&sc->trigger_event);
	ssdstripe_put_members(ti, sc, sc->geom.members);
	ssdstripe_free(sc);
}

static int ssdstripe_map_range(struct ssdstripe_c *sc, struct bio *bio,
			       unsigned int member)
{
	sector_t begin, end;

	if (!ssdstripe_member_range(&sc->geom,
				    dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
				    bio_sectors(bio), member, &begin, &end)) {
		/*
		 * Nothing of this range lives on @member.  bio_endio() runs
		 * end_io, which must not take this clone for a member's I/O.
		 */
		ssdstripe_clone_data(sc->ti, bio)->io.member =
			SSDSTRIPE_NO_MEMBER;
		bio_endio(bio);
		return DM_MAPIO_SUBMITTED;
	}

	bio_set_dev(bio, sc->member[member].dev->bdev);
	bio->bi_iter.bi_sector = begin + sc->member[member].offset;
	bio->bi_iter.bi_size = to_bytes(end - begin);
	ssdstripe_account_clone(sc, bio, member);

	return DM_MAPIO_REMAPPED;
}

/*
 * Keep the first @sectors of @bio, up to its first chunk's end; dm core
 * sends the rest to map again.  An integrity payload is cut to match, as
 * dm core cuts that of a clone it shortens itself.
 */
static void ssdstripe_accept_chunk(struct bio *bio, unsigned int sectors)
{
	dm_accept_partial_bio(bio, sectors);
	if (bio_integrity(bio))
		bio_integrity_trim(bio);
}

/*
 * A member queue ends a REQ_NOWAIT bio it would have to split with
 * BLK_STS_AGAIN, and io_uring then reissues the whole request from a
 * worker thread, blocking: a chunk larger than what the member takes at
 * once (null_blk's 127.5 KiB, an NVMe drive's MDTS) would cost every
 * request that.  So cut @bio, bound for @member at @sector, to what the
 * member takes there in one request: its sectors at the whole disk's
 * sector (ssdstripe_bdev_max_at()) and, where the block layer can tell
 * (bio_split_rw_at()), its segments and virt boundary gaps too (a buffer
 * of several iovecs); dm core sends the rest to map again.  (For
 * striped, dm core cuts every bio to the array's max_sectors itself,
 * because the target sets max_io_len, and no further; ssdstripe must see
 * requests whole to gather them.)
 */
static void ssdstripe_nowait_fit(struct ssdstripe_c *sc, struct bio *bio,
				 unsigned int member, sector_t sector)
{
	struct block_device *bdev = sc->member[member].dev->bdev;
	unsigned int max, fit;

	max = ssdstripe_bdev_max_at(bdev, sector);
	if (!max)
		return;
	fit = ssdstripe_bio_fit_sectors(bio, &bdev_get_queue(bdev)->limits, max);
	if (fit)
		ssdstripe_accept_chunk(bio, fit);
}

static int ssdstripe_map(struct dm_target *ti, struct bio *bio)
{
	struct ssdstripe_c *sc = ti->private;
	unsigned int member, left;
	sector_t sector;

	if (unlikely(bio->bi_opf & REQ_PREFLUSH)) {
		/* Empty flush: dm core clones it once per member. */
		member = dm_bio_get_target_bio_nr(bio);
		bio_set_dev(bio, sc->member[member].dev->bdev);
		ssdstripe_account_clone(sc, bio, member);
		return DM_MAPIO_REMAPPED;
	}

	if (unlikely(bio_op(bio) == REQ_OP_DISCARD ||
		     bio_op(bio) == REQ_OP_SECURE_ERASE ||
		     bio_op(bio) == REQ_OP_WRITE_ZEROES))
		return ssdstripe_map_range(sc, bio, dm_bio_get_target_bio_nr(bio));

	sector = ssdstripe_remap(sc, dm_target_offset(ti, bio->bi_iter.bi_sector),
				 &member, &left);
	if (unlikely(bio_sectors(bio) > left) && sc->geom.members > 1) {
		/* Across chunks: one bio per member, or the first chunk now. */
		if (ssdstripe_gather(sc, bio))
			return DM_MAPIO_SUBMITTED;
		ssdstripe_accept_chunk(bio, left);
	}
	if (unlikely(bio->bi_opf & REQ_NOWAIT))
		ssdstripe_nowait_fit(sc, bio, member, sector);

	/*
	 * REQ_DRV is dm core's REQ_DM_POLL_LIST: set on a polled bio once its
	 * first part is queued for polling, and copied into the clone of its
	 * remainder (alloc_io() does not clear it as alloc_tio() does).  It
	 * is the member driver's flag below us: NVMe reads it as
	 * REQ_NVME_MPATH and oopses on a namespace without multipath.
	 */
	if (unlikely(bio->bi_opf & REQ_DRV))
		bio->bi_opf &= ~REQ_DRV;
	bio->bi_iter.bi_sector = sector;
	bio_set_dev(bio, sc->member[member].dev->bdev);
	ssdstripe_account_clone(sc, bio, member);

	return DM_MAPIO_REMAPPED;
}

static int ssdstripe_end_io(struct dm_target *ti, struct bio *bio,
			    blk_status_t *error)
{
	struct ssdstripe_c *sc = ti->private;
	struct ssdstripe_member_io *io = &ssdstripe_clone_data(ti, bio)->io;

	/* Nothing sent, or gathered bios that accounted themselves. */
	if (io->member == SSDSTRIPE_NO_MEMBER ||
	    io->member == SSDSTRIPE_GATHERED)
		return DM_ENDIO_DONE;
	if (WARN_ON_ONCE(io->member >= sc->geom.members))
		return DM_ENDIO_DONE;

	ssdstripe_account_end(sc, io, bio->bi_opf, *error);

	return DM_ENDIO_DONE;
}

static void ssdstripe_postsuspend(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	cancel_delayed_work_sync(&sc->health_work);
	ssdstripe_health_suspended(sc);
}

static void ssdstripe_resume(struct dm_target *ti)
{
	struct ssdstripe_c *sc = ti->private;

	ssdstripe_sysfs_publish(sc);

	/* Windows start afresh: what happened while suspended is not load. */
	mutex_lock(&sc->health_lock);
	__ssdstripe_sample_restart(sc);
	mutex_unlock(&sc->health_lock);
	queue_delayed_work(system_percpu_wq, &sc->health_work,
			   msecs_to_jiffies(READ_ONCE(sc->thr.window_ms)));
}

static void ssdstripe_status(struct dm_target *ti, status_type_t type,
			     unsigned int status_flags, char *result,
			     unsigned int maxlen)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_tunable *tu;
	unsigned int sz = 0, nfeat = 0, letters_sz, seq;
	enum ssdstripe_state st, array;
	struct ssdstripe_member *m;
	unsigned int i, v;

	switch (type) {
	case STATUSTYPE_INFO:
		DMEMIT("%u ", sc->geom.members);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT("%s ", sc->member[i].dev->name);
		DMEMIT("1 ");
		/* The letters and the array state of one snapshot. */
		letters_sz = sz;
		do {
			seq = read_seqcount_begin(&sc->state_seq);
			sz = letters_sz;
			for (i = 0; i < sc->geom.members; i++) {
				st = READ_ONCE(sc->member[i].state);
				DMEMIT("%c", ssdstripe_state_letter[st]);
			}
			array = READ_ONCE(sc->array_state);
		} while (read_seqcount_retry(&sc->state_seq, seq));
		DMEMIT(" %s 5", ssdstripe_array_state_name[array]);
		for (i = 0; i < sc->geom.members; i++) {
			m = &sc->member[i];
			DMEMIT(" %llu %llu %llu %llu %u",
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_READ]),
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_WRITE]),
			       SSDSTRIPE_SUM(m, ios[SSDSTRIPE_OP_DISCARD]),
			       ssdstripe_member_errors(m),
			       READ_ONCE(m->latency_us));
		}
		break;

	case STATUSTYPE_TABLE:
		DMEMIT("%u %u", sc->geom.members, sc->geom.chunk);
		for (i = 0; i < sc->geom.members; i++)
			DMEMIT(" %s %llu", sc->member[i].dev->name,
			       (unsigned long long)sc->member[i].offset);

		nfeat = !sc->discard_passdown + !sc->stats;
		for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++) {
			tu = &ssdstripe_tunables[i];
			if (READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr, tu)) != tu->def)
				nfeat += 2;
		}
		if (!nfeat)
			break;
		DMEMIT(" %u", nfeat);
		if (!sc->discard_passdown)
			DMEMIT(" no_discard_passdown");
		if (!sc->stats)
			DMEMIT(" no_stats");
		for (i = 0; i < ARRAY_SIZE(ssdstripe_tunables); i++) {
			tu = &ssdstripe_tunables[i];
			v = READ_ONCE(*ssdstripe_tunable_ptr(&sc->thr, tu));
			if (v != tu->def)
				DMEMIT(" %s %u", tu->name, v);
		}
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",members=%u,chunk_size=%u,discard_passdown=%c",
		       sc->geom.members, sc->geom.chunk,
		       sc->discard_passdown ? 'y' : 'n');
		letters_sz = sz;
		do {
			seq = read_seqcount_begin(&sc->state_seq);
			sz = letters_sz;
			for (i = 0; i < sc->geom.members; i++) {
				st = READ_ONCE(sc->member[i].state);
				DMEMIT(",member_%u_device_name=%s", i,
				       sc->member[i].dev->name);
				DMEMIT(",member_%u_physical_start=%llu", i,
				       (unsigned long long)sc->member[i].offset);
				DMEMIT(",member_%u_status=%c", i,
				       ssdstripe_state_letter[st]);
			}
		} while (read_seqcount_retry(&sc->state_seq, seq));
		DMEMIT(";");
		break;
	}
}

/*
 * Messages:
 *	reset_stats			zero I/O and sector counts, histograms,
 *					retries and gather_fallbacks (never
 *					errors or stalls)
 *	clear_errors			forget errors: error counts to 0, members
 *					not gone ok again (or slow, if slow)
 *	<health threshold> <value>	change a threshold (see the ctr)
 */
/*
 * Set threshold @tu of a live table to @value, or say why not.  Under
 * health_lock, so that two messages do not each pass the check against
 * the other's old value; the health work reads each threshold whole.
 */
VISIBLE_IF_KUNIT const char *
ssdstripe_message_tunable(struct ssdstripe_c *sc,
			  const struct ssdstripe_tunable *tu, const char *value)
{
	struct ssdstripe_thresholds t;
	const char *error = NULL;

	mutex_lock(&sc->health_lock);
	t = sc->thr;
	if (ssdstripe_set_tunable(&t, tu, value))
		error = tu->error;
	else if (!sc->stats && ssdstripe_tunable_is_stall(tu) && t.stall_ms)
		error = "Cannot measure stall_ms with no_stats";
	else
		error = ssdstripe_check_thresholds(&t, sc->stats);
	if (!error)
		WRITE_ONCE(*ssdstripe_tunable_ptr(&sc->thr, tu),
			   *ssdstripe_tunable_ptr(&t, tu));
	mutex_unlock(&sc->health_lock);

	return error;
}
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_message_tunable);

static int ssdstripe_message(struct dm_target *ti, unsigned int argc,
			     char **argv, char *result, unsigned int maxlen)
{
	struct ssdstripe_c *sc = ti->private;
	const struct ssdstripe_tunable *tu;
	const char *error;

	if (argc == 1 && !strcasecmp(argv[0], "reset_stats")) {
		ssdstripe_reset_stats(sc);
		return 0;
	}

	if (argc == 1 && !strcasecmp(argv[0], "clear_errors")) {
		ssdstripe_clear_errors(sc);
		return 0;
	}

	if (argc == 2) {
		tu = ssdstripe_find_tunable(argv[0]);
		if (tu) {
			error = ssdstripe_message_tunable(sc, tu, argv[1]);
			if (!error)
				return 0;
			DMERR("%s: %s", dm_table_device_name(ti->table), error);
			return -EINVAL;
		}
	}

	DMERR("%s: Unrecognised message", dm_table_device_name(ti->table));
	return -EINVAL;
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

/*
 * The array's limits from @limits, which holds the smallest member limits
 * when called.
 */
VISIBLE_IF_KUNIT void
ssdstripe_stack_limits(const struct ssdstripe_geom *g, bool discard_passdown,
		       struct queue_limits *limits)
{
	unsigned int io_min, io_opt, wz;

	/*
	 * No chunk_sectors, unlike dm-stripe: map must see a read or write
	 * whole to gather it, and on 6.12 bio_split_to_limits() would cut
	 * every write-zeroes at each chunk_sectors boundary before
	 * map_range() sees it, one bio per chunk instead of one per member.
	 * A member's own chunk_sectors means nothing in the array's address
	 * space either, so none is passed up.
	 */
	limits->chunk_sectors = 0;

	/*
	 * A request gathered from N * k chunks gives each member k chunks:
	 * the array takes N times what its smallest member takes at once.
	 * A member bio beyond the member's other limits (segments, virt
	 * boundary) is split by the member's own queue.
	 */
	limits->max_hw_sectors = ssdstripe_scaled_limit(g, limits->max_hw_sectors);
	limits->max_sectors = ssdstripe_scaled_limit(g, limits->max_sectors);
	if (limits->max_dev_sectors)
		limits->max_dev_sectors =
			ssdstripe_scaled_limit(g, limits->max_dev_sectors);

	if (!check_shl_overflow(g->chunk, SECTOR_SHIFT, &io_min) &&
	    !check_mul_overflow(io_min, g->members, &io_opt)) {
		limits->io_min = io_min;
		limits->io_opt = io_opt;
	}

	/*
	 * dm-stripe passes the member limits on unchanged, so a large discard
	 * is split into pieces that each give every member only 1/N of what
	 * it accepts.
	 */
	wz = ssdstripe_scaled_limit(g, limits->max_write_zeroes_sectors);
	ssdstripe_set_write_zeroes_limit(limits, wz);
	limits->max_secure_erase_sectors =
		ssdstripe_scaled_limit(g, limits->max_secure_erase_sectors);

	if (!discard_passdown) {
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
EXPORT_SYMBOL_IF_KUNIT(ssdstripe_stack_limits);

static void ssdstripe_io_hints(struct dm_target *ti,
			       struct queue_limits *limits)
{
	struct ssdstripe_c *sc = ti->private;

	ssdstripe_stack_limits(&sc->geom, sc->discard_passdown, limits);
}

static struct target_type ssdstripe_target = {
	.name		 = "ssdstripe",
	/* from VERSION (dm-ssdstripe/Kbuild), as are dkms.conf and the tool */
	.version	 = {SSDSTRIPE_VERSION_MAJOR, SSDSTRIPE_VERSION_MINOR,
			    SSDSTRIPE_VERSION_PATCH},
	.features	 = DM_TARGET_PASSES_INTEGRITY | DM_TARGET_NOWAIT,
	.module		 = THIS_MODULE,
	.ctr		 = ssdstripe_ctr,
	.dtr		 = ssdstripe_dtr,
	.map		 = ssdstripe_map,
	.end_io		 = ssdstripe_end_io,
	.postsuspend	 = ssdstripe_postsuspend,
	.resume		 = ssdstripe_resume,
	.status		 = ssdstripe_status,
	.message	 = ssdstripe_message,
	.iterate_devices = ssdstripe_iterate_devices,
	.io_hints	 = ssdstripe_io_hints,
};
module_dm(ssdstripe);

MODULE_DESCRIPTION(DM_NAME " RAID-0 striping for SSDs with discard pass-through and member health");
MODULE_AUTHOR("The dm-ssdstripe authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(SSDSTRIPE_VERSION);
