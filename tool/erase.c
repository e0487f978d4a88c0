// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: a drive's own erase command (erase.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>

#include "dev.h"
#include "erase.h"
#include "nvme.h"
#include "out.h"
#include "extprog.h"

unsigned int erase_poll_ms = 2000;

static const struct {
	const char *name;	/* as --method's families start it */
	const char *words;
	const char *brief;
} methods[] = {
	[ER_NONE] = { "", "", "" },
	[ER_SANITIZE_CRYPTO] = { "sanitize-crypto",
				 "NVMe Sanitize, crypto erase (nvme sanitize --sanact=4)",
				 "NVMe Sanitize, crypto erase" },
	[ER_FORMAT_CRYPTO] = { "format-crypto", "NVMe Format NVM, crypto erase (nvme format --ses=2)",
			       "NVMe Format NVM, crypto erase" },
	[ER_SANITIZE_BLOCK] = { "sanitize-block",
				"NVMe Sanitize, block erase (nvme sanitize --sanact=2)",
				"NVMe Sanitize, block erase" },
	[ER_FORMAT_USER] = { "format-user", "NVMe Format NVM, user data erase (nvme format --ses=1)",
			     "NVMe Format NVM, user data erase" },
	[ER_ATA_ENHANCED] = { "ata-enhanced",
			      "ATA enhanced security erase (hdparm --security-erase-enhanced)",
			      "ATA enhanced security erase" },
	[ER_ATA] = { "ata", "ATA security erase (hdparm --security-erase)", "ATA security erase" },
};

const char *erase_words(enum erase_method m)
{
	return methods[m].words;
}

const char *erase_short(enum erase_method m)
{
	return methods[m].brief;
}

static const char *hdparm(void)
{
	const char *h = getenv("SSDSTRIPE_HDPARM");

	return h && *h ? h : "hdparm";
}

static bool no(struct erase_plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool no(struct erase_plan *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->no, sizeof(p->no), fmt, ap);
	va_end(ap);
	p->m = ER_NONE;
	return false;
}

/* ---- NVMe ---------------------------------------------------------------- */
bool erase_choose_nvme(const uint8_t *ctrl, unsigned int ns, const char *want, struct erase_plan *p)
{
	static const enum erase_method order[] = {
		ER_SANITIZE_CRYPTO, ER_FORMAT_CRYPTO, ER_SANITIZE_BLOCK, ER_FORMAT_USER,
	};
	/* CMIC bit 1: the NVM subsystem has more than one controller
	 * (another port or host may see namespaces this one does not list) */
	unsigned int multi = ctrl[76] >> 1 & 1;
	unsigned int oacs = (unsigned int)nvme_le(ctrl, 256, 2);
	unsigned int sani = (unsigned int)nvme_le(ctrl, 328, 4);
	unsigned int fna = ctrl[524];
	unsigned int fmt = oacs >> 1 & 1, fc = fna >> 2 & 1, sc = sani & 1, sb = sani >> 1 & 1;
	char s[64] = "", fw[64] = "", why[512] = "";
	size_t i;

	if (sc)
		snprintf(s, sizeof(s), "crypto erase");
	if (sb)
		snprintf(s + strlen(s), sizeof(s) - strlen(s), "%sblock erase", s[0] ? ", " : "");
	if (fmt)
		snprintf(fw, sizeof(fw), "user data erase%s", fc ? ", crypto erase" : "");
	p->can[0] = 0;
	if (s[0])
		snprintf(p->can, sizeof(p->can), "Sanitize (%s)", s);
	if (fw[0])
		snprintf(p->can + strlen(p->can), sizeof(p->can) - strlen(p->can), "%sFormat NVM (%s)",
			 p->can[0] ? ", " : "", fw);
	if (!p->can[0])
		snprintf(p->can, sizeof(p->can), "neither Sanitize nor Format NVM");
	/*
	 * other namespaces on the drive: Sanitize always reaches them, a
	 * format or secure erase where FNA says so.  The allocated ones count,
	 * attached to this controller or not (a namespace detached from this
	 * host, or attached to another, is erased all the same)
	 */
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum erase_method m = order[i];
		bool sanitize = m == ER_SANITIZE_CRYPTO || m == ER_SANITIZE_BLOCK;
		unsigned int all;

		if (want && strcmp(want, sanitize ? "sanitize" : "format"))
			continue;
		if ((m == ER_SANITIZE_CRYPTO && !sc) || (m == ER_SANITIZE_BLOCK && !sb) ||
		    (m == ER_FORMAT_CRYPTO && !(fmt && fc)) || (m == ER_FORMAT_USER && !fmt))
			continue;
		all = sanitize ? 1 : fna & 3;
		if (all && multi) {
			snprintf(why, sizeof(why),
				 "the drive's NVM subsystem has more than one controller (CMIC), and %s would reach namespaces another port or host sees",
				 erase_words(m));
			continue;
		}
		if (all && ns != 1) {
			if (!ns)
				snprintf(why, sizeof(why),
					 "its namespaces cannot be listed (Identify, allocated namespaces), and %s would erase all of them",
					 erase_words(m));
			else
				snprintf(why, sizeof(why), "the drive has %u namespaces, and %s would erase all of them",
					 ns, erase_words(m));
			continue;
		}
		p->m = m;
		return true;
	}
	if (why[0])
		return no(p, "%s", why);
	if (want)
		return no(p, "--method %s asked, and the drive supports %s", want, p->can);
	return no(p, "the drive supports no erase command (OACS: no Format NVM; SANICAP: no Sanitize)");
}

