/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tests: an NVMe SMART / Health log page (0x02) made from nvme-cli's
 * smart-log document (tests/smart/nvme-cli.json): the canned values the
 * sh reader's tests gave nvme-cli, as the admin ioctl returns them.
 */
#ifndef SSDSTRIPE_TESTS_NVME_PAGE_H
#define SSDSTRIPE_TESTS_NVME_PAGE_H

#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

static inline void page_put(unsigned char *p, size_t at, size_t n, uint64_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[at + i] = (unsigned char)(v >> (8 * i));
}

/* page_from_nvmecli: LOG (512 bytes) from DOC; false if DOC is no object */
static inline int page_from_nvmecli(const char *doc, unsigned char *log)
{
	static const struct {
		const char *key;
		size_t at, n;
	} f[] = {
		{ "critical_warning", 0, 1 }, { "temperature", 1, 2 }, { "avail_spare", 3, 1 },
		{ "spare_thresh", 4, 1 }, { "percent_used", 5, 1 }, { "data_units_read", 32, 8 },
		{ "data_units_written", 48, 8 }, { "host_read_commands", 64, 8 },
		{ "host_write_commands", 80, 8 }, { "controller_busy_time", 96, 8 },
		{ "power_cycles", 112, 8 }, { "power_on_hours", 128, 8 },
		{ "unsafe_shutdowns", 144, 8 }, { "media_errors", 160, 8 },
		{ "num_err_log_entries", 176, 8 }, { "warning_temp_time", 192, 4 },
		{ "critical_comp_time", 196, 4 }, { "temperature_sensor_1", 200, 2 },
		{ "temperature_sensor_2", 202, 2 }, { "thm_temp1_trans_count", 216, 4 },
		{ "thm_temp2_trans_count", 220, 4 }, { "thm_temp1_total_time", 224, 4 },
		{ "thm_temp2_total_time", 228, 4 },
	};
	struct json_object *o = json_tokener_parse(doc), *v;
	size_t i;

	memset(log, 0, 512);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return 0;
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (json_object_object_get_ex(o, f[i].key, &v))
			page_put(log, f[i].at, f[i].n, (uint64_t)json_object_get_int64(v));
	json_object_put(o);
	return 1;
}

#endif
