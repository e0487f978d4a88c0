// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the label reader on any block, and every label it
 * accepts written again by the writer and read back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "label.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct label l, m;
	char buf[LABEL_BLOCK + 1];
	long n;
	size_t i;

	if (size > LABEL_BLOCK)
		size = LABEL_BLOCK;
	if (label_parse(data, size, &l) == LABEL_OK && l.version == LABEL_VERSION) {
		n = label_format(&l, buf, sizeof(buf));
		if (n > 0) {
			if (label_parse((const unsigned char *)buf, (size_t)n, &m) != LABEL_OK)
				abort();
			for (i = 0; i < LK_NKEYS; i++) {
				const char *a = l.f[i] ? l.f[i] : "", *b = m.f[i] ? m.f[i] : "";

				/* the writer fills created and generation when empty */
				if (i != LK_CREATED && i != LK_GEN && strcmp(a, b))
					abort();
			}
			if (m.ndrives != l.ndrives)
				abort();
			label_free(&m);
		}
	}
	label_free(&l);
	return 0;
}
