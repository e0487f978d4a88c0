// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: the drive-health reader (smart.h).  The parse keeps the sh
 * reader's rules (scripts/lib/smart.sh, smart_parse) on the same
 * documents: smartctl's JSON flattened to "path value" pairs, and the
 * health log's fields under the names nvme-cli's smart-log gives them.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "str.h"
#include "conf.h"
#include "dev.h"
#include "drive.h"
#include "out.h"
#include "smart.h"

const char *const smart_keys[SK_N] = {
	"source", "health", "why", "critical", "wear_pct", "spare_pct", "spare_threshold_pct",
	"media_errors", "unsafe_shutdowns", "power_on_hours", "temperature_c",
	"warning_temp_minutes", "critical_temp_minutes", "throttle_count", "throttle_seconds",
};

/* ---- a document as "path value" pairs (smart.sh's json_flat) ---------- */
struct kv {
	char **k, **v;
	size_t n, cap;
};

static void kv_add(struct kv *m, const char *k, const char *v)
{
	if (m->n == m->cap) {
		size_t c = m->cap ? m->cap * 2 : 32;
		char **nk = realloc(m->k, c * sizeof(*nk)), **nv;

		if (!nk)
			die(EX_FAILED, "out of memory");
		m->k = nk;
		nv = realloc(m->v, c * sizeof(*nv));
		if (!nv)
			die(EX_FAILED, "out of memory");
		m->v = nv;
		m->cap = c;
	}
	m->k[m->n] = xstrdup(k);
	m->v[m->n] = xstrdup(v);
	m->n++;
}

