/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The dm-ssdstripe authors
 *
 * The array's layout as pure arithmetic: no I/O, no locks.  Static inline
 * so that map keeps it inlined on every I/O; io_hints and the KUnit suites
 * use the same functions.
 */
#ifndef DM_SSDSTRIPE_GEOM_H
#define DM_SSDSTRIPE_GEOM_H

#include <linux/blkdev.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/overflow.h>

#include "ssdstripe.h"

static inline int ssdstripe_log2_or_neg(unsigned int v)
{
	return is_power_of_2(v) ? ilog2(v) : -1;
}

static inline void ssdstripe_geom_init(struct ssdstripe_geom *g,
				       unsigned int members, unsigned int chunk)
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
static __always_inline void
ssdstripe_map_sector_off(const struct ssdstripe_geom *g, sector_t sector,
			 unsigned int *member, sector_t *result,
			 unsigned int *in_chunk)
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
	*in_chunk = chunk_offset;
}

static __always_inline void
ssdstripe_map_sector(const struct ssdstripe_geom *g, sector_t sector,
		     unsigned int *member, sector_t *result)
{
	unsigned int in_chunk;

	ssdstripe_map_sector_off(g, sector, member, result, &in_chunk);
}

/*
 * First member-relative sector of @member at or after target-relative
 * @sector.  Used for both ends of a discard range: the member's share of
 * [start, end) is [lower(start), lower(end)).
 */
static inline sector_t ssdstripe_member_lower(const struct ssdstripe_geom *g,
					      sector_t sector,
					      unsigned int member)
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
static inline bool ssdstripe_member_range(const struct ssdstripe_geom *g,
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
 * its alignment.  Never below @member_max, which is always safe: no share
 * is larger than the bio.  Returning 0 would turn the operation off.
 */
static inline unsigned int
ssdstripe_scaled_limit(const struct ssdstripe_geom *g, unsigned int member_max)
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

	return max(scaled, member_max);
}

/*
 * One piece of a read or write as gather sends it: @len sectors, @offset
 * sectors into the request, that live on @member at member-relative
 * @sector (before the member's offset).  A request has one piece per
 * chunk it touches; a member's pieces, taken in request order, are
 * contiguous on the member, which is what lets one bio carry them all.
 */
struct ssdstripe_piece {
	unsigned int member;
	sector_t sector;
	unsigned int offset;
	unsigned int len;
};

/*
 * The gather plan of a request of @len (> 0) sectors at target-relative
 * @start, one piece at a time: ssdstripe_piece_first() gives the first,
 * ssdstripe_piece_next() each following one until it returns false.  Only
 * the first piece costs a division; the rest walk the stripe row by row.
 */
static __always_inline void
ssdstripe_piece_first(const struct ssdstripe_geom *g, sector_t start,
		      unsigned int len, struct ssdstripe_piece *p)
{
	unsigned int in_chunk;

	ssdstripe_map_sector_off(g, start, &p->member, &p->sector, &in_chunk);
	p->offset = 0;
	p->len = min(len, g->chunk - in_chunk);
}

static __always_inline bool
ssdstripe_piece_next(const struct ssdstripe_geom *g, unsigned int len,
		     struct ssdstripe_piece *p)
{
	/* Every piece but the last ends where its chunk ends. */
	sector_t chunk_end = p->sector + p->len;

	p->offset += p->len;
	if (p->offset >= len)
		return false;

	/* The next chunk is on the next member, in the same row ... */
	if (++p->member < g->members) {
		p->sector = chunk_end - g->chunk;
	} else {
		/* ... or on the first member, one row further down. */
		p->member = 0;
		p->sector = chunk_end;
	}
	p->len = min(len - p->offset, g->chunk);

	return true;
}

/*
 * Member and member sector, its offset applied, of target-relative @sector:
 * where map sends a read or write.  @left: sectors from @sector to the end
 * of its chunk.
 */
static __always_inline sector_t ssdstripe_remap(const struct ssdstripe_c *sc,
						sector_t sector,
						unsigned int *member,
						unsigned int *left)
{
	unsigned int in_chunk;
	sector_t r;

	ssdstripe_map_sector_off(&sc->geom, sector, member, &r, &in_chunk);
	*left = sc->geom.chunk - in_chunk;

	return r + sc->member[*member].offset;
}

/*
 * The most a queue with limits @lim takes in one bio starting at @sector
 * without splitting it: the block layer's get_max_io_size() (max_sectors,
 * the queue's chunk_sectors, whole physical blocks).  A REQ_NOWAIT bio
 * larger than that is ended with BLK_STS_AGAIN by the queue.
 */
static inline unsigned int ssdstripe_queue_max_at(const struct queue_limits *lim,
						  sector_t sector)
{
	unsigned int pbs = lim->physical_block_size >> SECTOR_SHIFT;
	unsigned int lbs = lim->logical_block_size >> SECTOR_SHIFT;
	unsigned int max = lim->max_sectors, start, end;
	sector_t in_chunk = sector;

	if (lim->chunk_sectors)
		max = min(max, lim->chunk_sectors -
			       sector_div(in_chunk, lim->chunk_sectors));
	/* A bio's size is an unsigned int of bytes. */
	max = min(max, UINT_MAX >> SECTOR_SHIFT);
	start = sector & (pbs - 1);
	end = (start + max) & ~(pbs - 1);

	return end > start ? end - start : max & ~(lbs - 1);
}

/*
 * What member @bdev takes in one bio starting at @sector, a sector of
 * @bdev itself (a member may be a partition).  The block layer judges a
 * bio after blk_partition_remap() has added the partition's start, so the
 * physical-block and chunk_sectors alignment that counts is the whole
 * disk's: a partition starting at sector 2049 of a 4 KiB-physical-block
 * disk takes 127 sectors, not 128, at its own sector 0.
 */
static inline unsigned int ssdstripe_bdev_max_at(struct block_device *bdev,
						 sector_t sector)
{
	return ssdstripe_queue_max_at(&bdev_get_queue(bdev)->limits,
				      get_start_sect(bdev) + sector);
}

#endif /* DM_SSDSTRIPE_GEOM_H */
