// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe sanitize: erase every member of a stopped array with its
 * drive's own erase command (NVMe Sanitize or Format NVM through the
 * kernel's admin ioctl, ATA security erase through hdparm: erase.c), all
 * members or none.  The members are found by their labels, as assemble
 * finds them (labelset.c); each is checked and its erase planned before
 * any is written, the array's name typed (or --yes), every member checked
 * again after the answer, and each once more right before its own erase
 * (another may have taken hours), held open with O_EXCL from that check
 * to its last write and read: nobody claims it meanwhile.
 * Exit: 0 erased, 1 an erase or its check failed, 2 usage, 3 refused
 * (nothing erased), 4 no array of that name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>

#include "blk.h"
#include "cmds.h"
#include "dev.h"
#include "dm.h"
#include "erase.h"
#include "histlog.h"
#include "ident.h"
#include "label.h"
#include "labelset.h"
#include "opts.h"
#include "out.h"
#include "probe.h"
#include "extprog.h"

struct sz_args {
	bool yes, force;
	const char *method;
	struct operands ops;
};

/* a member to erase: its index, device, erase, and drive as listed */
struct sz_member {
	unsigned int k;
	const char *dev;
	dev_t rdev;		/* the device listed: the one held and erased */
	struct erase_plan p;
	char ident[2048];
};

static void sz_opt(void *ctx, const char *name, const char *value)
{
	struct sz_args *a = ctx;

	if (!name)
		operands_add(&a->ops, value);
	else if (!strcmp(name, "--yes"))
		a->yes = true;
	else if (!strcmp(name, "--force"))
		a->force = true;
	else if (!strcmp(name, "--method"))
		a->method = value;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || s[0] == '-' || s[0] == '.')
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* a kernel name of /dev, T, is N or one of its partitions (N1, NpN) */
static bool names_dev(const char *t, const char *n)
{
	size_t l = strlen(n);

	if (strncmp(t, n, l))
		return false;
	t += l;
	if (!*t)
		return true;
	if (*t == 'p')
		t++;
	return *t && strspn(t, "0123456789") == strlen(t);
}

/*
 * openers: the processes (this one aside) that hold DEV or one of its
 * partitions open, "pid 123 (qemu-system-x86) pid 456 (sleep)", into
 * BUF; false when none does: a device open elsewhere (a virtual machine's
 * disk, a copy running) shows in no holder or mount
 */
static bool openers(const char *dev, char *buf, size_t len)
{
	char *sys = dev_sysdir(dev), *n, **pids, fd[PATH_MAX], t[PATH_MAX], comm[64], me[24];
	size_t np, i, j, nf, at = 0;

	buf[0] = 0;
	if (!sys)
		return false;
	n = strrchr(sys, '/') + 1;
	snprintf(me, sizeof(me), "%d", (int)getpid());
	pids = dir_names("/proc", &np);
	for (i = 0; i < np; i++) {
		char **fds;
		bool hit = false;

		if (strspn(pids[i], "0123456789") != strlen(pids[i]) || !strcmp(pids[i], me))
			continue;
		if (!pathf(fd, sizeof(fd), "/proc/%s/fd", pids[i]))
			continue;
		fds = dir_names(fd, &nf);
		for (j = 0; j < nf && !hit; j++) {
			char l[PATH_MAX];
			ssize_t r;

			if (!pathf(l, sizeof(l), "/proc/%s/fd/%s", pids[i], fds[j]))
				continue;
			r = readlink(l, t, sizeof(t) - 1);
			if (r <= 5)
				continue;
			t[r] = 0;
			hit = !strncmp(t, "/dev/", 5) && names_dev(t + 5, n);
		}
		names_free(fds, nf);
		if (!hit)
			continue;
		if (!pathf(fd, sizeof(fd), "/proc/%s/comm", pids[i]) || !read_attr(fd, comm, sizeof(comm)))
			comm[0] = 0;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%spid %s (%s)", at ? " " : "", pids[i], comm);
	}
	names_free(pids, np);
	free(sys);
	return buf[0] != 0;
}

