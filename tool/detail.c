// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe detail NAME [--json], detail --scan: one active array's whole
 * picture, as 'mdadm --detail'; --scan an ARRAY line for every active
 * array.  Reads only.  Exit: 0 (whatever the state), 2 usage, 4 no such
 * array.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "array.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "inprog.h"
#include "member.h"
#include "opts.h"
#include "out.h"
#include "scanlines.h"

/*
 * The health thresholds, in the order of ssdstripe_tunables in
 * dm-ssdstripe/ssdstripe-target.c ('dmsetup table' prints a threshold only
 * when it differs from its default).  Their defaults are the module's,
 * read-only in its parameters (since target 1.5.0).
 */
static const char *const tunables[] = {
	"health_window_ms", "slow_factor", "slow_min_latency_us", "slow_windows",
	"recover_windows", "min_ios", "fail_windows", "stall_ms",
};
#define MODULE_PARAMS "/sys/module/dm_ssdstripe/parameters"

/* tunable_default: the module's default of threshold NAME; "" from a
 * module older than 1.5.0, which does not say */
static void tunable_default(const char *name, char *buf, size_t len)
{
	if (!attr_at(MODULE_PARAMS, name, buf, len) || !*buf ||
	    strspn(buf, "0123456789") != strlen(buf))
		buf[0] = 0;
}

struct detail_args {
	bool json, scan;
	const char *name;
};

static void de_opt(void *ctx, const char *name, const char *value)
{
	struct detail_args *a = ctx;

	if (!name) {
		if (a->name)
			usage_die("detail takes one array name");
		a->name = value;
	} else if (!strcmp(name, "--json")) {
		a->json = true;
	} else {
		a->scan = true;
	}
}

static void detail_json(struct array *a)
{
	struct json_object *o = json_object_new_object(), *th = json_object_new_object(),
			   *ms = json_object_new_array();
	char def[64];
	size_t i;

	json_object_object_add(o, "version", json_object_new_int(1));
	array_json(a, AK_DETAIL, o);
	for (i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		const char *v = array_feat(a, tunables[i]);

		tunable_default(tunables[i], def, sizeof(def));
		json_object_object_add(th, tunables[i], jnum(v && *v ? v : def));
	}
	json_object_object_add(o, "thresholds", th);
	json_object_object_add(o, "replace", replace_json(a->name));
	json_object_object_add(o, "scrub", scrub_json(a->name));
	for (i = 0; i < a->n; i++) {
		struct member m;

		member_read(a->sys, (unsigned int)i, a->states[i], &a->rec, NULL, &m);
		json_object_array_add(ms, member_json(&m, MV_DETAIL));
	}
	json_object_object_add(o, "members", ms);
	say("%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

static void detail_text(struct array *a)
{
	struct notes nt;
	char *rows, head[2048], def[64];
	size_t i;

	notes_init(&nt, 2);
	/* the rows first: the state line says what the drives say */
	rows = array_member_rows(a, MV_DETAIL, &nt);
	drive_head(nt.crit, nt.warn, head, sizeof(head));
	say("array %s", a->name);
	array_rows(a, head);
	for (i = 0; i < sizeof(tunables) / sizeof(tunables[0]); i++) {
		const char *v = array_feat(a, tunables[i]);

		tunable_default(tunables[i], def, sizeof(def));
		if (v && *v)
			printf("  %-20s %s (default %s)\n", tunables[i], v, *def ? def : "unknown");
		else
			printf("  %-20s %s\n", tunables[i], *def ? def : "unknown (module older than 1.5.0)");
	}
	advice(a->name, a->state);
	replace_say(a->name);
	scrub_say(a->name);
	member_row(stdout, NULL, MV_DETAIL);
	fputs(rows, stdout);
	printf("%s%s%s", nt.gone, nt.fabric, nt.drive);
	free(rows);
	notes_free(&nt);
}

int cmd_detail(int argc, char **argv)
{
	struct detail_args a = { 0 };
	struct array ar;

	opts_parse(argc, argv, "--json --scan", de_opt, &a, help_of);
	if (a.scan) {
		if (a.name || a.json)
			usage_die("--scan goes alone: it prints an ARRAY line for every active array");
		scan_lines();
		return EX_OK;
	}
	if (!a.name)
		usage_die("detail needs an array name");
	if (!dm_is_array(a.name))
		die(EX_NOTFOUND, "%s is not an active ssdstripe array", a.name);
	if (!array_info(a.name, AK_DETAIL, &ar))
		die(EX_FAILED, "%s has no sysfs statistics (not the first target of its table?)", a.name);
	if (a.json)
		detail_json(&ar);
	else
		detail_text(&ar);
	array_free(&ar);
	return EX_OK;
}
