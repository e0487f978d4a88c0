#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: --incremental and --boot-late follow ARRAY, AUTO and TIMEOUT, and write nothing
# KERNELS: 6.12
# DEBUG: no
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Boot-time policy of /etc/ssdstripe.conf (issue #20): ARRAY NAME and ARRAY
# uuid=UUID list arrays, AUTO yes|no says whether the others are assembled.
# "assemble --incremental DEV" (the udev rule) activates an array when DEV
# completes it and the policy allows it, says nothing for a device without
# a label, leaves an unlisted array alone with AUTO no, refuses a re-used
# member; --export only prints the udev variables, with what it decided
# (SSDSTRIPE_ASSEMBLE_RESULT) for every labelled device.  "assemble --boot-late"
# (ssdstripe-assemble.service) waits TIMEOUT for listed arrays only and, with
# AUTO yes, assembles the other complete arrays without waiting.  BOOT none
# + AUTO no + no ARRAY, or ssdstripe.assemble=none, assemble nothing at
# all.  None of it writes to a member.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

wipe_labels $(disks)
set -- $(slices 6 65536 2048)
s0=$1 s1=$2 s2=$3 s3=$4 s4=$5 s5=$6
must ssdstripe create --name a "$s0" "$s1"
must ssdstripe create --name b "$s2" "$s3"
must ssdstripe create --name c "$s4" "$s5"
ub=$(dmsetup info -c --noheadings -o uuid b | sed 's/^SSDSTRIPE-//')
must ssdstripe stop a b c
active() { dmsetup ls --target ssdstripe | awk '$1 != "No" {print $1}' | sort | tr '\n' ' '; }
export SSDSTRIPE_CONF=/tmp/ssdstripe.conf SSDSTRIPE_CMDLINE=/tmp/cmdline
echo "console=ttyS0" >/tmp/cmdline
printf 'AUTO yes\n' >"$SSDSTRIPE_CONF"
# a device without a label: nothing, quietly
must dmsetup create ssl9 --table "0 65536 linear $(disk 3) $((2048 + 4 * 65536))"
wipe_labels /dev/mapper/ssl9
out=$(ssdstripe assemble --incremental /dev/mapper/ssl9 2>&1) || fail "--incremental on a bare device exited $?"
[ -z "$out" ] || fail "--incremental on a bare device said: $out"
out=$(ssdstripe assemble --incremental --export /dev/mapper/ssl9 2>/dev/null) ||
	fail "--incremental --export on a bare device exited $?"
[ -z "$out" ] || fail "--incremental --export on a bare device printed: $out"
must dmsetup remove ssl9
# members are slices of the disks: what reached the disks counts
w0=$(writes_done $(disks))

# ---- nothing at all: BOOT none, AUTO no, no ARRAY line ------------------
printf 'BOOT none\nAUTO no   # only what is listed\n' >"$SSDSTRIPE_CONF"
must ssdstripe assemble --boot
out=$(ssdstripe assemble --boot-late 2>&1) || fail "--boot-late exited $?: $out"
echo "$out" | grep -q "nothing to assemble" || fail "--boot-late said: $out"
for d in "$@"; do
	out=$(ssdstripe assemble --incremental "$d" 2>&1) || fail "--incremental $d exited $?: $out"
done
echo "$out" | grep -q "does not list (AUTO no): left alone" || fail "--incremental $s5 said: $out"
out=$(ssdstripe assemble --incremental --export "$s5" 2>/dev/null) || fail "--export $s5 exited $?"
[ "$out" = SSDSTRIPE_ASSEMBLE_RESULT=not-listed ] || fail "--export of an unlisted array printed: $out"
[ -z "$(active)" ] || fail "BOOT none + AUTO no assembled: $(active)"
# the command line's none beats an AUTO yes file
printf 'AUTO yes\nARRAY a\n' >"$SSDSTRIPE_CONF"
echo "ssdstripe.assemble=none" >/tmp/cmdline
must ssdstripe assemble --boot-late
for d in "$@"; do must ssdstripe assemble --incremental "$d"; done
[ -z "$(active)" ] || fail "ssdstripe.assemble=none assembled: $(active)"
echo "console=ttyS0" >/tmp/cmdline

# ---- --incremental: the last member activates a listed array -----------
printf 'BOOT none\nAUTO no\nARRAY name=a\n' >"$SSDSTRIPE_CONF"
t1=$(dmsetup table ssl1)
must dmsetup remove ssl1
out=$(ssdstripe assemble --incremental "$s0" 2>&1) || fail "--incremental $s0 exited $?: $out"
echo "$out" | grep -q "array a: 1 member of 2 present" || fail "first member: $out"
[ -z "$(active)" ] || fail "half of a assembled: $(active)"
out=$(ssdstripe assemble --incremental --export "$s0" 2>/dev/null) || fail "--export $s0 exited $?"
[ "$out" = SSDSTRIPE_ASSEMBLE_RESULT=incomplete ] || fail "--export of half of a printed: $out"
printf '%s\n' "$t1" | dmsetup create ssl1 || fail "cannot put ssl1 back"
# --export: the udev variables on stdout, nothing activated
ssdstripe assemble --incremental --export "$s1" >/tmp/export.out 2>/tmp/export.err ||
	fail "--export exited $?: $(cat /tmp/export.err)"
grep -qx "SSDSTRIPE_ASSEMBLE_NAME=a" /tmp/export.out || fail "--export printed: $(cat /tmp/export.out)"
grep -qx "SSDSTRIPE_ASSEMBLE_DEVICES=$s0 $s1" /tmp/export.out || fail "--export printed: $(cat /tmp/export.out)"
grep -qx "SSDSTRIPE_ASSEMBLE_RESULT=complete" /tmp/export.out || fail "--export printed: $(cat /tmp/export.out)"
[ "$(grep -cv '^SSDSTRIPE_ASSEMBLE_[A-Z]*=' /tmp/export.out)" = 0 ] ||
	fail "--export printed more than variables: $(cat /tmp/export.out)"
[ -z "$(active)" ] || fail "--export assembled: $(active)"
out=$(ssdstripe assemble --incremental "$s1" 2>&1) || fail "--incremental $s1 exited $?: $out"
echo "$out" | grep -q "assembled a from" || fail "last member: $out"
# b is not listed: left alone, c too
for d in "$s2" "$s3" "$s4" "$s5"; do must ssdstripe assemble --incremental "$d"; done
[ "$(active)" = "a " ] || fail "ARRAY a + AUTO no gave: $(active)"
# a member of an active array is held: nothing to read
out=$(ssdstripe assemble --incremental "$s0" 2>&1) || fail "--incremental on a held member exited $?"
[ -z "$out" ] || fail "--incremental on a held member said: $out"
must ssdstripe stop a

# ---- --boot-late: ARRAY uuid=, TIMEOUT, AUTO ----------------------------
# by uuid (in capitals), with a comment; b only
printf 'BOOT none\nAUTO no\nARRAY uuid=%s # the b array\nTIMEOUT 20\n' \
	"$(echo "$ub" | tr a-f A-F)" >"$SSDSTRIPE_CONF"
must ssdstripe assemble --boot-late
[ "$(active)" = "b " ] || fail "ARRAY uuid=<b> gave: $(active)"
must ssdstripe stop b
# one array per line: the second word is ignored, and said so
printf 'AUTO no\nARRAY c a\n' >"$SSDSTRIPE_CONF"
out=$(ssdstripe assemble --boot-late 2>&1) || fail "--boot-late with ARRAY c a exited $?: $out"
echo "$out" | grep -q "line 2: one array per ARRAY line" || fail "ARRAY c a: $out"
[ "$(active)" = "c " ] || fail "ARRAY c a gave: $(active)"
must ssdstripe stop c
# a listed array with a member missing: waits TIMEOUT, then fails
printf 'AUTO no\nARRAY a\nTIMEOUT 2\n' >"$SSDSTRIPE_CONF"
must dmsetup remove ssl1
t0=$(date +%s)
refused 3 "array a: member 1 .*not found" ssdstripe assemble --boot-late
el=$(($(date +%s) - t0))
if [ "$el" -lt 2 ] || [ "$el" -gt 8 ]; then fail "waited ${el}s for a with TIMEOUT 2"; fi
[ -z "$(active)" ] || fail "incomplete a: $(active)"
# AUTO yes (no AUTO line): listed b is waited for, the incomplete unlisted
# a is not (udev takes it when its member comes), c is assembled
printf 'ARRAY b\nTIMEOUT 20\n' >"$SSDSTRIPE_CONF"
t0=$(date +%s)
out=$(ssdstripe assemble --boot-late 2>&1) || fail "--boot-late with AUTO yes exited $?: $out"
el=$(($(date +%s) - t0))
[ "$el" -lt 15 ] || fail "--boot-late took ${el}s: it waited for the unlisted a"
echo "$out" | grep -q "array a is incomplete: udev assembles it" || fail "--boot-late said: $out"
[ "$(active)" = "b c " ] || fail "ARRAY b + AUTO yes gave: $(active)"
printf '%s\n' "$t1" | dmsetup create ssl1 || fail "cannot put ssl1 back"
must ssdstripe assemble --incremental "$s1"
[ "$(active)" = "a b c " ] || fail "a after its member came back: $(active)"
out=$(ssdstripe assemble --boot-late 2>&1) || fail "--boot-late with all active exited $?: $out"
must ssdstripe stop a b c
[ "$(writes_done $(disks))" = "$w0" ] || fail "incremental or boot-late assembly wrote to members"

# ---- a re-used member (swap over the old label) is never taken ----------
must wipefs -a "$s5"
must mkswap "$s5"
w0=$(writes_done $(disks))
printf 'ARRAY a\nAUTO maybe\n' >"$SSDSTRIPE_CONF"
refused 3 "refusing mapper/ssl5: it carries a swap signature now" ssdstripe assemble --incremental "$s4"
refused 3 "refusing mapper/ssl5: it carries a swap signature now" ssdstripe assemble --incremental --export "$s5"
[ -s /tmp/refused.out ] && fail "--export printed for a refused array: $(cat /tmp/refused.out)"
# AUTO yes: the unlisted c is refused (b, complete, assembled), but the
# listed a decides the status
out=$(ssdstripe assemble --boot-late 2>&1) || fail "--boot-late with a re-used member of c exited $?: $out"
echo "$out" | grep -q "refusing mapper/ssl5: it carries a swap signature" || fail "--boot-late said: $out"
echo "$out" | grep -q "line 2: AUTO is yes or no, not 'maybe': using yes" || fail "AUTO maybe: $out"
[ "$(active)" = "a b " ] || fail "with c's member re-used: $(active)"
[ "$(writes_done $(disks))" = "$w0" ] || fail "incremental or boot-late assembly wrote to members"
must ssdstripe stop a b
pass
