// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: strings in fixed buffers (str.h).
 */
#include <string.h>

#include "str.h"

void cpy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return;
	n = strlen(src);
	if (n >= len)
		n = len - 1;
	memmove(dst, src, n);
	dst[n] = 0;
}
