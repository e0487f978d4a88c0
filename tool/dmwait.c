// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the monitor's device-mapper event waiters (dmwait.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdevmapper.h>

#include "dmwait.h"
#include "out.h"
#include "str.h"

struct waiter {
	char name[128];
	atomic_bool alive;
	struct waiter *next;
};

static struct waiter *waiters;
static int wake = -1;

void dmwait_init(int wake_fd)
{
	wake = wake_fd;
}

/* event_nr: array NAME's event counter; false when it is gone */
static bool event_nr(const char *name, uint32_t *nr)
{
	struct dm_task *t = dm_task_create(DM_DEVICE_INFO);
	struct dm_info i;
	bool ok = false;

	if (!t)
		return false;
	if (dm_task_set_name(t, name) && dm_task_run(t) && dm_task_get_info(t, &i) && i.exists) {
		*nr = i.event_nr;
		ok = true;
	}
	dm_task_destroy(t);
	return ok;
}

/* wait_event: until NAME's counter passes NR; false when it cannot wait */
static bool wait_event(const char *name, uint32_t nr)
{
	struct dm_task *t = dm_task_create(DM_DEVICE_WAITEVENT);
	bool ok;

	if (!t)
		return false;
	ok = dm_task_set_name(t, name) && dm_task_set_event_nr(t, nr) && dm_task_no_flush(t) && dm_task_run(t);
	dm_task_destroy(t);
	return ok;
}

static void *run(void *arg)
{
	struct waiter *w = arg;
	uint32_t nr;
	char c = 1;

	while (event_nr(w->name, &nr)) {
		if (!wait_event(w->name, nr))
			break;
		if (write(wake, &c, 1) < 0) {
			/* the pipe is full: the monitor polls anyway */
		}
	}
	atomic_store(&w->alive, false);
	return NULL;
}

void dmwait_ensure(const char *name)
{
	struct waiter *w;
	pthread_attr_t a;
	pthread_t t;
	sigset_t all, old;
	char tn[16];

	for (w = waiters; w; w = w->next)
		if (!strcmp(w->name, name))
			break;
	if (w && atomic_load(&w->alive))
		return;
	if (!w) {
		w = xmalloc(sizeof(*w));
		memset(w, 0, sizeof(*w));
		cpy(w->name, sizeof(w->name), name);
		w->next = waiters;
		waiters = w;
	}
	atomic_store(&w->alive, true);
	/* the signals are the monitor's: the waiter takes none */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 256 * 1024);
	if (pthread_create(&t, &a, run, w))
		atomic_store(&w->alive, false);
	else {
		snprintf(tn, sizeof(tn), "dmwait %s", name);
		pthread_setname_np(t, tn);
	}
	pthread_attr_destroy(&a);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void dmwait_forget(const char *name)
{
	(void)name;
	/* the waiter of a removed array wakes and ends by itself; a new
	 * array of the same name gets a new one (dmwait_ensure) */
}
