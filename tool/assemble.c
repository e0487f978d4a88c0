// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe assemble: activate arrays from their labels, by name, --scan,
 * devices, --boot (the initramfs), --boot-late (ssdstripe-assemble.service)
 * and --incremental (udev's rule, 64-ssdstripe-incremental.rules).  Never
 * writes to a member.  The sets are checked by labelset.c, the boot policy
 * is bootpolicy.c's; the words, order and exit codes are those of the sh
 * library's assemble.sh, bootpolicy.sh and incremental.sh, which this
 * replaces.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "blk.h"
#include "bootpolicy.h"
#include "cmds.h"
#include "conf.h"
#include "dev.h"
#include "dm.h"
#include "extprog.h"
#include "histlog.h"
#include "labelset.h"
#include "opts.h"
#include "out.h"
#include "probe.h"

/* the labels of the last scan (sh: $TMPD/labels, shadowed, damaged) */
static struct lset S;
/* exact: the devices given must form one whole array (DEVS) */
static bool exact;
static char **as_devs;
static size_t as_ndevs;
/* a name that no label carries fails at once when udev is idle */
static bool unknown_now;
/* an array wanted has members here but not all: waiting can complete it */
static bool af_waiting;
/* the members the last check found missing (sh: MISSING) */
static unsigned int *last_missing;
static size_t last_nmissing;

/* ---- small things ---------------------------------------------------- */
/* once: true the first time KEY is asked in this run (a message said
 * once, not on every pass of a wait loop) */
static bool once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool once(const char *fmt, ...)
{
	static char **keys;
	static size_t n;
	va_list ap;
	char *k;
	size_t i;

	va_start(ap, fmt);
	if (vasprintf(&k, fmt, ap) < 0)
		die(EX_FAILED, "out of memory");
	va_end(ap);
	for (i = 0; i < n; i++)
		if (!strcmp(keys[i], k)) {
			free(k);
			return false;
		}
	keys = realloc(keys, (n + 1) * sizeof(*keys));
	if (!keys)
		die(EX_FAILED, "out of memory");
	keys[n++] = k;
	return true;
}

static void strv_add(char ***v, size_t *n, const char *s)
{
	char **t = realloc(*v, (*n + 1) * sizeof(**v));

	if (!t)
		die(EX_FAILED, "out of memory");
	*v = t;
	(*v)[(*n)++] = xstrdup(s);
}

static bool strv_has(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* the words of S (split at blanks) */
static char **split(const char *s, size_t *n)
{
	char *t = xstrdup(s), *save = NULL, *w, **v = NULL;

	*n = 0;
	for (w = strtok_r(t, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
		strv_add(&v, n, w);
	free(t);
	return v;
}

static bool is_block(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISBLK(st.st_mode);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || s[0] == '-' || s[0] == '.')
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* the name of the active device carrying array UUID (malloc'd), NULL if none */
static char *active_of_uuid(const char *uuid)
{
	char *u = xasprintf("%s%s", DM_UUID_PREFIX, uuid), *n = dm_name_of_uuid(u);

	free(u);
	return n;
}

/* the active arrays' names, each followed by a space ("" for none) */
static char *active_list(void)
{
	size_t n, i;
	char **v = dm_arrays(&n), *s = xstrdup(""), *t;

	for (i = 0; i < n; i++) {
		t = xasprintf("%s%s ", s, v[i]);
		free(s);
		s = t;
	}
	names_free(v, n);
	return s;
}

/* udev_idle: udev's event queue is empty (no device is being brought up
 * that could carry a label); true where there is no udevadm to ask */
static bool udev_idle(void)
{
	char *argv[] = { "udevadm", "settle", "--timeout=0", NULL };

	if (!spawn_found("udevadm"))
		return true;
	return spawn_run(argv, SPAWN_NONE, NULL) == 0;
}

static void collect(char *const *devs, size_t n)
{
	lset_free(&S);
	lset_collect(&S, devs, n);
}

static void collect_all(void)
{
	size_t n;
	char **v = lset_candidates(&n);

	collect(v, n);
	names_free(v, n);
}

/* the name of array UUID, from the first of its labels ("" if none) */
static const char *name_of(const char *uuid)
{
	size_t i;

	for (i = 0; i < S.nlab; i++)
		if (!strcmp(lrec_f(&S.lab[i], LK_UUID), uuid))
			return lrec_f(&S.lab[i], LK_NAME);
	return "";
}

/* refuse_shadowed, each device and array said once per run */
static void refuse_shadowed(const char *uuid)
{
	if (once("shadowed-array %s", uuid))
		lset_refuse_shadowed(&S, uuid);
}

static void keep_missing(const struct lcheck *c)
{
	free(last_missing);
	last_missing = xmalloc((c->nmissing + 1) * sizeof(*last_missing));
	memcpy(last_missing, c->missing, c->nmissing * sizeof(*last_missing));
	last_nmissing = c->nmissing;
}

/* the members the last check found missing, in words */
static char *missing_words(const char *uuid)
{
	struct lcheck c;
	char *w;

	memset(&c, 0, sizeof(c));
	c.missing = last_missing;
	c.nmissing = last_nmissing;
	w = lset_missing_words(&S, &c, uuid);
	return w;
}

/* ---- activate -------------------------------------------------------- */
/* activate array UUID, the set C that lset_check accepted */
static int activate(const char *uuid, const struct lcheck *c)
{
	const struct lrec *ref = c->n ? c->set[0] : NULL;
	const char *name = ref ? lrec_f(ref, LK_NAME) : "";
	uint64_t count = ref ? strtoull(lrec_f(ref, LK_COUNT), NULL, 10) : 0;
	uint64_t size = ref ? strtoull(lrec_f(ref, LK_DATA), NULL, 10) * count : 0;
	struct dm_target_line tl;
	struct dm_table tb = { &tl, 1 };
	struct dm_dev_info info;
	char why[512], hs[32], *act, *params, *list, *t, *dm_uuid, *mapper;
	unsigned int ma, mi;
	size_t i;

	act = active_of_uuid(uuid);
	if (act) {
		if (once("active %s", name))
			say("array %s is already active as /dev/mapper/%s", name, act);
		free(act);
		return EX_OK;
	}
	if (dm_info_of(name, &info)) {
		warn("cannot activate array %s: another device-mapper device has that name", name);
		return EX_REFUSED;
	}
	for (i = 0; i < c->n; i++)
		if (in_use(c->set[i]->dev, why, sizeof(why))) {
			warn("cannot activate array %s: member %s is %s", name, c->set[i]->dev, why);
			return EX_REFUSED;
		}
	/* the members as major:minor, as dmsetup prints the table */
	params = xasprintf("%s %s", ref ? lrec_f(ref, LK_COUNT) : "", ref ? lrec_f(ref, LK_CHUNK) : "");
	for (i = 0; i < c->n; i++) {
		if (!blk_majmin(c->set[i]->dev, &ma, &mi))
			ma = mi = 0;
		t = xasprintf("%s %u:%u %s", params, ma, mi, lrec_f(ref, LK_OFFSET));
		free(params);
		params = t;
	}
	tl.start = 0;
	tl.len = size;
	tl.type = "ssdstripe";
	tl.params = params;
	dm_need_ssdstripe();
	dm_uuid = xasprintf("%s%s", DM_UUID_PREFIX, uuid);
	if (!dm_create(name, dm_uuid, &tb)) {
		/* at boot udev (--incremental) and the unit (--boot-late) may
		 * race for one array: the loser finds it active */
		free(dm_uuid);
		free(params);
		act = active_of_uuid(uuid);
		if (act) {
			if (once("active %s", name))
				say("array %s is already active as /dev/mapper/%s", name, act);
			free(act);
			return EX_OK;
		}
		warn("dmsetup create %s failed: %s", name, dm_last_error());
		return EX_FAILED;
	}
	free(dm_uuid);
	free(params);
	mapper = xasprintf("/dev/mapper/%s", name);
	if (!is_block(mapper))
		dm_mknode(name);
	if (!is_block(mapper))
		warn("no /dev/mapper/%s node", name);
	free(mapper);
	list = xstrdup("");
	for (i = 0; i < c->n; i++) {
		const char *d = c->set[i]->dev;

		t = xasprintf("%s %s", list, strncmp(d, "/dev/", 5) ? d : d + 5);
		free(list);
		list = t;
	}
	say("assembled %s from%s (%s)", name, list, human(hs, sizeof(hs), size));
	t = xasprintf("from%s (%s)", list, hist_cmd ? hist_cmd : "");
	history_add("assembled", name, uuid, "", "", t);
	free(t);
	free(list);
	return EX_OK;
}

/* ---- one pass -------------------------------------------------------- */
/* to V the uuids, each once, of the labels in R (NR) of array uuid KEY,
 * or (BY_NAME) of arrays called KEY */
static void uuids_add(char ***v, size_t *n, const struct lrec *r, size_t nr, const char *key,
		      bool by_name)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		const char *u = lrec_f(&r[i], LK_UUID);

		if (by_name ? (!strcmp(lrec_f(&r[i], LK_NAME), key) && *u) : !strcmp(u, key))
			if (!strv_has(*v, *n, u))
				strv_add(v, n, u);
	}
}

/*
 * assemble_found: one pass over the labels of the last scan, for the
 * arrays WANT names (N words: NAME or uuid=UUID), or in exact mode the
 * devices given.  4 while something wanted is incomplete (reported only
 * with REPORT), else the worst of the activations
 */
static int assemble_found(char *const *want, size_t nwant, bool report)
{
	char **uuids = NULL, *act;
	size_t nu = 0, i, j;
	bool incomplete = false;
	int rc = EX_OK, c_rc;
	struct lcheck c;

	af_waiting = false;
	if (exact) {
		/* every device must be labelled and of one array */
		if (S.ndmg) {
			warn("%s: %s", S.dmg[0].dev, S.dmg[0].l.err);
			return EX_REFUSED;
		}
		if (S.nsh) {
			refuse_shadowed("");
			return EX_REFUSED;
		}
		for (i = 0; i < as_ndevs; i++) {
			bool found = false;

			for (j = 0; j < S.nlab && !found; j++)
				found = !strcmp(S.lab[j].dev, as_devs[i]);
			if (!found) {
				warn("%s has no ssdstripe label", as_devs[i]);
				return EX_NOTFOUND;
			}
		}
		for (i = 0; i < S.nlab; i++)
			if (!strv_has(uuids, nu, lrec_f(&S.lab[i], LK_UUID)))
				strv_add(&uuids, &nu, lrec_f(&S.lab[i], LK_UUID));
		if (nu > 1) {
			const struct lrec *f = &S.lab[0], *bad = NULL;

			for (i = 0; i < S.nlab && !bad; i++)
				if (strcmp(lrec_f(&S.lab[i], LK_UUID), lrec_f(f, LK_UUID)))
					bad = &S.lab[i];
			warn("%s belongs to array %s (%s), not to array %s (%s) like %s (mixed arrays)", bad->dev,
			     lrec_f(bad, LK_NAME), lrec_f(bad, LK_UUID), lrec_f(f, LK_NAME), lrec_f(f, LK_UUID), f->dev);
			names_free(uuids, nu);
			return EX_REFUSED;
		}
	} else {
		for (i = 0; i < nwant; i++) {
			const char *n = want[i];
			char **u = NULL;
			size_t nn = 0;

			if (!strncmp(n, "uuid=", 5)) {
				/* an ARRAY uuid=UUID line of the configuration */
				uuids_add(&u, &nn, S.lab, S.nlab, n + 5, false);
				uuids_add(&u, &nn, S.sh, S.nsh, n + 5, false);
				act = active_of_uuid(n + 5);
			} else {
				uuids_add(&u, &nn, S.lab, S.nlab, n, true);
				uuids_add(&u, &nn, S.sh, S.nsh, n, true);
				act = dm_is_array(n) ? xstrdup(n) : NULL;
			}
			if (nn > 1)
				qsort(u, nn, sizeof(*u), cmp_str);
			if (!nn) {
				if (act) {
					if (once("active %s", n))
						say("array %s is already active as /dev/mapper/%s", n, act);
				} else {
					if (report)
						warn("no member of array %s found (no label names it)", n);
					incomplete = true;
				}
			} else if (nn > 1) {
				char *l = xstrdup(""), *t;

				for (j = 0; j < nn; j++) {
					t = xasprintf("%s%s ", l, u[j]);
					free(l);
					l = t;
				}
				warn("two different arrays are called %s (%s); assemble one by its devices", n, l);
				free(l);
				rc = EX_REFUSED;
			} else {
				strv_add(&uuids, &nu, u[0]);
			}
			free(act);
			names_free(u, nn);
		}
	}
	for (i = 0; i < nu; i++) {
		const char *u = uuids[i], *nm;

		/* a member that carries another signature now: not this array */
		if (!exact && lset_has_shadowed(&S, u)) {
			act = active_of_uuid(u);
			if (!act) {
				refuse_shadowed(u);
				rc = EX_REFUSED;
				continue;
			}
			free(act);
		}
		c_rc = lset_check(&S, u, &c);
		/* the labels that take no part, whatever came of the rest */
		for (j = 0; j < c.nlosers; j++)
			if (once("loser %s", c.losers[j]))
				warn("%s", c.losers[j]);
		nm = name_of(u);
		if (c_rc == 0) {
			c_rc = activate(u, &c);
			if (c_rc > rc)
				rc = c_rc;
		} else if (c_rc == 4) {
			keep_missing(&c);
			/* an array already active needs no missing members */
			act = active_of_uuid(u);
			if (act) {
				if (once("active %s", nm))
					say("array %s is already active as /dev/mapper/%s", nm, act);
				free(act);
				lcheck_free(&c);
				continue;
			}
			incomplete = af_waiting = true;
			if (report)
				lset_missing_members(&S, &c, nm, u, " (incomplete)", exact, true);
		} else {
			warn("%s", c.why);
			if (c_rc > rc)
				rc = c_rc;
		}
		lcheck_free(&c);
	}
	if (incomplete) {
		if (!report) {
			names_free(uuids, nu);
			return EX_NOTFOUND;
		}
		if (rc <= EX_REFUSED)
			rc = EX_REFUSED;
		if (!nu && rc == EX_REFUSED)
			rc = EX_NOTFOUND;
	}
	names_free(uuids, nu);
	return rc;
}

/*
 * assemble_set: assemble the complete arrays WANT (N words) found on
 * DEVS (exact mode when WANT is NULL: DEVS must be one whole array),
 * waiting up to TIMEOUT seconds for missing members
 */
static int assemble_set(char *const *want, size_t nwant, unsigned long long timeout, char **devs,
			size_t ndevs)
{
	const struct timespec half = { 0, 500000000 };
	time_t t0 = time(NULL);
	const char *wait;
	size_t i;
	int rc;

	exact = !want;
	as_devs = devs;
	as_ndevs = ndevs;
	for (;;) {
		wait = NULL;
		for (i = 0; i < as_ndevs; i++)
			if (!is_block(as_devs[i]))
				wait = as_devs[i];
		if (!wait) {
			collect(as_devs, as_ndevs);
			/* the devices given are all there: waiting cannot
			 * complete a set that lacks one, so say what is
			 * missing at once */
			if (exact)
				break;
			rc = assemble_found(want, nwant, false);
			if (rc != EX_NOTFOUND)
				return rc;
			/* a name no label carries, with nothing udev is still
			 * bringing up: no member is coming, say so now */
			if (unknown_now && !af_waiting && udev_idle())
				break;
		}
		if ((unsigned long long)(time(NULL) - t0) >= timeout)
			break;
		nanosleep(&half, NULL);
		if (!exact) {
			names_free(as_devs, as_ndevs);
			as_devs = lset_candidates(&as_ndevs);
		}
	}
	if (wait) {
		warn("%s: no such block device", wait);
		return EX_NOTFOUND;
	}
	/* report with a fresh scan: a member that came while the last
	 * pass ran must be taken, not named as missing */
	if (!exact)
		collect_all();
	return assemble_found(want, nwant, true);
}

/* ---- --boot-late ----------------------------------------------------- */
/*
 * what ssdstripe-assemble.service runs once udev has been told to look at
 * every device: the arrays the configuration lists, waiting up to TIMEOUT
 * seconds for their members; with AUTO yes every other complete array
 * too, without waiting.  The exit status is the listed arrays' alone.
 */
static int boot_late(const struct bootpolicy *b, unsigned long long timeout)
{
	char *want, **w, **un = NULL, *act;
	size_t nw, nun = 0, i, nd;
	bool did = false;
	int rc = EX_OK;

	if (b->cmdline_none) {
		say("ssdstripe: boot assembly disabled (ssdstripe.assemble=none)");
		return EX_OK;
	}
	want = boot_wanted(b);
	w = split(want, &nw);
	if (nw) {
		char **devs = lset_candidates(&nd);

		rc = assemble_set(w, nw, timeout, devs, nd);
		names_free(as_devs, as_ndevs);
		as_devs = NULL;
		as_ndevs = 0;
	}
	if (!b->autoyes) {
		if (!nw)
			say("ssdstripe: AUTO no and no array listed in %s: nothing to assemble", conf_path());
		goto out;
	}
	collect_all();
	for (i = 0; i < S.nlab + S.nsh; i++) {
		const struct lrec *r = i < S.nlab ? &S.lab[i] : &S.sh[i - S.nlab];
		char *k;

		if (!*lrec_f(r, LK_UUID) && !*lrec_f(r, LK_NAME))
			continue;
		k = xasprintf("%s|%s", lrec_f(r, LK_UUID), lrec_f(r, LK_NAME));
		if (!strv_has(un, nun, k))
			strv_add(&un, &nun, k);
		free(k);
	}
	if (nun > 1)
		qsort(un, nun, sizeof(*un), cmp_str);
	for (i = 0; i < nun; i++) {
		char *u = un[i], *n = strchr(u, '|') + 1, *lu, *ln;
		bool listed;

		n[-1] = 0;
		lu = xasprintf(" uuid=%s ", u);
		ln = xasprintf(" %s ", n);
		{
			char *sw = xasprintf(" %s ", want);

			listed = strstr(sw, ln) || strstr(sw, lu);
			free(sw);
		}
		free(lu);
		free(ln);
		if (listed)
			continue;
		did = true;
		/* a name-less label (a damaged one's) names no array to take */
		if (assemble_found(&n, *n ? 1 : 0, false) == EX_NOTFOUND) {
			char *mw = missing_words(u);

			say("array %s is incomplete: udev assembles it when its last member appears (%s not present)",
			    n, mw);
			free(mw);
		}
	}
	if (!did && !nw) {
		act = active_list();
		if (*act) {
			act[strlen(act) - 1] = 0;
			say("no inactive arrays found; active: %s", act);
		} else {
			say("no inactive arrays found");
		}
		free(act);
	}
out:
	names_free(un, nun);
	names_free(w, nw);
	free(want);
	return rc;
}

/* ---- --incremental --------------------------------------------------- */
/*
 * what the udev rule runs for every block device that appears or
 * changes.  Cheap when DEV has no label (one 4 KiB read) or is held
 * already.  When DEV's array is allowed at boot and complete with it,
 * activates it; with EXPORT prints SSDSTRIPE_ASSEMBLE_UUID, _NAME and
 * _DEVICES for udev to hand to a unit instead, every message on stderr,
 * and for every labelled device that is not held what was decided,
 * SSDSTRIPE_ASSEMBLE_RESULT.
 */
static FILE *exp_out;

static void result(const char *word)
{
	if (exp_out)
		fprintf(exp_out, "SSDSTRIPE_ASSEMBLE_RESULT=%s\n", word);
}

static int incremental(const struct bootpolicy *b, const char *dev, bool export)
{
	char *sd, **h, v[256], *act, *mw, *u, *n, *list, *t;
	struct label l;
	struct lcheck c;
	size_t nh, i;
	int rc;

	if (export) {
		/* exec 3>&1 1>&2: the variables go to udev, the rest to stderr */
		int fd = fcntl(1, F_DUPFD_CLOEXEC, 3);

		fflush(stdout);
		exp_out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!exp_out)
			die(EX_FAILED, "cannot keep standard output: %s", strerror(errno));
		dup2(2, 1);
	}
	if (b->cmdline_none)
		return EX_OK;
	sd = dev_sysdir(dev);
	if (!sd)
		die(EX_NOTFOUND, "%s: no such block device", dev);
	t = xasprintf("%s/holders", sd);
	h = dir_names(t, &nh);
	free(t);
	names_free(h, nh);
	if (nh || (attr_at(sd, "dm/uuid", v, sizeof(v)) && !strncmp(v, DM_UUID_PREFIX, strlen(DM_UUID_PREFIX)))) {
		free(sd);
		return EX_OK;
	}
	free(sd);
	switch (label_read(dev, &l)) {
	case LABEL_OK:
		break;
	case LABEL_NONE:
		label_free(&l);
		return EX_OK;
	default:
		warn("%s: %s", dev, l.err);
		label_free(&l);
		return EX_REFUSED;
	}
	if (!boot_allowed(b, l.f[LK_NAME], l.f[LK_UUID])) {
		say("%s: member %s of array %s, which %s does not list (AUTO no): left alone", dev, l.f[LK_INDEX],
		    l.f[LK_NAME], conf_path());
		result("not-listed");
		label_free(&l);
		return EX_OK;
	}
	act = active_of_uuid(l.f[LK_UUID]);
	if (act) {
		free(act);
		result("active");
		label_free(&l);
		return EX_OK;
	}
	u = xstrdup(l.f[LK_UUID]);
	n = xstrdup(l.f[LK_NAME]);
	collect_all();
	if (lset_has_shadowed(&S, u)) {
		refuse_shadowed(u);
		rc = EX_REFUSED;
		goto out;
	}
	rc = lset_check(&S, u, &c);
	if (rc == 4) {
		keep_missing(&c);
		mw = missing_words(u);
		say("array %s: %zu member%s of %s present, waiting for %s", n, c.n, c.n == 1 ? "" : "s",
		    c.n ? lrec_f(c.set[0], LK_COUNT) : l.f[LK_COUNT], mw);
		free(mw);
		result("incomplete");
		rc = EX_OK;
	} else if (rc) {
		warn("%s", c.why);
	} else if (exp_out) {
		list = xstrdup("");
		for (i = 0; i < c.n; i++) {
			t = xasprintf("%s%s%s", list, i ? " " : "", c.set[i]->dev);
			free(list);
			list = t;
		}
		fprintf(exp_out, "SSDSTRIPE_ASSEMBLE_UUID=%s\nSSDSTRIPE_ASSEMBLE_NAME=%s\nSSDSTRIPE_ASSEMBLE_DEVICES=%s\n",
			u, n, list);
		free(list);
		result("complete");
	} else {
		rc = activate(u, &c);
	}
	lcheck_free(&c);
out:
	label_free(&l);
	free(u);
	free(n);
	return rc;
}

/* ---- the command ------------------------------------------------------- */
struct as_args {
	bool scan, boot, late, incr, export;
	const char *timeout;
	struct operands ops;
};

static void as_opt(void *ctx, const char *name, const char *value)
{
	struct as_args *a = ctx;

	if (!name)
		operands_add(&a->ops, value);
	else if (!strcmp(name, "--scan"))
		a->scan = true;
	else if (!strcmp(name, "--boot"))
		a->boot = true;
	else if (!strcmp(name, "--boot-late"))
		a->late = true;
	else if (!strcmp(name, "--incremental"))
		a->incr = true;
	else if (!strcmp(name, "--export"))
		a->export = true;
	else if (!strcmp(name, "--timeout"))
		a->timeout = value;
}

/* a whole number of seconds (as many digits as sh's test takes) */
static unsigned long long seconds(const char *s)
{
	return strlen(s) > 18 ? 999999999999999999ULL : strtoull(s, NULL, 10);
}

int cmd_assemble(int argc, char **argv)
{
	struct as_args a;
	struct bootpolicy b;
	unsigned long long timeout;
	char **ops, **devs, **names;
	size_t nops, i, j, nd, nn = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	opts_parse(argc, argv, "--scan|-s --boot --boot-late --incremental --export --timeout=", as_opt, &a,
		   help_of);
	ops = a.ops.v;
	nops = a.ops.n;
	if (a.timeout && strspn(a.timeout, "0123456789") != strlen(a.timeout))
		usage_die("invalid timeout '%s'", a.timeout);
	if (a.export && !a.incr)
		usage_die("--export goes with --incremental");
	if (a.scan + a.boot + a.late + a.incr > 1)
		usage_die("--scan, --boot, --boot-late and --incremental go alone");
	if (a.incr) {
		if (nops != 1)
			usage_die("--incremental takes one device");
		boot_selection(&b);
		rc = incremental(&b, ops[0], a.export);
		boot_free(&b);
		if (exp_out)
			fclose(exp_out);
		goto out;
	}
	if (a.late) {
		if (nops)
			usage_die("--boot-late takes no names or devices");
		boot_selection(&b);
		rc = boot_late(&b, a.timeout ? seconds(a.timeout) : b.timeout);
		boot_free(&b);
		goto out;
	}
	timeout = a.timeout ? seconds(a.timeout) : 10;
	if (a.boot) {
		if (nops)
			usage_die("--boot takes no names or devices");
		/* the initramfs: its /var/log is gone after the switch to the root */
		hist_pending_only = true;
		boot_selection(&b);
		if (!a.timeout)
			timeout = b.timeout;
		if (!strcmp(b.sel, "none")) {
			say("ssdstripe: boot assembly disabled");
			boot_free(&b);
			rc = EX_OK;
			goto out;
		}
		if (!strcmp(b.sel, "all"))
			a.scan = true;
		else {
			ops = split(b.sel, &nops);
			nn = nops;
		}
		boot_free(&b);
		dm_need_ssdstripe();
	}
	if (a.scan) {
		char *act;

		if (nops)
			usage_die("--scan takes no names or devices");
		collect_all();
		names = NULL;
		for (i = 0; i < S.nlab + S.nsh; i++) {
			const struct lrec *r = i < S.nlab ? &S.lab[i] : &S.sh[i - S.nlab];

			if (*lrec_f(r, LK_NAME) && !strv_has(names, nn, lrec_f(r, LK_NAME)))
				strv_add(&names, &nn, lrec_f(r, LK_NAME));
		}
		if (!nn) {
			if (a.boot) {
				say("ssdstripe: no arrays found");
				rc = EX_OK;
				goto out;
			}
			/* members of active arrays are held, so their labels are
			 * not read: with arrays active there is nothing left to do */
			act = active_list();
			if (*act) {
				act[strlen(act) - 1] = 0;
				say("no inactive arrays found; active: %s", act);
				free(act);
				rc = EX_OK;
				goto out;
			}
			die(EX_NOTFOUND, "no ssdstripe labels found");
		}
		if (nn > 1)
			qsort(names, nn, sizeof(*names), cmp_str);
		devs = lset_candidates(&nd);
		rc = assemble_set(names, nn, timeout, devs, nd);
		names_free(names, nn);
		goto out_devs;
	}
	if (!nops)
		usage_die("assemble needs array names, devices or --scan");
	if (ops[0][0] == '/') {
		devs = NULL;
		nd = 0;
		for (i = 0; i < nops; i++) {
			char *c;

			if (ops[i][0] != '/')
				usage_die("do not mix names and devices");
			c = dev_canon(ops[i]);
			strv_add(&devs, &nd, c ? c : ops[i]);
			free(c);
		}
		for (i = 0; i < nd; i++)
			for (j = i + 1; j < nd; j++)
				if (!strcmp(devs[i], devs[j]))
					die(EX_REFUSED, "a device is given twice");
		rc = assemble_set(NULL, 0, timeout, devs, nd);
	} else {
		for (i = 0; i < nops; i++)
			if (!valid_name(ops[i]))
				usage_die("invalid array name '%s'", ops[i]);
		/* names given on the line: one that no label carries fails at
		 * once when udev is idle (--boot waits the timeout for its own) */
		unknown_now = !a.boot;
		devs = lset_candidates(&nd);
		rc = assemble_set(ops, nops, timeout, devs, nd);
	}
	if (a.boot && ops != a.ops.v)
		names_free(ops, nn);
out_devs:
	names_free(as_devs, as_ndevs);
	as_devs = NULL;
	as_ndevs = 0;
out:
	lset_free(&S);
	free(last_missing);
	operands_free(&a.ops);
	return rc;
}
