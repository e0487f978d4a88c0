// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: a label's drive identity line, parsed, written again
 * and parsed back the same (ident.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ident.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), out[4096], w[2048];
	struct ident i, j;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = 0;
	ident_parse(line, &i);
	ident_words(&i, w, sizeof(w));
	ident_full(&i, w, sizeof(w));
	/* what a label records is clean words: those read back the same */
	if (!strchr(i.size, ' ') && !strchr(i.type, ' ') && !strchr(i.id, ' ') &&
	    !strchr(i.serial, ' ') && !strchr(i.part, ' ') && i.size[0] && i.type[0] &&
	    strcmp(i.id, "none") && strcmp(i.serial, "none") && !strstr(i.model, "\n") &&
	    !strstr(i.id, "model:") && !strstr(i.serial, "model:") && !strstr(i.size, "model:") &&
	    !strstr(i.type, "model:") && !strstr(i.part, "model:")) {
		ident_line(&i, out, sizeof(out));
		ident_parse(out, &j);
		if (strcmp(i.size, j.size) || strcmp(i.type, j.type) || strcmp(i.id, j.id) ||
		    strcmp(i.serial, j.serial) || strcmp(i.part, j.part) || strcmp(i.model, j.model))
			abort();
	}
	free(line);
	return 0;
}
