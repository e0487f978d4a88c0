/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: an array's members as their labels say, the rules assemble,
 * sanitize, list and table share (scripts/lib/assemble.sh's check_set,
 * set_losers, missing_members, and label.sh's collect, moved here): every device's label read once, the set of one array's members
 * checked (one geometry, one member list, each member once, none cut
 * short), the labels that take no part named (an unfinished or retired
 * copy, an older generation, a copy of a label on another drive), and the
 * members missing named by the drives their labels record.
 */
#ifndef SSDSTRIPE_LABELSET_H
#define SSDSTRIPE_LABELSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ident.h"
#include "label.h"

/* what collect found on one device */
struct lrec {
	char *dev;
	struct label l;		/* the label; damaged ones: l.err says why */
	uint64_t size;		/* sectors, of a valid label's device */
	char *what;		/* a shadowed one: the other signature it carries */
};

struct lset {
	struct lrec *lab;	/* valid labels */
	size_t nlab;
	struct lrec *sh;	/* labelled devices that carry another signature now */
	size_t nsh;
	struct lrec *dmg;	/* damaged or unsupported labels */
	size_t ndmg;
};

/* every block device a label could be on (whole disks, partitions, dm),
 * as /dev paths */
char **lset_candidates(size_t *n);
/* the labels of DEVS (N of them) into S */
void lset_collect(struct lset *s, char *const *devs, size_t n);
void lset_free(struct lset *s);
/* a label field, "" when absent */
const char *lrec_f(const struct lrec *r, enum label_key k);

/* the check of one array's set */
struct lcheck {
	const struct lrec **set;	/* the members taken, by index */
	size_t n;
	unsigned int *missing;		/* the members absent */
	size_t nmissing;
	char **losers;			/* a line per label that takes no part */
	size_t nlosers;
	char why[1024];			/* the refusal, when the set is wrong */
};

/*
 * lset_check: the members of array UUID in S into C: 0 complete, 4
 * members missing (C->missing), 3 the set is wrong (C->why); C->losers in
 * every case.  Free C with lcheck_free.
 */
int lset_check(const struct lset *s, const char *uuid, struct lcheck *c);
void lcheck_free(struct lcheck *c);
/* what the labels of array UUID record for member K's drive (the newest
 * generation's); false when none does (version 1) */
bool lset_rec_ident(const struct lset *s, const char *uuid, unsigned int k, struct ident *i);
/*
 * after lset_check found members missing in array NAME (UUID): a warning
 * per missing member, "member K (its drive) not found" and TAG, with what
 * to do or where its drive is now and what keeps it out; EXACT: the
 * devices were given (not scanned).  SAY_CREATE: the 'create
 * --assume-clean' line when every missing drive is there without a label
 */
void lset_missing_members(const struct lset *s, const struct lcheck *c, const char *name,
			  const char *uuid, const char *tag, bool exact, bool say_create);
/* the missing members in words, "member 3 (MODEL, serial S)", joined by
 * ", " (malloc'd) */
char *lset_missing_words(const struct lset *s, const struct lcheck *c, const char *uuid);
/* a member of array UUID carries another signature now */
bool lset_has_shadowed(const struct lset *s, const char *uuid);
/* why each member of array UUID (every one: "") that carries another
 * signature is refused, once per device */
void lset_refuse_shadowed(const struct lset *s, const char *uuid);

#endif
