/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a member's drive identity (Documentation/ssdstripe-label.rst,
 * "Drive identity"): what sysfs says a device is, the line a version 2
 * label records for every member, whether a device is the drive a label
 * recorded, where that drive is now, and how messages name it.
 *
 * The label line: "size:S type:T id:ID serial:SERIAL [part:N] model:MODEL",
 * "none" for an empty ID or SERIAL; ID and SERIAL are words (white space
 * made _), the model is the rest of the line.
 */
#ifndef SSDSTRIPE_IDENT_H
#define SSDSTRIPE_IDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ident {
	char size[24];		/* sectors (a partition's own); "" unknown */
	char type[8];		/* nvme, scsi, dm, loop, md or other */
	char id[512];		/* wwid, dm-uuid:UUID; "" none */
	char serial[512];	/* "" none */
	char part[16];		/* partition number, "" for a whole device */
	char model[512];
};

void ident_none(struct ident *d);
/* ident_of: D of block device DEV (a /dev path, or its sysfs directory) */
bool ident_of(const char *dev, struct ident *d);
/* ident_parse: I of a label's identity line */
void ident_parse(const char *line, struct ident *i);
/* ident_line: the label's line of D into BUF */
void ident_line(const struct ident *d, char *buf, size_t len);
/* ident_known: I identifies a device (an id, or a serial) */
bool ident_known(const struct ident *i);
/* ident_match: D is the device I recorded */
bool ident_match(const struct ident *d, const struct ident *i);
/* ident_words: I in words, as messages name a drive */
void ident_words(const struct ident *i, char *buf, size_t len);
/* ident_full: ident_words, the id and the size */
void ident_full(const struct ident *i, char *buf, size_t len);
/* ident_find: the kernel names of the devices that are the drive I records */
char **ident_find(const struct ident *i, size_t *n);
/*
 * ident_switched_copy: a label of state copying, of generation GEN, on
 * DEV is its member's now: the newest labels (of generation MAXGEN,
 * REPLACING: they mark a replace) are newer, mark no replace, and record
 * REC, DEV's drive, for the member: a switch cut short after it wrote the
 * other members' labels (Documentation/ssdstripe-label.rst, "Replacing a
 * member").  The one rule: assemble's, create --assume-clean's and
 * replace --finish's
 */
bool ident_switched_copy(const char *dev, uint64_t gen, uint64_t maxgen, bool replacing,
			 const struct ident *rec);
/* ident_clean: S as printable words joined by SEP, in place */
void ident_clean(char *s, char sep);

#endif
