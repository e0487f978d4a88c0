/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the critical section, from the first suspend of a device to
 * its last resume, held as LVM and cryptsetup hold theirs (ssdstripe(8),
 * "Architecture"): everything written in it is prepared before; inside,
 * the process is memory-locked, runs no other program, writes to no file
 * system (messages wait in memory: crit_note), and INT, TERM and HUP are
 * blocked, their handlers running after crit_leave; a watchdog thread
 * resumes the suspended devices when the section overruns its bound, if
 * the caller said that resuming is safe at that point (crit_step).
 */
#ifndef SSDSTRIPE_CRIT_H
#define SSDSTRIPE_CRIT_H

#include <signal.h>
#include <stdbool.h>

/* the signals a command acts on once a section is over */
extern volatile sig_atomic_t crit_got_int, crit_got_hup;

/* handlers that only record INT/TERM (crit_got_int) and HUP (crit_got_hup) */
void crit_signals(void);
/*
 * enter: lock memory, block the signals, start the watchdog over DEVS
 * (dm names, NULL-terminated, at most 4) with a bound of SECONDS; false
 * (nothing entered, a note saying why) when memory cannot be locked
 */
bool crit_enter(const char *const *devs, unsigned int seconds);
/*
 * crit_step: whether the watchdog may resume DEVS from now on; false when
 * it did already (the section overran its bound).  Taken under the
 * watchdog's lock: once it returns true with SAFE false, no resume comes
 * until the next crit_step(true)
 */
bool crit_step(bool safe);
/* DEV suspended with the bare ioctl: no libdevmapper, whose calls are
 * not to be made from two threads at once */
bool crit_suspend(const char *dev);
/* leave: stop the watchdog, unlock memory, unblock signals, print notes */
void crit_leave(void);
/* a message printed once the section is left (fixed buffer, no malloc) */
void crit_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the bound of a switch: SSDSTRIPE_SWITCH_TIMEOUT seconds, else 60 */
unsigned int crit_bound(void);
/*
 * the rig's look inside (tests only): with SSDSTRIPE_TEST_HOOK=POINT, a
 * line "POINT" to the FIFO SSDSTRIPE_TEST_HOOK_FIFO (opened by crit_hooks
 * before any section), then SSDSTRIPE_TEST_HOOK_SLEEP seconds (default 1)
 * of sleep: the test acts meanwhile (a write, a power cut), and the tool
 * runs nothing itself
 */
void crit_hooks(void);
void crit_hook(const char *point);

#endif
