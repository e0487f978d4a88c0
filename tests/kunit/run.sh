#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the dm-ssdstripe KUnit suites under UML (ARCH=um).
#
# What it does:
#   1. makes sure the build dependencies are installed (scripts/need-debs),
#   2. unpacks /usr/src/linux-source-<ver>.tar.xz once into a cache dir
#      outside the repo (reused on later runs),
#   3. grafts our sources into that tree as drivers/md/ssdstripe/ (copied
#      only when changed, so make rebuilds just what changed),
#   4. runs tools/testing/kunit/kunit.py with tests/kunit/.kunitconfig,
#   5. ends with the line "N passed, N failed".  A config/build failure, a
#      crash or zero tests run counts as a failure; exit status is 0 only
#      when at least one test passed and none failed.
#
# Usage: tests/kunit/run.sh [extra kunit.py run options...]
#
# Environment:
#   SSDSTRIPE_KUNIT_CACHE  cache root (default /var/tmp/ssdstripe/kunit)
#   SSDSTRIPE_ROOT         project root holding dm-ssdstripe/ and tests/kunit/
#                          (default: two levels above this script)
#   KUNIT_JOBS             make jobs (default 2)
#   KUNIT_FILTER           kunit filter_glob (default 'dm_ssdstripe*';
#                          set it empty to run every enabled suite)
#   KUNIT_TIMEOUT          seconds allowed for the tests to run (default 300)
#   LINUX_SOURCE_PKG       package to install if no /usr/src/linux-source-*
#                          tarball exists (default linux-source-6.12)

set -u
set -o pipefail

prog=kunit
start_time=$(date +%s)

say() { printf '%s: %s\n' "$prog" "$*" >&2; }