bool erase_plan_nvme(int fd, const char *want, struct erase_plan *p)
{
	uint8_t id[NVME_ID_SIZE];
	unsigned int ns;
	char e[128];
	int rc;

	memset(p, 0, sizeof(*p));
	rc = nvme_identify(fd, NVME_CNS_CTRL, 0, id);
	if (rc)
		return no(p, "the drive does not answer Identify Controller (%s)", nvme_strerror(rc, e, sizeof(e)));
	if (nvme_ns_allocated(fd, &ns))
		ns = 0;
	if (!erase_choose_nvme(id, ns, want, p))
		return false;
	if (p->m != ER_FORMAT_CRYPTO && p->m != ER_FORMAT_USER)
		return true;
	/* the format in use, given again: a format changes nothing else */
	rc = nvme_identify(fd, NVME_CNS_NS, nvme_nsid(fd), id);
	if (rc)
		return no(p, "the drive does not answer Identify Namespace (%s)", nvme_strerror(rc, e, sizeof(e)));
	p->lbaf = (id[26] & 15u) + (id[26] >> 5 & 3u) * 16;
	p->ms = id[26] >> 4 & 1u;
	p->pi = id[29] & 7u;
	p->pil = id[29] >> 3 & 1u;
	return true;
}

/*
 * fabric_transport: the transport of the controller that serves the NVMe
 * namespace at sysfs SYS into BUF; false for anything else.  A namespace
 * of a multipath head hangs below its subsystem, whose controllers are
 * links in it: the first live one, else the first
 */
static bool fabric_transport(const char *sys, char *buf, size_t len)
{
	char d[PATH_MAX], first[PATH_MAX] = "", st[32], **v;
	size_t n, i;

	if (!path_exists(sys, "nsid"))
		return false;
	if (!pathf(d, sizeof(d), "%s/device", sys))
		return false;
	if (attr_at(d, "transport", buf, len))
		return true;
	v = dir_names(d, &n);
	for (i = 0; i < n; i++) {
		char c[PATH_MAX];

		if (strncmp(v[i], "nvme", 4) || v[i][4] < '0' || v[i][4] > '9' ||
		    !pathf(c, sizeof(c), "%s/%s", d, v[i]) || !path_exists(c, "transport"))
			continue;
		if (!first[0])
			snprintf(first, sizeof(first), "%s", c);
		if (attr_at(c, "state", st, sizeof(st)) && !strcmp(st, "live")) {
			snprintf(first, sizeof(first), "%s", c);
			break;
		}
	}
	names_free(v, n);
	return first[0] && attr_at(first, "transport", buf, len);
}

/* ---- ATA ------------------------------------------------------------------ */
void erase_ata_security(const char *text, struct ata_security *s)
{
	const char *p = text, *e;
	bool in = false;

	memset(s, 0, sizeof(*s));
	for (; *p; p = *e ? e + 1 : e) {
		char l[128];
		size_t n = 0;
		const char *q;

		e = strchrnul(p, '\n');
		if (!in) {
			in = !strncmp(p, "Security:", 9);
			continue;
		}
		if (p < e && *p != ' ' && *p != '\t')
			break;
		/* the line, its blanks made one space, trimmed */
		for (q = p; q < e && n + 1 < sizeof(l); q++) {
			if (*q == ' ' || *q == '\t') {
				if (n && l[n - 1] != ' ')
					l[n++] = ' ';
			} else {
				l[n++] = *q;
			}
		}
		if (n && l[n - 1] == ' ')
			n--;
		l[n] = 0;
		if (!strcmp(l, "supported"))
			s->supported = true;
		else if (!strcmp(l, "enabled"))
			s->enabled = true;
		else if (!strcmp(l, "locked"))
			s->locked = true;
		else if (!strcmp(l, "frozen"))
			s->frozen = true;
		else if (!strcmp(l, "supported: enhanced erase"))
			s->enhanced = true;
	}
}

