// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the configuration file's checker (conf_problems) on
 * any file; it says at most a problem or two per line, each on a line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t len = 0, lines = 1, i;
	FILE *f, *o;
	int n;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	o = open_memstream(&out, &len);
	if (!o) {
		fclose(f);
		return 0;
	}
	n = conf_problems(f, o);
	fclose(f);
	fclose(o);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* a BOOT line says a problem per word: at most one per byte */
	if (n < 0 || (size_t)n > lines + size)
		abort();
	free(out);
	return 0;
}
