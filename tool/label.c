// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the on-disk label, read and written (label.h).  The one
 * place that knows the label's layout.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include <gcrypt.h>

#include "blk.h"
#include "dev.h"
#include "label.h"
#include "out.h"

static const char *const key_names[LK_NKEYS] = {
	[LK_UUID] = "array_uuid",
	[LK_NAME] = "name",
	[LK_MEMBER] = "member_uuid",
	[LK_INDEX] = "index",
	[LK_COUNT] = "count",
	[LK_CHUNK] = "chunk_sectors",
	[LK_OFFSET] = "data_offset",
	[LK_DATA] = "data_sectors",
	[LK_MEMBERS] = "members",
	[LK_CREATED] = "created",
	[LK_GEN] = "generation",
	[LK_STATE] = "state",
	[LK_REPLACING] = "replacing",
	[LK_REPBY] = "replaced_by",
	[LK_REPAT] = "replaced_at",
	[LK_OP] = "overprovision",
};

/* the keys a label carries only when they say something */
static bool key_optional(enum label_key k)
{
	return k >= LK_STATE;
}

void sha256_hex(const void *data, size_t len, char hex[65])
{
	unsigned char md[32];
	unsigned int i;

	/* libgcrypt wants its version checked once before any use */
	if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
		if (!gcry_check_version(GCRYPT_VERSION))
			die(EX_FAILED, "libgcrypt is older than the one this program was built with");
		gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	}
	gcry_md_hash_buffer(GCRY_MD_SHA256, md, data, len);
	for (i = 0; i < sizeof(md); i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	hex[64] = 0;
}

void label_free(struct label *l)
{
	size_t i;

	free(l->text);
	for (i = 0; i < LK_NKEYS; i++)
		free(l->f[i]);
	for (i = 0; i < l->ndrives; i++)
		free(l->drives[i].ident);
	free(l->drives);
	memset(l, 0, sizeof(*l));
}

/*
 * a label's number: digits only, below 2^63 (no member, sector count or
 * generation comes near; a larger one would saturate strtoull and the
 * sums of sectors made from it could wrap)
 */
static bool label_number(const char *s)
{
	uint64_t v = 0;

	if (!s || !*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (UINT64_C(1) << 63) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v >= UINT64_C(1) << 63)
			return false;
	}
	return true;
}

/* a drive.K key's K: digits, no leading zero */
static bool drive_index(const char *s, size_t n, unsigned int *k)
{
	unsigned long long v = 0;
	size_t i;

	if (!n || (s[0] == '0' && n > 1))
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long long)(s[i] - '0');
		/* no label holds more members than an unsigned int counts */
		if (v > UINT_MAX)
			return false;
	}
	*k = (unsigned int)v;
	return true;
}

static enum label_rc damaged(struct label *l, const char *why)
{
	snprintf(l->err, sizeof(l->err), "%s", why);
	return LABEL_DAMAGED;
}

/* one KEY=value line of the body (the first of a key counts) */
static void parse_line(struct label *l, const char *line, size_t n)
{
	const char *eq = memchr(line, '=', n);
	size_t kl, i;
	unsigned int k;

	if (!eq)
		return;
	kl = (size_t)(eq - line);
	if (kl > 6 && !memcmp(line, "drive.", 6)) {
		if (!drive_index(line + 6, kl - 6, &k))
			return;
		for (i = 0; i < l->ndrives; i++)
			if (l->drives[i].k == k)
				return;
		l->drives = realloc(l->drives, (l->ndrives + 1) * sizeof(*l->drives));
		if (!l->drives)
			die(EX_FAILED, "out of memory");
		l->drives[l->ndrives].k = k;
		l->drives[l->ndrives].ident = strndup(eq + 1, n - kl - 1);
		if (!l->drives[l->ndrives].ident)
			die(EX_FAILED, "out of memory");
		l->ndrives++;
		return;
	}
	for (i = 0; i < LK_NKEYS; i++) {
		if (strlen(key_names[i]) != kl || memcmp(key_names[i], line, kl))
			continue;
		if (!l->f[i]) {
			l->f[i] = strndup(eq + 1, n - kl - 1);
			if (!l->f[i])
				die(EX_FAILED, "out of memory");
		}
		return;
	}
}

enum label_rc label_parse(const unsigned char *block, size_t len, struct label *l)
{
	static const enum label_key numbers[] = {
		LK_INDEX, LK_COUNT, LK_CHUNK, LK_OFFSET, LK_DATA, LK_GEN,
	};
	static const enum label_key required[] = {
		LK_UUID, LK_NAME, LK_MEMBER, LK_MEMBERS,
	};
	char *t, *p, *body_end, *sum, hex[65];
	size_t tl = 0, i, ml = strlen(LABEL_MAGIC), bl, sl, nsum;
	const char *first_end;

