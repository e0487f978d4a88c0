// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Gather: a read or write that spans chunks reaches each member as one
 * bio.  Every member's share of a request is contiguous on the member
 * (chunk k lives at (k div N) * chunk), so instead of one clone per chunk
 * (256 for a 1 MiB request on 4 KiB chunks, each mapped, submitted and
 * completed on its own) map builds at most one bio per member from a
 * bio_set of its own, whose vectors gather that member's pieces of the
 * request in order, and completes the request when all of them are done,
 * with the first error.
 *
 * What is not gathered goes to map's remap path one chunk at a time, as
 * before: polled bios (dm core polls the clone it handed to map, not bios
 * of ours), REQ_NOWAIT bios whose member bios would not fit their queues
 * (see below), bios with an integrity payload (one payload would have to
 * be cut into N gathered ones; the target keeps DM_TARGET_PASSES_INTEGRITY
 * by sending those per chunk), operations other than read and write, and
 * any request whose gather would need memory that is not there at once.
 *
 * REQ_NOWAIT (io_uring's block I/O): a member queue refuses to split a
 * REQ_NOWAIT bio and ends it with BLK_STS_AGAIN (bio_split_rw_at()), and a
 * gathered bio may need splitting (an NVMe virt boundary between the
 * pieces of a buffer that is not page aligned, max_segments, max_sectors).
 * The request would then end with BLK_STS_AGAIN when its last member bio
 * completes, often in interrupt context, where io_uring cannot reissue
 * it, and the submitter gets -EAGAIN (002's io_uring run saw it).  So a
 * REQ_NOWAIT request is gathered only when every member bio fits its
 * queue as built, which the block layer's own bio_split_rw_at() tells
 * (page-aligned buffers, the common case, fit); otherwise, and on kernels
 * without that function (6.1), it takes the per-chunk path, where map
 * cuts each clone to what its member takes (ssdstripe_nowait_fit()): its
 * sectors, segments and gaps where bio_split_rw_at() tells them, its
 * sectors alone on 6.1, where a clone with more segments than the member
 * takes still ends with BLK_STS_AGAIN (a retry, as on dm-stripe).
 *
 * Memory and forward progress.  map never sleeps for a gathered bio:
 * every bio and vector array is asked for with GFP_NOWAIT.  The bio_set
 * has the smallest pool bioset_init() makes, and nothing counts on it:
 * a GFP_NOWAIT allocation reaches a mempool's reserve only in part, and
 * not on every kernel (6.12 takes a bio from it, but a vector array only
 * when BIO_MAX_VECS are asked for; newer kernels give up before the
 * pool).  If any of a request's bios cannot be had at once, those already
 * taken go back, gather_fallbacks counts the request, and it takes the
 * remap path for its first chunk, which needs nothing but the clone dm
 * core already gave us; dm core sends the rest to map again.  So a map
 * call never holds some of its bios while waiting for others (two
 * requests each holding half of a pool and waiting for the other half is
 * the deadlock that allocating several bios from one bio_set invites),
 * never waits on bios it has submitted itself (they sit on
 * current->bio_list until map returns), and the request always moves on,
 * one chunk at a time while memory is short.
 */

#include <linux/device-mapper.h>

#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/bvec.h>
#include <linux/overflow.h>

#include <trace/events/block.h>

#include "ssdstripe.h"
#include "ssdstripe-geom.h"
#include "ssdstripe-stats.h"

/* A gathered bio and what its completion needs. */
struct ssdstripe_gather_bio {
	struct ssdstripe_c *sc;
	struct bio *clone;		/* dm core's clone it carries part of */
	struct ssdstripe_member_io io;	/* this member I/O's accounting */
	sector_t from;			/* array sector of its first piece */
	struct bio bio;			/* last: the bio_set's front_pad */
};

size_t ssdstripe_gather_req_size(unsigned int members)
{
	/* members <= SSDSTRIPE_GATHER_MAX_MEMBERS: no overflow */
	return sizeof(struct ssdstripe_clone_data) +
	       members * sizeof(union ssdstripe_gather_slot);
}

int ssdstripe_gather_init(struct ssdstripe_c *sc)
{
	sc->gather_fallbacks = alloc_percpu(u64);
	if (!sc->gather_fallbacks)
		return -ENOMEM;

	/* No reserve to count on: see memory and forward progress above. */
	return bioset_init(&sc->gather_bioset, 1,
			   offsetof(struct ssdstripe_gather_bio, bio),
			   BIOSET_NEED_BVECS);
}

/* Safe on a context whose gather was never set up (zeroed with it). */
void ssdstripe_gather_exit(struct ssdstripe_c *sc)
{
	bioset_exit(&sc->gather_bioset);
	free_percpu(sc->gather_fallbacks);
}

/* Requests across chunks that went one chunk at a time for want of memory. */
u64 ssdstripe_gather_fallbacks(struct ssdstripe_c *sc)
{
	u64 sum = 0;
	int cpu;

	if (!sc->gather_fallbacks)
		return 0;
	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(sc->gather_fallbacks, cpu);

	return sum;
}

void ssdstripe_gather_reset_stats(struct ssdstripe_c *sc)
{
	u64 *count;
	int cpu;

	if (!sc->gather_fallbacks)
		return;
	for_each_possible_cpu(cpu) {
		count = per_cpu_ptr(sc->gather_fallbacks, cpu);
		*count = 0;
	}
}

/*
 * Vectors of @bytes of @src's data from *@it on, advancing *@it past them;
 * with @dst, append them to @dst too.
 */
static unsigned int ssdstripe_gather_vecs(struct bio *src, struct bvec_iter *it,
					  unsigned int bytes, struct bio *dst)
{
	unsigned int nr = 0;
	struct bio_vec bv;

	while (bytes) {
		bv = mp_bvec_iter_bvec(src->bi_io_vec, *it);
		bv.bv_len = min(bv.bv_len, bytes);
		if (dst) {
			dst->bi_io_vec[dst->bi_vcnt++] = bv;
			dst->bi_iter.bi_size += bv.bv_len;
		}
		bvec_iter_advance_single(src->bi_io_vec, it, bv.bv_len);
		bytes -= bv.bv_len;
		nr++;
	}

	return nr;
}

/*
 * May a REQ_NOWAIT gather add piece @p, whose data starts at @it, to its
 * member's bio without the member queue having to split that bio?  Not
 * if the bio would outgrow what the queue takes at once where the bio
 * starts (ssdstripe_bdev_max_at(), as ssdstripe_gather_fits() judges
 * it), nor if the piece's start is off a virt boundary (NVMe's page) of
 * the member that ends a piece there or the one that starts one: in the
 * member bios holding a piece before it or after it, that is a gap.
 * Stopping the request at the first such piece keeps the cost of a
 * request whose buffer is not aligned at one piece per map call: its
 * per-chunk remainders are planned again, each stopping at once.
 * ssdstripe_gather_fits() has the last word.  Takes @p's sectors from
 * its member's room when it says yes.
 */
static bool ssdstripe_gather_nowait_ok(struct ssdstripe_c *sc,
				       struct ssdstripe_clone_data *cdata,
				       struct bio *bio, struct bvec_iter *it,
				       const struct ssdstripe_piece *p)
{
	unsigned int members = sc->geom.members;
	struct ssdstripe_member *m = &sc->member[p->member];
	union ssdstripe_gather_slot *slot = &cdata->slot[p->member];
	struct request_queue *q = bdev_get_queue(m->dev->bdev);
	struct request_queue *prev;
	unsigned long mask;

	/* The member's first piece: where its bio starts. */
	if (!slot->nr_vecs)
		slot->room = ssdstripe_bdev_max_at(m->dev->bdev,
						   p->sector + m->offset);
	if (p->len > slot->room)
		return false;
	if (p->offset) {
		prev = bdev_get_queue(sc->member[(p->member + members - 1) % members].dev->bdev);
		mask = queue_virt_boundary(q) | queue_virt_boundary(prev);
		if (mp_bvec_iter_bvec(bio->bi_io_vec, *it).bv_offset & mask)
			return false;
	}
	slot->room -= p->len;

	return true;
}

/*
 * Plan the gather of @bio: each member's vector count in cdata->slot[].
 * Returns the sectors of @bio that fit in member bios of BIO_MAX_VECS
 * vectors (for REQ_NOWAIT, also in their queues' limits), whole pieces
 * only, and in *@pieces how many pieces that is.
 */
static unsigned int ssdstripe_gather_plan(struct ssdstripe_c *sc,
					  struct ssdstripe_clone_data *cdata,
					  struct bio *bio, unsigned int *pieces)
{
	unsigned int len = bio_sectors(bio), nr, i;
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	struct bvec_iter it = bio->bi_iter;
	struct ssdstripe_piece p;

	for (i = 0; i < sc->geom.members; i++)
		cdata->slot[i].nr_vecs = 0;

	*pieces = 0;
	ssdstripe_piece_first(&sc->geom,
			      dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
			      len, &p);
	do {
		if (nowait &&
		    !ssdstripe_gather_nowait_ok(sc, cdata, bio, &it, &p))
			return p.offset;
		nr = ssdstripe_gather_vecs(bio, &it, to_bytes(p.len), NULL);
		if (cdata->slot[p.member].nr_vecs + nr > BIO_MAX_VECS)
			return p.offset;
		cdata->slot[p.member].nr_vecs += nr;
		(*pieces)++;
	} while (ssdstripe_piece_next(&sc->geom, len, &p));

	return len;
}

static void ssdstripe_gather_endio(struct bio *bio)
{
	struct ssdstripe_gather_bio *gb =
		container_of(bio, struct ssdstripe_gather_bio, bio);
	struct ssdstripe_c *sc = gb->sc;
	struct bio *clone = gb->clone;
	struct ssdstripe_clone_data *cdata =
		ssdstripe_clone_data(sc->ti, clone);

	ssdstripe_account_end(sc, &gb->io, bio->bi_opf, bio->bi_status);
	if (bio->bi_status)
		atomic_cmpxchg(&cdata->status, 0, (__force int)bio->bi_status);
	bio_put(bio);

	if (atomic_dec_and_test(&cdata->pending)) {
		clone->bi_status =
			(__force blk_status_t)atomic_read(&cdata->status);
		bio_endio(clone);
	}
}

/* Give back @cdata's bios of members below @end, none submitted. */
static void ssdstripe_gather_put(struct ssdstripe_c *sc,
				 struct ssdstripe_clone_data *cdata,
				 unsigned int end)
{
	unsigned int i;

	for (i = 0; i < end; i++)
		if (cdata->slot[i].bio)
			bio_put(cdata->slot[i].bio);
}

/* Allocate the bio of every member in the plan; false if one is not there. */
static bool ssdstripe_gather_alloc(struct ssdstripe_c *sc,
				   struct ssdstripe_clone_data *cdata,
				   struct bio *clone, unsigned int *nr_bios)
{
	struct ssdstripe_gather_bio *gb;
	unsigned int i, nr;
	struct bio *bio;

	*nr_bios = 0;
	for (i = 0; i < sc->geom.members; i++) {
		nr = cdata->slot[i].nr_vecs;
		if (!nr) {
			cdata->slot[i].bio = NULL;
			continue;
		}
		bio = bio_alloc_bioset(sc->member[i].dev->bdev, nr,
				       clone->bi_opf & ~(REQ_ALLOC_CACHE | REQ_DRV),
				       GFP_NOWAIT, &sc->gather_bioset);
		cdata->slot[i].bio = bio;
		if (!bio)
			goto fail;
		gb = container_of(bio, struct ssdstripe_gather_bio, bio);
		gb->sc = sc;
		gb->clone = clone;
		bio->bi_end_io = ssdstripe_gather_endio;
		bio->bi_ioprio = clone->bi_ioprio;
		ssdstripe_bio_copy_hints(bio, clone);
		bio_clone_blkg_association(bio, clone);
		(*nr_bios)++;
	}

	return true;

fail:
	ssdstripe_gather_put(sc, cdata, i);
	return false;
}

/* Does every member bio of @cdata fit its member's queue without a split? */
static bool ssdstripe_gather_fits(struct ssdstripe_c *sc,
				  struct ssdstripe_clone_data *cdata)
{
	const struct queue_limits *lim;
	unsigned int i;
	struct bio *bio;

	for (i = 0; i < sc->geom.members; i++) {
		bio = cdata->slot[i].bio;
		if (!bio)
			continue;
		lim = &bdev_get_queue(bio->bi_bdev)->limits;
		if (!ssdstripe_bio_fits(bio, lim,
					ssdstripe_bdev_max_at(bio->bi_bdev,
							      bio->bi_iter.bi_sector)))
			return false;
	}

	return true;
}

/*
 * Send @bio, a read or write across chunks, to the members as at most one
 * bio each.  Returns true when @bio is ours (gathered); false when map
 * should remap its first chunk instead.
 * May shorten @bio with dm_accept_partial_bio(): dm core maps the rest.
 */
bool ssdstripe_gather(struct ssdstripe_c *sc, struct bio *bio)
{
	struct ssdstripe_clone_data *cdata = ssdstripe_clone_data(sc->ti, bio);
	struct bio_list bios = BIO_EMPTY_LIST;
	unsigned int len, pieces, nr_bios, i;
	struct ssdstripe_gather_bio *gb;
	struct ssdstripe_piece p;
	struct bvec_iter it;
	struct bio *mbio;

	if (!sc->may_gather ||
	    (bio_op(bio) != REQ_OP_READ && bio_op(bio) != REQ_OP_WRITE) ||
	    (bio->bi_opf & REQ_POLLED) || bio_integrity(bio) ||
	    (!SSDSTRIPE_CAN_TELL_FIT && (bio->bi_opf & REQ_NOWAIT)))
		return false;

	len = ssdstripe_gather_plan(sc, cdata, bio, &pieces);
	/* One piece is one chunk: nothing to gather. */
	if (pieces < 2)
		return false;

	if (!ssdstripe_gather_alloc(sc, cdata, bio, &nr_bios)) {
		this_cpu_inc(*sc->gather_fallbacks);
		return false;
	}

	/* Fill the member bios piece by piece, in request order. */
	it = bio->bi_iter;
	ssdstripe_piece_first(&sc->geom,
			      dm_target_offset(sc->ti, bio->bi_iter.bi_sector),
			      len, &p);
	do {
		mbio = cdata->slot[p.member].bio;
		/* A member's first piece sets where its bio starts. */
		if (!mbio->bi_iter.bi_size) {
			gb = container_of(mbio, struct ssdstripe_gather_bio, bio);
			mbio->bi_iter.bi_sector =
				p.sector + sc->member[p.member].offset;
			gb->from = bio->bi_iter.bi_sector + p.offset;
		}
		ssdstripe_gather_vecs(bio, &it, to_bytes(p.len), mbio);
	} while (ssdstripe_piece_next(&sc->geom, len, &p));

	if ((bio->bi_opf & REQ_NOWAIT) && !ssdstripe_gather_fits(sc, cdata)) {
		ssdstripe_gather_put(sc, cdata, sc->geom.members);
		return false;
	}

	if (len < bio_sectors(bio))
		dm_accept_partial_bio(bio, len);

	cdata->io.member = SSDSTRIPE_GATHERED;
	atomic_set(&cdata->status, 0);
	atomic_set(&cdata->pending, nr_bios);

	/*
	 * The last completion may free @cdata with the clone: take the bios
	 * out of it before the first is submitted.
	 */
	for (i = 0; i < sc->geom.members; i++) {
		mbio = cdata->slot[i].bio;
		if (!mbio)
			continue;
		gb = container_of(mbio, struct ssdstripe_gather_bio, bio);
		ssdstripe_account_start(sc, &gb->io, mbio, i);
		/* What dm core says of the clones it remaps (blktrace's A). */
		if (trace_block_bio_remap_enabled())
			trace_block_bio_remap(mbio, disk_devt(dm_disk(sc->md)),
					      gb->from);
		bio_list_add(&bios, mbio);
	}
	while ((mbio = bio_list_pop(&bios)))
		submit_bio_noacct(mbio);

	return true;
}
