// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a latency_histogram file's text, parsed, and iostat's
 * figures of it (lathist.c): the p50 and p99 lie within the bounds read,
 * in order; nothing overruns on any text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lathist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), b[64];
	struct lathist h;
	struct lat_us m, p50, p99;
	size_t i;
	bool plain = true;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	lathist_parse(text, &h);
	if (h.n > LATHIST_MAX)
		abort();
	lathist_mean(&h, &m);
	lathist_quantile(&h, 0.5, &p50);
	lathist_quantile(&h, 0.99, &p99);
	lat_text(&m, b, sizeof(b));
	lat_text(&p50, b, sizeof(b));
	lat_text(&p99, b, sizeof(b));
	/* of a histogram as the module writes one (bounds rising, whole
	 * counts, "inf" last), p50 is not above p99 */
	for (i = 0; i < h.n; i++) {
		char *end;
		unsigned long v = strtoul(h.bound[i], &end, 10);

		if (!(h.count[i] >= 0 && h.count[i] <= 1e9) || h.count[i] != (double)(long)h.count[i] ||
		    (i + 1 < h.n && (*end || !*h.bound[i] || v > (1UL << 30) ||
				     (i && v <= strtoul(h.bound[i - 1], NULL, 10)))) ||
		    (i + 1 == h.n && strcmp(h.bound[i], "inf")))
			plain = false;
	}
	if (plain && p50.kind == LAT_US && p99.kind == LAT_US && p50.us > p99.us)
		abort();
	if (plain && p50.kind == LAT_ABOVE && p99.kind == LAT_US)
		abort();
	free(text);
	return 0;
}
