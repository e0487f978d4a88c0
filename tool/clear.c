// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe clear NAME...: forget the I/O errors of every member of the
 * arrays, like 'zpool clear' (the target's clear_errors message), and
 * say the state after it.  Exit: 0 cleared (whatever the state after),
 * 1 failed, 2 usage, 4 no such array.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "histlog.h"
#include "opts.h"
#include "out.h"

/* clear_said: after clear_errors, the array's state and each member that
 * is not ok, with why (the kernel keeps what is no error) */
static void clear_said(const char *name)
{
	char *d = dm_sysdir(name), *s, **st, f[PATH_MAX], t[PATH_MAX];
	size_t n, i;

	s = d ? xasprintf("%s/ssdstripe", d) : NULL;
	free(d);
	if (!s || !array_snapshot(s, &st, &n)) {
		say("%s: errors cleared", name);
		free(s);
		return;
	}
	say("%s: errors cleared, array %s", name, array_state_of(st, n));
	for (i = 0; i < n; i++) {
		char *rp, *p = NULL;
		const char *b = "";
		ssize_t l;

		/* the member's device name, as readlink -f gives it (a link
		 * that leads nowhere: the name it names) */
		pathf(f, sizeof(f), "%s/members/%zu/block", s, i);
		rp = realpath(f, NULL);
		if (rp) {
			b = strrchr(rp, '/') + 1;
		} else if ((l = readlink(f, t, sizeof(t) - 1)) > 0) {
			t[l] = 0;
			b = strrchr(t, '/') ? strrchr(t, '/') + 1 : t;
		}
		if (*b)
			p = dev_pretty(b);
		b = p && *p ? p : "gone";
		if (!strcmp(st[i], "ok"))
			;
		else if (!strcmp(st[i], "slow"))
			say("  member %zu (%s) stays slow: slowness is no error; it is ok again once its I/O is judged fast (an idle member keeps the verdict)",
			    i, b);
		else if (!strcmp(st[i], "failed"))
			say("  member %zu (%s) stays failed: its disk is gone", i, b);
		else if (!strcmp(st[i], "stalled"))
			say("  member %zu (%s) is stalled: reads or writes wait on it, none completes", i, b);
		else
			say("  member %zu (%s) is %s: a new error since the clear", i, b, st[i]);
		free(rp);
		free(p);
	}
	states_free(st, n);
	free(s);
}

int cmd_clear(int argc, char **argv)
{
	struct flag_operands a = { 0 };
	int rc = EX_OK;
	size_t i;

	opts_parse(argc, argv, "", flag_operands_opt, &a, help_of);
	if (!a.ops.n)
		usage_die("clear needs an array name");
	for (i = 0; i < a.ops.n; i++) {
		const char *nm = a.ops.v[i];
		char u[64], *d;

		if (!dm_is_array(nm)) {
			warn("%s is not an active ssdstripe array", nm);
			rc = EX_NOTFOUND;
			continue;
		}
		if (!dm_message(nm, "clear_errors")) {
			warn("%s: clear_errors failed", nm);
			rc = EX_FAILED;
			continue;
		}
		clear_said(nm);
		array_uuid(nm, u, sizeof(u));
		d = xasprintf("error counters cleared (%s)", hist_cmd ? hist_cmd : "");
		history_add("cleared", nm, u, "", "", d);
		free(d);
	}
	operands_free(&a.ops);
	return rc;
}