bool erase_plan_ata(const char *dev, const char *sysdir, const char *want, struct erase_plan *p)
{
	char f[PATH_MAX], v[128], *out;
	struct ata_security s;

	memset(p, 0, sizeof(*p));
	if (!pathf(f, sizeof(f), "%s/device/vendor", sysdir) || !sysfs_word(f, v, sizeof(v)))
		v[0] = 0;
	if (strcmp(v, "ATA"))
		return no(p, "a SCSI disk (vendor %s) that is no ATA drive: no erase command known for it (a SAS drive: sg_sanitize, from sg3_utils)",
			  v[0] ? v : "unknown");
	if (want && strcmp(want, "ata"))
		return no(p, "--method %s asked, and an ATA drive supports ATA security erase only", want);
	if (!spawn_found(hdparm()))
		return no(p, "hdparm (%s) is not installed: it asks the drive what it supports and erases it",
			  hdparm());
	{
		char *argv[] = { (char *)hdparm(), "-I", (char *)dev, NULL };

		spawn_run(argv, SPAWN_OUT, &out);
	}
	erase_ata_security(out, &s);
	free(out);
	if (!s.supported) {
		snprintf(p->can, sizeof(p->can), "no ATA security feature set");
		return no(p, "the drive supports no erase command (hdparm -I shows no supported ATA security)");
	}
	snprintf(p->can, sizeof(p->can), "ATA security erase%s", s.enhanced ? " (enhanced too)" : "");
	if (s.frozen)
		return no(p, "its security is frozen (the firmware took no security command since power-on, most BIOSes freeze it): suspend and resume the machine (systemctl suspend), or unplug and replug the drive, then try again; 'hdparm -I %s' shows 'not frozen' then",
			  dev);
	if (s.locked)
		return no(p, "it is locked by a password: unlock it first (hdparm --security-unlock PASSWORD %s)", dev);
	if (s.enabled)
		return no(p, "its security is enabled (a user password is set): disable it first (hdparm --security-disable PASSWORD %s)",
			  dev);
	p->m = s.enhanced ? ER_ATA_ENHANCED : ER_ATA;
	return true;
}

/* ---- any drive --------------------------------------------------------------- */
bool erase_plan(const char *dev, const struct ident *d, const char *want, struct erase_plan *p)
{
	char *sys, tr[64], e[128];
	bool ok;
	int fd;

	memset(p, 0, sizeof(*p));
	if (d->part[0])
		return no(p, "a partition (number %s): a drive's erase command erases the whole drive, not one partition ('%s wipe' removes the label only)",
			  d->part, PROG);
	if (!strcmp(d->type, "dm"))
		return no(p, "a device-mapper device: no drive's erase command reaches through it");
	if (!strcmp(d->type, "loop"))
		return no(p, "a loop device: no drive's erase command reaches through it");
	if (!strcmp(d->type, "md"))
		return no(p, "an md device: no drive's erase command reaches through it");
	if (strcmp(d->type, "nvme") && strcmp(d->type, "scsi"))
		return no(p, "not an NVMe or SATA drive: no erase command known for it");
	sys = dev_sysdir(dev);
	if (!sys)
		return no(p, "not an NVMe or SATA drive: no erase command known for it");
	if (!strcmp(d->type, "scsi")) {
		ok = erase_plan_ata(dev, sys, want, p);
		free(sys);
		return ok;
	}
	/* a fabric's namespace is the storage host's drive, which other
	 * hosts may use: erased there, not from here */
	if (fabric_transport(sys, tr, sizeof(tr)) && strcmp(tr, "pcie")) {
		free(sys);
		return no(p, "the namespace is reached over NVMe/%s (a fabric): an erase would act on the storage host's drive, which other hosts may use; erase it on the storage host",
			  tr);
	}
	free(sys);
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return no(p, "the drive does not answer Identify Controller (%s)",
			  nvme_strerror(-errno, e, sizeof(e)));
	ok = erase_plan_nvme(fd, want, p);
	close(fd);
	return ok;
}

/* ---- the erase ----------------------------------------------------------------- */
static bool fail(char *err, size_t el, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, el, fmt, ap);
	va_end(ap);
	return false;
}