# Print the closing line and exit.  $1 passed, $2 failed.
finish() {
	local passed=$1 failed=$2
	say "took $(( $(date +%s) - start_time ))s"
	printf '%d passed, %d failed\n' "$passed" "$failed"
	if [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; then
		exit 0
	fi
	exit 1
}

die() {
	say "ERROR: $*"
	finish 0 1
}

script_dir=$(cd "$(dirname "$0")" && pwd) || die "cannot find script dir"
root=${SSDSTRIPE_ROOT:-$(cd "$script_dir/../.." && pwd)}
cache_root=${SSDSTRIPE_KUNIT_CACHE:-/var/tmp/ssdstripe/kunit}
jobs=${KUNIT_JOBS:-2}
filter=${KUNIT_FILTER-dm_ssdstripe*}
timeout=${KUNIT_TIMEOUT:-300}
src_pkg=${LINUX_SOURCE_PKG:-linux-source-6.12}

mod_dir=$root/dm-ssdstripe
kunit_dir=$root/tests/kunit
kunitconfig=$kunit_dir/.kunitconfig

# ---------------------------------------------------------------- deps ----

ensure_deps() {
	"$root/scripts/need-debs" bc flex bison build-essential python3 \
		libelf-dev xz-utils || die "missing build dependencies"
}

# -------------------------------------------------------- source tree ----

# Copy $1 to $2 only if the content differs (keeps mtimes => no rebuild).
sync_file() {
	if ! cmp -s "$1" "$2"; then
		cp "$1" "$2" || die "cannot copy $1 to $2"
		say "updated ${2#"$tree"/}"
	fi
}

graft_sources() {
	local dest=$tree/drivers/md/ssdstripe f name keep suites

	[ -f "$mod_dir/ssdstripe.h" ] || die "missing $mod_dir/ssdstripe.h"
	# One file per suite, <suite>_kunit.c, each an object Makefile.kunit
	# lists (a suite missing there would silently not run).
	suites=0
	for f in "$kunit_dir"/*_kunit.c; do
		[ -f "$f" ] || continue
		name=$(basename "$f" .c)
		grep -qw "$name\.o" "$kunit_dir/Makefile.kunit" ||
			die "tests/kunit/$name.c is not an object in tests/kunit/Makefile.kunit"
		suites=$((suites + 1))
	done
	[ "$suites" -gt 0 ] || die "no suite (*_kunit.c) in $kunit_dir"
	mkdir -p "$dest" || die "cannot create $dest"

	# Module sources (*.c, *.h), its Kconfig and feature tests, plus the
	# KUnit suites and their shared header, all side by side so that the
	# suites' includes of the module's headers resolve.  compat-probed.h
	# is not grafted: an out-of-tree build made it for another kernel, and
	# the tree build generates its own from probes/ with probe-kernel
	# (probe.mk).
	keep=" Kconfig Makefile probe-kernel probe.mk probes version.mk VERSION "
	for f in "$mod_dir"/*.c "$mod_dir"/*.h; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		case $name in
		*.mod.c | compat-probed.h) continue ;; # out-of-tree build output
		esac
		sync_file "$f" "$dest/$name"
		keep="$keep$name "
	done
	for f in "$kunit_dir"/*_kunit.c "$kunit_dir"/*.h; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		[ -e "$mod_dir/$name" ] &&
			die "tests/kunit/$name and dm-ssdstripe/$name would be grafted as one file"
		sync_file "$f" "$dest/$name"
		keep="$keep$name "
	done
	sync_file "$kunit_dir/Makefile.kunit" "$dest/Makefile"
	for name in Kconfig probe-kernel probe.mk version.mk; do
		sync_file "$mod_dir/$name" "$dest/$name"
	done
	sync_file "$root/VERSION" "$dest/VERSION"
	mkdir -p "$dest/probes" || die "cannot create $dest/probes"
	for f in "$dest"/probes/*.c; do
		[ -f "$f" ] || continue
		[ -f "$mod_dir/probes/$(basename "$f")" ] || rm -f "$f"
	done
	for f in "$mod_dir"/probes/*.c; do
		sync_file "$f" "$dest/probes/$(basename "$f")"
	done

	# Drop files that disappeared from the repo.
	for f in "$dest"/*; do
		[ -f "$f" ] || continue
		name=$(basename "$f")
		case $keep in
		*" $name "*) ;;
		*) say "removing stale ${f#"$tree"/}"; rm -f "$f" ;;
		esac
	done

	# Hook into drivers/md (idempotent).
	local kc=$tree/drivers/md/Kconfig mk=$tree/drivers/md/Makefile
	local src_line='source "drivers/md/ssdstripe/Kconfig"'
	if ! grep -qxF "$src_line" "$kc"; then
		if grep -qx 'endif # MD' "$kc"; then
			sed -i "s|^endif # MD\$|$src_line\\n\\nendif # MD|" "$kc"
		else
			printf '\n%s\n' "$src_line" >> "$kc"
		fi || die "cannot edit $kc"
		grep -qxF "$src_line" "$kc" || die "hooking $kc failed"
	fi
	# shellcheck disable=SC2016 # a literal make variable reference
	local mk_line='obj-$(CONFIG_DM_SSDSTRIPE)	+= ssdstripe/'
	if ! grep -qxF "$mk_line" "$mk"; then
		printf '\n%s\n' "$mk_line" >> "$mk" || die "cannot edit $mk"
	fi
}

# ------------------------------------------------------------- results ----

# Derive counts from kunit.py's "Testing complete. Ran N tests: passed: X,
# failed: Y, crashed: Z, skipped: S, errors: E" line (leaf cases, i.e.
# parameterised sub-cases count individually).
count_of() {
	# $1 = key, $2 = summary line
	local n
	n=$(printf '%s\n' "$2" | sed -n "s/.*[ ,:]$1: \\([0-9][0-9]*\\).*/\\1/p")
	printf '%s' "${n:-0}"
}

# Repeat compiler diagnostics with our files given as repo paths: every
# error, plus warnings/notes/"In function" lines that point into our files
# (a macro error reported in a kernel header carries a note naming our line).
diagnostics() {
	local d ours='drivers/md/ssdstripe/'
	d=$(grep -E -e ': (fatal error|error):' \
		-e "${ours}[^: ]+:[0-9]+(:[0-9]+)?: (warning|note):" \
		-e "${ours}[^: ]+: In function" \
		-e "${ours}Kconfig:[0-9]+:" "$log" |
		sed -e 's/^\[[0-9:]*\] //' \
			-e 's/^\[ERROR\] //' \
			-e "s|^.*${ours}\\([^: ]*:\\)|@@\\1|" \
			-e 's|^@@\(dm_ssdstripe_[a-z0-9_]*kunit\.[ch]:\)|tests/kunit/\1|' \
			-e 's|^@@Makefile:|tests/kunit/Makefile.kunit:|' \
			-e 's|^@@|dm-ssdstripe/|' |
		awk '!seen[$0]++')
	[ -n "$d" ] || return 0
	say "compiler diagnostics (our files as repo paths; ../ = kernel tree):"
	printf '%s\n' "$d" >&2
}

# ----------------------------------------------------------------- main ---

[ -f "$kunitconfig" ] || die "missing $kunitconfig"
mkdir -p "$cache_root" || die "cannot create $cache_root"

# One run at a time per cache (the tree and build dir are shared).
exec 9> "$cache_root/.lock" || die "cannot open lock file"
if ! flock -n 9; then
	say "waiting for another KUnit run on $cache_root"
	flock 9 || die "cannot lock $cache_root"
fi

ensure_deps
# Unpacked once into $cache_root by the shared helper (installs the package).
tree=$(SSDSTRIPE_KUNIT_CACHE=$cache_root LINUX_SOURCE_PKG=$src_pkg \
	"$root/tests/kernel-tree") || die "no kernel source tree"
say "kernel source at $tree"
graft_sources

build_dir=$tree/.kunit-uml
log=$cache_root/kunit-last.log
args=(run --arch=um --kunitconfig="$kunitconfig" --build_dir="$build_dir"
	--jobs="$jobs" --timeout="$timeout")
[ -n "$filter" ] && args+=("$filter")

say "running kunit.py ${args[*]} $*"
(cd "$tree" && python3 tools/testing/kunit/kunit.py "${args[@]}" "$@") 2>&1 |
	tee "$log"
rc=${PIPESTATUS[0]}

# Strip colour codes before parsing, take the last summary.
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep 'Testing complete\. Ran ' |
	tail -n 1)
