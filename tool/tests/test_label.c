// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the label's reader and writer (label.c), run under ASan
 * and UBSan by "make -C tool check".  GOLDEN was written by the sh tool's
 * label writer (scripts/lib/label.sh label_block) for the same fields:
 * the C writer must give it byte for byte, and the reader read it back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "label.h"

static const char GOLDEN[] =
	"SSDSTRIPE-LABEL 2\n"
	"array_uuid=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0\n"
	"name=fast\n"
	"member_uuid=11111111-2222-3333-4444-555555555555\n"
	"index=1\n"
	"count=2\n"
	"chunk_sectors=128\n"
	"data_offset=2048\n"
	"data_sectors=4190208\n"
	"members=aaaaaaaa-0000-0000-0000-000000000000,11111111-2222-3333-4444-555555555555\n"
	"created=1764000000\n"
	"generation=3\n"
	"overprovision=10\n"
	"drive.0=size:4194304 type:nvme id:eui.0011 serial:S6Z2NJ0W123457M model:Samsung SSD 990 PRO 2TB\n"
	"drive.1=size:4194304 type:nvme id:none serial:S6Z2NJ0W123458M part:2 model:Samsung SSD 990 PRO 2TB\n"
	"checksum=sha256:85127f1837362247560e49ef082e1a0460f32ae1907522e52a0c2f1162a35f19\n";

/* block: TEXT as a label block (NUL padded) */
static unsigned char *block(const char *text)
{
	unsigned char *b = calloc(1, LABEL_BLOCK);

	assert_non_null(b);
	memcpy(b, text, strlen(text) < LABEL_BLOCK ? strlen(text) : LABEL_BLOCK);
	return b;
}

static enum label_rc parse_text(const char *text, struct label *l)
{
	unsigned char *b = block(text);
	enum label_rc rc = label_parse(b, LABEL_BLOCK, l);

	free(b);
	return rc;
}

/* relabel: TEXT with every line starting PREFIX replaced by LINE, re-summed */
static char *resum(const char *body)
{
	char hex[65], *out;
	size_t n = strlen(body);

	sha256_hex(body, n, hex);
	out = malloc(n + 100);
	assert_non_null(out);
	sprintf(out, "%schecksum=sha256:%s\n", body, hex);
	return out;
}

static void test_golden_reads(void **state)
{
	struct label l;

	(void)state;
	assert_int_equal(parse_text(GOLDEN, &l), LABEL_OK);
	assert_int_equal(l.version, 2);
	assert_string_equal(l.f[LK_NAME], "fast");
	assert_int_equal(label_num(&l, LK_INDEX), 1);
	assert_int_equal(label_num(&l, LK_GEN), 3);
	assert_string_equal(l.f[LK_OP], "10");
	assert_null(l.f[LK_STATE]);
	assert_int_equal(l.ndrives, 2);
	assert_string_equal(label_drive(&l, 1),
			    "size:4194304 type:nvme id:none serial:S6Z2NJ0W123458M part:2 model:Samsung SSD 990 PRO 2TB");
	assert_null(label_drive(&l, 2));
	label_free(&l);
}

static void test_golden_writes(void **state)
{
	struct label l;
	char buf[LABEL_BLOCK + 1];
	long n;

	(void)state;
	assert_int_equal(parse_text(GOLDEN, &l), LABEL_OK);
	n = label_format(&l, buf, sizeof(buf));
	assert_int_equal(n, (long)strlen(GOLDEN));
	assert_string_equal(buf, GOLDEN);
	label_free(&l);
}

static void test_checksum(void **state)
{
	char *t = strdup(GOLDEN);
	struct label l;

	(void)state;
	/* one changed byte in the body */
	t[strlen("SSDSTRIPE-LABEL 2\narray_uuid=")] ^= 1;
	assert_int_equal(parse_text(t, &l), LABEL_DAMAGED);
	assert_string_equal(l.err, "label checksum mismatch (damaged label)");
	label_free(&l);
	/* no checksum line */
	*strstr(t, "checksum=") = 0;
	assert_int_equal(parse_text(t, &l), LABEL_DAMAGED);
	label_free(&l);
	free(t);
}

