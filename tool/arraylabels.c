// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the labels of an array's members as create writes them
 * (arraylabels.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arraylabels.h"
#include "ident.h"
#include "out.h"

bool labels_make(char *const *devs, unsigned int n, const bool *which, const struct newlab *nl,
		 char (*texts)[LABEL_BLOCK + 1], char *why, size_t wl)
{
	struct label l;
	char idx[16], cnt[16], line[2048], *ml, *save = NULL, *w, **mem;
	unsigned int i, nm = 0;
	bool ok = true;

	memset(&l, 0, sizeof(l));
	snprintf(cnt, sizeof(cnt), "%u", nl->count);
	l.f[LK_UUID] = (char *)nl->uuid;
	l.f[LK_NAME] = (char *)nl->name;
	l.f[LK_COUNT] = cnt;
	l.f[LK_CHUNK] = (char *)nl->chunk;
	l.f[LK_OFFSET] = (char *)nl->offset;
	l.f[LK_DATA] = (char *)nl->data;
	l.f[LK_MEMBERS] = (char *)nl->members;
	l.f[LK_CREATED] = (char *)nl->created;
	l.f[LK_GEN] = (char *)nl->gen;
	l.f[LK_OP] = (char *)nl->op;
	l.ndrives = n;
	l.drives = xmalloc((n ? n : 1) * sizeof(*l.drives));
	mem = xmalloc((n ? n : 1) * sizeof(*mem));
	for (i = 0; i < n; i++) {
		struct ident d;

		if (!ident_of(devs[i], &d))
			ident_none(&d);
		ident_line(&d, line, sizeof(line));
		l.drives[i].k = i;
		l.drives[i].ident = xstrdup(line);
	}
	ml = xstrdup(nl->members ? nl->members : "");
	for (w = strtok_r(ml, ",", &save); w && nm < n; w = strtok_r(NULL, ",", &save))
		mem[nm++] = w;
	for (i = 0; i < n && ok; i++) {
		if (which && !which[i])
			continue;
		snprintf(idx, sizeof(idx), "%u", i);
		l.f[LK_INDEX] = idx;
		l.f[LK_MEMBER] = i < nm ? mem[i] : "";
		memset(texts[i], 0, sizeof(texts[i]));
		if (label_format(&l, texts[i], sizeof(texts[i])) < 0) {
			snprintf(why, wl, "a label of these %u member%s would take %zu bytes, more than the %d of its block (each label records every member's drive): use fewer members",
				 nl->count, nl->count == 1 ? "" : "s", label_length(&l), LABEL_BLOCK);
			ok = false;
		}
	}
	for (i = 0; i < n; i++)
		free(l.drives[i].ident);
	free(l.drives);
	free(mem);
	free(ml);
	return ok;
}