static void kv_free(struct kv *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->k[i]);
		free(m->v[i]);
	}
	free(m->k);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* the value of K (the last one set, as awk's array keeps); NULL if none */
static const char *kv_get(const struct kv *m, const char *k)
{
	size_t i;

	for (i = m->n; i-- > 0;)
		if (!strcmp(m->k[i], k))
			return m->v[i];
	return NULL;
}

static const char *kv_str(const struct kv *m, const char *k)
{
	const char *v = kv_get(m, k);

	return v ? v : "";
}

static void flatten(struct kv *m, struct json_object *o, char *path, size_t plen, int depth)
{
	size_t at = strlen(path);

	if (depth > 64)
		return;
	switch (json_object_get_type(o)) {
	case json_type_object: {
		json_object_object_foreach(o, key, val) {
			snprintf(path + at, plen - at, "%s%s", at ? "." : "", key);
			flatten(m, val, path, plen, depth + 1);
			path[at] = 0;
		}
		break;
	}
	case json_type_array: {
		size_t i, n = json_object_array_length(o);

		for (i = 0; i < n; i++) {
			snprintf(path + at, plen - at, "[%zu]", i);
			flatten(m, json_object_array_get_idx(o, i), path, plen, depth + 1);
			path[at] = 0;
		}
		break;
	}
	case json_type_string:
		kv_add(m, path, json_object_get_string(o));
		break;
	case json_type_null:
		kv_add(m, path, "null");
		break;
	default:
		kv_add(m, path, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		break;
	}
}

/*
 * json_flat: DOC's scalars into M, then "#complete 1": only a whole
 * document, one and nothing after it (a tool killed mid-way printed none)
 */
static void json_flat(struct kv *m, const char *doc, size_t len)
{
	struct json_tokener *t;
	struct json_object *o;
	char path[1024] = "";
	size_t end;

	if (!doc || !len || len > INT_MAX)
		return;
	t = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	if (!t)
		return;
	o = json_tokener_parse_ex(t, doc, (int)len);
	if (!o || json_tokener_get_error(t) != json_tokener_success) {
		json_object_put(o);
		json_tokener_free(t);
		return;
	}
	end = json_tokener_get_parse_end(t);
	json_tokener_free(t);
	for (; end < len; end++)
		if (!strchr(" \t\r\n", doc[end])) {
			json_object_put(o);
			return;
		}
	flatten(m, o, path, sizeof(path), 0);
	json_object_put(o);
	kv_add(m, "#complete", "1");
}

/* ---- the health log page (NVMe base specification, Figure "SMART /
 * Health Information Log Page"), little-endian ------------------------- */
static uint64_t le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* a 128-bit counter: its low 64 bits (the high ones are 0 on any drive
 * for a long while yet; a value beyond says as much as the low) */
static void kv_num(struct kv *m, const char *k, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	kv_add(m, k, b);
}

/* log_nvmecli: LOG's fields under nvme-cli's smart-log names */
static void log_nvmecli(struct kv *m, const unsigned char *log)
{
	kv_num(m, "critical_warning", log[0]);
	kv_num(m, "temperature", le(log + 1, 2));
	kv_num(m, "avail_spare", log[3]);
	kv_num(m, "spare_thresh", log[4]);
	kv_num(m, "percent_used", log[5]);
	kv_num(m, "power_on_hours", le(log + 128, 8));
	kv_num(m, "unsafe_shutdowns", le(log + 144, 8));
	kv_num(m, "media_errors", le(log + 160, 8));
	kv_num(m, "warning_temp_time", le(log + 192, 4));
	kv_num(m, "critical_comp_time", le(log + 196, 4));
	kv_num(m, "thm_temp1_trans_count", le(log + 216, 4));
	kv_num(m, "thm_temp2_trans_count", le(log + 220, 4));
	kv_num(m, "thm_temp1_total_time", le(log + 224, 4));
	kv_num(m, "thm_temp2_total_time", le(log + 228, 4));
	kv_add(m, "#complete", "1");
}

/* log_smartctl: LOG as smartctl's NVMe document has it (Celsius) */
static void log_smartctl(struct kv *m, const unsigned char *log)
{
	const char *h = "nvme_smart_health_information_log.";
	char k[96];
	long t = (long)le(log + 1, 2) - 273;

#define H(name, v) do { snprintf(k, sizeof(k), "%s%s", h, name); kv_num(m, k, v); } while (0)
	kv_add(m, "smartctl.exit_status", "0");
	H("critical_warning", log[0]);
	snprintf(k, sizeof(k), "%stemperature", h);
	{
		char b[24];

		snprintf(b, sizeof(b), "%ld", t);
		kv_add(m, k, b);
	}
	H("available_spare", log[3]);
	H("available_spare_threshold", log[4]);
	H("percentage_used", log[5]);
	H("power_on_hours", le(log + 128, 8));
	H("unsafe_shutdowns", le(log + 144, 8));
	H("media_errors", le(log + 160, 8));
	H("warning_temp_time", le(log + 192, 4));
	H("critical_comp_time", le(log + 196, 4));
#undef H
	kv_add(m, "#complete", "1");
}

/* ---- the rules (smart.sh's smart_parse awk, line for line) ------------- */
static bool num(const char *x)
{
	if (!x || !*x)
		return false;
	for (; *x; x++)
		if (*x < '0' || *x > '9')
			return false;
	return true;
}

/* awk's string to number: the leading number, 0 if none */
static long long anum(const char *x)
{
	return x ? strtoll(x, NULL, 10) : 0;
}

/* add: WHAT to the words of WHY (LEN bytes), after a comma; cut at LEN */
static void add(char *why, size_t len, const char *what)
{
	size_t n = strlen(why), w;

	if (n && n + 2 < len) {
		memcpy(why + n, ", ", 2);
		n += 2;
	}
	w = strlen(what);
	if (n + w >= len)
		w = len - n - 1;
	memcpy(why + n, what, w);
	why[n + w] = 0;
}

static void setv(struct smart_rec *r, enum smart_key k, const char *v)
{
	cpy(r->v[k], sizeof(r->v[k]), v ? v : "");
}

static void setn(struct smart_rec *r, enum smart_key k, long long v)
{
	snprintf(r->v[k], sizeof(r->v[k]), "%lld", v);
}

static void strip_pct(char *s)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '%')
		s[n - 1] = 0;
}

