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
# Ends with "N passed, N failed"; non-zero exit on any failure, kernel
# BUG/WARNING/oops/hung task, or timeout.  Needs root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
series=6.12 args=() tests=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) series=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
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
bash "$root/qemu/run.sh" --kernel "$series" --tests "$tests" "${args[@]}" || rc=$?
echo "integration: wall clock $(($(date +%s) - start))s" >&2
exit "$rc"