/* the recorded sum is read as the sh tool read it: every checksum line */
static void test_checksum_lines(void **state)
{
	size_t n = strlen(GOLDEN);
	char *t = malloc(2 * n + 64);
	const char *sum = strstr(GOLDEN, "checksum=sha256:");
	struct label l;

	(void)state;
	assert_non_null(t);
	/* an empty second sum line: the joined value is the sum all the same */
	snprintf(t, 2 * n + 64, "%schecksum=sha256:\n", GOLDEN);
	assert_int_equal(parse_text(t, &l), LABEL_OK);
	label_free(&l);
	/* an empty first one: the joined value starts with a newline */
	snprintf(t, 2 * n + 64, "%.*schecksum=sha256:\n%s", (int)(sum - GOLDEN), GOLDEN, sum);
	assert_int_equal(parse_text(t, &l), LABEL_DAMAGED);
	label_free(&l);
	/* two sums */
	snprintf(t, 2 * n + 64, "%s%s", GOLDEN, sum);
	assert_int_equal(parse_text(t, &l), LABEL_DAMAGED);
	label_free(&l);
	free(t);
}

static void test_versions(void **state)
{
	struct label l;
	char *t;

	(void)state;
	assert_int_equal(parse_text("", &l), LABEL_NONE);
	label_free(&l);
	assert_int_equal(parse_text("SSDSTRIPE-LABELS 2\n", &l), LABEL_NONE);
	label_free(&l);
	assert_int_equal(parse_text("SSDSTRIPE-LABEL 3\nx=1\n", &l), LABEL_UNSUPPORTED);
	assert_string_equal(l.err, "label version 3 (this tool reads 1 and 2)");
	label_free(&l);
	assert_int_equal(parse_text("SSDSTRIPE-LABEL 22\n", &l), LABEL_UNSUPPORTED);
	label_free(&l);
	/* version 1: no generation, no drives */
	t = resum("SSDSTRIPE-LABEL 1\narray_uuid=u\nname=n\nmember_uuid=m\nindex=0\ncount=1\n"
		  "chunk_sectors=8\ndata_offset=2048\ndata_sectors=100\nmembers=m\ncreated=1\n"
		  "generation=7\ndrive.0=size:1 model:x\n");
	assert_int_equal(parse_text(t, &l), LABEL_OK);
	assert_string_equal(l.f[LK_GEN], "0");
	assert_int_equal(l.ndrives, 0);
	label_free(&l);
	free(t);
}

