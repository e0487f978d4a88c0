// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the table and status readers on any line; every
 * ssdstripe table accepted is written again and read back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), err[128], *p, h[3], *o, *n;
	struct ss_table t, u;
	uint64_t s, tot;
	unsigned int i;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = 0;
	if (table_parse(1, line, &t, err, sizeof(err))) {
		p = table_params(&t, 0, t.mm[0], t.off[0]);
		if (!table_parse(1, p, &u, err, sizeof(err)) || u.n != t.n || u.chunk != t.chunk ||
		    strcmp(u.feat, t.feat))
			abort();
		for (i = 0; i < t.n; i++)
			if (strcmp(u.mm[i], t.mm[i]) || strcmp(u.off[i], t.off[i]))
				abort();
		free(p);
		table_free(&u);
		table_free(&t);
	}
	if (mirror_status_parse(line, &s, &tot, h) && (s > tot || strlen(h) != 2))
		abort();
	if (mirror_legs_parse(line, &o, &n)) {
		free(o);
		free(n);
	}
	free(line);
	return 0;
}
