// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host test tests/tool-output's harness: status, detail, clear and
 * drive_head of the tool's own code, run on a fake sysfs (bind-mounted
 * over /sys/class/block by the test) with stubs: device-mapper
 * (stub_dm.c: one array "fast" whose statistics are $HARNESS_FAKE/dm/dm-9),
 * the labels (read from $HARNESS_FAKE/labels/NAME, the devices' label
 * blocks), the drive nodes (/dev/NAME of any nvme or sd name) and the
 * NVMe health log (nvme0n1's: tests/smart/nvme-cli.json's values as a
 * log page, $HARNESS_NVME_CLI; any other fails, as a drive whose log the
 * kernel would not read: smartctl, $SSDSTRIPE_SMARTCTL, answers).
 *
 *   harness CMD ARGS...    CMD: status, detail, clear
 *   harness drive_head CRIT WARN
 *   harness metrics PATH   the monitor's textfile at PATH
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cmds.h"
#include "../../dev.h"
#include "../../drive.h"
#include "../../histlog.h"
#include "../../label.h"
#include "../../inprog.h"
#include "../../member.h"
#include "../../metrics.h"
#include "../../out.h"
#include "../nvme_page.h"

void help_of(void)
{
	printf("help of %s\n", cur_cmd);
}

static const char *fake(void)
{
	const char *f = getenv("HARNESS_FAKE");

	if (!f)
		die(EX_FAILED, "HARNESS_FAKE is not set");
	return f;
}

enum label_rc __wrap_label_read(const char *dev, struct label *l);
enum label_rc __wrap_label_read(const char *dev, struct label *l)
{
	unsigned char block[LABEL_BLOCK] = { 0 };
	const char *b = strrchr(dev, '/');
	char p[PATH_MAX];
	FILE *f;

	memset(l, 0, sizeof(*l));
	snprintf(p, sizeof(p), "%s/labels/%s", fake(), b ? b + 1 : dev);
	f = fopen(p, "re");
	if (!f)
		return LABEL_NONE;
	if (!fread(block, 1, sizeof(block), f)) {
		fclose(f);
		return LABEL_NONE;
	}
	fclose(f);
	return label_parse(block, sizeof(block), l);
}

char *__wrap_dev_path(const char *name);
char *__wrap_dev_path(const char *name)
{
	return xasprintf("/dev/%s", name);
}

bool __wrap_drive_node(const char *name, char *node, size_t len);
bool __wrap_drive_node(const char *name, char *node, size_t len)
{
	if (strncmp(name, "nvme", 4) && strncmp(name, "sd", 2))
		return false;
	snprintf(node, len, "/dev/%s", name);
	return true;
}

bool __wrap_drive_nvme_log(const char *node, unsigned char *log);
bool __wrap_drive_nvme_log(const char *node, unsigned char *log)
{
	const char *doc = getenv("HARNESS_NVME_CLI");
	char buf[65536];
	size_t n;
	FILE *f;

	if (strcmp(node, "/dev/nvme0n1") || !doc || !(f = fopen(doc, "re")))
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return page_from_nvmecli(buf, log);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = { { "status", cmd_status }, { "detail", cmd_detail }, { "clear", cmd_clear } };
	size_t i;
	int k;

	if (argc < 2)
		return EX_USAGE;
	if (!strcmp(argv[1], "drive_head") && argc == 4) {
		char h[4096];

		drive_head(argv[2], argv[3], h, sizeof(h));
		printf("[%s]\n", h);
		return EX_OK;
	}
	if (!strcmp(argv[1], "metrics") && argc == 3) {
		char why[256];

		if (metrics_write(argv[2], replace_progress, why, sizeof(why)))
			return EX_OK;
		fprintf(stderr, "%s\n", why);
		return EX_FAILED;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		cur_cmd = cmds[i].name;
		hist_cmd = xstrdup(PROG);
		for (k = 1; k < argc; k++) {
			char *t = xasprintf("%s %s", hist_cmd, argv[k]);

			free(hist_cmd);
			hist_cmd = t;
		}
		return cmds[i].fn(argc - 2, argv + 2);
	}
	return EX_USAGE;
}
