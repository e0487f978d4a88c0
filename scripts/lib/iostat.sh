# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe iostat: a live per-member view, as 'zpool iostat -v -l' and
# 'iostat -x' give one: rates, latency percentiles from the kernel's
# histogram, queue depth, errors, state.

# ---- iostat ------------------------------------------------------------
help_iostat() {
	cat <<EOF
usage: $PROG iostat [-w] [--json] [NAME...] [INTERVAL [COUNT]]

A report per INTERVAL seconds (COUNT of them; without COUNT until
interrupted; without INTERVAL one report of the next second) for each
array named (all active arrays when none is), a row per member and one
for all of them:
  r/s w/s        reads and writes sent to the member per second
  rMB/s wMB/s    megabytes (10^6 bytes) read and written per second
  mean p50 p99   completion latency in microseconds of the reads and
                 writes completed in the interval, estimated from the
                 member's latency histogram (power-of-two buckets; within
                 a bucket linearly, as Prometheus's histogram_quantile;
                 >1048576 when it fell in the last, unbounded one)
  qd             requests in flight at the end of the interval (inflight)
  err retry      errors and retried completions in the interval
  state          the member's state, the array's on its own line
A member far slower than its peers stands out in p50 and p99 first: that
is what the health rule 'slow' judges (ssdstripe status).  The 'all' row
adds the members' requests (an array request split over members counts
once per member) and merges their histograms.
-w prints each member's histogram for the interval instead: completions
per latency bucket, as 'zpool iostat -w'.
--json prints one object per interval, on one line.
Each report reads sysfs once per member file and runs one awk and one ls:
5 reports at 1 s took 0.36 s of CPU in the test rig's emulated guest.
Reads only.
Exit: 0, 2 usage, 4 no such array.
EOF
}