/* the array's name typed on the terminal must be NAME (SSDSTRIPE_TTY
 * names a file to read the answer from instead: tests) */
static void confirm(const char *name)
{
	const char *tty = getenv("SSDSTRIPE_TTY"), *from = NULL;
	char a[256] = "";
	FILE *f;
	int fd;

	if (tty && *tty) {
		from = tty;
	} else if ((fd = open("/dev/tty", O_RDONLY | O_CLOEXEC)) >= 0) {
		close(fd);
		from = "/dev/tty";
	} else if (!isatty(0)) {
		die(EX_REFUSED, "sanitize refused: no terminal to type the array's name on (neither /dev/tty nor standard input); '%s sanitize --yes %s' confirms on the command line.  Nothing was erased",
		    PROG, name);
	}
	fflush(stdout);
	fprintf(stderr, "Every member listed above will be erased for good.  Type the array's name (%s) to go on: ",
		name);
	fflush(stderr);
	/* opened after the question: a FIFO's open waits for its writer */
	f = from ? fopen(from, "re") : fdopen(fcntl(0, F_DUPFD_CLOEXEC, 3), "r");
	if (f) {
		if (!fgets(a, sizeof(a), f))
			a[0] = 0;
		fclose(f);
	}
	a[strcspn(a, "\n")] = 0;
	if (strcmp(a, name))
		die(EX_REFUSED, "sanitize refused: '%s' is not %s.  Nothing was erased", a, name);
}

/* the active array of uuid U, malloc'd; NULL none */
static char *active_of(const char *u)
{
	char *full = xasprintf("%s%s", DM_UUID_PREFIX, u), *n = dm_name_of_uuid(full);

	free(full);
	return n;
}

/* DEV carries a valid label of member K of array U */
static bool still_member(const char *dev, int fd, const char *u, unsigned int k)
{
	struct label l;
	bool ok;

	if ((fd >= 0 ? label_read_fd(fd, &l) : label_read(dev, &l)) != LABEL_OK) {
		label_free(&l);
		return false;
	}
	ok = !strcmp(l.f[LK_UUID], u) && strtoull(l.f[LK_INDEX], NULL, 10) == k;
	label_free(&l);
	return ok;
}

/*
 * recheck: right before the first erase, each member is still member K
 * of array U, not active, not in use and not open; else nothing is erased
 */
static void recheck(const char *name, const char *u, const struct sz_member *m, size_t n)
{
	char why[1024], *act = active_of(u);
	size_t i;

	if (act)
		die(EX_REFUSED, "sanitize refused: array %s became active (/dev/mapper/%s) since the list above.  Nothing was erased",
		    name, act);
	for (i = 0; i < n; i++) {
		if (!still_member(m[i].dev, -1, u, m[i].k))
			die(EX_REFUSED, "sanitize refused: %s is no longer member %u of %s (a device renamed since the list above?).  Nothing was erased",
			    m[i].dev, m[i].k, name);
		if (in_use(m[i].dev, why, sizeof(why)) || openers(m[i].dev, why, sizeof(why)))
			die(EX_REFUSED, "sanitize refused: member %u, %s, is in use since the list above (%s).  Nothing was erased",
			    m[i].k, m[i].dev, why);
	}
}

/*
 * recheck_one: right before member M's own erase, with FD its device held
 * open exclusively (-1: it could not be, errno EBUSY): it is still member
 * K of array U, the same drive as when the plan was listed, the array not
 * active, the device not in use nor open; else, saying why, false
 */