void smart_unknown(struct smart_rec *r)
{
	memset(r, 0, sizeof(*r));
	setv(r, SK_SOURCE, "none");
	setv(r, SK_HEALTH, "unknown");
}

static void parse_maps(struct kv *sc, struct kv *nv, const struct smart_cfg *c, struct smart_rec *r)
{
	static const char h[] = "nvme_smart_health_information_log.";
	char k[128], src[32] = "", why[256] = "", b[300];
	const char *es, *x;
	bool sc_nvme, nv_crit;
	long long cr;
	size_t i;

#define HK(name) (snprintf(k, sizeof(k), "%s%s", h, name), k)
	/* newer nvme-cli: "critical_warning": {"value": N, ...} */
	x = kv_get(nv, "critical_warning.value");
	if (x)
		kv_add(nv, "critical_warning", x);
	es = kv_get(sc, "smartctl.exit_status");
	if (!strcmp(kv_str(sc, "#complete"), "1") && num(es) && anum(es) % 4 == 0 &&
	    (kv_get(sc, HK("critical_warning")) || kv_get(sc, "smart_status.passed")))
		snprintf(src, sizeof(src), "smartctl");
	if (strcmp(kv_str(nv, "#complete"), "1"))
		kv_free(nv);
	nv_crit = kv_get(nv, "critical_warning") != NULL;
	if (nv_crit)
		snprintf(src + strlen(src), sizeof(src) - strlen(src), "%snvme-cli", *src ? "+" : "");
	memset(r, 0, sizeof(*r));
	if (!*src) {
		smart_unknown(r);
		return;
	}
	sc_nvme = kv_get(sc, HK("critical_warning")) != NULL;
	if (sc_nvme) {
		setv(r, SK_CRITICAL, kv_get(sc, HK("critical_warning")));
		setv(r, SK_WEAR, kv_get(sc, HK("percentage_used")));
		setv(r, SK_SPARE, kv_get(sc, HK("available_spare")));
		setv(r, SK_SPARE_T, kv_get(sc, HK("available_spare_threshold")));
		setv(r, SK_MEDIA, kv_get(sc, HK("media_errors")));
		setv(r, SK_UNSAFE, kv_get(sc, HK("unsafe_shutdowns")));
		setv(r, SK_POH, kv_get(sc, HK("power_on_hours")));
		setv(r, SK_TEMP, kv_get(sc, HK("temperature")));
		setv(r, SK_WTIME, kv_get(sc, HK("warning_temp_time")));
		setv(r, SK_CTIME, kv_get(sc, HK("critical_comp_time")));
	} else if (kv_get(sc, "smart_status.passed")) {
		/* ATA / SCSI: the overall self-assessment, and what attributes say */
		setv(r, SK_CRITICAL, strcmp(kv_str(sc, "smart_status.passed"), "false") ? "0" : "1");
		setv(r, SK_TEMP, kv_get(sc, "temperature.current"));
		setv(r, SK_POH, kv_get(sc, "power_on_time.hours"));
		for (i = 0; i < sc->n; i++) {
			const char *p = sc->k[i];
			size_t pl;
			long long id;

			if (strncmp(p, "ata_smart_attributes.table[", 27))
				continue;
			pl = strspn(p + 27, "0123456789");
			if (!pl || strcmp(p + 27 + pl, "].id"))
				continue;
			pl = 27 + pl + 2;	/* "...table[N]." */
			id = anum(sc->v[i]);
#define ATTR(sub) (snprintf(k, sizeof(k), "%.*s%s", (int)pl, p, sub), kv_str(sc, k))
			if (id == 187)
				setv(r, SK_MEDIA, ATTR("raw.value"));
			if (id == 174 || id == 192)
				setv(r, SK_UNSAFE, ATTR("raw.value"));
			/* wear: SSD_Life_Left, Media_Wearout_Indicator,
			 * Wear_Leveling_Count, Percent_Lifetime_Remain
			 * (normalized, 100 = new) */
			if ((id == 231 || id == 233 || id == 177 || id == 202) && !*r->v[SK_WEAR])
				setn(r, SK_WEAR, 100 - anum(ATTR("value")));
#undef ATTR
		}
	}
	/* the health log (nvme-cli's): everything when smartctl has none,
	 * the thermal counters always */
	if (nv_crit) {
		if (!*r->v[SK_CRITICAL]) {
			setv(r, SK_CRITICAL, kv_get(nv, "critical_warning"));
			setv(r, SK_WEAR, kv_get(nv, "percent_used"));
			setv(r, SK_SPARE, kv_get(nv, "avail_spare"));
			setv(r, SK_SPARE_T, kv_get(nv, "spare_thresh"));
			setv(r, SK_MEDIA, kv_get(nv, "media_errors"));
			setv(r, SK_UNSAFE, kv_get(nv, "unsafe_shutdowns"));
			setv(r, SK_POH, kv_get(nv, "power_on_hours"));
			if (num(kv_get(nv, "temperature")))
				setn(r, SK_TEMP, anum(kv_get(nv, "temperature")) - 273);
			setv(r, SK_WTIME, kv_get(nv, "warning_temp_time"));
			setv(r, SK_CTIME, kv_get(nv, "critical_comp_time"));
		}
		if (num(kv_get(nv, "thm_temp1_trans_count")))
			setn(r, SK_TCOUNT, anum(kv_get(nv, "thm_temp1_trans_count")) +
			     anum(kv_get(nv, "thm_temp2_trans_count")));
		if (num(kv_get(nv, "thm_temp1_total_time")))
			setn(r, SK_TSECS, anum(kv_get(nv, "thm_temp1_total_time")) +
			     anum(kv_get(nv, "thm_temp2_total_time")));
	}
	/* nvme-cli 2.x may print percentages as "100%" */
	strip_pct(r->v[SK_WEAR]);
	strip_pct(r->v[SK_SPARE]);
	strip_pct(r->v[SK_SPARE_T]);
	setv(r, SK_HEALTH, "ok");
	cr = anum(r->v[SK_CRITICAL]);
	if (num(r->v[SK_CRITICAL]) && cr > 0) {
		setv(r, SK_HEALTH, "critical");
		if (sc_nvme || nv_crit) {
			if (cr % 2 >= 1)
				add(why, sizeof(why), "spare below threshold");
			if (cr % 4 >= 2)
				add(why, sizeof(why), "temperature out of range");
			if (cr % 8 >= 4)
				add(why, sizeof(why), "reliability degraded");
			if (cr % 16 >= 8)
				add(why, sizeof(why), "media read-only");
			if (cr % 32 >= 16)
				add(why, sizeof(why), "volatile memory backup failed");
			if (cr % 64 >= 32)
				add(why, sizeof(why), "persistent memory region unreliable");
			if (cr >= 64)
				add(why, sizeof(why), "unknown critical warning");
		} else {
			add(why, sizeof(why), "drive self-assessment failed");
		}
	}
	if (num(r->v[SK_WEAR]) && anum(r->v[SK_WEAR]) >= c->wear_warn) {
		snprintf(b, sizeof(b), "wear %s%%", r->v[SK_WEAR]);
		add(why, sizeof(why), b);
	}
	/* a threshold of 0: the drive does not report its spare (QEMU) */
	if (num(r->v[SK_SPARE]) && num(r->v[SK_SPARE_T]) && anum(r->v[SK_SPARE_T]) > 0 &&
	    cr % 2 < 1 && anum(r->v[SK_SPARE]) <= anum(r->v[SK_SPARE_T]) + c->spare_margin) {
		char s[600];

		snprintf(s, sizeof(s), "spare %s%% near threshold %s%%", r->v[SK_SPARE], r->v[SK_SPARE_T]);
		add(why, sizeof(why), s);
	}
	if (num(r->v[SK_MEDIA]) && anum(r->v[SK_MEDIA]) > 0) {
		char s[600];

		snprintf(s, sizeof(s), "%s media error%s", r->v[SK_MEDIA],
			 anum(r->v[SK_MEDIA]) == 1 ? "" : "s");
		add(why, sizeof(why), s);
	}
	if (!strcmp(r->v[SK_HEALTH], "ok") && *why)
		setv(r, SK_HEALTH, "warning");
	setv(r, SK_SOURCE, src);
	setv(r, SK_WHY, why);
#undef HK
}

