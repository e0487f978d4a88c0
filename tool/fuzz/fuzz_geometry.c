// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: what create takes from its command line (--chunk,
 * --overprovision, --name): any text is parsed or refused, a size taken
 * is below 2^32 sectors, and the chunk rule and a member's data hold for
 * it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "geometry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), why[1024];
	uint64_t v;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	if (to_sectors(s, &v)) {
		if (v >= 4294967296ULL)
			abort();
		if (v && chunk_why(v, why, sizeof(why)) != (v % 8 || (v & (v - 1))))
			abort();
		if (v && op_data(1ULL << 41, v, 50) % v)
			abort();
	}
	if (valid_op(s) && (atoi(s) < 1 || atoi(s) > 50))
		abort();
	if (valid_name(s) && (!*s || strlen(s) > 64 || strchr(s, '/')))
		abort();
	free(s);
	return 0;
}
