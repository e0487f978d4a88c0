#!/bin/sh
# DESCRIPTION: every malformed table is refused with its message and leaves no device
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# Every malformed table is refused with its message and leaves no device.
. /tests/integration/lib/common.sh
T=$TARGET
d0=$(disk 0); d1=$(disk 1)
sz=$(sectors "$d0")
modprobe null_blk nr_devices=2 bs=4096 gb=1 || fail "null_blk (4 KiB blocks) unavailable"
[ -b /dev/nullb1 ] || fail "no /dev/nullb1"
count_dm() { n_=0; for d_ in /sys/block/dm-*; do [ -e "$d_" ] && n_=$((n_ + 1)); done; echo $n_; }
ndm=$(count_dm)
n=0 bad=''
check() { # [-x] MESSAGE TABLE   (-x: ssdstripe-only rule, striped accepts it)
	if [ "$1" = -x ]; then
		shift
		[ "$T" = striped ] && { log "not a striped rule: $1"; return; }
	fi
	msg=$1; shift
	n=$((n + 1))
	kmsg_mark "case $n"
	if dmsetup create tbad --table "$*" >/tmp/dmsetup.out 2>&1; then
		dmsetup remove tbad
		bad="$bad; accepted: '$*'"
		return
	fi
	if [ "$T" = ssdstripe ]; then
		dmesg_since "case $n" | grep -qF "ssdstripe: $msg" || {
			dmesg_since "case $n" | tail -n 3
			bad="$bad; no '$msg' for '$*'"
		}
	fi
	if dmsetup info tbad >/dev/null 2>&1 || [ -e /dev/mapper/tbad ]; then
		dmsetup remove tbad 2>/dev/null
		bad="$bad; device left behind for '$*'"
	fi
	log "refused: $msg"
}
check "Not enough arguments" "0 1024 $T 2"
check "Not enough arguments" "0 1024 $T"
check "Invalid member count" "0 1024 $T 0 8 $d0 0"
check "Invalid member count" "0 1024 $T x 8 $d0 0"
check "Invalid chunk size" "0 1024 $T 2 0 $d0 0 $d1 0"
check "Invalid chunk size" "0 1024 $T 2 abc $d0 0 $d1 0"
check "Not enough destinations specified" "0 1024 $T 2 8 $d0 0"
check "Invalid device offset" "0 1024 $T 2 8 $d0 xyz $d1 0"
check "Target length not divisible by number of members" "0 1023 $T 2 8 $d0 0 $d1 0"
check "Target length not divisible by chunk size" "0 1000 $T 2 8 $d0 0 $d1 0"
check "Invalid number of feature arguments" "0 1024 $T 2 8 $d0 0 $d1 0 abc"
check "Unrecognised feature argument" "0 1024 $T 2 8 $d0 0 $d1 0 1 bogus"
check "Duplicate no_discard_passdown argument" "0 1024 $T 2 8 $d0 0 $d1 0 2 no_discard_passdown no_discard_passdown"
check "Too many arguments" "0 1024 $T 2 8 $d0 0 $d1 0 1 no_discard_passdown extra"
check "Device lookup failed" "0 1024 $T 2 8 /dev/nonexistent 0 $d1 0"
check -x "Duplicate member device" "0 1024 $T 2 8 $d0 0 $d0 2048"
check -x "Chunk size not a multiple of member logical block size" "0 96 $T 2 12 /dev/nullb0 0 /dev/nullb1 0"
check "Member offset not aligned to logical block size" "0 32 $T 2 8 /dev/nullb0 1 /dev/nullb1 0"
check "Member device too small for target" "0 $(((sz + 8) * 2)) $T 2 8 $d0 0 $d1 0"
check "Member device too small for target" "0 2048 $T 2 8 $d0 $((sz - 512)) $d1 0"
[ "$(count_dm)" = "$ndm" ] || bad="$bad; dm devices left: $(echo /sys/block/dm-*)"
dmsetup ls | grep -qv 'No devices found' && bad="$bad; dmsetup ls not empty"
# a good table still works afterwards
mk_array tgood "0 1024 $T 2 8 $d0 0 $d1 0"
rm_array tgood
rmmod null_blk
[ -z "$bad" ] || fail "${bad#; }"
pass "$n malformed tables refused"
