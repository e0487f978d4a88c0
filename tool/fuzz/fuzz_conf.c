// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the configuration reader on any text: its problems
 * and the value of every keyword, and of one that is none.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count(const char *problem, void *ctx)
{
	if (strncmp(problem, "line ", 5))
		abort();
	(*(size_t *)ctx)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "BOOT", "MONITOR_EXEC", "TIMEOUT", "nope" };
	struct conf c;
	size_t n = 0, i;
	char *v;

	/* a few lines are every rule; a long file is only more of them */
	if (size > 1024)
		size = 1024;
	conf_parse((const char *)data, size, &c);
	if (conf_problems(&c, count, &n) != n)
		abort();
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		v = conf_value(&c, keys[i]);
		if (strchr(v, '\n'))
			abort();
		free(v);
	}
	conf_free(&c);
	return 0;
}