/* sanitize_wait: the sanitize DEV's drive runs, waited for */
static bool sanitize_wait(int fd, const char *dev, char *err, size_t el)
{
	uint8_t log[512];
	time_t t0 = time(NULL), said = t0, now;
	unsigned int st;
	char e[128];
	int rc;

	for (;;) {
		rc = nvme_get_log(fd, NVME_LOG_SANITIZE, 0xffffffffu, log, sizeof(log));
		if (rc)
			return fail(err, el,
				    "the Sanitize Status log cannot be read (%s): whether the sanitize finished is unknown",
				    nvme_strerror(rc, e, sizeof(e)));
		st = (unsigned int)nvme_le(log, 2, 2) & 7;
		switch (st) {
		case 1:
		case 4:
			return true;
		case 2:
			break;
		case 3:
			return fail(err, el,
				    "the drive reports the sanitize failed (Sanitize Status log); it stays in sanitize failure mode until a sanitize completes: 'nvme sanitize %s --sanact=N' with the action that failed (2 block erase, 4 crypto erase) starts one",
				    dev);
		default:
			return fail(err, el, "the drive reports no sanitize (Sanitize Status log status %u)", st);
		}
		now = time(NULL);
		if (now - said >= 60) {
			say("  %s: sanitize %u%% done after %ld min (the drive goes on after an interruption or a power loss)",
			    strncmp(dev, "/dev/", 5) ? dev : dev + 5,
			    (unsigned int)(nvme_le(log, 0, 2) * 100 / 65536), (long)((now - t0) / 60));
			said = now;
		}
		if (erase_poll_ms)
			usleep(erase_poll_ms * 1000u);
	}
}

/* hdparm ARGS... DEV: its exit status, its last line of output in LAST */
static int run_hdparm(const char *a1, const char *a2, const char *dev, char *last, size_t ll)
{
	char *argv[] = { (char *)hdparm(), "--user-master", "u", (char *)a1, (char *)a2, (char *)dev, NULL };
	char *out;
	int rc;

	rc = spawn_run(argv, SPAWN_BOTH, &out);
	snprintf(last, ll, "%s", last_line(out));
	free(out);
	return rc;
}

bool erase_run(int fd, const char *dev, const struct erase_plan *p, char *err, size_t el)
{
	struct sigaction ign, oint, oterm;
	const char *e;
	char why[256];
	int rc;

	switch (p->m) {
	case ER_FORMAT_CRYPTO:
	case ER_FORMAT_USER:
		rc = nvme_format(fd, nvme_nsid(fd), p->lbaf, p->ms, p->pi, p->pil,
				 p->m == ER_FORMAT_CRYPTO ? 2 : 1);
		if (rc)
			return fail(err, el, "nvme format failed: %s", nvme_strerror(rc, why, sizeof(why)));
		/* the partitions the format erased gone from the kernel's view
		 * too, as nvme-cli's format does */
		if (fd >= 0)
			ioctl(fd, BLKRRPART);
		return true;
	case ER_SANITIZE_CRYPTO:
	case ER_SANITIZE_BLOCK:
		rc = nvme_sanitize(fd, p->m == ER_SANITIZE_CRYPTO ? 4 : 2);
		if (rc)
			return fail(err, el, "nvme sanitize failed: %s", nvme_strerror(rc, why, sizeof(why)));
		return sanitize_wait(fd, dev, err, el);
	case ER_ATA_ENHANCED:
	case ER_ATA:
		e = p->m == ER_ATA_ENHANCED ? "--security-erase-enhanced" : "--security-erase";
		/* from the password on, an interrupt waits for the erase: a
		 * drive left with the password set is locked at its next
		 * power-up (hdparm ignores them too, as it inherits this) */
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigaction(SIGINT, &ign, &oint);
		sigaction(SIGTERM, &ign, &oterm);
		rc = run_hdparm("--security-set-pass", ERASE_ATA_PASS, dev, why, sizeof(why));
		if (rc) {
			sigaction(SIGINT, &oint, NULL);
			sigaction(SIGTERM, &oterm, NULL);
			return fail(err, el, "hdparm --security-set-pass failed: %s", why);
		}
		rc = run_hdparm(e, ERASE_ATA_PASS, dev, why, sizeof(why));
		sigaction(SIGINT, &oint, NULL);
		sigaction(SIGTERM, &oterm, NULL);
		if (rc)
			return fail(err, el,
				    "hdparm %s failed: %s; the drive keeps the password '%s' set for the erase: 'hdparm --user-master u --security-disable %s %s' removes it",
				    e, why, ERASE_ATA_PASS, ERASE_ATA_PASS, dev);
		return true;
	case ER_NONE:
		break;
	}
	return fail(err, el, "no erase planned");
}

const char *erase_mib(int fd, uint64_t start)
{
	enum { MIB = 1 << 20 };
	unsigned char *b = malloc(MIB);
	size_t n = 0, i;
	bool zero = true, ones = true;
	ssize_t r;

	if (!b)
		die(EX_FAILED, "out of memory");
	while (n < MIB) {
		r = pread(fd, b + n, MIB - n, (off_t)(start * 512 + n));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	for (i = 0; i < n && (zero || ones); i++) {
		zero = zero && !b[i];
		ones = ones && b[i] == 0xff;
	}
	free(b);
	if (!n)
		return "not zeros";
	return zero ? "zeros" : ones ? "ones (0xff)" : "not zeros";
}