void smart_parse(const char *sc, size_t sclen, const unsigned char *log,
		 const struct smart_cfg *c, struct smart_rec *r)
{
	struct kv s = { 0 }, n = { 0 };

	json_flat(&s, sc, sclen);
	if (log)
		log_nvmecli(&n, log);
	parse_maps(&s, &n, c, r);
	kv_free(&s);
	kv_free(&n);
}

void smart_parse_log(const unsigned char *log, const struct smart_cfg *c, struct smart_rec *r)
{
	struct kv s = { 0 }, n = { 0 };

	log_smartctl(&s, log);
	log_nvmecli(&n, log);
	parse_maps(&s, &n, c, r);
	kv_free(&s);
	kv_free(&n);
}

/* ---- the record as text (the cache file) ------------------------------ */
void smart_rec_text(const struct smart_rec *r, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < SK_N && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s=%s\n", smart_keys[i], r->v[i]);
}

void smart_rec_load(const char *text, struct smart_rec *r)
{
	const char *l = text, *e, *eq;
	int i;

	memset(r, 0, sizeof(*r));
	setv(r, SK_SOURCE, "none");
	setv(r, SK_HEALTH, "unknown");
	for (; *l; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (!e)
			e = l + strlen(l);
		eq = memchr(l, '=', (size_t)(e - l));
		if (!eq)
			eq = e;
		for (i = 0; i < SK_N; i++)
			if (strlen(smart_keys[i]) == (size_t)(eq - l) &&
			    !strncmp(l, smart_keys[i], (size_t)(eq - l))) {
				size_t vl = eq < e ? (size_t)(e - eq - 1) : 0;

				if (vl >= sizeof(r->v[i]))
					vl = sizeof(r->v[i]) - 1;
				if (vl)
					memcpy(r->v[i], eq + 1, vl);
				r->v[i][vl] = 0;
			}
	}
}

