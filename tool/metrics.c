// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the monitor's Prometheus textfile (metrics.h), from the
 * arrays' sysfs and the members' records (member.c), in the order and
 * words of scripts/lib/array.sh's ARRAY_FIELDS and member.sh's
 * MEMBER_FIELDS, which wrote it in the sh tool.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "dev.h"
#include "dm.h"
#include "member.h"
#include "metrics.h"
#include "out.h"
#include "str.h"

/*
 * how a value is written: as is, sectors as bytes, microseconds and
 * milliseconds as seconds, minutes and hours as seconds (no sample when
 * empty), opt as is (no sample when empty), one sample per state word
 */
enum unit { U_ASIS, U_BYTES, U_SECONDS, U_MS, U_MINUTES, U_HOURS, U_OPT, U_STATES };

enum afield { AF_STATE, AF_COUNT, AF_CHUNK, AF_SIZE, AF_N };

static const struct metric {
	const char *name, *type;
	enum unit unit;
	const char *states;	/* U_STATES: the words */
	int field;		/* an afield (array metrics) or an mfield; -1 none */
	const char *help;
} ARRAY_M[] = {
	{ "ssdstripe_array_state", "gauge", U_STATES, "optimal,slow,erroring,stalled,failed", AF_STATE,
	  "Array state (optimal, slow, erroring, stalled, failed): 1 for the current one, 0 for the others." },
	{ "ssdstripe_array_members", "gauge", U_ASIS, NULL, AF_COUNT, "Number of members of the array." },
	{ "ssdstripe_array_chunk_bytes", "gauge", U_BYTES, NULL, AF_CHUNK,
	  "Chunk (stripe unit) size of the array in bytes." },
	{ "ssdstripe_array_size_bytes", "gauge", U_BYTES, NULL, AF_SIZE, "Size of the array in bytes." },
}, REPLACE_M = { "ssdstripe_replace_progress_ratio", "gauge", U_ASIS, NULL, -1,
	  "Share of a member's data a replace in progress has copied onto its new drive (0 to 1); no sample without one." },
INFO_M = { "ssdstripe_member_info", "gauge", U_ASIS, NULL, -1,
	   "Member identity, value 1: kernel device name, model, serial and firmware revision as the drive reports them." },
