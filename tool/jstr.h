/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: a JSON string as the tool writes every one (the sh tool's
 * AWK_JSON json_str, which the sh commands still share): \ and " escaped,
 * every other control character, DEL too, as \u00XX.  json-c escapes a
 * tab, a newline and their kin as \t, \n ... and leaves DEL as it is;
 * jstr's objects carry their own serializer, so that a string with one
 * of them reads the same from the C commands as from the sh ones.
 */
#ifndef SSDSTRIPE_JSTR_H
#define SSDSTRIPE_JSTR_H

#include <json-c/json.h>

/* jstr: S as a json-c string object, written as json_str writes it */
struct json_object *jstr(const char *s);

#endif
