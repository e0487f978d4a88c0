#!/bin/sh
# DESCRIPTION: every command's help, usage errors and exit codes
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: any
# RUN: always
#
# Every command has --help (exit 0, a usage line), as has help itself; bad
# usage exits 2 with a pointer to --help; unknown commands are refused.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
for c in create assemble stop wipe list table status detail clear monitor examine; do
	out=$(ssdstripe "$c" --help) || fail "$c --help exited $?"
	echo "$out" | grep -q "^usage: ssdstripe $c" || fail "$c --help: $out"
	echo "$out" | grep -qi "exit\|SSDSTRIPE_EVENT\|columns" || fail "$c --help documents no exit codes: $out"
	[ "$(ssdstripe help "$c")" = "$out" ] || fail "help $c differs from $c --help"
done
ssdstripe --help | grep -q "^Exit codes:" || fail "main help"
for h in "help help" "help --help" "help -h"; do
	# shellcheck disable=SC2086 # two words
	[ "$(ssdstripe $h)" = "$(ssdstripe --help)" ] || fail "'ssdstripe $h' is not the main help"
done
refused 2 "unknown command 'frobnicate'" ssdstripe frobnicate
grep -qx "ssdstripe: try 'ssdstripe --help'" /tmp/refused.err || fail "hint: $(cat /tmp/refused.err)"
refused 2 "try 'ssdstripe wipe --help'" ssdstripe wipe
refused 2 "unknown option --bogus" ssdstripe create --bogus /dev/null
refused 2 "invalid timeout" ssdstripe assemble --timeout x r
refused 2 "invalid interval" ssdstripe monitor --interval 0
refused 2 "create needs at least one device" ssdstripe create --name x
refused 2 "clear needs an array name" ssdstripe clear
refused 2 "detail needs an array name" ssdstripe detail
ssdstripe --version | grep -q "^ssdstripe [0-9]" || fail "--version"
pass