static void test_fields(void **state)
{
	static const struct {
		const char *body;
		enum label_rc rc;
		const char *err;
	} cases[] = {
		{ "index=x\n", LABEL_DAMAGED, "label field missing or not a number" },
		{ "overprovision=51\n", LABEL_DAMAGED,
		  "label field overprovision is not a percentage from 1 to 50" },
		{ "overprovision=05\n", LABEL_DAMAGED,
		  "label field overprovision is not a percentage from 1 to 50" },
		{ "overprovision=50\n", LABEL_OK, "" },
		{ "overprovision=\n", LABEL_OK, "" },
		{ "name=\n", LABEL_DAMAGED, "label field missing" },
		{ "name=first\nname=second\n", LABEL_OK, "" },
		{ "drive.01=size:1 model:x\ndrive.1=size:2 model:y\ndrive.1=size:3 model:z\n", LABEL_OK, "" },
		{ "drive.4294967295=size:1 model:x\ndrive.4294967296=size:2 model:y\n", LABEL_OK, "" },
		/* numbers below 2^63 only: no saturation, no wrap in sector sums */
		{ "generation=9223372036854775807\n", LABEL_OK, "" },
		{ "generation=9223372036854775808\n", LABEL_DAMAGED, "label field missing or not a number" },
		{ "data_sectors=184467440737095516160\n", LABEL_DAMAGED,
		  "label field missing or not a number" },
		{ "count=00000000000000000000000001\n", LABEL_OK, "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char body[2048], *t;
		struct label l;

		/* the case's lines come first: the first of a key counts */
		snprintf(body, sizeof(body),
			 "SSDSTRIPE-LABEL 2\n%sarray_uuid=u\nname=n\nmember_uuid=m\nindex=0\ncount=1\n"
			 "chunk_sectors=8\ndata_offset=2048\ndata_sectors=100\nmembers=m\n"
			 "created=1\ngeneration=1\n", cases[i].body);
		t = resum(body);
		assert_int_equal(parse_text(t, &l), cases[i].rc);
		assert_string_equal(l.err, cases[i].err);
		if (i == 6)
			assert_string_equal(l.f[LK_NAME], "first");
		if (i == 7) {
			assert_int_equal(l.ndrives, 1);
			assert_string_equal(label_drive(&l, 1), "size:2 model:y");
		}
		if (i == 8) {
			/* the largest member number a label can name, and no wrap past it */
			assert_int_equal(l.ndrives, 1);
			assert_string_equal(label_drive(&l, 4294967295u), "size:1 model:x");
		}
		label_free(&l);
		free(t);
	}
}

static void test_nul_bytes(void **state)
{
	unsigned char *b = block(GOLDEN);
	struct label l;

	(void)state;
	/* NUL bytes inside the text are dropped, as the sh tool read it */
	memmove(b + 11, b + 10, strlen(GOLDEN) - 10);
	b[10] = 0;
	assert_int_equal(label_parse(b, LABEL_BLOCK, &l), LABEL_OK);
	label_free(&l);
	/* a short read gives what it read */
	assert_int_equal(label_parse(b, 10, &l), LABEL_NONE);
	label_free(&l);
	free(b);
}

static void test_too_big(void **state)
{
	struct label l;
	char buf[LABEL_BLOCK + 1];
	size_t i;

	(void)state;
	assert_int_equal(parse_text(GOLDEN, &l), LABEL_OK);
	l.drives = realloc(l.drives, 64 * sizeof(*l.drives));
	assert_non_null(l.drives);
	for (i = l.ndrives; i < 64; i++) {
		l.drives[i].k = (unsigned int)i;
		l.drives[i].ident = strdup("size:4194304 type:nvme id:eui.00112233445566778899aabbccddeeff serial:S6Z2NJ0W123457M model:Samsung SSD 990 PRO 2TB");
	}
	l.ndrives = 64;
	assert_int_equal(label_format(&l, buf, sizeof(buf)), -1);
	label_free(&l);
}

static void test_fd(void **state)
{
	char path[] = "/tmp/label-test.XXXXXX";
	unsigned char *b = block(GOLDEN);
	int fd = mkstemp(path);
	struct label l;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(pwrite(fd, b, LABEL_BLOCK, 0), LABEL_BLOCK);
	/* nothing at the label's place yet */
	assert_false(label_magic(fd));
	assert_int_equal(pwrite(fd, b, LABEL_BLOCK, LABEL_BLOCK), LABEL_BLOCK);
	assert_true(label_magic(fd));
	assert_int_equal(label_read_fd(fd, &l), LABEL_OK);
	label_free(&l);
	/* a damaged label is still ours to erase */
	b[100] ^= 1;
	assert_int_equal(pwrite(fd, b, LABEL_BLOCK, LABEL_BLOCK), LABEL_BLOCK);
	assert_true(label_magic(fd));
	assert_int_equal(label_read_fd(fd, &l), LABEL_DAMAGED);
	label_free(&l);
	assert_int_equal(label_erase(fd), 0);
	assert_false(label_magic(fd));
	assert_int_equal(label_read_fd(fd, &l), LABEL_NONE);
	label_free(&l);
	/* the block before it is untouched */
	assert_int_equal(pread(fd, b, LABEL_BLOCK, 0), LABEL_BLOCK);
	assert_memory_equal(b, GOLDEN, 16);
	close(fd);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_reads),
		cmocka_unit_test(test_golden_writes),
		cmocka_unit_test(test_checksum),
		cmocka_unit_test(test_checksum_lines),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_fd),
	};

	return cmocka_run_group_tests_name("label", tests, NULL, NULL);
}
