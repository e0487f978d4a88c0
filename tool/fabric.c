// SPDX-License-Identifier: GPL-2.0-only
/*
 * ssdstripe: how a member is reached (fabric.h).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "str.h"
#include "dev.h"
#include "fabric.h"

/*
 * ctrl_of: the controller that serves the namespace: its device link
 * when that has a transport; a namespace of a multipath head (fabrics:
 * nvmet's subsystems are multi-controller) hangs below its subsystem,
 * whose controllers are links in it: the first live one, else the first
 */
static bool ctrl_of(const char *b, char *out, size_t len)
{
	char p[PATH_MAX], st[64];
	glob_t g;
	size_t i;
	bool found = false;

	out[0] = 0;
	if (!path_exists(b, "nsid"))
		return false;
	if (pathf(p, sizeof(p), "%s/device/transport", b) && !access(p, R_OK)) {
		char *r;

		pathf(p, sizeof(p), "%s/device", b);
		r = realpath(p, NULL);
		cpy(out, len, r ? r : p);
		free(r);
		return true;
	}
	if (!pathf(p, sizeof(p), "%s/device/nvme[0-9]*", b) || glob(p, 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc; i++) {
		if (!pathf(p, sizeof(p), "%s/transport", g.gl_pathv[i]) || access(p, R_OK))
			continue;
		if (!found) {
			cpy(out, len, g.gl_pathv[i]);
			found = true;
		}
		if (attr_at(g.gl_pathv[i], "state", st, sizeof(st)) && !strcmp(st, "live")) {
			cpy(out, len, g.gl_pathv[i]);
			break;
		}
	}
	globfree(&g);
	return found;
}

void fabric_address(const char *a, char *buf, size_t len)
{
	char addr[256] = "", svc[64] = "";
	const char *w = a, *e;

	if (!strstr(a, "traddr=")) {
		cpy(buf, len, a);
		return;
	}
	for (; *w; w = *e ? e + 1 : e) {
		size_t n;

		e = strchr(w, ',');
		if (!e)
			e = w + strlen(w);
		n = (size_t)(e - w);
		if (n >= 7 && !strncmp(w, "traddr=", 7))
			snprintf(addr, sizeof(addr), "%.*s", (int)(n - 7), w + 7);
		else if (n >= 8 && !strncmp(w, "trsvcid=", 8))
			snprintf(svc, sizeof(svc), "%.*s", (int)(n - 8), w + 8);
	}
	/* an IPv6 address (two colons or more) before a port */
	if (*svc && strchr(addr, ':') && strchr(strchr(addr, ':') + 1, ':'))
		snprintf(buf, len, "[%s]:%s", addr, svc);
	else
		snprintf(buf, len, "%s%s%s", addr, *svc ? ":" : "", svc);
}

bool fabric_of(const char *b, struct fabric *f)
{
	char a[512];
	const char *s;

	memset(f, 0, sizeof(*f));
	if (!ctrl_of(b, f->ctrl, sizeof(f->ctrl)))
		return false;
	s = strrchr(f->ctrl, '/');
	cpy(f->controller, sizeof(f->controller), s ? s + 1 : f->ctrl);
	attr_at(f->ctrl, "transport", f->transport, sizeof(f->transport));
	if (attr_at(f->ctrl, "address", a, sizeof(a)))
		fabric_address(a, f->address, sizeof(f->address));
	attr_at(f->ctrl, "subsysnqn", f->subsysnqn, sizeof(f->subsysnqn));
	attr_at(f->ctrl, "state", f->state, sizeof(f->state));
	return true;
}
