/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the labels of an array's members as create writes them (a
 * new array, or create --assume-clean's next generation): each member's
 * label records every member's drive (ident.h), and every label is made
 * before the first is written (label.h writes the text).
 */
#ifndef SSDSTRIPE_ARRAYLABELS_H
#define SSDSTRIPE_ARRAYLABELS_H

#include <stdbool.h>
#include <stddef.h>

#include "label.h"

/* the array's fields, as the label's text has them ("" or NULL: absent,
 * for created and generation: now and 1) */
struct newlab {
	const char *name, *uuid, *chunk, *offset, *data, *members, *created, *gen, *op;
	unsigned int count;
};

/*
 * labels_make: the label of each member I that WHICH says (NULL: all),
 * of the array NL whose members are DEVS (N of them, in index order:
 * /dev paths or sysfs directories), into TEXTS[I]; member I's uuid is the
 * I-th of NL's members.  False, with WHY, when a label would not fit its
 * block (then none may be written).
 */
bool labels_make(char *const *devs, unsigned int n, const bool *which, const struct newlab *nl,
		 char (*texts)[LABEL_BLOCK + 1], char *why, size_t wl);

#endif
