// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: critical sections (crit.h).
 *
 * The watchdog resumes with the bare DM_DEV_SUSPEND ioctl on a control
 * descriptor opened before the section: it allocates nothing and takes no
 * lock of libdevmapper's, which the main thread may be blocked inside.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/dm-ioctl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "crit.h"
#include "out.h"

volatile sig_atomic_t crit_got_int, crit_got_hup;

#define MAXDEVS 4

static char notes[8192];
static size_t notes_len;
static char devs_in[MAXDEVS][DM_NAME_LEN];
static size_t ndevs;
static int ctl_fd = -1;
static pthread_t wd;
static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static bool wd_stop, wd_running;
static struct timespec wd_deadline;
static atomic_bool safe_now, expired;
static sigset_t old_mask;
static bool locked;
static int hook_fd = -1;
static unsigned int hook_sleep = 1;
static const char *hook_point;

static void on_int(int sig)
{
	(void)sig;
	crit_got_int = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	crit_got_hup = 1;
}

void crit_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_int;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_hup;
	sigaction(SIGHUP, &sa, NULL);
}

void crit_note(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (notes_len >= sizeof(notes) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(notes + notes_len, sizeof(notes) - notes_len - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	notes_len += (size_t)n;
	if (notes_len > sizeof(notes) - 2)
		notes_len = sizeof(notes) - 2;
	notes[notes_len++] = '\n';
	notes[notes_len] = 0;
}

unsigned int crit_bound(void)
{
	const char *e = getenv("SSDSTRIPE_SWITCH_TIMEOUT");
	unsigned long v;
	char *end;

	if (!e || !*e)
		return 60;
	v = strtoul(e, &end, 10);
	return *end || !v || v > 3600 ? 60 : (unsigned int)v;
}

/* raw_suspend: DEV suspended (SUSPEND) or resumed with the bare ioctl */
static bool raw_suspend(const char *dev, bool suspend)
{
	struct dm_ioctl io;

	memset(&io, 0, sizeof(io));
	io.version[0] = DM_VERSION_MAJOR;
	io.data_size = sizeof(io);
	io.data_start = sizeof(io);
	io.flags = suspend ? DM_SUSPEND_FLAG : 0;
	strncpy(io.name, dev, sizeof(io.name) - 1);
	return ctl_fd >= 0 && !ioctl(ctl_fd, DM_DEV_SUSPEND, &io);
}

bool crit_suspend(const char *dev)
{
	return raw_suspend(dev, true);
}

/* what the watchdog did, told by crit_leave (never printed while a device
 * is suspended: stderr may be a file on it) */
static const char *wd_said;

static void *watchdog(void *arg)
{
	size_t i;
	bool timed_out = false, all = true;

	(void)arg;
	pthread_mutex_lock(&wd_lock);
	while (!wd_stop && !timed_out)
		timed_out = pthread_cond_timedwait(&wd_cond, &wd_lock, &wd_deadline) == ETIMEDOUT;
	if (timed_out && !wd_stop) {
		if (atomic_load(&safe_now)) {
			for (i = 0; i < ndevs; i++)
				all = raw_suspend(devs_in[i], false) && all;
			/* expired only once every device runs again */
			atomic_store(&expired, all);
			wd_said = all ? "the suspended time passed its bound: the watchdog resumed it, as it was before the step" :
					"the suspended time passed its bound, and the watchdog could not resume it";
		} else {
			/* resuming now would send writes where the labels do not
			 * say: the step runs to its end */
			wd_said = "the suspended time passed its bound at a step where resuming is not safe: the step ran to its end";
		}
	}
	pthread_mutex_unlock(&wd_lock);
	return NULL;
}

bool crit_enter(const char *const *devs, unsigned int seconds)
{
	pthread_condattr_t ca;
	pthread_attr_t ta;
	sigset_t block;

	if (ctl_fd < 0)
		ctl_fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (ctl_fd < 0) {
		warn("cannot open /dev/mapper/control for the watchdog (%s)", strerror(errno));
		return false;
	}
	wd_said = NULL;
	for (ndevs = 0; devs[ndevs] && ndevs < MAXDEVS; ndevs++)
		snprintf(devs_in[ndevs], sizeof(devs_in[0]), "%s", devs[ndevs]);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	/* every page this process maps now and later stays in memory */
	if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
		warn("cannot lock this process's memory (%s)", strerror(errno));
		pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
		return false;
	}
	locked = true;
	atomic_store(&expired, false);
	atomic_store(&safe_now, true);
	wd_stop = false;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&wd_cond, &ca);
	pthread_condattr_destroy(&ca);
	clock_gettime(CLOCK_MONOTONIC, &wd_deadline);
	wd_deadline.tv_sec += seconds;
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, 128 * 1024);
	wd_running = !pthread_create(&wd, &ta, watchdog, NULL);
	pthread_attr_destroy(&ta);
	if (!wd_running)
		crit_note("cannot start the watchdog: the suspended time is not bounded");
	return true;
}

void crit_leave(void)
{
	if (wd_running) {
		pthread_mutex_lock(&wd_lock);
		wd_stop = true;
		pthread_cond_signal(&wd_cond);
		pthread_mutex_unlock(&wd_lock);
		pthread_join(wd, NULL);
		wd_running = false;
		pthread_cond_destroy(&wd_cond);
	}
	if (locked)
		munlockall();
	locked = false;
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (wd_said) {
		crit_note("%s", wd_said);
		wd_said = NULL;
	}
	if (notes_len) {
		fflush(stdout);
		fputs(notes, stderr);
		notes_len = 0;
		notes[0] = 0;
	}
}

void crit_hooks(void)
{
	const char *p = getenv("SSDSTRIPE_TEST_HOOK"), *f = getenv("SSDSTRIPE_TEST_HOOK_FIFO");
	const char *s = getenv("SSDSTRIPE_TEST_HOOK_SLEEP");

	if (!p || !*p || !f || !*f)
		return;
	/* read-write: the open of a FIFO with no reader yet does not block */
	hook_fd = open(f, O_RDWR | O_CLOEXEC);
	if (hook_fd < 0)
		die(EX_FAILED, "test hook: cannot open %s: %s", f, strerror(errno));
	hook_point = p;
	if (s && *s)
		hook_sleep = (unsigned int)strtoul(s, NULL, 10);
}

void crit_hook(const char *point)
{
	char line[128];
	struct timespec ts;
	int n;

	if (hook_fd < 0 || strcmp(point, hook_point))
		return;
	n = snprintf(line, sizeof(line), "%s\n", point);
	if (n > 0 && write(hook_fd, line, (size_t)n) != n)
		return;
	ts.tv_sec = hook_sleep;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

bool crit_step(bool safe)
{
	bool ok;

	pthread_mutex_lock(&wd_lock);
	atomic_store(&safe_now, safe);
	ok = !atomic_load(&expired);
	pthread_mutex_unlock(&wd_lock);
	return ok;
}
