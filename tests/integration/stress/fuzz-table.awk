# Table-line and message generator of stress/001 (busybox awk), seeded.
# Variables: seed, count (table lines), msgs (messages), pool (the member
# devices: "path maj:min sectors logical_block_sectors;...").
# Output, one case a line:
#   valid <prefix dmsetup table must print>|<line>   must be accepted
#   mutant - <line>     a valid line with 1-3 mutations after "0 <len> ssdstripe"
#   wild - <line>       mutated prefix, or garbage
#   msg - <message>
# Lines mix /dev paths and major:minor, odd whitespace, upper case feature
# names, huge and signed numbers, punctuation and strings of up to 5000
# characters.
function rnd(n) { return int(rand() * n) }
function pick(s,   a, k) { k = split(s, a, " "); return a[1 + rnd(k)] }
function bignum() {
	return pick("0 1 -1 +8 08 0x10 1e3 8.0 4294967295 4294967296 4294967297 " \
		"18446744073709551615 18446744073709551616 9223372036854775807 " \
		"9223372036854775808 99999999999999999999999999999 -0 00 2147483648 " \
		"65535 65536 16 17 15 1000001 10000001 59999 60001 99 1001")
}
function word(   n, s, i, c) {
	n = rnd(10) < 8 ? 1 + rnd(12) : 1 + rnd(rnd(10) < 8 ? 300 : 5000)
	c = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:,;=+%@#!?*[]{}()<>~^&$\\'\""
	s = ""
	for (i = 0; i < n; i++) s = s substr(c, 1 + rnd(length(c)), 1)
	return s
}
function feature_word() {
	return pick("no_discard_passdown no_stats health_window_ms slow_factor " \
		"slow_min_latency_us slow_windows recover_windows min_ios NO_STATS " \
		"No_Discard_Passdown SLOW_FACTOR no_discard nostats")
}
function any_token(   r) {
	r = rnd(10)
	if (r < 3) return bignum()
	if (r < 5) return rnd(r < 4 ? 4096 : 100000000)
	if (r < 6) return dev_name(rnd(ndev))
	if (r < 7) return feature_word()
	if (r < 8) return "ssdstripe"
	return word()
}
function dev_name(i) { return rnd(2) ? dpath[i] : dmm[i] }
function ws() {	# odd whitespace, sometimes
	if (rnd(8)) return " "
	return pick("\t   \t\t \t_ \t__ ___") ~ /_/ ? "  " : "\t"
}
# a valid line: fills tok[1..nt], and xp = expected dmsetup table prefix
function valid(   n, i, j, t, used, d, lbs, chunk, cap, k, len, off, nf, f, v, fw, nfw, order) {
	n = rnd(2) ? 1 + rnd(ndev) : 1 + int(rand() * rand() * ndev)
	for (i = 0; i < ndev; i++) used[i] = 0
	lbs = 1
	for (i = 0; i < n; i++) {
		do d = rnd(ndev); while (used[d])
		used[d] = 1; m[i] = d
		if (dlbs[d] > lbs) lbs = dlbs[d]
	}
	chunk = pick("1 2 3 7 8 16 24 64 100 128 256 1000 1024 2048 4096 65536")
	chunk = lbs * int((chunk + lbs - 1) / lbs)
	cap = -1
	for (i = 0; i < n; i++) {
		d = m[i]
		off[i] = rnd(4) ? 0 : lbs * rnd(int(dsz[d] / 4 / lbs))
		if (cap < 0 || dsz[d] - off[i] < cap) cap = dsz[d] - off[i]
	}
	k = int(cap / chunk)
	if (k < 1) { chunk = lbs; k = int(cap / chunk) }
	k = 1 + rnd(k < 4096 ? k : 4096)
	len = n * chunk * k
	nt = 0
	tok[++nt] = "0"; tok[++nt] = len; tok[++nt] = "ssdstripe"
	tok[++nt] = n; tok[++nt] = chunk
	xp = "0 " len " ssdstripe " n " " chunk
	for (i = 0; i < n; i++) {
		tok[++nt] = dev_name(m[i]); tok[++nt] = off[i]
		xp = xp " " dmm[m[i]] " " off[i]
	}
	if (rnd(2)) return
	nfw = 0
	split("no_discard_passdown no_stats health_window_ms slow_factor slow_min_latency_us slow_windows recover_windows min_ios", f, " ")
	split("0 0 100:5000 2:1000 0:10000000 1:1000 1:1000 1:1000000", v, " ")
	for (i = 1; i <= 8; i++) {
		if (rnd(3)) continue
		order[++nfw] = i
	}
	for (i = nfw; i > 1; i--) { j = 1 + rnd(i); t = order[i]; order[i] = order[j]; order[j] = t }
	nf = 0
	for (i = 1; i <= nfw; i++) nf += (v[order[i]] == "0") ? 1 : 2
	if (!nf) return
	tok[++nt] = nf
	for (i = 1; i <= nfw; i++) {
		t = f[order[i]]
		tok[++nt] = rnd(5) ? t : toupper(t)
		if (v[order[i]] != "0") {
			split(v[order[i]], lim, ":")
			tok[++nt] = rnd(3) ? lim[1] + rnd(lim[2] - lim[1] + 1) : lim[1 + rnd(2)]
		}
	}
}
function join(from,   s, i) {
	s = tok[from]
	for (i = from + 1; i <= nt; i++) s = s ws() tok[i]
	return s
}
function mutate(   r, i, j, t, n) {
	n = 1 + rnd(3)
	while (n--) {
		r = rnd(10)
		i = 4 + rnd(nt - 3)	# never the "0 <len> ssdstripe" prefix
		if (r == 0 && nt > 4) { for (j = i; j < nt; j++) tok[j] = tok[j + 1]; nt-- }
		else if (r == 1) { for (j = nt; j >= i; j--) tok[j + 1] = tok[j]; nt++ }
		else if (r == 2) tok[i] = bignum()
		else if (r == 3) { j = 4 + rnd(nt - 3); t = tok[i]; tok[i] = tok[j]; tok[j] = t }
		else if (r == 4) tok[++nt] = any_token()
		else if (r == 5) tok[i] = any_token()
		else if (r == 6) tok[i] = tok[i] + (rnd(2) ? 1 : -1)
		else if (r == 7) tok[i] = dev_name(rnd(ndev))
		else if (r == 8) tok[i] = feature_word()
		else tok[i] = word()
	}
}
function message(   r, t) {
	r = rnd(10)
	t = pick("health_window_ms slow_factor slow_min_latency_us slow_windows recover_windows min_ios")
	if (r == 0) return "reset_stats"
	if (r < 4) return (rnd(4) ? t : toupper(t)) " " rnd(2000)
	if (r == 4) return t " " bignum()
	if (r == 5) return t
	if (r == 6) return t " " rnd(100) " " any_token()
	if (r == 7) return "reset_stats " any_token()
	if (r == 8) return feature_word() " " any_token()
	return any_token() (rnd(2) ? " " any_token() : "")
}
BEGIN {
	srand(seed)
	ndev = split(pool, p, ";")
	for (i = 1; i <= ndev; i++) {
		split(p[i], q, " ")
		dpath[i - 1] = q[1]; dmm[i - 1] = q[2]; dsz[i - 1] = q[3]; dlbs[i - 1] = q[4]
	}
	for (c = 0; c < count; c++) {
		r = rnd(100)
		valid()
		if (r < 35) { print "valid " xp "|" join(1); continue }
		if (r < 80) { mutate(); print "mutant - " join(1); continue }
		if (r < 90) {	# a wild prefix on a valid or mutated line
			if (rnd(2)) mutate()
			t = rnd(4)
			if (t == 0) tok[1] = pick("1 -1 x 00 18446744073709551616")
			else if (t == 1) tok[2] = pick("0 1 -1 7 x 1e9 18446744073709551615 18446744073709551616") 
			else if (t == 2) tok[3] = pick("SSDSTRIPE ssdstripe2 striped linear error zero x")
			else tok[2] = tok[2] + 1
			print "wild - " join(1); continue
		}
		nt = 1 + rnd(40)
		for (i = 1; i <= nt; i++) tok[i] = any_token()
		sub(/^#/, "x", tok[1])	# a leading # makes the line a dmsetup comment
		if (rnd(2)) { tok[1] = "0"; tok[2] = 8 * (1 + rnd(1000)); tok[3] = "ssdstripe"; if (nt < 3) nt = 3 }
		print "wild - " (nt ? join(1) : "")
	}
	for (c = 0; c < msgs; c++) print "msg - " message()
}
