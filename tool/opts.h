/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the one option parser.  Every command's line is parsed the
 * same way: options anywhere, -- ends them, - alone is an operand.
 *
 * SPEC lists a command's options as words, as the sh tool's opts did:
 * "--name=" takes a value (--name V or --name=V), "--once" is a flag, and
 * a word's aliases follow its first name after | ("--force|-f").  For
 * each option the handler gets the word's first name and its value (NULL
 * for a flag); for each operand NULL and the operand; in the order given.
 * -h and --help call HELP and exit 0; any other word that starts with -
 * and is not in SPEC is refused (exit 2, named), and so are a flag given
 * a value, an option missing its value, an empty value and an empty
 * operand.  What the user gives is only ever compared with SPEC's words.
 */
#ifndef SSDSTRIPE_OPTS_H
#define SSDSTRIPE_OPTS_H

#include <stdbool.h>
#include <stddef.h>

typedef void (*opt_handler)(void *ctx, const char *name, const char *value);

struct opts_error {
	char msg[256];
};

#define OPTS_HELP (-1)

/*
 * opts_parse_err: 0 when every word was handed to H; OPTS_HELP at -h or
 * --help (the words before it handed to H); EX_USAGE, with ERR saying
 * why, on a usage error
 */
int opts_parse_err(int argc, char *const argv[], const char *spec,
		   opt_handler h, void *ctx, struct opts_error *err);
/* opts_parse: the same as every command takes it: help and errors exit */
void opts_parse(int argc, char *const argv[], const char *spec,
		opt_handler h, void *ctx, void (*help)(void));

/* a command's operands, in the order given (pointers into its argv) */
struct operands {
	char **v;
	size_t n;
};

void operands_add(struct operands *o, const char *value);
void operands_free(struct operands *o);

/*
 * the line of a command with operands and at most one flag: the handler
 * opts_parse takes for it (SPEC names the flag, or is "")
 */
struct flag_operands {
	bool flag;
	struct operands ops;
};

void flag_operands_opt(void *ctx, const char *name, const char *value);

#endif
