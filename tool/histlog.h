/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the history (ssdstripe(8), "history"): what was done to the
 * arrays and what the monitor saw, kept across reboots, one line per
 * event in $SSDSTRIPE_HISTORY_DIR/history.log, tab-separated:
 *   TIME EVENT ARRAY UUID MEMBER SERIAL DETAIL
 * Where the log cannot be written (the initramfs; a root still read-only)
 * the line waits in $SSDSTRIPE_RUNDIR/history.pending, and the next
 * command that writes the log moves it there first, in its order, as the
 * sh tool's history.sh did.
 */
#ifndef SSDSTRIPE_HISTLOG_H
#define SSDSTRIPE_HISTLOG_H

#include <stdbool.h>
#include <stddef.h>

#define HIST_KEEP 3		/* older logs kept: history.log.1 ... */

/* the command line, "ssdstripe CMD ARGS", that a line's detail ends with */
extern char *hist_cmd;

/* set by assemble --boot (the initramfs, whose /var/log is gone after the
 * switch to the root): every line goes to the pending file */
extern bool hist_pending_only;

/*
 * history_add: one line of history (NULL or "" for a field that does not
 * apply); never fails the command (the history is a record, not a
 * condition), but says once why it cannot be kept
 */
void history_add(const char *event, const char *array, const char *uuid,
		 const char *member, const char *serial, const char *detail);

/* hist_paths: the log's path and the pending file's */
void hist_paths(char *log, size_t ll, char *pending, size_t pl);

#endif
