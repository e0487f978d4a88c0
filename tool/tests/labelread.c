// SPDX-License-Identifier: GPL-2.0-only
/*
 * The label and identity reader of tests/label/run (label.c, ident.c),
 * on files and a fake sysfs, printing what the test compares:
 *
 *   labelread ident DIR...    each identity ident_of reads, as its line
 *   labelread words DIR...    each identity in the words messages use
 *   labelread parse LINE      SIZE|TYPE|ID|SERIAL|PART|MODEL of a recorded line
 *   labelread match DIR LINE  yes when DIR is the drive LINE records, else no
 *   labelread read FILE       a valid label: VERSION GEN INDEX MEMBER, then
 *                             its drives as K=identity lines; else
 *                             "rc RC ERR", exit 1
 *   labelread rc FILE         RC ERR (0 valid, 1 none, 2 damaged,
 *                             3 unsupported)
 *   labelread summary FILE    RC VERSION GEN [DRIVES] NAME
 *
 * FILE holds a label block's text (its NULs are dropped, as from a device).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ident.h"
#include "label.h"
#include "out.h"

static enum label_rc read_file(const char *file, struct label *l)
{
	unsigned char block[LABEL_BLOCK];
	size_t n = 0;
	FILE *f = fopen(file, "rb");

	memset(block, 0, sizeof(block));
	if (f) {
		n = fread(block, 1, sizeof(block), f);
		fclose(f);
	}
	return label_parse(block, n ? sizeof(block) : 0, l);
}

static const char *field(const struct label *l, enum label_key k)
{
	return l->f[k] ? l->f[k] : "";
}

static void drives(const struct label *l, const char *sep)
{
	size_t d;

	for (d = 0; d < l->ndrives; d++)
		printf("%u=%s%s", l->drives[d].k, l->drives[d].ident, sep);
}

int main(int argc, char **argv)
{
	char buf[2048];
	struct ident d, i;
	struct label l;
	enum label_rc rc;
	int a;

	if (argc < 3) {
		fprintf(stderr, "usage: labelread ident|words|parse|match|read|rc|summary ARG...\n");
		return 2;
	}
	if (!strcmp(argv[1], "ident") || !strcmp(argv[1], "words")) {
		for (a = 2; a < argc; a++) {
			if (!ident_of(argv[a], &d)) {
				if (!strcmp(argv[1], "ident"))
					continue;
				ident_none(&d);
			}
			if (!strcmp(argv[1], "ident"))
				ident_line(&d, buf, sizeof(buf));
			else
				ident_words(&d, buf, sizeof(buf));
			say("%s", buf);
		}
		return 0;
	}
	if (!strcmp(argv[1], "parse")) {
		ident_parse(argv[2], &i);
		say("%s|%s|%s|%s|%s|%s", i.size, i.type, i.id, i.serial, i.part, i.model);
		return 0;
	}
	if (!strcmp(argv[1], "match") && argc == 4) {
		if (!ident_of(argv[2], &d))
			ident_none(&d);
		ident_parse(argv[3], &i);
		say("%s", ident_match(&d, &i) ? "yes" : "no");
		return 0;
	}
	rc = read_file(argv[2], &l);
	if (!strcmp(argv[1], "read")) {
		if (rc != LABEL_OK) {
			say("rc %d %s", (int)rc, l.err);
			label_free(&l);
			return 1;
		}
		say("%d %llu %s %s", l.version, (unsigned long long)label_num(&l, LK_GEN), field(&l, LK_INDEX),
		    field(&l, LK_MEMBER));
		drives(&l, "\n");
	} else if (!strcmp(argv[1], "rc")) {
		say("%d %s", (int)rc, rc == LABEL_OK ? "" : l.err);
	} else if (!strcmp(argv[1], "summary")) {
		printf("%d %d %llu [", (int)rc, l.version, (unsigned long long)label_num(&l, LK_GEN));
		drives(&l, "\n");
		say("] %s", field(&l, LK_NAME));
	} else {
		label_free(&l);
		fprintf(stderr, "labelread: no command %s\n", argv[1]);
		return 2;
	}
	label_free(&l);
	return 0;
}
