// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host tests' label writer (tests/label/run, tests/tool-output): the
 * labels create writes (arraylabels.c, label.c), into files.
 *
 *   mklabel DIR WHICH DEVS UUID NAME COUNT CHUNK OFFSET DATA MEMBERS CREATED GEN [OP]
 *
 * writes DIR/label.I, the label's text, for each member I of WHICH (words)
 * of the array whose members are DEVS (words: /dev paths or sysfs
 * directories, in index order); a label that would not fit its block:
 * create's message on stderr, exit 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraylabels.h"
#include "out.h"

static char **words(const char *s, unsigned int *n)
{
	char *c = xstrdup(s), *save = NULL, *w, **v = NULL;

	*n = 0;
	for (w = strtok_r(c, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		v = realloc(v, (*n + 1) * sizeof(*v));
		if (!v)
			die(EX_FAILED, "out of memory");
		v[(*n)++] = xstrdup(w);
	}
	free(c);
	return v;
}

int main(int argc, char **argv)
{
	struct newlab nl;
	char **devs, **which, why[512], (*texts)[LABEL_BLOCK + 1];
	unsigned int n, nw, i;
	bool *w;

	if (argc != 13 && argc != 14) {
		fprintf(stderr, "usage: mklabel DIR WHICH DEVS UUID NAME COUNT CHUNK OFFSET DATA MEMBERS CREATED GEN [OP]\n");
		return 2;
	}
	devs = words(argv[3], &n);
	which = words(argv[2], &nw);
	w = calloc(n ? n : 1, sizeof(*w));
	texts = calloc(n ? n : 1, sizeof(*texts));
	if (!w || !texts)
		die(EX_FAILED, "out of memory");
	for (i = 0; i < nw; i++) {
		unsigned int k = (unsigned int)atoi(which[i]);

		if (k >= n)
			die(EX_USAGE, "member %u of %u", k, n);
		w[k] = true;
	}
	memset(&nl, 0, sizeof(nl));
	nl.uuid = argv[4];
	nl.name = argv[5];
	nl.count = (unsigned int)atoi(argv[6]);
	nl.chunk = argv[7];
	nl.offset = argv[8];
	nl.data = argv[9];
	nl.members = argv[10];
	nl.created = argv[11];
	nl.gen = argv[12];
	nl.op = argc == 14 ? argv[13] : NULL;
	if (!labels_make(devs, n, w, &nl, texts, why, sizeof(why))) {
		fprintf(stderr, "%s\n", why);
		return 1;
	}
	for (i = 0; i < n; i++) {
		char *p;
		FILE *f;

		if (!w[i])
			continue;
		p = xasprintf("%s/label.%u", argv[1], i);
		f = fopen(p, "w");
		if (!f || fputs(texts[i], f) < 0 || fclose(f))
			die(EX_FAILED, "cannot write %s", p);
		free(p);
	}
	for (i = 0; i < n; i++)
		free(devs[i]);
	for (i = 0; i < nw; i++)
		free(which[i]);
	free(devs);
	free(which);
	free(w);
	free(texts);
	return 0;
}
