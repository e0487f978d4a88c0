#!/bin/bash
# QEMU integration suite of dm-ssdstripe (used by `make check`).
#
#   tests/integration/check.sh [--kernel 6.12|6.1|sid] [--tests all|001,004] [run.sh options]
#
# Fetches Debian's kernel image of the series (never installed on this host),
# installs the matching headers, builds dm-ssdstripe.ko against them, builds
# the busybox initramfs, boots QEMU (TCG) with 4 emulated NVMe SSDs and runs
# tests/integration/.  Which tests, and with what guest environment, comes
# from tests/integration/kernels.conf unless --tests or --guest-env is given
# (there, "all,!020,!021" is every test but those).
# Ends with "N passed, N failed"; non-zero exit on any failure, kernel
# BUG/WARNING/oops/hung task, or timeout.  Needs root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
start=$(date +%s)
series=6.12 args=() tests='' env=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) series=$2; shift 2 ;;
	--tests) tests=$2; shift 2 ;;
	--guest-env) env=$2; shift 2 ;;
	*) args+=("$1"); shift ;;
	esac
done
while read -r k t e; do
	[ "$k" = "$series" ] || continue
	: "${tests:=$t}" "${env:=$e}"
done < <(grep -v -E '^[[:space:]]*(#|$)' "$root/tests/integration/kernels.conf")
# "all,!020,!021": every test "all" runs (the groups.conf rules, as the
# guest runner applies them) but those, as an explicit list
if [ "${tests#all,}" != "${tests:-}" ]; then
	list=''
	for t in "$root"/tests/integration/*/[0-9][0-9][0-9]-*.sh; do
		g=$(basename "$(dirname "$t")") n=$(basename "$t" .sh)
		when=$(awk -v g="$g" '$1 == g { print $2; exit }' "$root/tests/integration/groups.conf")
		[ "$when" = on-request ] && continue
		case ",${tests#all,}," in *",!${n%%-*},"*) continue ;; esac
		list=$list${list:+,}${n%%-*}
	done
	tests=$list
fi
rc=0
bash "$root/qemu/run.sh" --kernel "$series" --tests "${tests:-all}" \
	${env:+--guest-env "$env"} "${args[@]}" || rc=$?
echo "integration: wall clock $(($(date +%s) - start))s" >&2
exit "$rc"
