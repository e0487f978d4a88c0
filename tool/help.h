/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: every help text, from the one place they are written
 * (help.c): each command's (COMMAND --help, 'ssdstripe help COMMAND') and
 * the main help ('ssdstripe help', --help, and on stderr the program
 * without a command), which lists every command's usage lines.
 */
#ifndef SSDSTRIPE_HELP_H
#define SSDSTRIPE_HELP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* help_is_command: WORD is one of the commands (help lists them) */
bool help_is_command(const char *word);
/* help_print: the help of command CMD on F; false when CMD is none */
bool help_print(FILE *f, const char *cmd);
/* help_main: the main help on F */
void help_main(FILE *f);
/*
 * help_cmd: 'ssdstripe help [WORD]' (or -h, --help), ARGV the words after
 * it: the main help, or WORD's; WORD no command: said, exit 2.  The exit
 * code
 */
int help_cmd(int argc, char **argv);

/* for the tests: the text of CMD as written, $NAME and all (NULL: none) */
const char *help_template(const char *cmd);
/* the Ith command, in the order help lists them; NULL past the last */
const char *help_command_at(size_t i);
/* help_expand: TEMPLATE with $NAME, ${NAME} and $$ expanded, on F; false
 * when it names an unknown NAME (printed as written) */
bool help_expand(FILE *f, const char *template);

#endif
