/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the monitor's device-mapper event waiters: a thread per
 * array, in the kernel's DM_DEV_WAIT ioctl (libdevmapper's waitevent)
 * from the event number just read, so that no event is lost between two
 * waits; each event writes a byte to the monitor's wake pipe (every
 * member state change raises one).  A waiter ends when its array goes
 * (its removal wakes it too); the process's end takes the rest.  Its
 * thread is named "dmwait NAME" (its comm: "dmwait").
 */
#ifndef SSDSTRIPE_DMWAIT_H
#define SSDSTRIPE_DMWAIT_H

#include <stdbool.h>

/* dmwait_init: events are told by a byte on WAKE_FD */
void dmwait_init(int wake_fd);
/* dmwait_ensure: a live waiter for array NAME (started anew if it ended) */
void dmwait_ensure(const char *name);
/* dmwait_forget: NAME is gone: its waiter ends by itself */
void dmwait_forget(const char *name);

#endif