/* ---- configuration ----------------------------------------------------- */
const struct smart_cfg *smart_config(void)
{
	static struct smart_cfg c;
	static bool done;
	static const struct {
		const char *name;
		long def;
	} k[] = { { "CACHE", 60 }, { "WEAR_WARN", 90 }, { "SPARE_MARGIN", 10 } };
	long *dst[] = { &c.cache, &c.wear_warn, &c.spare_margin };
	char env[64], v[256];
	struct conf file;
	size_t i;

	if (done)
		return &c;
	done = true;
	conf_warn_once();
	if (!conf_scan(conf_path(), &file))
		memset(&file, 0, sizeof(file));
	for (i = 0; i < 3; i++) {
		const char *e;

		snprintf(env, sizeof(env), "SSDSTRIPE_SMART_%s", k[i].name);
		e = getenv(env);
		if (e && *e) {
			cpy(v, sizeof(v), e);
		} else {
			char *cv;

			snprintf(env, sizeof(env), "SMART_%s", k[i].name);
			cv = conf_value(&file, env);
			cpy(v, sizeof(v), cv);
			free(cv);
		}
		if (!*v) {
			*dst[i] = k[i].def;
		} else if (!num(v) || strlen(v) > 12) {
			if (!num(v))
				fprintf(stderr, "ssdstripe: SMART_%s '%s' is not a number: using %ld\n",
					k[i].name, v, k[i].def);
			*dst[i] = k[i].def;
		} else {
			*dst[i] = (long)anum(v);
		}
	}
	conf_free(&file);
	return &c;
}

