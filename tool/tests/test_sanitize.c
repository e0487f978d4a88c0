// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of sanitize's drive questions (erase.c, nvme.c) for what the
 * QEMU rig cannot show: its emulated NVMe drive supports Format NVM user
 * data erase only, and it has no SATA drive.  The kernel's NVMe ioctl is
 * stubbed (nvme_ioctl): it answers Identify Controller and Namespace in
 * their binary layout (the bytes real drives give: CMIC, OACS, SANICAP,
 * FNA, FLBAS, DPS), the allocated namespace list (CNS 0x10) and the
 * active one (CNS 0x02, this controller's: the first namespace only), the
 * Sanitize Status log, and records the commands it is given; hdparm is
 * stubbed (spawn_stub) with hdparm -I's Security section.  Checked: the
 * method chosen (crypto erase first), --method, the refusals (other
 * namespaces, more than one controller, no erase command, frozen,
 * locked, enabled, no ATA), the format's fields keeping the format in
 * use, the sanitize wait, and what a MiB reads as.  The cases of the sh
 * tool's tests/sanitize/run, which this replaces.  Under ASan/UBSan and
 * valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/nvme_ioctl.h>

#include <cmocka.h>

#include "erase.h"
#include "nvme.h"
#include "extprog.h"

/* ---- the fake drive ---------------------------------------------------- */
struct drive {
	uint8_t ctrl[NVME_ID_SIZE], ns[NVME_ID_SIZE];
	unsigned int nns;		/* allocated namespaces */
	bool no_nslist;			/* CNS 0x10 not answered */
	const uint8_t (*logs)[4];	/* Sanitize Status logs, the last repeated */
	size_t nlogs, nread;
	int rc;				/* what format and sanitize answer */
	char cmds[8][128];		/* the erase commands given */
	size_t ncmds;
};

static struct drive drv;

/* nvme_case: a drive of these fields (the sh test's table) */
static void nvme_case(unsigned int oacs, unsigned int sanicap, unsigned int fna, unsigned int nns,
		      unsigned int flbas, unsigned int dps)
{
	memset(&drv, 0, sizeof(drv));
	drv.ctrl[256] = (uint8_t)(oacs & 255);
	drv.ctrl[257] = (uint8_t)(oacs >> 8);
	drv.ctrl[328] = (uint8_t)sanicap;
	drv.ctrl[524] = (uint8_t)fna;
	drv.ns[26] = (uint8_t)flbas;
	drv.ns[29] = (uint8_t)dps;
	drv.nns = nns;
}

static void nslist(void *buf, uint32_t after, unsigned int upto)
{
	uint8_t *b = buf;
	unsigned int id, i = 0;

	for (id = after + 1; id <= upto && i < NVME_ID_SIZE / 4; id++, i++) {
		b[i * 4] = (uint8_t)id;
		b[i * 4 + 1] = (uint8_t)(id >> 8);
	}
}

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	const unsigned long id = NVME_IOCTL_ID, admin = NVME_IOCTL_ADMIN_CMD;
	struct nvme_admin_cmd *c = arg;
	void *buf;

	(void)fd;
	if (req == id)
		return 1;
	assert_true(req == admin);
	buf = (void *)(uintptr_t)c->addr;
	switch (c->opcode) {
	case 0x06:
		assert_int_equal(c->data_len, NVME_ID_SIZE);
		memset(buf, 0, NVME_ID_SIZE);
		switch (c->cdw10 & 0xff) {
		case 0x01:
			/* Identify Controller names no namespace */
			assert_int_equal(c->nsid, 0);
			memcpy(buf, drv.ctrl, NVME_ID_SIZE);
			return 0;
		case 0x00:
			assert_int_equal(c->nsid, 1);
			memcpy(buf, drv.ns, NVME_ID_SIZE);
			return 0;
		case 0x10:
			/* a drive without namespace management cannot list them */
			if (drv.no_nslist)
				return 0x2;
			nslist(buf, c->nsid, drv.nns);
			return 0;
		case 0x02:
			/* this controller's: only the first is attached here */
			nslist(buf, c->nsid, 1);
			return 0;
		}
		return 0x2;
	case 0x02:
		assert_int_equal(c->cdw10 & 0xff, 0x81);
		assert_int_equal(c->data_len, 512);
		assert_int_equal(c->cdw10 >> 16, 127);
		memset(buf, 0, 512);
		memcpy(buf, drv.logs[drv.nread < drv.nlogs ? drv.nread : drv.nlogs - 1], 4);
		drv.nread++;
		return 0;
	case 0x80:
		assert_true(drv.ncmds < 8);
		/* nothing above LBAFU (bits 13:12) */
		assert_int_equal(c->cdw10 >> 14, 0);
		/* as nvme-cli's arguments say it */
		snprintf(drv.cmds[drv.ncmds++], 128, "format nsid=%u --ses=%u --lbaf=%u --ms=%u --pi=%u --pil=%u",
			 c->nsid, c->cdw10 >> 9 & 7, (c->cdw10 & 15) | (c->cdw10 >> 12 & 3) << 4,
			 c->cdw10 >> 4 & 1, c->cdw10 >> 5 & 7, c->cdw10 >> 8 & 1);
		return drv.rc;
	case 0x84:
		assert_true(drv.ncmds < 8);
		/* SANACT alone: no AUSE, no overwrite pass count, no NDAS */
		assert_int_equal(c->cdw10 & ~7U, 0);
		snprintf(drv.cmds[drv.ncmds++], 128, "sanitize --sanact=%u", c->cdw10 & 7);
		return drv.rc;
	}
	return 0x1;
}