	memset(l, 0, sizeof(*l));
	/* the text: the block without its NUL bytes, trailing newlines dropped */
	t = xmalloc(len + 2);
	for (i = 0; i < len; i++)
		if (block[i])
			t[tl++] = (char)block[i];
	while (tl && t[tl - 1] == '\n')
		tl--;
	t[tl] = 0;
	l->text = t;

	first_end = strchr(t, '\n');
	if (!first_end)
		first_end = t + tl;
	if ((size_t)(first_end - t) < ml + 1 || memcmp(t, LABEL_MAGIC " ", ml + 1))
		return LABEL_NONE;
	if ((size_t)(first_end - t) == ml + 2 && (t[ml + 1] == '1' || t[ml + 1] == '2')) {
		l->version = t[ml + 1] - '0';
	} else {
		snprintf(l->err, sizeof(l->err), "label version %.*s (this tool reads %s)",
			 (int)(first_end - t - (long)ml - 1), t + ml + 1, LABEL_READS);
		return LABEL_UNSUPPORTED;
	}

	/* the body: every line before the first checksum= line */
	body_end = NULL;
	for (p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, "checksum=", 9)) {
			body_end = p;
			break;
		}
	}
	/*
	 * the recorded sum: the values of every checksum=sha256: line, joined
	 * by newlines, trailing newlines dropped (as the sh tool read it)
	 */
	sum = xmalloc(tl + 1);
	sl = 0;
	nsum = 0;
	for (p = body_end; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *e;
		size_t n;

		if (strncmp(p, "checksum=sha256:", 16))
			continue;
		e = strchr(p + 16, '\n');
		n = e ? (size_t)(e - p - 16) : strlen(p + 16);
		if (nsum++)
			sum[sl++] = '\n';
		memcpy(sum + sl, p + 16, n);
		sl += n;
	}
	while (sl && sum[sl - 1] == '\n')
		sl--;
	bl = body_end ? (size_t)(body_end - t) : tl;
	while (bl && t[bl - 1] == '\n')
		bl--;
	{
		char *b = xmalloc(bl + 1);

		memcpy(b, t, bl);
		b[bl] = '\n';
		sha256_hex(b, bl + 1, hex);
		free(b);
	}
	if (sl != 64 || memcmp(sum, hex, 64)) {
		free(sum);
		return damaged(l, "label checksum mismatch (damaged label)");
	}
	free(sum);

	for (p = t; p < t + bl;) {
		char *e = memchr(p, '\n', (size_t)(t + bl - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(t + bl - p);

		parse_line(l, p, n);
		p += n + 1;
	}
	/* version 1 knew no generation and no drives */
	if (l->version == 1) {
		free(l->f[LK_GEN]);
		l->f[LK_GEN] = xstrdup("0");
		for (i = 0; i < l->ndrives; i++)
			free(l->drives[i].ident);
		free(l->drives);
		l->drives = NULL;
		l->ndrives = 0;
	}
	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (!label_number(l->f[numbers[i]]))
			return damaged(l, "label field missing or not a number");
	if (l->f[LK_OP] && *l->f[LK_OP]) {
		const char *o = l->f[LK_OP];
		bool ok = (o[0] >= '1' && o[0] <= '9' && !o[1]) ||
			  (o[0] >= '1' && o[0] <= '4' && o[1] >= '0' && o[1] <= '9' && !o[2]) ||
			  !strcmp(o, "50");

		if (!ok)
			return damaged(l, "label field overprovision is not a percentage from 1 to 50");
	}
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!l->f[required[i]] || !*l->f[required[i]])
			return damaged(l, "label field missing");
	return LABEL_OK;
}