/* ---- the reader, with its cache ---------------------------------------- */
static long uptime_s(void)
{
	FILE *f = fopen("/proc/uptime", "re");
	double u = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lf", &u) != 1)
		u = 0;
	fclose(f);
	return (long)u;
}

static void cache_dir(char *d, size_t len)
{
	const char *r = getenv("SSDSTRIPE_RUNDIR");

	snprintf(d, len, "%s/smart", r && *r ? r : "/run/ssdstripe");
}

/* cache_get: the record cached for DISK at most MAXAGE s ago, at NOW */
static bool cache_get(const char *file, long now, long maxage, struct smart_rec *r)
{
	char text[8192];
	size_t n;
	FILE *f = fopen(file, "re");
	const char *at;
	char *nl;

	if (!f)
		return false;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	if (strncmp(text, "at=", 3))
		return false;
	nl = strchr(text, '\n');
	if (!nl)
		return false;
	*nl = 0;
	at = text + 3;
	if (!num(at) || strlen(at) > 18)
		return false;
	if (!(now - anum(at) < maxage && anum(at) <= now))
		return false;
	/* at least a line after at= (smart.sh's rule) */
	if (!nl[1])
		return false;
	smart_rec_load(nl + 1, r);
	return true;
}

static void cache_put(const char *dir, const char *file, long now, const struct smart_rec *r)
{
	char tmp[PATH_MAX], text[8192];
	FILE *f;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		/* its parent too (mkdir -p) */
		char p[PATH_MAX], *s;

		cpy(p, sizeof(p), dir);
		for (s = p + 1; *s; s++)
			if (*s == '/') {
				*s = 0;
				mkdir(p, 0755);
				*s = '/';
			}
		if (mkdir(dir, 0755) && errno != EEXIST)
			return;
	}
	if (!pathf(tmp, sizeof(tmp), "%s.%ld", file, (long)getpid()))
		return;
	f = fopen(tmp, "we");
	if (!f)
		return;
	smart_rec_text(r, text, sizeof(text));
	fprintf(f, "at=%ld\n%s", now, text);
	if (fclose(f) || rename(tmp, file))
		unlink(tmp);
}

/* ask: the record of the drive at NODE, asked now */
static void ask(const char *node, const struct smart_cfg *c, struct smart_rec *r)
{
	const char *b = strrchr(node, '/');
	unsigned char log[NVME_LOG_LEN];
	size_t len = 0;
	char *doc;

	b = b ? b + 1 : node;
	if (!strncmp(b, "nvme", 4) && drive_nvme_log(node, log)) {
		smart_parse_log(log, c, r);
		return;
	}
	/* SATA, SCSI; an NVMe drive whose log the kernel would not read */
	doc = drive_smartctl(node, &len);
	smart_parse(doc, len, NULL, c, r);
	free(doc);
}

void smart_read(const char *name, struct smart_rec *r)
{
	const struct smart_cfg *c = smart_config();
	char node[PATH_MAX], dir[PATH_MAX], file[PATH_MAX];
	const char *b;
	long now;

	smart_unknown(r);
	if (!drive_node(name, node, sizeof(node)))
		return;
	b = strrchr(node, '/');
	b = b ? b + 1 : node;
	cache_dir(dir, sizeof(dir));
	if (!pathf(file, sizeof(file), "%s/%s", dir, b))
		return;
	now = uptime_s();
	if (c->cache > 0 && cache_get(file, now, c->cache, r))
		return;
	ask(node, c, r);
	/* a cache that cannot be written only costs a drive query */
	if (c->cache > 0)
		cache_put(dir, file, now, r);
}
