// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: what a drive says it supports, as sanitize reads it
 * (erase.c): hdparm -I's text (its Security section), and Identify
 * Controller's bytes (the input, zero-padded to 4 KiB) with a namespace
 * count and a --method from its first bytes.  A method chosen is one the
 * drive's bits allow.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "erase.h"
#include "nvme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const wants[] = { NULL, "format", "sanitize", "ata" };
	uint8_t ctrl[NVME_ID_SIZE] = { 0 };
	char *text = malloc(size + 1);
	struct ata_security s;
	struct erase_plan p;
	const char *want;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	erase_ata_security(text, &s);
	free(text);
	memcpy(ctrl, data, size < sizeof(ctrl) ? size : sizeof(ctrl));
	want = wants[size ? data[0] % 4 : 0];
	memset(&p, 0, sizeof(p));
	if (erase_choose_nvme(ctrl, size > 1 ? data[1] % 4 : 1, want, &p)) {
		unsigned int sani = (unsigned int)nvme_le(ctrl, 328, 4), oacs = (unsigned int)nvme_le(ctrl, 256, 2);

		if ((p.m == ER_SANITIZE_CRYPTO && !(sani & 1)) || (p.m == ER_SANITIZE_BLOCK && !(sani & 2)) ||
		    ((p.m == ER_FORMAT_USER || p.m == ER_FORMAT_CRYPTO) && !(oacs & 2)) ||
		    (p.m == ER_FORMAT_CRYPTO && !(ctrl[524] & 4)) || p.m == ER_NONE || p.m >= ER_ATA_ENHANCED)
			abort();
	} else if (!p.no[0]) {
		abort();
	}
	return 0;
}
