# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe config: the configuration file ($CONF, ssdstripe.conf(5)) read,
# checked line by line, and written from the active arrays.  The command
# is C now (tool/config.c, on tool/conf.c, which reads the file as this
# does); what is here serves the sh commands that read the file (monitor
# --config, the drive-health thresholds), and config's help stays here
# with every command's until the sh goes.  POSIX sh and awk only.

# The keywords, each as KEY:KIND[:DEFAULT].  KIND says what its value must
# be: names (BOOT: all, none or array names; lines add up), array (ARRAY:
# one NAME, name=NAME or uuid=UUID a line; lines add up), yesno, count (a
# whole number, 0 or more), seconds (a whole number, 1 or more), text (the
# rest of the line as written: a # in it is not a comment), path (an
# absolute path).  The others count once: their last line wins.
CONF_KEYS='BOOT:names ARRAY:array AUTO:yesno:yes TIMEOUT:count:30
MONITOR_EXEC:text MONITOR_EXEC_TIMEOUT:seconds:60 MONITOR_TEXTFILE:path
MONITOR_INTERVAL:seconds:10 SMART_CACHE:count:60 SMART_WEAR_WARN:count:90
SMART_SPARE_MARGIN:count:10'

# conf_kind KEY: CONF_KIND = KEY's kind in CONF_KEYS (empty: no keyword)
conf_kind() {
	local _ck
	CONF_KIND=''
	for _ck in $CONF_KEYS; do
		case $_ck in "$1":*) _ck=${_ck#*:}; CONF_KIND=${_ck%%:*}; return 0 ;; esac
	done
}