/* plan: "METHOD lbaf ms pi pil" or "NO: why" of the NVMe plan */
static const char *plan(const char *want)
{
	static char out[1200];
	static const char *const names[] = {
		"none", "sanitize-crypto", "format-crypto", "sanitize-block", "format-user", "ata-enhanced", "ata",
	};
	struct erase_plan p;

	if (!erase_plan_nvme(-1, want, &p))
		snprintf(out, sizeof(out), "NO: %s", p.no);
	else if (p.m == ER_FORMAT_USER || p.m == ER_FORMAT_CRYPTO)
		snprintf(out, sizeof(out), "%s --lbaf=%u --ms=%u --pi=%u --pil=%u", names[p.m], p.lbaf, p.ms, p.pi,
			 p.pil);
	else
		snprintf(out, sizeof(out), "%s", names[p.m]);
	return out;
}

static void starts(const char *got, const char *want)
{
	if (strncmp(got, want, strlen(want)))
		fail_msg("got '%s', not '%s...'", got, want);
}

static void ends(const char *got, const char *want)
{
	size_t g = strlen(got), w = strlen(want);

	if (g < w || strcmp(got + g - w, want))
		fail_msg("got '%s', not '...%s'", got, want);
}

/* ---- NVMe: the method chosen ------------------------------------------------ */
static void test_nvme_plans(void **state)
{
	(void)state;
	/*         OACS   SANICAP FNA NS FLBAS DPS */
	nvme_case(0x10a, 0, 0, 1, 0, 0);	/* QEMU's drive */
	assert_string_equal(plan(NULL), "format-user --lbaf=0 --ms=0 --pi=0 --pil=0");
	assert_string_equal(plan("sanitize"),
			    "NO: --method sanitize asked, and the drive supports Format NVM (user data erase)");
	starts(plan("ata"), "NO: --method ata asked");
	nvme_case(0x16, 3, 4, 1, 0, 0);	/* crypto erase both ways */
	assert_string_equal(plan(NULL), "sanitize-crypto");
	starts(plan("format"), "format-crypto --lbaf=0");
	nvme_case(0x6, 2, 0, 1, 0, 0);	/* block erase before a user data format */
	assert_string_equal(plan(NULL), "sanitize-block");
	/* two namespaces, the second attached elsewhere: no sanitize */
	nvme_case(0x6, 1, 0, 2, 0, 0);
	starts(plan(NULL), "format-user ");
	nvme_case(0x6, 1, 2, 2, 0, 0);	/* and a format that reaches both */
	assert_string_equal(plan(NULL),
			    "NO: the drive has 2 namespaces, and NVMe Format NVM, user data erase (nvme format --ses=1) would erase all of them");
	/* the namespaces cannot be listed: neither a sanitize nor a format
	 * that reaches every namespace */
	nvme_case(0x16, 3, 4, 1, 0, 0);
	drv.no_nslist = true;
	starts(plan(NULL), "format-crypto ");
	assert_string_equal(plan("sanitize"),
			    "NO: its namespaces cannot be listed (Identify, allocated namespaces), and NVMe Sanitize, block erase (nvme sanitize --sanact=2) would erase all of them");
	nvme_case(0x16, 3, 5, 1, 0, 0);
	drv.no_nslist = true;
	starts(plan(NULL), "NO: its namespaces cannot be listed (Identify, allocated namespaces)");
	nvme_case(0x4, 0, 0, 1, 0, 0);
	starts(plan(NULL), "NO: the drive supports no erase command");
	nvme_case(0x2, 0, 0, 1, 0x12, 9);	/* the format in use kept */
	assert_string_equal(plan(NULL), "format-user --lbaf=2 --ms=1 --pi=1 --pil=1");
	nvme_case(0x2, 0, 0, 1, 0x23, 0);	/* an extended LBA format index */
	starts(plan(NULL), "format-user --lbaf=19 --ms=0 ");
	/* another controller in the subsystem (CMIC bit 1): a sanitize
	 * reaches what it sees; a format of this namespace alone does not */
	nvme_case(0x6, 1, 0, 1, 0, 0);
	drv.ctrl[76] = 2;
	starts(plan(NULL), "format-user ");
	starts(plan("sanitize"), "NO: the drive's NVM subsystem has more than one controller (CMIC)");
}

