#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: assemble --scan with every array active succeeds, and works with an unwritable TMPDIR
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# What ssdstripe-assemble.service runs after the initramfs assembled the
# root array: "assemble --scan" with every array already active exits 0
# (their members are held, so no label is left to read), and the tool works
# while TMPDIR (/tmp on a still read-only /) cannot be written.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

wipe_labels $(disks)
set -- $(slices 4 65536 2048)
must ssdstripe create --name a "$1" "$2"
must ssdstripe create --name b "$3" "$4"
must ssdstripe assemble --scan
out=$(ssdstripe assemble --scan 2>&1) || fail "--scan with a and b active exited $?: $out"
echo "$out" | grep -q "active: a b" || fail "--scan with a and b active said: $out"

# b inactive, a active: --scan assembles b, leaves a alone
must ssdstripe stop b
mkdir -p /tmp/ro
mount -t tmpfs -o ro tmpfs /tmp/ro || fail "cannot mount a read-only tmpfs"
out=$(TMPDIR=/tmp/ro ssdstripe assemble --scan 2>&1)
rc=$?
umount /tmp/ro
[ "$rc" = 0 ] || fail "--scan with an unwritable TMPDIR exited $rc: $out"
echo "$out" | grep -q "assembled b from" || fail "--scan did not assemble b: $out"
must ssdstripe stop a b

# nothing labelled and nothing active is still "not found"
wipe_labels $(dmsetup ls | awk '$1 ~ /^ssl/ {print "/dev/mapper/" $1}')
refused 4 "no ssdstripe labels found" ssdstripe assemble --scan --timeout 0
pass
