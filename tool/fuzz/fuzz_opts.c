// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the option parser on any command line (words split
 * at NUL bytes): it hands every word to the handler or refuses the line,
 * and never reads past a word.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void handler(void *ctx, const char *name, const char *value)
{
	size_t *n = ctx;

	if (name && strncmp(name, "--", 2) && strncmp(name, "-", 1))
		abort();
	if (!name && (!value || !*value))
		abort();
	*n += 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *argv[64];
	struct opts_error err;
	size_t i, start = 0, n = 0;
	int argc = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	for (i = 0; i <= size && argc < 64; i++) {
		if (copy[i])
			continue;
		argv[argc++] = copy + start;
		start = i + 1;
	}
	opts_parse_err(argc, argv, "--name= --chunk= --force|-f --scan|-s --rate=",
		       handler, &n, &err);
	free(copy);
	return 0;
}