/* ---- NVMe: the commands run ------------------------------------------------- */
static void test_nvme_erase(void **state)
{
	static const uint8_t logs[][4] = {
		{ 0, 64, 2, 0 },	/* in progress (SSTAT 2) */
		{ 0, 128, 2, 0 },
		{ 255, 255, 1, 0 },	/* completed */
	};
	static const uint8_t failed[][4] = { { 0, 0, 3, 0 } };
	struct erase_plan p;
	char err[1400];

	(void)state;
	nvme_case(0x10a, 0, 0, 1, 0, 0);
	assert_true(erase_plan_nvme(-1, NULL, &p));
	assert_true(erase_run(-1, "/dev/nvme9n1", &p, err, sizeof(err)));
	assert_int_equal(drv.ncmds, 1);
	assert_string_equal(drv.cmds[0], "format nsid=1 --ses=1 --lbaf=0 --ms=0 --pi=0 --pil=0");
	drv.rc = 0x2;
	assert_false(erase_run(-1, "/dev/nvme9n1", &p, err, sizeof(err)));
	starts(err, "nvme format failed");
	/* sanitize: in progress twice, then completed: waited for */
	nvme_case(0x16, 3, 4, 1, 0, 0);
	drv.logs = logs;
	drv.nlogs = 3;
	assert_true(erase_plan_nvme(-1, NULL, &p));
	assert_int_equal(p.m, ER_SANITIZE_CRYPTO);
	assert_true(erase_run(-1, "/dev/nvme9n1", &p, err, sizeof(err)));
	assert_int_equal(drv.nread, 3);
	assert_string_equal(drv.cmds[0], "sanitize --sanact=4");
	drv.logs = failed;
	drv.nlogs = 1;
	p.m = ER_SANITIZE_BLOCK;
	assert_false(erase_run(-1, "/dev/nvme9n1", &p, err, sizeof(err)));
	starts(err, "the drive reports the sanitize failed");
	assert_string_equal(drv.cmds[1], "sanitize --sanact=2");
}