if [ -z "$summary" ]; then
	say "kunit.py exited $rc without a test summary (config/build failure or" \
		"kernel crash before KTAP output); full log: $log"
	diagnostics
	finish 0 1
fi

passed=$(count_of passed "$summary")
failed=$(count_of failed "$summary")
crashed=$(count_of crashed "$summary")
skipped=$(count_of skipped "$summary")
errors=$(count_of errors "$summary")
# Crashed cases count as failed; KTAP errors (missing results, plan
# mismatches) count only when no case failed or crashed outright.
bad=$((failed + crashed))
[ "$bad" -eq 0 ] && bad=$errors

[ "$skipped" -gt 0 ] && say "$skipped test case(s) skipped"
[ "$crashed" -gt 0 ] && say "$crashed test case(s) crashed"
[ "$errors" -gt 0 ] && say "$errors KTAP parse error(s) (missing results or crash)"
diagnostics
if [ "$((passed + failed + crashed + skipped))" -eq 0 ]; then
	say "no test cases ran (filter '${filter}')"
	finish 0 $((bad > 0 ? bad : 1))
fi
if [ "$((passed + bad))" -eq 0 ]; then
	say "every test case was skipped; nothing verified"
	finish 0 1
fi
if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
	say "kunit.py exited $rc although no case failed; counting as a failure"
	bad=1
fi
finish "$passed" "$bad"