static bool recheck_one(const char *name, const char *u, const struct sz_member *m, int fd,
			const char *want)
{
	char why[1024], line[2048], w[1200], *act = active_of(u);
	struct erase_plan p;
	struct ident d;

	if (act) {
		warn("member %u, %s: not erased: array %s became active (/dev/mapper/%s) since the erase began",
		     m->k, m->dev, name, act);
		free(act);
		return false;
	}
	if (!still_member(m->dev, fd, u, m->k)) {
		warn("member %u, %s: not erased: it is no longer member %u of %s (a device renamed since the list above?)",
		     m->k, m->dev, m->k, name);
		return false;
	}
	if (!ident_of(m->dev, &d))
		ident_none(&d);
	ident_line(&d, line, sizeof(line));
	if (strcmp(line, m->ident)) {
		ident_words(&d, w, sizeof(w));
		warn("member %u, %s: not erased: it is not the drive it was when the list above was made (now %s)",
		     m->k, m->dev, w);
		return false;
	}
	if (in_use(m->dev, why, sizeof(why)) || openers(m->dev, why, sizeof(why))) {
		warn("member %u, %s: not erased: it is in use since the list above (%s)", m->k, m->dev, why);
		return false;
	}
	if (fd < 0) {
		warn("member %u, %s: not erased: it is in use since the list above (another program holds it open exclusively)",
		     m->k, m->dev);
		return false;
	}
	/* the drive's answers again: a namespace made since, a controller
	 * shared since, would change what its erase reaches */
	if (!erase_plan(m->dev, &d, want, &p) || p.m != m->p.m || p.lbaf != m->p.lbaf ||
	    p.ms != m->p.ms || p.pi != m->p.pi || p.pil != m->p.pil) {
		warn("member %u, %s: not erased: its drive no longer answers as it did when the list above was made (%s)",
		     m->k, m->dev, p.no[0] ? p.no : erase_words(p.m));
		return false;
	}
	return true;
}

/* erase_one: member M erased and read back; false when that failed */
static bool erase_one(const char *name, const char *u, const struct sz_member *m, int fd)
{
	char err[1400], *detail, *first, *last, *rd, *dn;
	const char *brief = erase_short(m->p.m);
	struct ident d;
	uint64_t size;
	bool ok = false;

	if (!ident_of(m->dev, &d))
		ident_none(&d);
	dn = strncmp(m->dev, "/dev/", 5) ? xstrdup(m->dev) : xstrdup(m->dev + 5);
	say("member %u: erasing %s: %s", m->k, m->dev, brief);
	fflush(stdout);
	if (!erase_run(fd, m->dev, &m->p, err, sizeof(err)))
		goto failed;
	/* read it back from the drive, not from the page cache */
	ioctl(fd, BLKFLSBUF, 0);
	if (label_magic(fd)) {
		snprintf(err, sizeof(err), "its label is still there after the erase: the drive did not erase (yet)");
		goto failed;
	}
	size = blk_size(m->dev);
	first = xstrdup(erase_mib(fd, 0));
	last = xstrdup(erase_mib(fd, size >= 2048 ? size - 2048 : 0));
	if (!strcmp(first, last))
		rd = xasprintf("first and last MiB read as %s", first);
	else
		rd = xasprintf("first MiB reads as %s, last MiB as %s", first, last);
	say("member %u: %s erased: label gone, %s", m->k, m->dev, rd);
	detail = xasprintf("%s: %s; label gone, %s (%s)", dn, brief, rd, hist_cmd ? hist_cmd : "");
	{
		char k[16];

		snprintf(k, sizeof(k), "%u", m->k);
		history_add("sanitized", name, u, k, d.serial, detail);
	}
	free(detail);
	free(rd);
	free(first);
	free(last);
	ok = true;
	goto out;
failed:
	warn("member %u, %s: %s", m->k, m->dev, err);
	detail = xasprintf("%s: %s: %s (%s)", dn, brief, err, hist_cmd ? hist_cmd : "");
	{
		char k[16];

		snprintf(k, sizeof(k), "%u", m->k);
		history_add("sanitize-failed", name, u, k, d.serial, detail);
	}
	free(detail);
out:
	free(dn);
	return ok;
}

