// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe examine: print each device's label (read only), where the
 * drives it records are now, and whether it is shadowed.
 * Exit: 0, 3 damaged label, 4 no label.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "dev.h"
#include "ident.h"
#include "label.h"
#include "opts.h"
#include "out.h"
#include "probe.h"

static char *join(char *at, char *s)
{
	char *t;

	if (!at)
		return s;
	t = xasprintf("%s; %s", at, s);
	free(at);
	free(s);
	return t;
}

/* where_now: where member K (KS) of array UUID, recorded as I, is now */
static char *where_now(const char *uuid, const char *ks, const struct ident *i)
{
	char **names, *at = NULL;
	size_t n, j;

	names = ident_find(i, &n);
	for (j = 0; j < n; j++) {
		char *d = dev_path(names[j]), *s;
		struct label l;
		enum label_rc rc;

		if (!d)
			d = xasprintf("/dev/%s", names[j]);
		rc = label_read(d, &l);
		if (rc == LABEL_OK && !strcmp(l.f[LK_UUID], uuid) && !strcmp(l.f[LK_INDEX], ks))
			s = xstrdup(d);
		else if (rc == LABEL_OK)
			s = xasprintf("%s, which carries a label of array %s (member %s)",
				      d, l.f[LK_NAME], l.f[LK_INDEX]);
		else if (rc == LABEL_NONE)
			s = xasprintf("%s, without a label", d);
		else
			s = xasprintf("%s, its label damaged (%s)", d, l.err);
		label_free(&l);
		free(d);
		at = join(at, s);
	}
	names_free(names, n);
	return at ? at : xstrdup("not found: reseat it, or replace it");
}

/* examine_drives: a line per member the label L of DEV records a drive for */
static void examine_drives(const char *dev, const struct label *l)
{
	size_t j;

	if (l->version == 1) {
		say("  (a label of version 1 records no member's drive)");
		return;
	}
	for (j = 0; j < l->ndrives; j++) {
		char ks[16], w[512], r[512], dw[512], *at;
		struct ident i, d;

		snprintf(ks, sizeof(ks), "%u", l->drives[j].k);
		ident_parse(l->drives[j].ident, &i);
		ident_words(&i, w, sizeof(w));
		if (!strcmp(ks, l->f[LK_INDEX])) {
			if (!ident_of(dev, &d))
				ident_none(&d);
			if (ident_match(&d, &i)) {
				at = xstrdup("this device");
			} else if (ident_known(&i)) {
				ident_full(&i, r, sizeof(r));
				ident_full(&d, dw, sizeof(dw));
				at = xasprintf("this device, but its label records another drive for it (%s; this is %s): a copy of the label?",
					       r, dw);
			} else {
				at = xstrdup("this device (nothing recorded identifies it)");
			}
		} else if (!ident_known(&i)) {
			at = xstrdup("nothing recorded identifies it");
		} else {
			at = where_now(l->f[LK_UUID], ks, &i);
		}
		say("  member %s (%s): %s", ks, w, at);
		free(at);
	}
}

static void print_label(const char *dev, const struct label *l)
{
	const char *p = l->text;
	char t[32];

	say("%s:", dev);
	while (p) {
		const char *e = strchr(p, '\n');
		int n = e ? (int)(e - p) : (int)strlen(p);
		bool num = n > 8 && !strncmp(p, "created=", 8);
		int k;

		for (k = 8; num && k < n; k++)
			if (p[k] < '0' || p[k] > '9')
				num = false;
		if (num)
			say("  %.*s (%s)", n, p,
			    iso_time(t, sizeof(t), strtoll(p + 8, NULL, 10)));
		else
			say("  %.*s", n, p);
		p = e ? e + 1 : NULL;
	}
	if (l->f[LK_STATE] && !strcmp(l->f[LK_STATE], "replaced")) {
		const char *by = l->f[LK_REPBY], *at = l->f[LK_REPAT];
		char *on = NULL;

		if (at && *at)
			on = xasprintf(" on %s", iso_time(t, sizeof(t), strtoll(at, NULL, 10)));
		say("  retired: member %s of array %s until it was replaced%s%s%s; assemble never takes it ('%s wipe %s' frees it)",
		    l->f[LK_INDEX], l->f[LK_NAME], by && *by ? " by " : "", by && *by ? by : "",
		    on ? on : "", PROG, dev);
		free(on);
	} else if (l->f[LK_STATE] && !strcmp(l->f[LK_STATE], "copying")) {
		say("  an unfinished copy of member %s of array %s (a replace onto it): assemble leaves it out, unless the other members' newer labels record its drive (a switch onto it cut short: '%s replace --finish %s' writes its label); '%s replace' starts the copy over, '%s wipe %s' frees it",
		    l->f[LK_INDEX], l->f[LK_NAME], PROG, l->f[LK_NAME], PROG, PROG, dev);
	}
}

int cmd_examine(int argc, char **argv)
{
	struct flag_operands line = { 0 };
	struct operands *a = &line.ops;
	int rc = EX_OK;
	size_t j;

	opts_parse(argc, argv, "", flag_operands_opt, &line, help_of);
	if (!a->n)
		usage_die("examine needs a device");
	for (j = 0; j < a->n; j++) {
		char *c = dev_canon(a->v[j]), sig[512];
		struct label l;

		if (!c) {
			warn("%s: not a block device", a->v[j]);
			rc = EX_NOTFOUND;
			continue;
		}
		switch (label_read(c, &l)) {
		case LABEL_OK:
			print_label(c, &l);
			examine_drives(c, &l);
			break;
		case LABEL_NONE:
			warn("%s has no ssdstripe label", c);
			rc = EX_NOTFOUND;
			label_free(&l);
			free(c);
			continue;
		default:
			warn("%s: %s", c, l.err);
			rc = EX_REFUSED;
			break;
		}
		label_free(&l);
		if (foreign_signature(c, sig, sizeof(sig)))
			say("  shadowed: %s carries %s now; assemble refuses it ('%s wipe %s' drops the label)",
			    c, sig, PROG, c);
		free(c);
	}
	operands_free(a);
	return rc;
}
