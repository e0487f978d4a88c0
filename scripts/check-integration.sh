#!/bin/bash
# QEMU integration suite of dm-ssdstripe (used by `make check`).
#
#   scripts/check-integration.sh [--kernel 6.12|6.1|sid] [--tests all|001,004] [run.sh options]
#
# Fetches Debian's kernel image of the series (never installed on this host),
# installs the matching headers, builds dm-ssdstripe.ko against them, builds
# the busybox initramfs, boots QEMU (TCG) with 4 emulated NVMe SSDs and runs
# tests/integration/.  Ends with "N passed, N failed"; non-zero exit on any
# failure, kernel BUG/WARNING/oops/hung task, or timeout.  Needs root.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
rc=0
bash "$root/qemu/run.sh" "$@" || rc=$?
echo "integration: wall clock $(($(date +%s) - start))s" >&2
exit "$rc"
