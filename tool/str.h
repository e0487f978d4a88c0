/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a string copied into a fixed buffer, cut to fit (the
 * readers of sysfs and of the drives keep their fields in such buffers).
 */
#ifndef SSDSTRIPE_STR_H
#define SSDSTRIPE_STR_H

#include <stddef.h>

/* cpy: SRC into DST (LEN bytes), cut to fit, always terminated */
void cpy(char *dst, size_t len, const char *src);

#endif
