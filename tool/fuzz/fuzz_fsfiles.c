// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the readers of dumpe2fs's and debugfs's answers on
 * any text (a file system's names are anyone's): the block size, the
 * blocks it gives, icheck's inodes (digits and spaces only, ascending)
 * and ncheck's names (one line, no tab).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fsfiles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t r[][2] = { { 0, 7 }, { 96, 4200 } };
	char *t = malloc(size + 1), *s, *p;
	unsigned long bs;
	uint64_t last = 0;

	if (!t)
		return 0;
	memcpy(t, data, size);
	t[size] = 0;
	bs = fs_block_size(t);
	s = fs_blocks(r, 2, bs);
	if (!bs != !*s)
		abort();
	free(s);
	s = fs_inodes(t);
	if (strspn(s, "0123456789 ") != strlen(s))
		abort();
	for (p = s; *p; p = strchr(p, ' ') + 1) {
		uint64_t v = strtoull(p, NULL, 10);

		if (p != s && v <= last)
			abort();
		last = v;
	}
	free(s);
	s = fs_names(t);
	if (strchr(s, '\n') || strchr(s, '\t'))
		abort();
	free(s);
	free(t);
	return 0;
}
