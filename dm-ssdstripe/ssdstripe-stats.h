/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * Per-member statistics on the I/O path: what an I/O is (its operation),
 * what its completion means for the member (classification), where its
 * latency goes in the histogram, and its accounting at start and end.
 * Static inline, as dm-zoned keeps what every I/O calls in a header, so
 * that map and both completion paths (end_io, gathered bios) keep it
 * inlined; sums and resets are in ssdstripe-stats.c.
 */
#ifndef DM_SSDSTRIPE_STATS_H
#define DM_SSDSTRIPE_STATS_H

#include <linux/bio.h>
#include <linux/blk_types.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/percpu.h>

#include "ssdstripe.h"

/*
 * What a completion with @status of a bio with flags @opf says about the
 * member.  A would-block completion (BLK_STS_AGAIN) of a REQ_NOWAIT or
 * polled bio that found no tag is retried by its submitter (dm core
 * requeues a polled one); without those flags nobody retries it, and the
 * error reaches the file system.  Read-ahead may fail, and an unsupported
 * operation is not a fault: SCSI ends an unsupported UNMAP or WRITE SAME
 * with BLK_STS_TARGET, switches the capability off, and the block layer
 * falls back.
 */
static inline enum ssdstripe_err_class
ssdstripe_classify(blk_status_t status, blk_opf_t opf)
{
	enum req_op op = opf & REQ_OP_MASK;

	if (!status)
		return SSDSTRIPE_ERR_NONE;
	if (status == BLK_STS_AGAIN && (opf & (REQ_NOWAIT | REQ_POLLED)))
		return SSDSTRIPE_ERR_RETRY;
	if (status == BLK_STS_NOTSUPP || (opf & REQ_RAHEAD))
		return SSDSTRIPE_ERR_IGNORED;
	if (status == BLK_STS_TARGET &&
	    (op == REQ_OP_DISCARD || op == REQ_OP_WRITE_ZEROES ||
	     op == REQ_OP_SECURE_ERASE))
		return SSDSTRIPE_ERR_IGNORED;

	return SSDSTRIPE_ERR_ERROR;
}

/* Histogram bucket of a latency: 16 << i microseconds at most. */
static inline unsigned int ssdstripe_hist_bucket(u64 lat_us)
{
	unsigned int b;

	if (lat_us <= 16)
		return 0;
	b = fls64(lat_us - 1) - 4;

	return min_t(unsigned int, b, SSDSTRIPE_HIST_NR - 1);
}

static inline enum ssdstripe_op ssdstripe_bio_op(struct bio *bio)
{
	if (op_is_flush(bio->bi_opf) && !bio_sectors(bio))
		return SSDSTRIPE_OP_FLUSH;

	switch (bio_op(bio)) {
	case REQ_OP_READ:
		return SSDSTRIPE_OP_READ;
	case REQ_OP_DISCARD:
	case REQ_OP_SECURE_ERASE:
		return SSDSTRIPE_OP_DISCARD;
	case REQ_OP_WRITE_ZEROES:
		return SSDSTRIPE_OP_WRITE_ZEROES;
	default:
		return SSDSTRIPE_OP_WRITE;
	}
}

/*
 * Whether stall detection watches an I/O of operation @op with flags @opf:
 * reads and writes, which a healthy drive completes within a second.  Not
 * flushes or discards, which may take long on a healthy drive, and not
 * polled bios, which complete only when their submitter polls (a stopped
 * IOPOLL process would hold them).  Decided once, at the start: the block
 * layer clears REQ_POLLED of a bio whose queue does not poll.
 */
static inline bool ssdstripe_stall_watched(enum ssdstripe_op op, blk_opf_t opf)
{
	return op <= SSDSTRIPE_OP_WRITE && !(opf & REQ_POLLED);
}

/*
 * Account @bio, described by @io, about to be sent to @member: a clone
 * map remaps, or a bio gather built.  Always inlined, as is
 * ssdstripe_map_sector(): the benchmark's profile found both as calls of
 * their own on every I/O's map path.
 */
