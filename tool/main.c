// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: create, assemble, stop, wipe, sanitize, inspect and monitor
 * dm-ssdstripe arrays (ssdstripe(8)).
 *
 * One program, as mdadm, lvm2 and cryptsetup are: every command is a
 * function of this process (BUILTINS), and every help text is here
 * (help.c).  The commands came from an sh tool one at a time, as git's
 * did to C builtins, with the same options, output and exit codes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "help.h"
#include "histlog.h"
#include "label.h"
#include "out.h"

struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct builtin builtins[] = {
	{ "stop", cmd_stop },
	{ "wipe", cmd_wipe },
	{ "examine", cmd_examine },
	{ "history", cmd_history },
	{ "replace", cmd_replace },
	{ "sanitize", cmd_sanitize },
	{ "iostat", cmd_iostat },
	{ "create", cmd_create },
	{ "assemble", cmd_assemble },
	{ "status", cmd_status },
	{ "detail", cmd_detail },
	{ "clear", cmd_clear },
	{ "list", cmd_list },
	{ "table", cmd_table },
	{ "monitor", cmd_monitor },
	{ "config", cmd_config },
	{ "scrub", cmd_scrub },
};

/* hist_line: "ssdstripe CMD ARGS", the command line a history line names */
static char *hist_line(int argc, char **argv)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int i;

	if (!f)
		die(EX_FAILED, "out of memory");
	fputs(PROG, f);
	for (i = 1; i < argc; i++)
		fprintf(f, " %s", argv[i]);
	fclose(f);
	return s;
}

void help_of(void)
{
	help_print(stdout, cur_cmd);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	size_t i;

	if (argc < 1)
		return EX_USAGE;
	/* each line out when it is said, as the sh tool's were: progress of
	 * a long erase or copy reaches a log or a pipe at once, and is not
	 * lost with a buffer when the process is killed */
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		say("%s %s (label version %d)", PROG, SSDSTRIPE_VERSION, LABEL_VERSION);
		return EX_OK;
	}
	for (i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
		if (strcmp(cmd, builtins[i].name))
			continue;
		cur_cmd = builtins[i].name;
		hist_cmd = hist_line(argc, argv);
		return builtins[i].fn(argc - 2, argv + 2);
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return help_cmd(argc - 2, argv + 2);
	if (!*cmd) {
		help_main(stderr);
		return EX_USAGE;
	}
	usage_die("unknown command '%s'", cmd);
}