/* read_block: the label block of FD into BLOCK; the bytes read */
static size_t read_block(int fd, unsigned char *block)
{
	ssize_t n = 0, r;

	while (n < LABEL_BLOCK) {
		r = pread(fd, block + n, (size_t)(LABEL_BLOCK - n), LABEL_BLOCK + n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	return (size_t)n;
}

enum label_rc label_read_fd(int fd, struct label *l)
{
	unsigned char block[LABEL_BLOCK];

	return label_parse(block, read_block(fd, block), l);
}

enum label_rc label_read(const char *dev, struct label *l)
{
	enum label_rc rc;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return label_parse(NULL, 0, l);
	rc = label_read_fd(fd, l);
	close(fd);
	return rc;
}

bool label_magic(int fd)
{
	unsigned char b[LABEL_BLOCK], t[sizeof(LABEL_MAGIC)];
	size_t n = read_block(fd, b), i, k = 0;

	/* the text without its NUL bytes, as label_parse reads it */
	for (i = 0; i < n && k < sizeof(t); i++)
		if (b[i])
			t[k++] = b[i];
	return k == sizeof(t) && !memcmp(t, LABEL_MAGIC " ", sizeof(t));
}

int label_erase(int fd)
{
	static const unsigned char zero[LABEL_BLOCK];
	unsigned char back[LABEL_BLOCK];
	ssize_t w;

	errno = 0;
	w = pwrite(fd, zero, sizeof(zero), LABEL_BLOCK);
	if (w != (ssize_t)sizeof(zero))
		return w < 0 && errno ? errno : EIO;
	if (fsync(fd))
		return errno;
	/* read it back from the device, not from the page cache */
	ioctl(fd, BLKFLSBUF, 0);
	if (read_block(fd, back) != sizeof(back) || memcmp(back, zero, sizeof(zero)))
		return -1;
	return 0;
}

uint64_t label_num(const struct label *l, enum label_key k)
{
	return l->f[k] ? strtoull(l->f[k], NULL, 10) : 0;
}

const char *label_drive(const struct label *l, unsigned int k)
{
	size_t i;

	for (i = 0; i < l->ndrives; i++)
		if (l->drives[i].k == k)
			return l->drives[i].ident;
	return NULL;
}

/* label_body: the text of label L before its checksum line (malloc'd) */
static char *label_body(const struct label *l, size_t *bl)
{
	char *body = NULL;
	size_t i;
	FILE *f = open_memstream(&body, bl);

	if (!f)
		die(EX_FAILED, "out of memory");
	fprintf(f, "%s %d", LABEL_MAGIC, LABEL_VERSION);
	for (i = 0; i < LK_NKEYS; i++) {
		const char *v = l->f[i] ? l->f[i] : "";

		if (i == LK_CREATED && !*v) {
			fprintf(f, "\n%s=%lld", key_names[i], (long long)time(NULL));
			continue;
		}
		if (i == LK_GEN && !*v)
			v = "1";
		if (key_optional(i) && !*v)
			continue;
		fprintf(f, "\n%s=%s", key_names[i], v);
	}
	for (i = 0; i < l->ndrives; i++)
		fprintf(f, "\ndrive.%u=%s", l->drives[i].k, l->drives[i].ident);
	fputc('\n', f);
	if (fclose(f))
		die(EX_FAILED, "out of memory");
	return body;
}

long label_format(const struct label *l, char *buf, size_t len)
{
	char *body, hex[65];
	size_t bl = 0;
	long n;

	body = label_body(l, &bl);
	sha256_hex(body, bl, hex);
	n = snprintf(buf, len, "%schecksum=sha256:%s\n", body, hex);
	free(body);
	if (n < 0 || (size_t)n >= len || n > LABEL_BLOCK)
		return -1;
	return n;
}

size_t label_length(const struct label *l)
{
	size_t bl = 0;
	char *body = label_body(l, &bl);

	free(body);
	return bl + strlen("checksum=sha256:") + 64 + 1;
}

int label_write_fd(int fd, const char text[LABEL_BLOCK])
{
	ssize_t w;

	errno = 0;
	w = pwrite(fd, text, LABEL_BLOCK, LABEL_BLOCK);
	if (w != LABEL_BLOCK)
		return w < 0 && errno ? errno : EIO;
	return fsync(fd) ? errno : 0;
}

void label_wipe_partitions(const char *dev)
{
	size_t n, i;
	char **v = blk_partitions(dev, &n);

	for (i = 0; i < n; i++) {
		char *p = dev_path(v[i]), *what;
		struct label l;
		int fd;

		if (!p)
			continue;
		fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && label_magic(fd)) {
			what = label_read_fd(fd, &l) == LABEL_OK ?
			       xasprintf("member %s of array %s", l.f[LK_INDEX], l.f[LK_NAME]) :
			       xstrdup(l.err[0] ? l.err : "damaged label");
			label_free(&l);
			if (label_erase(fd))
				die(EX_FAILED, "cannot wipe the stale label on %s", p);
			say("wiped the stale ssdstripe label on %s (%s)", p, what);
			free(what);
		}
		if (fd >= 0)
			close(fd);
		free(p);
	}
	names_free(v, n);
}