MEMBER_M[] = {
	{ "ssdstripe_member_state", "gauge", U_STATES, "ok,slow,erroring,stalled,failed", MF_STATE,
	  "Member state (ok, slow, erroring, stalled, failed): 1 for the current one, 0 for the others." },
	{ "ssdstripe_member_reads_total", "counter", U_ASIS, NULL, MF_READ_IOS, "Read requests sent to the member (read_ios)." },
	{ "ssdstripe_member_writes_total", "counter", U_ASIS, NULL, MF_WRITE_IOS, "Write requests sent to the member (write_ios)." },
	{ "ssdstripe_member_flushes_total", "counter", U_ASIS, NULL, MF_FLUSH_IOS, "Flush requests sent to the member (flush_ios)." },
	{ "ssdstripe_member_discards_total", "counter", U_ASIS, NULL, MF_DISCARD_IOS,
	  "Discard requests sent to the member (discard_ios)." },
	{ "ssdstripe_member_write_zeroes_total", "counter", U_ASIS, NULL, MF_WZ_IOS,
	  "Write-zeroes requests sent to the member (write_zeroes_ios)." },
	{ "ssdstripe_member_read_bytes_total", "counter", U_BYTES, NULL, MF_READ_SECT, "Bytes read from the member (read_sectors)." },
	{ "ssdstripe_member_written_bytes_total", "counter", U_BYTES, NULL, MF_WRITE_SECT,
	  "Bytes written to the member (write_sectors)." },
	{ "ssdstripe_member_discarded_bytes_total", "counter", U_BYTES, NULL, MF_DISCARD_SECT,
	  "Bytes discarded on the member (discard_sectors)." },
	{ "ssdstripe_member_zeroed_bytes_total", "counter", U_BYTES, NULL, MF_WZ_SECT,
	  "Bytes zeroed on the member by write-zeroes requests (write_zeroes_sectors)." },
	{ "ssdstripe_member_errors_total", "counter", U_ASIS, NULL, MF_ERRORS,
	  "I/O errors of the member, every operation (errors); kept until cleared." },
	{ "ssdstripe_member_read_errors_total", "counter", U_ASIS, NULL, MF_READ_ERR, "Read errors of the member (read_errors)." },
	{ "ssdstripe_member_write_errors_total", "counter", U_ASIS, NULL, MF_WRITE_ERR, "Write errors of the member (write_errors)." },
	{ "ssdstripe_member_flush_errors_total", "counter", U_ASIS, NULL, MF_FLUSH_ERR, "Flush errors of the member (flush_errors)." },
	{ "ssdstripe_member_discard_errors_total", "counter", U_ASIS, NULL, MF_DISCARD_ERR,
	  "Discard errors of the member (discard_errors)." },
	{ "ssdstripe_member_write_zeroes_errors_total", "counter", U_ASIS, NULL, MF_WZ_ERR,
	  "Write-zeroes errors of the member (write_zeroes_errors)." },
	{ "ssdstripe_member_retries_total", "counter", U_ASIS, NULL, MF_RETRIES,
	  "Requests the member completed as retry or would-block, not counted as errors (retries)." },
	{ "ssdstripe_member_inflight", "gauge", U_ASIS, NULL, MF_INFLIGHT, "Requests in flight on the member." },
	{ "ssdstripe_member_latency_seconds", "gauge", U_SECONDS, NULL, MF_LATENCY, "Recent mean completion latency of the member." },
	{ "ssdstripe_member_waiting_seconds", "gauge", U_MS, NULL, MF_WAITING,
	  "How long reads or writes have waited on the member with none completing (0 while it completes I/O); stalled from stall_ms on." },
	{ "ssdstripe_member_stalls_total", "counter", U_ASIS, NULL, MF_STALLS,
	  "Times the member stalled: reads or writes waited stall_ms with none completing (stalls)." },
	{ "ssdstripe_member_temperature_celsius", "gauge", U_OPT, NULL, MF_TEMP,
	  "Drive temperature from hwmon, where the kernel has one." },
	{ "ssdstripe_member_drive_health", "gauge", U_STATES, "ok,warning,critical,unknown", MF_DRIVE,
	  "Health the member's drive reports about itself (SMART): 1 for the current word, 0 for the others." },
	{ "ssdstripe_member_drive_critical_warning", "gauge", U_OPT, NULL, MF_DRIVE_CRIT,
	  "NVMe critical-warning bits the drive sets (0: none; SATA: 1 when its self-assessment failed)." },
	{ "ssdstripe_member_drive_percentage_used", "gauge", U_OPT, NULL, MF_DRIVE_WEAR,
	  "Share of its rated endurance the drive says it has used, in percent (may pass 100)." },
	{ "ssdstripe_member_drive_available_spare", "gauge", U_OPT, NULL, MF_DRIVE_SPARE,
	  "Spare flash the drive has left, in percent." },
	{ "ssdstripe_member_drive_available_spare_threshold", "gauge", U_OPT, NULL, MF_DRIVE_SPARE_T,
	  "Spare level under which the drive raises its own critical warning, in percent (0: not reported)." },
	{ "ssdstripe_member_drive_media_errors_total", "counter", U_OPT, NULL, MF_DRIVE_MEDIA,
	  "Media and data integrity errors the drive reports: data it could not recover." },
	{ "ssdstripe_member_drive_unsafe_shutdowns_total", "counter", U_OPT, NULL, MF_DRIVE_UNSAFE,
	  "Power losses without a clean shutdown the drive counted." },
	{ "ssdstripe_member_drive_power_on_seconds_total", "counter", U_HOURS, NULL, MF_DRIVE_POH,
	  "Time the drive has been powered on, over its life." },
	{ "ssdstripe_member_drive_temperature_celsius", "gauge", U_OPT, NULL, MF_DRIVE_TEMP,
	  "Temperature the drive reports in its health log." },
	{ "ssdstripe_member_drive_warning_temperature_seconds_total", "counter", U_MINUTES, NULL, MF_DRIVE_WTIME,
	  "Time the drive spent above its warning temperature." },
	{ "ssdstripe_member_drive_critical_temperature_seconds_total", "counter", U_MINUTES, NULL, MF_DRIVE_CTIME,
	  "Time the drive spent above its critical temperature." },
	{ "ssdstripe_member_drive_thermal_throttles_total", "counter", U_OPT, NULL, MF_DRIVE_TCOUNT,
	  "Times the drive slowed itself down to cool off (NVMe thermal management, TMT1 + TMT2)." },
	{ "ssdstripe_member_drive_thermal_throttle_seconds_total", "counter", U_OPT, NULL, MF_DRIVE_TSECS,
	  "Time the drive spent slowed down to cool off (NVMe thermal management, TMT1 + TMT2)." },
};

