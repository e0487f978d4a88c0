// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe config [--check] [FILE], config --scan: the configuration file
 * (ssdstripe.conf(5)) checked line by line, each problem said on stderr
 * with the file and its line, in the words every command that reads the
 * file says it (conf.c); --scan prints an ARRAY line for every active
 * array, as detail --scan does (scanlines.c).  Reads only.  Exit: 0 no
 * problem (or no file: the defaults apply), 1 problems, 2 usage, 4 FILE
 * does not exist.
 */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmds.h"
#include "conf.h"
#include "opts.h"
#include "out.h"
#include "scanlines.h"

struct config_args {
	const char *mode;	/* "--check", "--scan" or NULL */
	const char *file;
};

static void cf_opt(void *ctx, const char *name, const char *value)
{
	struct config_args *a = ctx;

	if (!name) {
		if (a->file)
			usage_die("config takes one file");
		a->file = value;
		return;
	}
	if (a->mode && strcmp(a->mode, name))
		usage_die("--check or --scan, not both");
	a->mode = !strcmp(name, "--scan") ? "--scan" : "--check";
}

static void say_problem(const char *problem, void *ctx)
{
	warn("%s %s", (const char *)ctx, problem);
}

int cmd_config(int argc, char **argv)
{
	struct config_args a = { 0 };
	struct stat st;
	struct conf c;
	size_t bad;

	opts_parse(argc, argv, "--check --scan", cf_opt, &a, help_of);
	if (a.mode && !strcmp(a.mode, "--scan")) {
		if (a.file)
			usage_die("--scan takes no file: it prints ARRAY lines for the active arrays");
		scan_lines();
		return EX_OK;
	}
	if (!a.file) {
		a.file = conf_path();
		if (stat(a.file, &st)) {
			say("%s does not exist: the defaults apply (ssdstripe.conf(5))", a.file);
			return EX_OK;
		}
	}
	if (stat(a.file, &st))
		die(EX_NOTFOUND, "%s does not exist", a.file);
	if (access(a.file, R_OK))
		die(EX_FAILED, "cannot read %s", a.file);
	if (!conf_scan(a.file, &c))
		die(EX_FAILED, "cannot check %s", a.file);
	bad = conf_problems(&c, say_problem, (void *)a.file);
	conf_free(&c);
	if (!bad) {
		say("%s: no problem", a.file);
		return EX_OK;
	}
	say("%s: %zu problem%s (above): fix the lines (ssdstripe.conf(5))", a.file, bad, bad == 1 ? "" : "s");
	return EX_FAILED;
}