# conf_value KEY: the value of the last "KEY value..." line of the
# configuration file: the rest of the line, words and all, without its
# comment (a # after a blank) unless KEY's value is text
conf_value() {
	local _cv_t
	[ -r "$CONF" ] || return 0
	conf_kind "$1"
	_cv_t=0
	[ "$CONF_KIND" = text ] && _cv_t=1
	awk -v k="$1" -v text="$_cv_t" '$1 == k {
		sub(/^[[:space:]]*[^[:space:]]+[[:space:]]*/, "")
		if (!text) { sub(/(^|[[:space:]])#.*/, ""); sub(/[[:space:]]+$/, "") }
		v = $0
	} END { printf "%s", v }' "$CONF"
}

# conf_problems FILE: the problems of configuration FILE, one a line, as
# "line N: what is wrong: what is done instead"; nothing when it has none
conf_problems() {
	awk -v keys="$CONF_KEYS" '
	# lev A B: the edit distance of A and B (for "did you mean")
	function lev(a, b,   la, lb, i, j, c, t) {
		la = length(a); lb = length(b); split("", dd)
		for (j = 0; j <= lb; j++) dd[0, j] = j
		for (i = 1; i <= la; i++) {
			dd[i, 0] = i
			for (j = 1; j <= lb; j++) {
				c = dd[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1))
				t = dd[i - 1, j] + 1; if (t < c) c = t
				t = dd[i, j - 1] + 1; if (t < c) c = t
				dd[i, j] = c
			}
		}
		return dd[la, lb]
	}
	function suggest(w,   u, i, d, best, bd) {
		u = toupper(w)
		if (u in kind) return u
		bd = length(u) / 3 + 1
		for (i = 1; i <= nk; i++) {
			d = lev(u, name[i])
			if (d < bd) { bd = d; best = name[i] }
		}
		return best
	}
	function name_ok(w) {
		return w ~ /^[A-Za-z0-9_][A-Za-z0-9._-]*$/ && length(w) <= 64
	}
	function say(m) { printf "line %d: %s\n", NR, m }
	function hex(n,   r) { r = ""; while (n-- > 0) r = r "[0-9a-f]"; return r }
	BEGIN {
		uuid_re = "^uuid=" hex(8) "-" hex(4) "-" hex(4) "-" hex(4) "-" hex(12) "$"
		nk = split(keys, kk, /[[:space:]]+/)
		for (i = 1; i <= nk; i++) {
			split(kk[i], f, ":"); name[i] = f[1]; kind[f[1]] = f[2]; dflt[f[1]] = f[3]
		}
	}
	{
		l = $0
		sub(/^[[:space:]]+/, "", l)
		if (l == "" || l ~ /^#/) next
		key = $1
		if (!(key in kind)) {
			s = suggest(key)
			say("unknown keyword \047" key "\047" (s != "" ? " (did you mean " s "?)" : "") ": the line is ignored")
			next
		}
		k = kind[key]
		v = l; sub(/^[^[:space:]]+[[:space:]]*/, "", v)
		if (k != "text") { sub(/(^|[[:space:]])#.*/, "", v); sub(/[[:space:]]+$/, "", v) }
		nw = split(v, w, /[[:space:]]+/)
		if (v == "") nw = 0
		if (k != "names" && k != "array") {
			if (key in seen) say(key " again (first on line " seen[key] "): only this last one counts")
			else seen[key] = NR
		}
		if (k == "names") {
			if (nw == 0) { say("BOOT needs all, none or array names: the line adds nothing"); next }
			for (i = 1; i <= nw; i++) {
				if ((w[i] == "all" || w[i] == "none") && nw > 1)
					say("BOOT " w[i] " stands alone, not with other words: the initramfs reads \047" v "\047 as array names")
				else if (w[i] != "all" && w[i] != "none" && !name_ok(w[i]))
					say("\047" w[i] "\047 is no valid array name (letters, digits, . _ -; 64 at most): no array has it")
			}
		} else if (k == "array") {
			if (nw == 0) { say("ARRAY needs an array: NAME, name=NAME or uuid=UUID; the line is ignored"); next }
			a = w[1]; u = tolower(a)
			if (u ~ /^uuid=/) {
				if (u !~ uuid_re)
					say("\047" a "\047 is no array uuid (8-4-4-4-12 hex digits, as ssdstripe examine shows): no array has it")
			} else {
				if (u ~ /^name=/) a = substr(a, 6)
				if (!name_ok(a)) say("\047" a "\047 is no valid array name (letters, digits, . _ -; 64 at most): no array has it")
			}
			if (nw > 1) say("one array per ARRAY line: \047" substr(v, length(w[1]) + 2) "\047 after the first word is ignored")
		} else if (k == "yesno") {
			if (v != "yes" && v != "no") say(key " is yes or no, not \047" v "\047: " dflt[key] " is used")
		} else if (k == "count") {
			if (v !~ /^[0-9]+$/) say(key " is a whole number, not \047" v "\047: " dflt[key] " is used")
		} else if (k == "seconds") {
			if (v !~ /^[1-9][0-9]*$/) say(key " is a whole number of seconds, 1 or more, not \047" v "\047: monitor --config does not start")
		} else if (k == "path") {
			if (v !~ /^\//) say(key " is an absolute path, not \047" v "\047: monitor --config does not start")
		} else if (nw == 0)
			say(key " needs a value: the line is ignored")
	}' "$1"
}

# conf_say FILE: each problem of configuration FILE said on stderr, with
# the file and its line; CONF_BAD is their count; false when FILE cannot
# be checked
conf_say() {
	local _cf_out _cf_l
	CONF_BAD=0
	_cf_out=$(conf_problems "$1") || return 1
	[ -n "$_cf_out" ] || return 0
	while IFS= read -r _cf_l; do
		warn "$1 $_cf_l"
		CONF_BAD=$((CONF_BAD + 1))
	done <<EOF
$_cf_out
EOF
}

# conf_warn_once: the problems of $CONF said once, for every command that
# reads it (CONF_BAD their count)
conf_warn_once() {
	[ -z "${_cf_done:-}" ] || return 0
	_cf_done=1 CONF_BAD=0
	[ -r "$CONF" ] || return 0
	conf_say "$CONF" || CONF_BAD=0
}

# ---- config ------------------------------------------------------------
help_config() {
	cat <<EOF
usage: $PROG config [--check] [FILE]
       $PROG config --scan

--check (the default) reads the configuration file (FILE, else
$CONF or \$SSDSTRIPE_CONF) and says each problem with its line: an
unknown keyword (with the one meant, when one is close), a value that is
not what its keyword takes, a second line for a keyword that counts once,
a second word on an ARRAY line; and what is done instead.  The boot
paths, monitor and every command that reads the file say the same on
stderr, and go on with what is done instead, except monitor --config,
which does not start.  Reads only.
--scan prints an ARRAY line for every active array (its uuid, its name
after a #), as 'mdadm --detail --scan' does; detail --scan is the same:
  $PROG config --scan >>$CONF
Exit: 0 no problem (or no file: the defaults apply), 1 problems, 2 usage,
4 FILE does not exist.
EOF
}
