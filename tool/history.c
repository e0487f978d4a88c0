// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe history [NAME...] [--json]: what was done to the arrays and
 * what the monitor saw, oldest first, as zpool history and zpool events
 * show it (histlog.h: the log's format).  With NAMEs, the lines of those
 * arrays, by name or uuid.  --json: one object per line (json-c).
 * Reads only.  Exit: 0 (no history yet too), 2 usage.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cmds.h"
#include "dev.h"
#include "histlog.h"
#include "opts.h"
#include "out.h"

struct history_args {
	bool json;
	const struct operands *names;
};

static struct json_object *jv(const char *s)
{
	return strcmp(s, "-") ? json_object_new_string(s) : NULL;
}

/* show: one line of the log (its 7 fields in F) as text or JSON */
static void show(const struct history_args *a, char **f)
{
	size_t i;

	if (a->names->n) {
		for (i = 0; i < a->names->n; i++)
			if (!strcmp(f[2], a->names->v[i]) || !strcmp(f[3], a->names->v[i]))
				break;
		if (i == a->names->n)
			return;
	}
	if (a->json) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "time", jv(f[0]));
		json_object_object_add(o, "event", jv(f[1]));
		json_object_object_add(o, "array", jv(f[2]));
		json_object_object_add(o, "uuid", jv(f[3]));
		json_object_object_add(o, "member", strcmp(f[4], "-") ?
				       json_object_new_int64(strtoll(f[4], NULL, 10)) : NULL);
		json_object_object_add(o, "serial", jv(f[5]));
		json_object_object_add(o, "detail", jv(f[6]));
		say("%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		return;
	}
	printf("%s  %-11s ", f[0], f[1]);
	if (!strcmp(f[2], "-"))
		printf("-");
	else if (!strcmp(f[3], "-"))
		printf("%s", f[2]);
	else
		printf("%s (%.8s)", f[2], f[3]);
	if (strcmp(f[4], "-")) {
		printf(" member %s", f[4]);
		if (strcmp(f[5], "-"))
			printf(" (%s)", f[5]);
	}
	printf(": %s\n", f[6]);
}

static void show_file(const struct history_args *a, const char *file)
{
	FILE *in = fopen(file, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while (in && (len = getline(&line, &cap, in)) >= 0) {
		char *f[8], *p = line;
		int n = 0;

		if (len && line[len - 1] == '\n')
			line[len - 1] = 0;
		/* tab-separated, as awk -F '\t' splits: the 7th field ends at a tab */
		while (n < 8) {
			f[n++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = 0;
		}
		if (n >= 7)
			show(a, f);
	}
	free(line);
	if (in)
		fclose(in);
}

int cmd_history(int argc, char **argv)
{
	struct flag_operands line = { 0 };
	struct history_args a;
	char log[PATH_MAX], pending[PATH_MAX], f[PATH_MAX + 8];
	bool any = false;
	int i;

	opts_parse(argc, argv, "--json", flag_operands_opt, &line, help_of);
	a.json = line.flag;
	a.names = &line.ops;
	hist_paths(log, sizeof(log), pending, sizeof(pending));
	for (i = HIST_KEEP; i >= 0; i--) {
		if (i)
			pathf(f, sizeof(f), "%s.%d", log, i);
		else
			pathf(f, sizeof(f), "%s", log);
		if (!access(f, R_OK)) {
			show_file(&a, f);
			any = true;
		}
	}
	if (!access(pending, R_OK)) {
		show_file(&a, pending);
		any = true;
	}
	if (!any && !a.json)
		say("no history yet (%s)", log);
	operands_free(&line.ops);
	return EX_OK;
}