/* the uuids of the arrays called NAME, sorted, each once */
static char **uuids_of(const struct lset *s, const char *name, size_t *n)
{
	char **v = xmalloc((s->nlab + s->nsh + 1) * sizeof(*v));
	size_t i, j, k = 0;

	for (i = 0; i < s->nlab + s->nsh; i++) {
		const struct lrec *r = i < s->nlab ? &s->lab[i] : &s->sh[i - s->nlab];
		const char *u = lrec_f(r, LK_UUID);

		if (strcmp(lrec_f(r, LK_NAME), name) || !*u)
			continue;
		for (j = 0; j < k && strcmp(v[j], u); j++)
			;
		if (j == k)
			v[k++] = xstrdup(u);
	}
	names_sort(v, k);
	*n = k;
	return v;
}

int cmd_sanitize(int argc, char **argv)
{
	struct sz_args a = { 0 };
	struct lset s;
	struct lcheck c;
	struct sz_member *m;
	char **devs, **us, *u, *act, *mw = NULL, why[1024], w[1200];
	size_t nd, nu, i, nm = 0, done = 0;
	bool refused = false;
	int rc;

	opts_parse(argc, argv, "--yes|-y --force|-f --method=", sz_opt, &a, help_of);
	if (a.method && strcmp(a.method, "format") && strcmp(a.method, "sanitize") && strcmp(a.method, "ata"))
		usage_die("unknown method '%s' (format, sanitize or ata)", a.method);
	if (a.ops.n < 1)
		usage_die("sanitize needs an array name");
	if (a.ops.n != 1)
		usage_die("sanitize takes one array name");
	const char *name = a.ops.v[0];

	if (!valid_name(name))
		usage_die("invalid array name '%s'", name);
	/* the members of an active array are held: no scan would see them */
	if (dm_is_array(name))
		die(EX_REFUSED, "sanitize refused: array %s is active (/dev/mapper/%s): stop it first ('%s stop %s').  Nothing was erased",
		    name, name, PROG, name);
	/* udev probes a device for a moment after each change (a stop, a dm
	 * device removed): let it finish, or its open would refuse a member */
	if (spawn_found("udevadm")) {
		char *settle[] = { "udevadm", "settle", "--timeout=10", NULL };

		spawn_run(settle, SPAWN_NONE, NULL);
	}
	devs = lset_candidates(&nd);
	lset_collect(&s, devs, nd);
	names_free(devs, nd);
	us = uuids_of(&s, name, &nu);
	if (!nu)
		die(EX_NOTFOUND, "no member of array %s found (no label names it)", name);
	if (nu > 1) {
		char *l = xstrdup(""), *t;

		for (i = 0; i < nu; i++) {
			t = xasprintf("%s%s ", l, us[i]);
			free(l);
			l = t;
		}
		die(EX_REFUSED, "two different arrays are called %s (%s): sanitize refused.  Nothing was erased", name, l);
	}
	u = us[0];
	act = active_of(u);
	if (act)
		die(EX_REFUSED, "sanitize refused: array %s is active as /dev/mapper/%s: stop it first.  Nothing was erased",
		    name, act);
	if (lset_has_shadowed(&s, u)) {
		lset_refuse_shadowed(&s, u);
		die(EX_REFUSED, "sanitize of %s refused: a member was re-used since the array was made.  Nothing was erased",
		    name);
	}
	rc = lset_check(&s, u, &c);
	for (i = 0; i < c.nlosers; i++)
		warn("%s; not erased", c.losers[i]);
	if (rc == 4) {
		mw = lset_missing_words(&s, &c, u);
		if (!a.force) {
			/* what keeps each out; not how to write a label back (the
			 * data is not wanted, and may be erased already) */
			lset_missing_members(&s, &c, name, u, "", false, false);
			die(EX_REFUSED, "sanitize of %s refused: %s missing (--force erases the members present).  Nothing was erased",
			    name, mw);
		}
		warn("array %s: %s missing: not erased (--force)", name, mw);
	} else if (rc) {
		warn("%s", c.why);
		die(EX_REFUSED, "sanitize of %s refused.  Nothing was erased", name);
	}
	/* every member checked and planned before any is written */
	m = xmalloc((c.n + 1) * sizeof(*m));
	for (i = 0; i < c.n; i++) {
		const struct lrec *r = c.set[i];
		unsigned int k = (unsigned int)strtoul(lrec_f(r, LK_INDEX), NULL, 10);
		struct ident d;

		if (in_use(r->dev, why, sizeof(why))) {
			warn("member %u, %s: in use (%s)", k, r->dev, why);
			refused = true;
			continue;
		}
		if (openers(r->dev, why, sizeof(why))) {
			warn("member %u, %s: in use: open by %s (end it first)", k, r->dev, why);
			refused = true;
			continue;
		}
		if (!ident_of(r->dev, &d))
			ident_none(&d);
		m[nm].k = k;
		m[nm].dev = r->dev;
		{
			struct stat st;

			m[nm].rdev = stat(r->dev, &st) ? 0 : st.st_rdev;
		}
		if (erase_plan(r->dev, &d, a.method, &m[nm].p)) {
			nm++;
		} else {
			ident_words(&d, w, sizeof(w));
			warn("member %u, %s (%s): cannot be erased: %s", k, r->dev, w, m[nm].p.no);
			refused = true;
		}
	}
	if (refused)
		die(EX_REFUSED, "sanitize of %s refused: every member must be erasable.  Nothing was erased", name);
	say("array %s (%s): erasing with each drive's own command:", name, u);
	for (i = 0; i < nm; i++) {
		struct ident d;

		if (!ident_of(m[i].dev, &d))
			ident_none(&d);
		/* the drive as listed: each member is checked against it again
		 * right before its own erase */
		ident_line(&d, m[i].ident, sizeof(m[i].ident));
		ident_words(&d, w, sizeof(w));
		say("  member %u: %s (%s): %s", m[i].k, m[i].dev, w, erase_words(m[i].p.m));
	}
	fflush(stdout);
	if (!a.yes)
		confirm(name);
	/* the answer may have taken a while: udev may have assembled the
	 * array since, a process opened a member, a name moved to another
	 * disk.  Checked again, every member, before the first erase. */
	recheck(name, u, m, nm);
	rc = EX_OK;
	for (i = 0; i < nm; i++) {
		/* held from its check to its last write and read */
		int fd = open(m[i].dev, O_RDWR | O_EXCL | O_CLOEXEC);
		struct stat st;

		if (fd < 0 && errno != EBUSY) {
			warn("member %u, %s: not erased: cannot open it: %s", m[i].k, m[i].dev, strerror(errno));
			rc = EX_FAILED;
			continue;
		}
		if (fd >= 0 && (fstat(fd, &st) || !S_ISBLK(st.st_mode))) {
			close(fd);
			fd = -1;
		}
		/* the name may point at another device than the one listed */
		if (fd >= 0 && st.st_rdev != m[i].rdev) {
			warn("member %u, %s: not erased: it is another device (%u:%u) than the one listed (%u:%u)",
			     m[i].k, m[i].dev, major(st.st_rdev), minor(st.st_rdev), major(m[i].rdev),
			     minor(m[i].rdev));
			close(fd);
			rc = EX_FAILED;
			continue;
		}
		if (!recheck_one(name, u, &m[i], fd, a.method)) {
			if (fd >= 0)
				close(fd);
			rc = EX_FAILED;
			continue;
		}
		if (erase_one(name, u, &m[i], fd))
			done++;
		else
			rc = EX_FAILED;
		close(fd);
	}
	if (rc == EX_OK)
		say("array %s: %zu member%s erased%s%s%s", name, done, done == 1 ? "" : "s",
		    mw ? " (" : "", mw ? mw : "", mw ? " missing, not erased)" : "");
	else
		warn("array %s: %zu member%s erased, not every one (see above); the array's data is lost all the same once one member is erased: '%s sanitize --force %s' erases the rest",
		     name, done, done == 1 ? "" : "s", PROG, name);
	free(m);
	free(mw);
	lcheck_free(&c);
	lset_free(&s);
	names_free(us, nu);
	operands_free(&a.ops);
	return rc;
}
