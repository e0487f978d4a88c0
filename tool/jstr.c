// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: JSON strings as the tool writes them (jstr.h).
 */
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>
#include <json-c/printbuf.h>

#include "jstr.h"

static int ser(struct json_object *o, struct printbuf *pb, int level, int flags)
{
	const char *s = json_object_get_string(o), *run = s;
	char esc[8];

	(void)level;
	(void)flags;
	printbuf_memappend(pb, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c != '\\' && c != '"' && c >= 0x20 && c != 0x7f)
			continue;
		printbuf_memappend(pb, run, (int)(s - run));
		if (c == '\\' || c == '"')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else
			snprintf(esc, sizeof(esc), "\\u%04x", c);
		printbuf_memappend(pb, esc, (int)strlen(esc));
		run = s + 1;
	}
	printbuf_memappend(pb, run, (int)(s - run));
	printbuf_memappend(pb, "\"", 1);
	return 0;
}

struct json_object *jstr(const char *s)
{
	struct json_object *o = json_object_new_string(s);
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			json_object_set_serializer(o, ser, NULL, NULL);
			break;
		}
	return o;
}
