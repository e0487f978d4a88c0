// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of a drive's identity (ident.c), the cases of tests/label/run
 * on the sh tool: identities read from a fake sysfs made here (an NVMe
 * namespace, a SATA disk's partition whose serial comes from a binary VPD
 * page, dm devices with and without a uuid, a loop device), the words
 * messages use, a recorded line parsed back, and which device matches a
 * recorded drive.  Under ASan and UBSan, and valgrind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ident.h"

static char sys[64];

static void mk(const char *rel, const char *text, size_t len)
{
	char path[512], dir[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sys, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (p = dir + strlen(sys) + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		mkdir(dir, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(text, 1, len, f);
	fclose(f);
}

#define MK(rel, text) mk(rel, text "\n", strlen(text "\n"))

static int setup(void **state)
{
	static const char vpd[] = "\000\200\000\014  2202E5F4A2B1";

	(void)state;
	snprintf(sys, sizeof(sys), "/tmp/ident-test.XXXXXX");
	if (!mkdtemp(sys))
		return -1;
	MK("nvme0n1/size", "4194304");
	MK("nvme0n1/nsid", "1");
	MK("nvme0n1/wwid", "eui.0025385b71b06e3a");
	MK("nvme0n1/device/serial", "S6Z2NJ0W 123   ");
	MK("nvme0n1/device/model", "Samsung SSD 990 PRO 2TB                 ");
	MK("nvme1n1/size", "4194304");
	MK("nvme1n1/nsid", "1");
	MK("nvme1n1/wwid", "eui.0025385b71b06e3b");
	MK("nvme1n1/device/serial", "S6Z2NJ0W 124");
	MK("nvme1n1/device/model", "Samsung SSD 990 PRO 2TB");
	MK("sda/size", "976773168");
	MK("sda/device/vendor", "ATA     ");
	MK("sda/device/model", "CT1000MX500\xc3\xa9SSD1  ");
	MK("sda/device/wwid", "t10.ATA     CT1000MX500SSD1                         2202E5F4A2B1");
	mk("sda/device/vpd_pg80", vpd, sizeof(vpd) - 1);
	MK("sda/sda2/partition", "2");
	MK("sda/sda2/size", "2097152");
	MK("dm-3/size", "65536");
	MK("dm-3/dm/name", "lv");
	MK("dm-3/dm/uuid", "LVM-Xk3hTz4aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456");
	MK("dm-4/size", "65536");
	MK("dm-4/dm/name", "ssl4");
	mk("dm-4/dm/uuid", "", 0);
	MK("loop0/size", "65536");
	MK("loop0/loop/backing_file", "/var/tmp/x.img");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sys);
	return system(cmd) ? -1 : 0;
}

static const char *const devs[] = { "nvme0n1", "sda/sda2", "dm-3", "dm-4", "loop0" };

static void of(const char *rel, struct ident *d)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/%s", sys, rel);
	assert_true(ident_of(dir, d));
}

static void test_lines(void **state)
{
	static const char *const want[] = {
		"size:4194304 type:nvme id:eui.0025385b71b06e3a serial:S6Z2NJ0W_123 model:Samsung SSD 990 PRO 2TB",
		"size:2097152 type:scsi id:t10.ATA_CT1000MX500SSD1_2202E5F4A2B1 serial:2202E5F4A2B1 part:2 model:CT1000MX500 SSD1",
		"size:65536 type:dm id:dm-uuid:LVM-Xk3hTz4aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456 serial:none model:",
		"size:65536 type:dm id:none serial:none model:",
		"size:65536 type:loop id:none serial:none model:",
	};
	struct ident d;
	char line[2048];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		of(devs[i], &d);
		ident_line(&d, line, sizeof(line));
		assert_string_equal(line, want[i]);
	}
}

static void test_words(void **state)
{
	static const char *const want[] = {
		"Samsung SSD 990 PRO 2TB, serial S6Z2NJ0W_123",
		"CT1000MX500 SSD1, serial 2202E5F4A2B1, partition 2",
		"a device-mapper device (LVM-Xk3hTz4aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456), no serial",
		"a device-mapper device, no serial",
		"a loop device, no serial",
	};
	struct ident d;
	char w[1024];
	size_t i;

	(void)state;
	for (i = 0; i < 5; i++) {
		of(devs[i], &d);
		ident_words(&d, w, sizeof(w));
		assert_string_equal(w, want[i]);
	}
	of("sda/sda2", &d);
	ident_full(&d, w, sizeof(w));
	assert_string_equal(w, "CT1000MX500 SSD1, serial 2202E5F4A2B1, partition 2, id t10.ATA_CT1000MX500SSD1_2202E5F4A2B1, 2097152 sectors");
}

static void test_parse(void **state)
{
	struct ident i;

	(void)state;
	/* unknown words ignored, the model whole */
	ident_parse("size:8 type:nvme future:x id:none serial:AB_C part:3 model:A  b: c", &i);
	assert_string_equal(i.size, "8");
	assert_string_equal(i.type, "nvme");
	assert_string_equal(i.id, "");
	assert_string_equal(i.serial, "AB_C");
	assert_string_equal(i.part, "3");
	assert_string_equal(i.model, "A  b: c");
	assert_false(ident_known(&(struct ident){ .size = "8" }));
}

static void test_match(void **state)
{
	static const struct {
		const char *dev, *line;
		bool match;
	} cases[] = {
		{ "nvme0n1", "size:4194304 type:nvme id:eui.0025385b71b06e3a serial:other model:x", true },
		{ "nvme1n1", "size:4194304 type:nvme id:eui.0025385b71b06e3a serial:S6Z2NJ0W_124 model:Samsung SSD 990 PRO 2TB", false },
		{ "nvme1n1", "size:4194304 type:nvme id:none serial:S6Z2NJ0W_124 model:Samsung SSD 990 PRO 2TB", true },
		{ "nvme1n1", "size:4194304 type:nvme id:none serial:S6Z2NJ0W_124 model:Samsung SSD 980", false },
		{ "nvme0n1", "size:4194305 type:nvme id:eui.0025385b71b06e3a serial:x model:", false },
		{ "sda/sda2", "size:2097152 type:scsi id:t10.ATA_CT1000MX500SSD1_2202E5F4A2B1 serial:2202E5F4A2B1 part:1 model:CT1000MX500 SSD1", false },
		{ "dm-3", "size:65536 type:dm id:dm-uuid:LVM-Xk3hTz4aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456 serial:none model:", true },
		{ "dm-4", "size:65536 type:dm id:none serial:none model:", false },
	};
	struct ident d, i;
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		of(cases[k].dev, &d);
		ident_parse(cases[k].line, &i);
		assert_int_equal(ident_match(&d, &i), cases[k].match);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_match),
	};

	return cmocka_run_group_tests_name("ident", tests, setup, teardown);
}