/* ---- ATA ------------------------------------------------------------------------ */
static char top[64], sdz[128], sdy[128];
static const char *hdparm_i;	/* what hdparm -I prints */
static int hdparm_rc;		/* what an erase exits with */
static char hcalls[8][160];
static size_t nh;

static int fake_spawn(char *const argv[], enum spawn_out which, char **out)
{
	char l[160] = "";
	size_t i;

	(void)which;
	assert_string_equal(argv[0], "/bin/true");	/* SSDSTRIPE_HDPARM */
	for (i = 1; argv[i]; i++)
		snprintf(l + strlen(l), sizeof(l) - strlen(l), "%s%s", i > 1 ? " " : "", argv[i]);
	assert_true(nh < 8);
	snprintf(hcalls[nh++], sizeof(hcalls[0]), "%s", l);
	if (!strcmp(argv[1], "-I")) {
		*out = strdup(hdparm_i);
		return 0;
	}
	*out = strdup(strstr(l, "--security-erase") && hdparm_rc ? "SG_IO: bad/missing sense data\n" : "");
	return strstr(l, "--security-erase") ? hdparm_rc : 0;
}

static void mkfile(const char *dir, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/device", dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/device/vendor", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int ata_setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/sanitize-test.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	/* the disk's sysfs: an ATA drive behind libata, and a SAS one */
	snprintf(sdz, sizeof(sdz), "%s/sdz", top);
	snprintf(sdy, sizeof(sdy), "%s/sdy", top);
	mkfile(sdz, "ATA     \n");
	mkfile(sdy, "SEAGATE \n");
	setenv("SSDSTRIPE_HDPARM", "/bin/true", 1);
	spawn_stub = fake_spawn;
	return 0;
}

static int ata_teardown(void **state)
{
	char cmd[128];

	(void)state;
	spawn_stub = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) ? -1 : 0;
}

#define SEC_HEAD "/dev/sdz:\n\nATA device, with non-removable media\nSecurity: \n\tMaster password revision code = 65534\n"
#define SEC_TAIL "Logical Unit WWN Device Identifier: 5002538e40000000\n"
static const char ata_ok[] = SEC_HEAD
	"\t\tsupported\n\tnot\tenabled\n\tnot\tlocked\n\tnot\tfrozen\n\tnot\texpired: security count\n"
	"\t\tsupported: enhanced erase\n\t2min for SECURITY ERASE UNIT. 2min for ENHANCED SECURITY ERASE UNIT.\n" SEC_TAIL;
static const char ata_frozen[] = SEC_HEAD
	"\t\tsupported\n\tnot\tenabled\n\tnot\tlocked\n\t\tfrozen\n\tnot\texpired: security count\n"
	"\t\tsupported: enhanced erase\n" SEC_TAIL;
static const char ata_locked[] = SEC_HEAD
	"\t\tsupported\n\t\tenabled\n\t\tlocked\n\tnot\tfrozen\n\tnot\texpired: security count\n"
	"\tnot\tsupported: enhanced erase\n" SEC_TAIL;
static const char ata_enabled[] = SEC_HEAD
	"\t\tsupported\n\t\tenabled\n\tnot\tlocked\n\tnot\tfrozen\n\tnot\texpired: security count\n"
	"\tnot\tsupported: enhanced erase\n" SEC_TAIL;
static const char ata_plain[] = SEC_HEAD
	"\t\tsupported\n\tnot\tenabled\n\tnot\tlocked\n\tnot\tfrozen\n\tnot\texpired: security count\n"
	"\tnot\tsupported: enhanced erase\n" SEC_TAIL;