static __always_inline void
ssdstripe_account_start(struct ssdstripe_c *sc, struct ssdstripe_member_io *io,
			struct bio *bio, unsigned int member)
{
	struct ssdstripe_stats __percpu *st = sc->member[member].stats;

	io->member = member;
	/* errors[] count by operation with accounting off too */
	io->op = ssdstripe_bio_op(bio);
	if (!sc->stats)
		return;

	io->start_ns = ktime_get_ns();
	this_cpu_inc(st->ios[io->op]);
	this_cpu_add(st->sectors[io->op], bio_sectors(bio));
	this_cpu_inc(st->inflight);
	io->watched = ssdstripe_stall_watched(io->op, bio->bi_opf);
	if (io->watched)
		this_cpu_inc(st->rw_inflight);
}

void ssdstripe_member_error(struct ssdstripe_c *sc, unsigned int member);

/*
 * The completion of an I/O to io->member: its statistics, and its errors
 * for the member's health.  @opf and @status: the bio's flags and status.
 */
static inline void ssdstripe_account_end(struct ssdstripe_c *sc,
					 struct ssdstripe_member_io *io,
					 blk_opf_t opf, blk_status_t status)
{
	struct ssdstripe_stats __percpu *st = sc->member[io->member].stats;
	enum ssdstripe_err_class class;
	unsigned int bucket;
	u64 lat_ns;

	class = ssdstripe_classify(status, opf);

	if (sc->stats) {
		this_cpu_dec(st->inflight);
		if (io->watched) {
			this_cpu_dec(st->rw_inflight);
			/*
			 * A would-block end never reached the drive: no sign
			 * of life.
			 */
			if (class != SSDSTRIPE_ERR_RETRY) {
				/* after the decrement: ssdstripe_take_sample() */
				smp_wmb();
				this_cpu_inc(st->rw_ended);
			}
		}
		switch (class) {
		case SSDSTRIPE_ERR_NONE:
			/* A flush or discard that works says nothing of data. */
			if (io->op > SSDSTRIPE_OP_WRITE)
				break;
			this_cpu_inc(st->ok);
			lat_ns = ktime_get_ns() - io->start_ns;
			bucket = ssdstripe_hist_bucket(div_u64(lat_ns,
							       NSEC_PER_USEC));
			this_cpu_inc(st->hist[bucket]);
			/*
			 * A FUA write waits for the drive's cache: its latency
			 * says nothing of the member's speed against peers'
			 * plain writes (a journal on one member is FUA-heavy).
			 */
			if (opf & REQ_FUA)
				break;
			this_cpu_inc(st->rw_done);
			this_cpu_add(st->rw_lat_ns, lat_ns);
			break;
		case SSDSTRIPE_ERR_IGNORED:
			/* Not an error, and not a success either. */
			break;
		case SSDSTRIPE_ERR_RETRY:
			this_cpu_inc(st->retries);
			break;
		case SSDSTRIPE_ERR_ERROR:
			this_cpu_inc(st->failed);
			this_cpu_inc(st->errors[io->op]);
			break;
		}
	} else if (class == SSDSTRIPE_ERR_RETRY) {
		this_cpu_inc(st->retries);
	} else if (class == SSDSTRIPE_ERR_ERROR) {
		/* Errors are counted, and judged, without accounting too. */
		this_cpu_inc(st->failed);
		this_cpu_inc(st->errors[io->op]);
	}

	if (class == SSDSTRIPE_ERR_ERROR)
		ssdstripe_member_error(sc, io->member);
}

/* Sums and resets (ssdstripe-stats.c) */
u64 ssdstripe_sum(struct ssdstripe_member *m, size_t offset);
#define SSDSTRIPE_SUM(m, field) \
	ssdstripe_sum(m, offsetof(struct ssdstripe_stats, field))
u64 ssdstripe_member_errors(struct ssdstripe_member *m);
void ssdstripe_reset_stats(struct ssdstripe_c *sc);
void ssdstripe_forget_errors(struct ssdstripe_member *m);

#endif /* DM_SSDSTRIPE_STATS_H */
