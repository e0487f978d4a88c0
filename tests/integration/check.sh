#!/bin/bash
# QEMU integration suite of dm-ssdstripe (used by `make check`).
#
#   tests/integration/check.sh [--kernel 6.12|6.1|sid] [--tests SELECTION] [run.sh options]
#
# Fetches Debian's kernel image of the series (never installed on this host),
# installs the matching headers, builds dm-ssdstripe.ko against them, builds
# the busybox initramfs, boots QEMU (TCG) with 4 emulated NVMe SSDs and runs
# tests/integration/.  Which tests: those whose header's KERNELS is all or
# names the series (tests/integration/list --kernel SERIES; on-request ones
# only when named), unless --tests names them (all, GROUP or GROUP/NNN,
# comma separated).  Other options go to qemu/run.sh (--quick, --guest-env,
# ...); UPDATE=1 in the environment rewrites golden outputs (run.sh).
# Then each test of RUN: alone for the series boots a guest of its own,
# with the run.sh options of its RIG header line (more disks; a test that
# cuts the power runs in phases, booting again on the same disks), and
# the last line sums every guest's counts.
# Ends with "N passed, N failed"; non-zero exit on any failure, kernel
# BUG/WARNING/oops/hung task, or timeout.  Needs root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
series=6.12 args=() tests='' given=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) series=$2; shift 2 ;;
	--tests) tests=$2 given=1; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
if [ -z "$tests" ]; then
	case $series in
	6.12 | 6.1 | sid)
		tests=$(sh "$root/tests/integration/list" --kernel "$series" --compact all) ||
			{ echo "0 passed, 1 failed"; exit 1; } ;;
	*) tests=all ;;
	esac
fi
rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# the whole suite shares one guest: 60 and more tests at up to 300 s each
# (run.sh's --test-timeout) outgrew run.sh's default 1800 s for the guest
# as a whole on a slow day (2026-11-28: the 6.12 suite reached stress/001
# at 1683 s); a hung test is still ended by its own timeout and the
# kernel's hung-task panic
suite_timeout=(--timeout 3600)
[ "$series" = debug ] && suite_timeout=()	# run.sh's own, longer
bash "$root/qemu/run.sh" --kernel "$series" --tests "$tests" "${suite_timeout[@]}" "${args[@]}" | tee "$out" || rc=$?
# the tests of RUN: alone, each in a guest of its own with its RIG options
# (more disks, power cuts), when no --tests was given
alone=''
if [ -z "$given" ]; then
	case $series in
	6.12 | 6.1 | sid) alone=$(sh "$root/tests/integration/list" --kernel "$series" --alone) ;;
	esac
fi
while IFS=$'\t' read -r name rig; do
	[ -n "$name" ] || continue
	echo "=== $name, in a guest of its own${rig:+ ($rig)}"
	# shellcheck disable=SC2086 # the RIG header's run.sh options are words
	bash "$root/qemu/run.sh" --kernel "$series" --tests "$name" $rig "${args[@]}" | tee -a "$out" || rc=$?
done <<<"$alone"
# the sum of every guest's "N passed, N failed"
if [ -n "$alone" ]; then
	awk '/^[0-9]+ passed, [0-9]+ failed/ { p += $1; f += $3 } END { printf "%d passed, %d failed\n", p, f }' "$out"
fi
echo "integration: wall clock $(($(date +%s) - start))s" >&2
exit "$rc"
