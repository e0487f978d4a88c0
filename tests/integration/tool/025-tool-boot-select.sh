#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: assemble --boot picks arrays by ssdstripe.conf and the command line, and waits for late members
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# assemble --boot, what the initramfs scripts run: /etc/ssdstripe.conf
# chooses the arrays (BOOT a; two BOOT lines add up; no BOOT line or no
# file means all; a # line is a comment), the kernel command line
# overrides it (ssdstripe.assemble=b, =none, =all), and an absent member
# makes it wait for TIMEOUT from the file or ssdstripe.timeout= from the
# command line, then report.  Calling it again is harmless.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

wipe_labels $(disks)
set -- $(slices 4 65536 2048)
must ssdstripe create --name a "$1" "$2"
must ssdstripe create --name b "$3" "$4"
must ssdstripe stop a b
active() { dmsetup ls --target ssdstripe | awk '$1 != "No" {print $1}' | sort | tr '\n' ' '; }
export SSDSTRIPE_CONF=/tmp/ssdstripe.conf SSDSTRIPE_CMDLINE=/tmp/cmdline
echo "console=ttyS0" >/tmp/cmdline
printf '# arrays for the initramfs\nBOOT a\nTIMEOUT 5\n' >"$SSDSTRIPE_CONF"
must ssdstripe assemble --boot
[ "$(active)" = "a " ] || fail "conf BOOT a gave: $(active)"
must ssdstripe assemble --boot
[ "$(active)" = "a " ] || fail "second run gave: $(active)"
must ssdstripe stop a

echo "console=ttyS0 ssdstripe.assemble=b quiet" >/tmp/cmdline
must ssdstripe assemble --boot
[ "$(active)" = "b " ] || fail "cmdline b gave: $(active)"
must ssdstripe stop b
echo "ssdstripe.assemble=none" >/tmp/cmdline
must ssdstripe assemble --boot
[ -z "$(active)" ] || fail "none gave: $(active)"
echo "ssdstripe.assemble=all" >/tmp/cmdline
must ssdstripe assemble --boot
[ "$(active)" = "a b " ] || fail "all gave: $(active)"
must ssdstripe stop a b

# the file alone again: BOOT lines add up, a comment (also after the words)
# is no BOOT line
echo "console=ttyS0" >/tmp/cmdline
printf 'BOOT a # the first\n# BOOT none\nBOOT b\n' >"$SSDSTRIPE_CONF"
must ssdstripe assemble --boot
[ "$(active)" = "a b " ] || fail "BOOT a + BOOT b gave: $(active)"
must ssdstripe stop a b
printf '# BOOT a\nTIMEOUT 5\n' >"$SSDSTRIPE_CONF"
must ssdstripe assemble --boot
[ "$(active)" = "a b " ] || fail "no BOOT line gave: $(active)"
must ssdstripe stop a b
must env SSDSTRIPE_CONF=/tmp/no-such-file ssdstripe assemble --boot
[ "$(active)" = "a b " ] || fail "no configuration file gave: $(active)"
must ssdstripe stop a b

# a missing member: wait TIMEOUT seconds, then refuse
t=$(dmsetup table ssl1)
must dmsetup remove ssl1
printf 'BOOT a\nTIMEOUT 2\n' >"$SSDSTRIPE_CONF"
t0=$(date +%s)
refused 3 "array a: member 1 .*not found" ssdstripe assemble --boot
el=$(($(date +%s) - t0))
if [ "$el" -lt 2 ] || [ "$el" -gt 6 ]; then fail "waited ${el}s with TIMEOUT 2 in the file"; fi
# ssdstripe.timeout= on the command line wins over the file's TIMEOUT
printf 'BOOT a\nTIMEOUT 30\n' >"$SSDSTRIPE_CONF"
echo "ssdstripe.assemble=a ssdstripe.timeout=2" >/tmp/cmdline
t0=$(date +%s)
refused 3 "array a: member 1 .*not found" ssdstripe assemble --boot
el=$(($(date +%s) - t0))
if [ "$el" -lt 2 ] || [ "$el" -gt 6 ]; then fail "waited ${el}s with timeout 2"; fi
# the member appears while assemble waits
(sleep 2; printf '%s\n' "$t" | dmsetup create ssl1) &
echo "ssdstripe.assemble=a ssdstripe.timeout=20" >/tmp/cmdline
must ssdstripe assemble --boot
wait
[ "$(active)" = "a " ] || fail "late member: $(active)"
must ssdstripe stop a
pass
