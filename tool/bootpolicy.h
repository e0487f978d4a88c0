/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the boot policy (the sh library's bootpolicy.sh, moved):
 * which arrays boot assembles, from the configuration's ARRAY, AUTO, BOOT
 * and TIMEOUT and the kernel command line's ssdstripe.assemble= and
 * ssdstripe.timeout=.  assemble --boot (the initramfs), --boot-late (the
 * unit) and --incremental (udev) ask it.
 */
#ifndef SSDSTRIPE_BOOTPOLICY_H
#define SSDSTRIPE_BOOTPOLICY_H

#include <stdbool.h>

struct bootpolicy {
	char *sel;		/* "all", "none" or names: what the initramfs assembles */
	unsigned long long timeout;	/* seconds */
	bool cmdline_none;	/* ssdstripe.assemble=none: nothing at all at boot */
	char *arrays;		/* the ARRAY lines' words (NAME or uuid=UUID) */
	bool autoyes;		/* AUTO yes: boot takes the arrays nothing lists */
};

/* boot_selection: the policy of the configuration and the kernel command
 * line ($SSDSTRIPE_CMDLINE, else /proc/cmdline); its problems said once */
void boot_selection(struct bootpolicy *b);
void boot_free(struct bootpolicy *b);
/* boot_wanted: the arrays asked for at boot, the ARRAY lines (NAME or
 * uuid=UUID) and BOOT's names, each once, each followed by a space
 * (malloc'd; "" for none) */
char *boot_wanted(const struct bootpolicy *b);
/* boot_allowed: may boot-time assembly take array NAME (UUID)?  Listed,
 * or AUTO yes */
bool boot_allowed(const struct bootpolicy *b, const char *name, const char *uuid);

#endif
