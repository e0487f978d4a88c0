// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a new array's geometry rules (geometry.h).
 */
#include <stdio.h>
#include <string.h>

#include "geometry.h"
#include "label.h"
#include "out.h"

bool to_sectors(const char *size, uint64_t *out)
{
	char s[64];
	size_t n = strlen(size), i;
	uint64_t mul = 2, v = 0;
	const char *d;

	if (n >= sizeof(s))
		return false;
	memcpy(s, size, n + 1);
	/* an optional B or iB after the unit (64KiB, 64KB); iB alone too */
	if (n >= 2 && strchr("iI", s[n - 2]) && strchr("bB", s[n - 1]))
		s[n -= 2] = 0;
	else if (n >= 2 && strchr("kKmMgGtT", s[n - 2]) && strchr("bB", s[n - 1]))
		s[--n] = 0;
	if (n) {
		uint64_t m = 0;

		switch (s[n - 1]) {
		case 's': case 'S': m = 1; break;
		case 'k': case 'K': m = 2; break;
		case 'm': case 'M': m = 2048; break;
		case 'g': case 'G': m = 2097152; break;
		case 't': case 'T': m = 2147483648ULL; break;
		}
		if (m) {
			mul = m;
			s[--n] = 0;
		}
	}
	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	/* leading zeros dropped (one stays); at most 9 digits then */
	for (d = s; d[0] == '0' && d[1]; d++)
		;
	if (strlen(d) > 9)
		return false;
	for (; *d; d++)
		v = v * 10 + (uint64_t)(*d - '0');
	v *= mul;
	if (v >= 4294967296ULL)
		return false;
	*out = v;
	return true;
}

bool valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > 64 || name[0] == '-' || name[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

bool valid_op(const char *pct)
{
	size_t n = strlen(pct);

	if (!n || n > 2 || pct[0] < '1' || pct[0] > '9')
		return false;
	if (n == 2 && (pct[1] < '0' || pct[1] > '9'))
		return false;
	return (pct[0] - '0') * (n == 2 ? 10 : 1) + (n == 2 ? pct[1] - '0' : 0) <= 50;
}

bool chunk_why(uint64_t sectors, char *buf, size_t len)
{
	char h[32];

	buf[0] = 0;
	human(h, sizeof(h), sectors);
	if (sectors % 8)
		snprintf(buf, len, "a chunk of %s is not a multiple of 4 KiB: every SSD writes in pages of 4 KiB or more, and a chunk that splits them makes it read and rewrite a page at every chunk boundary",
			 h);
	else if (sectors & (sectors - 1))
		snprintf(buf, len, "a chunk of %s is not a power of two: on Debian's 6.12 kernel, XFS over a 3 x 12 KiB stripe crashed with slab corruption (xfstests generic/251, on the kernel's own striped target too) and generic/040 found its log corrupt; see 'Chunk size' in ssdstripe(8)",
			 h);
	return buf[0] != 0;
}

uint64_t op_data(uint64_t sectors, uint64_t chunk, unsigned int pct)
{
	uint64_t d;

	if (sectors <= LABEL_DATA_OFFSET + LABEL_TAIL || !chunk)
		return 0;
	d = sectors - LABEL_DATA_OFFSET - LABEL_TAIL;
	/* PCT % of it spare, in two steps, as the sh tool computed it */
	d = d - d / 100 * pct - d % 100 * pct / 100;
	return d / chunk * chunk;
}
