// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: create, assemble, stop, wipe, sanitize, inspect and monitor
 * dm-ssdstripe arrays (ssdstripe(8)).
 *
 * One program, as mdadm, lvm2 and cryptsetup are.  The commands move
 * here from the sh tool one at a time, as git's did to C builtins: a
 * command in BUILTINS runs in this process; any other is handed, with the
 * same arguments and in the same process (exec), to the sh tool that
 * still holds it (ssdstripe.sh and its library in TOOLLIBDIR).  Every
 * help text is here (help.c), the sh commands' too: the program prints
 * them, 'help' and the usage errors of a line without a command itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/*
 * sh_tool: the sh entry of the commands not yet here: $SSDSTRIPE_SH if
 * set; in a source tree (this program in tool/ beside main.c), the tree's
 * scripts/ssdstripe; else TOOLLIBDIR's ssdstripe.sh, where make install
 * put it
 */
static char *sh_tool(void)
{
	const char *sh = getenv("SSDSTRIPE_SH");
	char exe[PATH_MAX], *p;
	ssize_t n;

	if (sh && *sh)
		return xstrdup(sh);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		p = strrchr(exe, '/');
		if (p) {
			*p = 0;
			char *src = xasprintf("%s/main.c", exe);

			/* a source tree: this program beside its own sources */
			p = xasprintf("%s/../scripts/ssdstripe", exe);
			if (!access(p, R_OK) && !access(src, R_OK) &&
			    strlen(exe) >= 5 && !strcmp(exe + strlen(exe) - 5, "/tool")) {
				free(src);
				return p;
			}
			free(src);
			free(p);
		}
	}
	return xstrdup(SSDSTRIPE_TOOLLIBDIR "/ssdstripe.sh");
}

/* run_sh: hand ARGV (the command and its arguments) to the sh tool */
static int __attribute__((noreturn)) run_sh(int argc, char **argv)
{
	char **v = xmalloc(((size_t)argc + 3) * sizeof(*v));
	char *tool = sh_tool(), *self;
	int i;

	v[0] = "sh";
	v[1] = tool;
	for (i = 0; i < argc; i++)
		v[i + 2] = argv[i];
	v[argc + 2] = NULL;
	/* the sh part starts this program again by this (the monitor's
	 * takeover of a copy no process waits for) */
	self = realpath("/proc/self/exe", NULL);
	if (self)
		setenv("SSDSTRIPE_PROGRAM", self, 1);
	free(self);
	fflush(NULL);
	execv("/bin/sh", v);
	die(EX_FAILED, "cannot run its sh part %s: %s (SSDSTRIPE_SH=PATH names where it is)",
	    tool, strerror(errno));
}

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
	if (help_is_command(cmd)) {
		/* a command still in sh: its help is here */
		if (help_wanted_sh(cmd, argc - 2, argv + 2)) {
			help_print(stdout, cmd);
			return EX_OK;
		}
		run_sh(argc - 1, argv + 1);
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		return help_cmd(argc - 2, argv + 2);
	if (!*cmd) {
		help_main(stderr);
		return EX_USAGE;
	}
	usage_die("unknown command '%s'", cmd);
}
