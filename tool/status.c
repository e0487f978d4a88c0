// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe status [NAME...] [--json]: health and statistics of active
 * arrays and their members, as a table or JSON (json-c).  Reads only.
 * Exit: 0 all optimal, 4 no such array, 5 one is slow or a drive warns,
 * 6 one is erroring or stalled or a drive is critical, 7 one has failed
 * (the worst decides).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array.h"
#include "cmds.h"
#include "dm.h"
#include "dev.h"
#include "inprog.h"
#include "member.h"
#include "opts.h"
#include "out.h"

/* one array as the table shows it; its exit code */
static int status_text(struct array *a)
{
	struct notes nt;
	char *rows, head[2048], h1[48], h2[48];
	int rc = state_rc(a->state);

	notes_init(&nt, 1);
	/* the rows first: the array's line says what the drives say */
	rows = array_member_rows(a, MV_STATUS, &nt);
	drive_head(nt.crit, nt.warn, head, sizeof(head));
	say("array %s: %s%s%s %s member%s, chunk %s, %s%s%s", a->name, a->state, head, *head ? ";" : ",",
	    a->count, strcmp(a->count, "1") ? "s" : "", human(h1, sizeof(h1), strtoull(a->chunk, NULL, 10)),
	    human(h2, sizeof(h2), strtoull(a->size, NULL, 10)), *a->uuid ? ", uuid " : "", a->uuid);
	advice(a->name, a->state);
	replace_say(a->name);
	scrub_say(a->name);
	member_row(stdout, NULL, MV_STATUS);
	fputs(rows, stdout);
	printf("%s%s%s", nt.gone, nt.fabric, nt.drive);
	free(rows);
	if (nt.drive_rc > rc)
		rc = nt.drive_rc;
	notes_free(&nt);
	return rc;
}

/* one array as a --json object; its exit code */
static int status_json(struct array *a, struct json_object *arrays)
{
	struct json_object *o = json_object_new_object(), *ms = json_object_new_array();
	struct notes nt;
	size_t i;
	int rc = state_rc(a->state);

	notes_init(&nt, 1);
	array_json(a, AK_STATUS, o);
	json_object_object_add(o, "replace", replace_json(a->name));
	json_object_object_add(o, "scrub", scrub_json(a->name));
	for (i = 0; i < a->n; i++) {
		struct member m;

		member_read(a->sys, (unsigned int)i, a->states[i], &a->rec, &nt, &m);
		json_object_array_add(ms, member_json(&m, MV_STATUS));
	}
	json_object_object_add(o, "members", ms);
	json_object_array_add(arrays, o);
	/* a drive's own warning counts even while the I/O is fine */
	if (nt.drive_rc > rc)
		rc = nt.drive_rc;
	notes_free(&nt);
	return rc;
}

int cmd_status(int argc, char **argv)
{
	struct flag_operands a = { 0 };	/* --json */
	struct json_object *doc = NULL, *arrays = NULL;
	char **names;
	size_t n, i;
	int rc = EX_OK;
	bool listed = false;

	opts_parse(argc, argv, "--json", flag_operands_opt, &a, help_of);
	if (a.ops.n) {
		for (i = 0; i < a.ops.n; i++)
			if (!dm_is_array(a.ops.v[i]))
				die(EX_NOTFOUND, "%s is not an active ssdstripe array", a.ops.v[i]);
		names = a.ops.v;
		n = a.ops.n;
	} else {
		names = dm_arrays(&n);
		listed = true;
		if (!n) {
			if (a.flag)
				printf("{\"version\":1,\"arrays\":[]}\n");
			else
				say("no active arrays");
			names_free(names, n);
			return EX_OK;
		}
	}
	if (a.flag) {
		doc = json_object_new_object();
		arrays = json_object_new_array();
		json_object_object_add(doc, "version", json_object_new_int(1));
		json_object_object_add(doc, "arrays", arrays);
	}
	for (i = 0; i < n; i++) {
		struct array ar;
		int r;

		if (!array_info(names[i], AK_STATUS, &ar)) {
			warn("%s has no sysfs statistics (not the first target of its table?)", names[i]);
			array_free(&ar);
			continue;
		}
		r = a.flag ? status_json(&ar, arrays) : status_text(&ar);
		if (r > rc)
			rc = r;
		array_free(&ar);
	}
	if (doc) {
		say("%s", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
	}
	if (listed)
		names_free(names, n);
	operands_free(&a.ops);
	return rc;
}