# iostat_report ARRAYS PREV MODE: one report of the arrays in file ARRAYS
# ("NAME SYSDIR" lines) since the counters in file PREV, which it rewrites;
# MODE text, hist or json; with PREV empty (the first look) it prints
# nothing
iostat_report() {
	local _is_dirs _is_d
	# the members' devices, from their block links, in one ls
	_is_dirs=$(awk '{print $2 "/members"}' "$1")
	# shellcheck disable=SC2046 # the member directories are words
	{ ls -l $(for _is_d in $_is_dirs; do echo "$_is_d"/*/block; done) 2>/dev/null || :; } |
		awk -v arrays="$1" -v prevf="$2" -v nextf="$2.next" -v mode="$3" -v prog="$PROG" "$AWK_JSON"'
	function rd(f,   v) { v = ""; if ((getline v < f) <= 0) v = ""; close(f); return v }
	function num(v) { return v ~ /^[0-9]+$/ ? v + 0 : 0 }
	# q-quantile of histogram h (NB buckets, bound ub[], total t), in us
	function quant(h, t, q,   i, c, r, lo) {
		if (t == 0) return "-"
		r = q * t; c = 0; lo = 0
		for (i = 1; i <= NB; i++) {
			if (c + h[i] >= r && h[i] > 0) {
				if (ub[i] == "inf") return ">" lo
				return sprintf("%d", lo + (ub[i] - lo) * (r - c) / h[i])
			}
			c += h[i]; lo = ub[i]
		}
		return ">" lo
	}
	function mean(h, t,   i, s, lo, mid) {
		if (t == 0) return "-"
		s = 0; lo = 0
		for (i = 1; i <= NB; i++) {
			mid = ub[i] == "inf" ? 2 * lo : (lo + ub[i]) / 2
			s += h[i] * mid; lo = ub[i]
		}
		return sprintf("%d", s / t)
	}
	function d(k, cur) { return (k in prev && prev[k] <= cur) ? cur - prev[k] : cur }
	function jnum(v) { return v == "-" ? "null" : (v ~ /^>/ ? "\"" v "\"" : v) }
	BEGIN {
		NF0 = split("read_ios write_ios read_sectors write_sectors errors retries inflight", fld, " ")
		# the members devices: "... /members/I/block -> ../../nvme0n1"
		while ((getline l) > 0) {
			n = split(l, w, " ")
			if (w[n - 1] != "->") continue
			dev[w[n - 2]] = w[n]; sub(/.*\//, "", dev[w[n - 2]])
		}
		have = 0
		while ((getline l < prevf) > 0) { split(l, w, " "); prev[w[1]] = w[2]; have = 1 }
		close(prevf)
		split(rd("/proc/uptime"), up, " "); now = up[1]
		dt = have && ("time" in prev) ? now - prev["time"] : 0
		print "time", now > nextf
		srand(); epoch = srand()
		if (have && mode == "json")
			printf "{\"version\":1,\"time\":%d,\"interval_s\":%.2f,\"arrays\":[", epoch, dt
		na = 0
		while ((getline l < arrays) > 0) {
			split(l, w, " "); name = w[1]; s = w[2]
			ast = rd(s "/state"); nm = rd(s "/member_count")
			if (ast == "" || nm == "") {
				if (have) {
					printf "%s: %s is no longer active\n", prog, name > "/dev/stderr"
					print "gone", name > nextf
				}
				continue
			}
			split("", all)
			for (b = 1; b <= NB0; b++) allh[b] = 0
			rows = ""
			for (i = 0; i < nm; i++) {
				m = s "/members/" i
				dv = (m "/block") in dev ? dev[m "/block"] : "(gone)"
				for (f = 1; f <= NF0; f++) {
					v = num(rd(m "/" fld[f]))
					key = name "/" i "/" fld[f]
					print key, v > nextf
					dl[fld[f]] = fld[f] == "inflight" ? v : d(key, v)
				}
				st = rd(m "/state")
				# the histogram: "<bound> <count>" lines
				NB = 0; t = 0; hf = m "/latency_histogram"
				while ((getline hl < hf) > 0) {
					split(hl, hw, " "); NB++; ub[NB] = hw[1]
					key = name "/" i "/h" NB
					print key, hw[2] + 0 > nextf
					h[NB] = d(key, hw[2] + 0); t += h[NB]; allh[NB] += h[NB]
				}
				close(hf)
				if (NB > NB0) NB0 = NB
				for (f = 1; f <= NF0; f++) all[fld[f]] += dl[fld[f]]
				if (!have) continue
				row(i, dv, st, h, t)
			}
			if (!have) continue
			NB = NB0; t = 0
			for (b = 1; b <= NB; b++) { h[b] = allh[b]; t += h[b] }
			for (f = 1; f <= NF0; f++) dl[fld[f]] = all[fld[f]]
			if (mode == "json") {
				printf "%s{\"name\":%s,\"state\":%s,\"members\":[%s],\"all\":", na++ ? "," : "", json_str(name), json_str(ast), jrows
				jrows = ""
				row("all", "", ast, h, t)
				printf "}"
			} else {
				printf "%s%s (%s), %.1f s%s\n", na++ ? "\n" : "", name, ast, dt, mode == "hist" ? ": completions per latency bucket" : ""
				if (mode == "hist") {
					printf "  %-9s", "LAT_US"
					for (i = 0; i < nm; i++) printf " %9s", i
					printf " %9s\n", "all"
					for (b = 1; b <= NB; b++) {
						printf "  %-9s", (ub[b] == "inf" ? ">" ub[b - 1] : "<=" ub[b])
						for (i = 0; i < nm; i++) printf " %9d", hrow[i, b]
						printf " %9d\n", h[b]
					}
				} else {
					printf "  %-3s %-12s %8s %8s %7s %7s %8s %8s %8s %4s %5s %5s  %s\n", "#", "DEVICE", "r/s", "w/s", "rMB/s", "wMB/s", "mean_us", "p50_us", "p99_us", "qd", "err", "retry", "state"
					printf "%s", rows
					row("all", "", ast, h, t)
				}
			}
		}
		close(arrays)
		if (have && mode == "json") printf "]}\n"
	}
	function row(i, dv, st, h, t,   r, ms, p50, p99, line, b) {
		ms = mean(h, t); p50 = quant(h, t, 0.5); p99 = quant(h, t, 0.99)
		if (mode == "json") {
			line = sprintf("{%s\"state\":%s,\"reads_per_s\":%.1f,\"writes_per_s\":%.1f,\"read_mb_per_s\":%.2f,\"write_mb_per_s\":%.2f,\"latency_mean_us\":%s,\"latency_p50_us\":%s,\"latency_p99_us\":%s,\"inflight\":%d,\"errors\":%d,\"retries\":%d,\"histogram\":[",
				i == "all" ? "" : sprintf("\"index\":%d,\"device\":%s,", i, json_str(dv)), json_str(st),
				dl["read_ios"] / dt, dl["write_ios"] / dt, dl["read_sectors"] * 512 / 1e6 / dt, dl["write_sectors"] * 512 / 1e6 / dt,
				jnum(ms), jnum(p50), jnum(p99), dl["inflight"], dl["errors"], dl["retries"])
			for (b = 1; b <= NB; b++)
				line = line sprintf("%s[%s,%d]", b > 1 ? "," : "", ub[b] == "inf" ? "null" : ub[b], h[b])
			line = line "]}"
			if (i == "all") printf "%s", line
			else jrows = jrows (jrows == "" ? "" : ",") line
			return
		}
		if (mode == "hist") {
			for (b = 1; b <= NB; b++) hrow[i, b] = h[b]
			return
		}
		line = sprintf("  %-3s %-12s %8.1f %8.1f %7.2f %7.2f %8s %8s %8s %4d %5d %5d  %s\n",
			i, i == "all" ? "-" : dv, dl["read_ios"] / dt, dl["write_ios"] / dt,
			dl["read_sectors"] * 512 / 1e6 / dt, dl["write_sectors"] * 512 / 1e6 / dt,
			ms, p50, p99, dl["inflight"], dl["errors"], dl["retries"], st)
		if (i == "all") printf "%s", line
		else rows = rows line
	}
	'
	mv "$2.next" "$2"
}

# iostat_word WORD: one operand of iostat: a whole number that names no
# active array is INTERVAL, then COUNT; else an array name (_io_int,
# _io_cnt, _io_names)
iostat_word() {
	case $1 in
	'' | *[!0-9]*) ;;
	*)
		if [ -n "$_io_int$_io_cnt" ] || ! is_array "$1"; then
			if [ -z "$_io_int" ]; then
				[ "$1" -gt 0 ] || usage_die "INTERVAL is a whole number of seconds, 1 or more, not '$1'"
				_io_int=$1
			elif [ -z "$_io_cnt" ]; then
				[ "$1" -gt 0 ] || usage_die "COUNT is a whole number, 1 or more, not '$1'"
				_io_cnt=$1
			else
				usage_die "'$1': INTERVAL and COUNT are given already"
			fi
			return 0
		fi ;;
	esac
	[ -z "$_io_int" ] || usage_die "'$1': array names come before INTERVAL and COUNT"
	_io_names="$_io_names $1"
}

opt_iostat() {
	case $1 in
	--histogram) [ "$_io_mode" = json ] && usage_die "-w or --json, not both"; _io_mode=hist ;;
	--json) [ "$_io_mode" = hist ] && usage_die "-w or --json, not both"; _io_mode=json ;;
	'') iostat_word "$2" ;;
	esac
}
cmd_iostat() {
	local _io_n _io_s _io_k
	_io_mode=text _io_names='' _io_int='' _io_cnt=''
	opts opt_iostat '--histogram|-w --json' "$@"
	tmpdir
	: >"$TMPD/arrays"
	if [ -z "$_io_names" ]; then
		_io_names=$(active_arrays)
		[ -n "$_io_names" ] || { say "no active arrays"; return 0; }
	fi
	for _io_n in $_io_names; do
		is_array "$_io_n" || die 4 "$_io_n is not an active ssdstripe array"
		_io_s=$(dm_sysdir "$_io_n")/ssdstripe
		[ -d "$_io_s" ] || die 1 "$_io_n has no sysfs statistics (not the first target of its table?)"
		printf '%s %s\n' "$_io_n" "$_io_s" >>"$TMPD/arrays"
	done
	: >"$TMPD/prev"
	iostat_report "$TMPD/arrays" "$TMPD/prev" "$_io_mode"
	_io_k=0
	while :; do
		sleep "${_io_int:-1}"
		[ "$_io_k" = 0 ] || [ "$_io_mode" = json ] || echo
		iostat_report "$TMPD/arrays" "$TMPD/prev" "$_io_mode"
		# the arrays stopped since: no more reports of them
		if grep -q '^gone ' "$TMPD/prev"; then
			awk 'NR == FNR { if ($1 == "gone") g[$2] = 1; next } !($1 in g)' \
				"$TMPD/prev" "$TMPD/arrays" >"$TMPD/arrays.new" && mv "$TMPD/arrays.new" "$TMPD/arrays"
		fi
		[ -s "$TMPD/arrays" ] || return 0
		_io_k=$((_io_k + 1))
		[ -n "$_io_int" ] || return 0
		[ -z "$_io_cnt" ] || [ "$_io_k" -lt "$_io_cnt" ] || return 0
	done
}