static const char ata_none[] = "/dev/sdz:\n\nATA device, with non-removable media\nSecurity: \n\tnot\tsupported\n" SEC_TAIL;

/* ata: the ATA plan, "METHOD" or "NO: why" */
static const char *ata(const char *text, const char *sys, const char *want)
{
	static char out[1200];
	struct erase_plan p;

	hdparm_i = text;
	if (!erase_plan_ata("/dev/sdz", sys, want, &p))
		snprintf(out, sizeof(out), "NO: %s", p.no);
	else
		snprintf(out, sizeof(out), "%s", p.m == ER_ATA_ENHANCED ? "ata-enhanced" : "ata");
	return out;
}

static void test_ata_plans(void **state)
{
	(void)state;
	assert_string_equal(ata(ata_ok, sdz, NULL), "ata-enhanced");
	assert_string_equal(ata(ata_plain, sdz, NULL), "ata");
	assert_string_equal(ata(ata_ok, sdz, "format"),
			    "NO: --method format asked, and an ATA drive supports ATA security erase only");
	starts(ata(ata_frozen, sdz, NULL), "NO: its security is frozen ");
	assert_non_null(strstr(ata(ata_frozen, sdz, NULL),
			       "suspend and resume the machine (systemctl suspend), or unplug and replug the drive"));
	starts(ata(ata_locked, sdz, NULL), "NO: it is locked by a password");
	starts(ata(ata_enabled, sdz, NULL), "NO: its security is enabled");
	starts(ata(ata_none, sdz, NULL), "NO: the drive supports no erase command");
	starts(ata(ata_ok, sdy, NULL), "NO: a SCSI disk (vendor SEAGATE) that is no ATA drive");
}

static void test_ata_erase(void **state)
{
	struct erase_plan p = { .m = ER_ATA_ENHANCED };
	char err[1400];

	(void)state;
	nh = 0;
	hdparm_rc = 0;
	assert_true(erase_run(-1, "/dev/sdz", &p, err, sizeof(err)));
	assert_int_equal(nh, 2);
	assert_string_equal(hcalls[0], "--user-master u --security-set-pass ssdstripe /dev/sdz");
	assert_string_equal(hcalls[1], "--user-master u --security-erase-enhanced ssdstripe /dev/sdz");
	/* a failed erase names the password it left */
	hdparm_rc = 5;
	p.m = ER_ATA;
	assert_false(erase_run(-1, "/dev/sdz", &p, err, sizeof(err)));
	starts(err, "hdparm --security-erase failed: SG_IO: bad/missing sense data;");
	ends(err, "'hdparm --user-master u --security-disable ssdstripe /dev/sdz' removes it");
}

/* ---- what a MiB reads as -------------------------------------------------------- */
static void test_mib(void **state)
{
	char img[] = "/tmp/sanitize-img.XXXXXX";
	unsigned char *b = calloc(1, 2 << 20);
	int fd = mkstemp(img);

	(void)state;
	assert_non_null(b);
	assert_true(fd >= 0);
	memset(b + (1 << 20), 0xff, 1 << 20);
	assert_int_equal(write(fd, b, 2 << 20), 2 << 20);
	assert_string_equal(erase_mib(fd, 0), "zeros");
	assert_string_equal(erase_mib(fd, 2048), "ones (0xff)");
	assert_int_equal(pwrite(fd, "x", 1, 100), 1);
	assert_string_equal(erase_mib(fd, 0), "not zeros");
	close(fd);
	unlink(img);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme_plans),
		cmocka_unit_test(test_nvme_erase),
		cmocka_unit_test_setup_teardown(test_ata_plans, ata_setup, ata_teardown),
		cmocka_unit_test_setup_teardown(test_ata_erase, ata_setup, ata_teardown),
		cmocka_unit_test(test_mib),
	};

	nvme_ioctl = fake_ioctl;
	erase_poll_ms = 0;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
