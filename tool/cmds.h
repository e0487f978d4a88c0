/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the commands, one file each (main.c runs them).
 */
#ifndef SSDSTRIPE_CMDS_H
#define SSDSTRIPE_CMDS_H

int cmd_examine(int argc, char **argv);
int cmd_wipe(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_replace(int argc, char **argv);
int cmd_sanitize(int argc, char **argv);
int cmd_iostat(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_assemble(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_detail(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_scrub(int argc, char **argv);

/* help_of: the command's help, from the one place it is written */
void help_of(void);

#endif
