// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe table NAME: the device-mapper table of array NAME, the live
 * one if it is active (as dmsetup table prints it), else the one assemble
 * would load, computed from the labels (read only), with the members as
 * MAJ:MIN so that it reads the same either way.  A member that is missing
 * is named by the drive its labels record, as assemble names it.
 * Exit: 0, 2 usage, 3 incomplete or inconsistent set, 4 not found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blk.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "geometry.h"
#include "labelset.h"
#include "opts.h"
#include "out.h"

/* the live table of active array NAME, as dmsetup table NAME prints it */
static int live_table(const char *name)
{
	struct dm_table tb;
	size_t i;

	if (!dm_table_of(name, &tb)) {
		warn("cannot read the table of %s: %s", name, dm_last_error());
		return EX_FAILED;
	}
	for (i = 0; i < tb.n; i++)
		say("%llu %llu %s %s", (unsigned long long)tb.t[i].start, (unsigned long long)tb.t[i].len,
		    tb.t[i].type, tb.t[i].params ? tb.t[i].params : "");
	dm_table_free(&tb);
	return EX_OK;
}

/* the table of the set C that lset_check accepted */
static void set_table(const struct lcheck *c)
{
	const struct lrec *ref = c->n ? c->set[0] : NULL;
	const char *cnt = ref ? lrec_f(ref, LK_COUNT) : "", *off = ref ? lrec_f(ref, LK_OFFSET) : "";
	uint64_t data = ref ? strtoull(lrec_f(ref, LK_DATA), NULL, 10) : 0;
	unsigned int ma, mi;
	size_t i;

	printf("0 %llu ssdstripe %s %s", (unsigned long long)(data * strtoull(cnt, NULL, 10)), cnt,
	       ref ? lrec_f(ref, LK_CHUNK) : "");
	for (i = 0; i < c->n; i++) {
		if (blk_majmin(c->set[i]->dev, &ma, &mi))
			printf(" %u:%u %s", ma, mi, off);
		else
			printf("  %s", off);
	}
	printf("\n");
}

/* the one uuid of the arrays called NAME in S: 4 none, 3 two */
static int uuid_of_name(const struct lset *s, const char *name, const char **uuid)
{
	size_t i;

	*uuid = NULL;
	for (i = 0; i < s->nlab; i++) {
		const char *u = lrec_f(&s->lab[i], LK_UUID);

		if (strcmp(lrec_f(&s->lab[i], LK_NAME), name))
			continue;
		if (*uuid && strcmp(*uuid, u))
			return EX_REFUSED;
		*uuid = u;
	}
	return *uuid ? EX_OK : EX_NOTFOUND;
}

int cmd_table(int argc, char **argv)
{
	struct flag_operands line = { 0 };
	struct lcheck c;
	struct lset s;
	const char *name, *u;
	char **devs, *ml;
	size_t nd, i;
	int rc;

	opts_parse(argc, argv, "", flag_operands_opt, &line, help_of);
	if (line.ops.n > 1)
		usage_die("table takes one array name");
	if (!line.ops.n)
		usage_die("table needs an array name");
	name = line.ops.v[0];
	if (dm_is_array(name)) {
		rc = live_table(name);
		operands_free(&line.ops);
		return rc;
	}
	if (!valid_name(name))
		usage_die("invalid array name '%s'", name);
	devs = lset_candidates(&nd);
	lset_collect(&s, devs, nd);
	names_free(devs, nd);
	switch (uuid_of_name(&s, name, &u)) {
	case EX_NOTFOUND:
		die(EX_NOTFOUND, "no array called %s", name);
	case EX_REFUSED:
		die(EX_REFUSED, "two different arrays are called %s", name);
	default:
		break;
	}
	/* a member that carries another signature now is not this array's */
	if (lset_has_shadowed(&s, u)) {
		lset_refuse_shadowed(&s, u);
		die(EX_REFUSED, "array %s: a member carries another signature now: no table", name);
	}
	rc = lset_check(&s, u, &c);
	switch (rc) {
	case EX_OK:
		set_table(&c);
		break;
	case EX_NOTFOUND:
		lset_missing_members(&s, &c, name, u, "", false, true);
		ml = xstrdup("");
		for (i = 0; i < c.nmissing; i++) {
			char *t = xasprintf("%s %u", ml, c.missing[i]);

			free(ml);
			ml = t;
		}
		die(EX_REFUSED, "array %s is incomplete (member%s not found): no table", name, ml);
	default:
		warn("%s", c.why);
		die(EX_REFUSED, "array %s is inconsistent: no table", name);
	}
	lcheck_free(&c);
	lset_free(&s);
	operands_free(&line.ops);
	return EX_OK;
}