#define NA (sizeof(ARRAY_M) / sizeof(ARRAY_M[0]))
#define NM (sizeof(MEMBER_M) / sizeof(MEMBER_M[0]))
/* the textfile's metrics in order: the array's, the replace's, the
 * member identity, the members' */
#define NALL (NA + 2 + NM)

/* the identity labels of ssdstripe_member_info, after member and serial */
static const struct {
	const char *label;
	enum mfield f;
} INFO_L[] = {
	{ "device", MF_DEV }, { "model", MF_MODEL }, { "firmware", MF_FW },
	{ "transport", MF_TRANSPORT }, { "address", MF_ADDRESS }, { "subsysnqn", MF_NQN },
};

/* esc: V as a Prometheus label value (\ " and a newline escaped) onto F */
static void esc(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", f);
		else if (*v == '"')
			fputs("\\\"", f);
		else if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* sample: the samples of M for value V, labelled L, onto F */
static void sample(FILE *f, const struct metric *m, const char *l, const char *v)
{
	long long n = strtoll(v, NULL, 10);
	const char *s, *e;

	switch (m->unit) {
	case U_STATES:
		for (s = m->states; *s; s = *e ? e + 1 : e) {
			e = s + strcspn(s, ",");
			fprintf(f, "%s{%s,state=\"%.*s\"} %d\n", m->name, l, (int)(e - s), s,
				strlen(v) == (size_t)(e - s) && !strncmp(v, s, (size_t)(e - s)));
		}
		return;
	case U_MINUTES:
	case U_HOURS:
		if (*v)
			fprintf(f, "%s{%s} %lld\n", m->name, l, n * (m->unit == U_MINUTES ? 60 : 3600));
		return;
	case U_BYTES:
		fprintf(f, "%s{%s} %lld\n", m->name, l, n * 512);
		return;
	case U_SECONDS:
		fprintf(f, "%s{%s} %lld.%06lld\n", m->name, l, n / 1000000, n % 1000000);
		return;
	case U_MS:
		fprintf(f, "%s{%s} %lld.%03lld\n", m->name, l, n / 1000, n % 1000);
		return;
	case U_OPT:
		if (*v)
			fprintf(f, "%s{%s} %s\n", m->name, l, v);
		return;
	case U_ASIS:
		fprintf(f, "%s{%s} %s\n", m->name, l, v);
		return;
	}
}

static FILE *mstream(char **s, size_t *l)
{
	FILE *f = open_memstream(s, l);

	if (!f)
		die(EX_FAILED, "out of memory");
	return f;
}

/* the samples of one metric, gathered while the arrays are read */
struct body {
	char *s;
	size_t l;
	FILE *f;
};

/* one_array: the samples of active array NAME into B (by metric: the
 * array's, the replace's, the identity, the members'); false when it has
 * no statistics directory or its state cannot be read */
static bool one_array(const char *name, metrics_replace_fn rep, struct body *b)
{
	char *d = dm_sysdir(name), *sys, *al, *ml, *il, uuid[64], v[AF_N][64], pct[24];
	size_t al_len, ml_len, il_len, n = 0, i, k;
	char **states = NULL;
	struct stat st;
	FILE *f;
	long rm;

	if (!d)
		return false;
	sys = xasprintf("%s/ssdstripe", d);
	free(d);
	if (stat(sys, &st) || !S_ISDIR(st.st_mode) || !array_snapshot(sys, &states, &n)) {
		free(sys);
		return false;
	}
	cpy(v[AF_STATE], sizeof(v[AF_STATE]), array_state_of(states, n));
	if (!attr_at(sys, "member_count", v[AF_COUNT], sizeof(v[AF_COUNT])))
		*v[AF_COUNT] = 0;
	if (!attr_at(sys, "chunk_sectors", v[AF_CHUNK], sizeof(v[AF_CHUNK])))
		*v[AF_CHUNK] = 0;
	if (!attr_at(sys, "../size", v[AF_SIZE], sizeof(v[AF_SIZE])))
		*v[AF_SIZE] = 0;
	array_uuid(name, uuid, sizeof(uuid));
	f = mstream(&al, &al_len);
	fputs("array=\"", f);
	esc(f, name);
	fputs("\",uuid=\"", f);
	esc(f, uuid);
	fputc('"', f);
	fclose(f);
	for (k = 0; k < NA; k++)
		sample(b[k].f, &ARRAY_M[k], al, v[ARRAY_M[k].field]);
	if (rep && rep(name, &rm, pct, sizeof(pct))) {
		long p = strtol(pct, NULL, 10);

		fprintf(b[NA].f, "%s{%s,member=\"%ld\"} %ld.%02ld\n", REPLACE_M.name, al, rm, p / 100, p % 100);
	}
	for (i = 0; i < n; i++) {
		struct member *m = xmalloc(sizeof(*m));

		/* as the sh monitor read them: no labels (no recorded drives) */
		member_read(sys, (unsigned int)i, states[i], NULL, NULL, m);
		f = mstream(&ml, &ml_len);
		fprintf(f, "%s,member=\"", al);
		esc(f, m->v[MF_INDEX]);
		fputs("\",serial=\"", f);
		esc(f, m->v[MF_SERIAL]);
		fputc('"', f);
		fclose(f);
		f = mstream(&il, &il_len);
		for (k = 0; k < sizeof(INFO_L) / sizeof(INFO_L[0]); k++) {
			fprintf(f, ",%s=\"", INFO_L[k].label);
			esc(f, m->v[INFO_L[k].f]);
			fputc('"', f);
		}
		fclose(f);
		fprintf(b[NA + 1].f, "%s{%s%s} 1\n", INFO_M.name, ml, il);
		for (k = 0; k < NM; k++)
			sample(b[NA + 2 + k].f, &MEMBER_M[k], ml, m->v[MEMBER_M[k].field]);
		free(ml);
		free(il);
		free(m);
	}
	free(al);
	states_free(states, n);
	free(sys);
	return true;
}

void metrics_text(FILE *out, metrics_replace_fn rep)
{
	struct body b[NALL];
	char **names;
	size_t n = 0, i, k;

	for (k = 0; k < NALL; k++)
		b[k].f = mstream(&b[k].s, &b[k].l);
	names = dm_arrays(&n);
	for (i = 0; names && i < n; i++)
		one_array(names[i], rep, b);
	names_free(names, n);
	for (k = 0; k < NALL; k++) {
		const struct metric *m = k < NA ? &ARRAY_M[k] : k == NA ? &REPLACE_M :
					 k == NA + 1 ? &INFO_M : &MEMBER_M[k - NA - 2];

		fclose(b[k].f);
		fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", m->name, m->help, m->name, m->type);
		fwrite(b[k].s, 1, b[k].l, out);
		free(b[k].s);
	}
}

const char *metrics_errstr(int e)
{
	/* dash's words for a file it could not create */
	if (e == ENOENT)
		return "Directory nonexistent";
	return strerror(e);
}

bool metrics_write(const char *path, metrics_replace_fn rep, char *why, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "we");
	int e;

	if (!f) {
		cpy(why, len, metrics_errstr(errno));
		free(tmp);
		return false;
	}
	metrics_text(f, rep);
	if (ferror(f) | fclose(f)) {
		cpy(why, len, strerror(errno ? errno : EIO));
		unlink(tmp);
		free(tmp);
		return false;
	}
	if (rename(tmp, path)) {
		e = errno;
		cpy(why, len, strerror(e));
		unlink(tmp);
		free(tmp);
		return false;
	}
	free(tmp);
	return true;
}
