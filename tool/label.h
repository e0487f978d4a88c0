/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the on-disk label (Documentation/ssdstripe-label.rst).  This
 * file and label.c are the only reader and writer of its format.
 *
 * The label is text in the second 4 KiB block of a member: a first line
 * "SSDSTRIPE-LABEL V", KEY=value lines (LABEL_KEYS, in that order), one
 * drive.K line per member since version 2 (the identity of member K's
 * drive, ident.h), and a last line checksum=sha256:HEX over everything
 * before it.  The rest of the block is NUL.
 */
#ifndef SSDSTRIPE_LABEL_H
#define SSDSTRIPE_LABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LABEL_MAGIC "SSDSTRIPE-LABEL"
#define LABEL_VERSION 2			/* what this tool writes */
#define LABEL_READS "1 and 2"		/* the versions it reads */
#define LABEL_BLOCK 4096		/* bytes; the label is the second block */
#define LABEL_DATA_OFFSET 2048		/* sectors (1 MiB): data start on every member */
#define LABEL_TAIL 2048			/* sectors left unused at the end */

/* the fields, in the order of the label's text */
enum label_key {
	LK_UUID,	/* array_uuid */
	LK_NAME,	/* name */
	LK_MEMBER,	/* member_uuid */
	LK_INDEX,	/* index */
	LK_COUNT,	/* count */
	LK_CHUNK,	/* chunk_sectors */
	LK_OFFSET,	/* data_offset */
	LK_DATA,	/* data_sectors */
	LK_MEMBERS,	/* members */
	LK_CREATED,	/* created */
	LK_GEN,		/* generation */
	LK_STATE,	/* state: copying or replaced, optional */
	LK_REPLACING,	/* replacing, optional */
	LK_REPBY,	/* replaced_by, optional */
	LK_REPAT,	/* replaced_at, optional */
	LK_OP,		/* overprovision, optional */
	LK_NKEYS
};

struct label_drive {
	unsigned int k;		/* the member */
	char *ident;		/* its drive's identity line (ident.h) */
};

struct label {
	int version;
	char *text;			/* the label's text, NULs dropped */
	char *f[LK_NKEYS];		/* every field; NULL: absent */
	struct label_drive *drives;	/* version 2: drive.K lines, in order */
	size_t ndrives;
	char err[160];			/* why a label is damaged or unsupported */
};

enum label_rc {
	LABEL_OK = 0,
	LABEL_NONE = 1,		/* no label */
	LABEL_DAMAGED = 2,	/* err says why */
	LABEL_UNSUPPORTED = 3,	/* a version this tool does not read */
};

/*
 * label_parse: the label in BLOCK (LEN bytes, a whole block as read from
 * the device) into L, which label_free releases whatever it returns
 */
enum label_rc label_parse(const unsigned char *block, size_t len, struct label *l);
/* label_read: DEV's label (read only) */
enum label_rc label_read(const char *dev, struct label *l);
/* label_read_fd: the label of the device open as FD */
enum label_rc label_read_fd(int fd, struct label *l);
/* label_magic: FD's label block starts as a label does (valid or not) */
bool label_magic(int fd);
/*
 * label_erase: zero the label block of the device open (for writing) as
 * FD, then read it back past the page cache: 0, an errno, or -1 when it
 * does not read back as zero
 */
int label_erase(int fd);
/*
 * label_wipe_partitions: our labels inside DEV's partitions zeroed (each
 * named as it goes), before the partition table that shows them is
 * dropped; dies when one cannot be wiped
 */
void label_wipe_partitions(const char *dev);
/*
 * label_write_fd: TEXT (a label_format output, zero-padded to the block)
 * as FD's label block, and fsync: 0 or errno.  Allocates nothing: a
 * critical section writes labels made before it.
 */
int label_write_fd(int fd, const char text[LABEL_BLOCK]);
void label_free(struct label *l);

/* a field as a number (digits only: label_parse checked the required ones) */
uint64_t label_num(const struct label *l, enum label_key k);
/* member K's drive line, NULL if the label records none */
const char *label_drive(const struct label *l, unsigned int k);

/*
 * label_format: the text of label L (of this tool's version: created and
 * generation get now and 1 where L has none) into BUF (LEN: LABEL_BLOCK + 1
 * for its NUL); its length, or -1 when it would not fit LABEL_BLOCK bytes
 */
long label_format(const struct label *l, char *buf, size_t len);

/* label_length: the bytes of label L's text, whether it fits its block or not */
size_t label_length(const struct label *l);

/* sha256_hex: the SHA-256 of DATA as 64 hex digits and a NUL in HEX */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
