// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the drive-health reader on any smartctl document and
 * any NVMe health log page (the first 512 bytes of the input are the
 * page, the rest the document; a shorter input is a document alone), and
 * on any cache file's text; every record it makes is whole (a source and
 * a health word) and reads back the same from its text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct smart_rec *r)
{
	struct smart_rec b;
	char text[8192];
	int k;

	if (!*r->v[SK_SOURCE] || !*r->v[SK_HEALTH])
		abort();
	for (k = 0; k < SK_N; k++)
		if (strchr(r->v[k], '\n'))
			return;		/* a document's value with a newline: no cache line */
	smart_rec_text(r, text, sizeof(text));
	smart_rec_load(text, &b);
	for (k = 0; k < SK_N; k++)
		if (strcmp(r->v[k], b.v[k]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct smart_cfg c = { 60, 90, 10 };
	struct smart_rec r;
	char *text;

	if (size >= NVME_LOG_LEN) {
		smart_parse((const char *)data + NVME_LOG_LEN, size - NVME_LOG_LEN, data, &c, &r);
		check(&r);
		smart_parse_log(data, &c, &r);
		check(&r);
	}
	smart_parse((const char *)data, size, NULL, &c, &r);
	check(&r);
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	smart_rec_load(text, &r);
	free(text);
	return 0;
}
