#!/bin/sh
# shellcheck disable=SC2046 # device lists are words
# DESCRIPTION: create's checks: options anywhere, sizes, wasteful geometry, --force, --trim, the small words
# KERNELS: 6.12
# DEBUG: no
# QUICK: yes
# TARGET: ssdstripe
# RUN: always
#
# create loses nothing silently and --force means it (issue #20): options
# anywhere on the line, sizes with K M G T (1G = 1024M), a chunk larger
# than a member and a wasteful geometry (a chunk too big, mixed sizes)
# refused naming the device and the waste, accepted with --force, the size
# each member gives printed; every refused device on its own line and no
# "overwriting (--force)" before a later refusal; --force --trim on members
# holding a file system.  And the small words: "1 member", a dm member
# named alike by status and assemble, examine's ISO 8601 time, status with
# no arrays, an incomplete device list refused at once, "already active"
# said once while assemble waits.
. /tests/integration/lib/common.sh
. /tests/integration/lib/tool.sh
[ "$TARGET" = ssdstripe ] || skip "ssdstripe-only behaviour"

S=65536				# 32 MiB slices
wipe_labels $(disks)
set -- $(slices 4 $S 2048)
s0=$1 s1=$2 s2=$3 s3=$4

# ---- options anywhere, sizes --------------------------------------------
must ssdstripe create --name c "$s0" "$s1" --chunk 4K
[ "$(dmsetup table c | awk '{print $5}')" = 8 ] || fail "--chunk 4K after the devices: $(dmsetup table c)"
must ssdstripe stop c
wipe_labels "$s0" "$s1"
refused 3 "a chunk of 1.0 GiB is larger than $s0 holds" ssdstripe create --name c --chunk 1G "$s0" "$s1"
refused 3 "a chunk of 1.0 GiB is larger than $s0 holds" ssdstripe create --name c --chunk 1024M "$s0" "$s1"
refused 2 "invalid chunk size '1X'" ssdstripe create --name c --chunk 1X "$s0" "$s1"
refused 2 "unknown option --bogus" ssdstripe create --name c "$s0" "$s1" --bogus

# ---- wasteful geometry ------------------------------------------------------
# a 16 MiB chunk on 32 MiB members leaves 14 MiB of each unused
refused 3 "$s1 would leave 14.0 MiB of its 32.0 MiB unused" ssdstripe create --name c --chunk 16M "$s0" "$s1"
grep -q "$s0 would leave 14.0 MiB" /tmp/refused.err || fail "not every member named: $(cat /tmp/refused.err)"
# mixed sizes: 16 MiB beside 32 MiB, past the slices on disk 0
must dmsetup create small --table "0 32768 linear $(disk 0) $((2048 + S))"
wipe_labels /dev/mapper/small
refused 3 "$s1 would leave 16.0 MiB of its 32.0 MiB unused" ssdstripe create --name c /dev/mapper/small "$s1"
out=$(ssdstripe create --force --name c /dev/mapper/small "$s1" 2>&1) || fail "create --force exited $?: $out"
echo "$out" | grep -q "^member mapper/small: 16.0 MiB, uses 14.0 MiB$" || fail "member line: $out"
echo "$out" | grep -q "^member mapper/ssl1: 32.0 MiB, uses 14.0 MiB$" || fail "member line: $out"
echo "$out" | grep -q "would leave 16.0 MiB .*(--force)" || fail "--force did not say the waste: $out"
must ssdstripe stop c
wipe_labels /dev/mapper/small "$s1"
must dmsetup remove small

# ---- every refusal, and --force only after all checks --------------------
must mkfs.ext4 -q "$s0"
must mkfs.ext4 -q "$s2"
must mkfs.ext4 -q "$s3"
mkdir -p /mnt/c && must mount -t ext4 "$s3" /mnt/c
refused 3 "$s0 carries an ext4 signature" ssdstripe create --name c "$s0" "$s1" "$s2" "$s3"
grep -q "$s2 carries an ext4 signature" /tmp/refused.err || fail "$s2 not named: $(cat /tmp/refused.err)"
grep -q "$s3 is in use (mounted on /mnt/c)" /tmp/refused.err || fail "$s3 not named: $(cat /tmp/refused.err)"
refused 3 "$s3 is in use" ssdstripe create --force --name c "$s0" "$s1" "$s2" "$s3"
grep -q "overwriting" /tmp/refused.err && fail "said overwriting before refusing: $(cat /tmp/refused.err)"
umount /mnt/c

# ---- --force --trim over file systems ----------------------------------
out=$(ssdstripe create --force --trim --name t "$s0" "$s2" 2>&1) || fail "create --force --trim exited $?: $out"
echo "$out" | grep -q "trim $s0: 100%" || fail "no trim progress: $out"
echo "$out" | grep -q "$s0 carries an ext4 signature: overwriting (--force)" || fail "create said: $out"
must ssdstripe stop t
wipe_labels "$s0" "$s2" "$s3"

# ---- words -----------------------------------------------------------------
out=$(ssdstripe status) || fail "status without arrays exited $?"
[ "$out" = "no active arrays" ] || fail "status without arrays said: $out"
out=$(ssdstripe create --name one "$s0") || fail "create one exited $?"
echo "$out" | grep -q "created array one: 1 member, " || fail "create said: $out"
st=$(ssdstripe status one) || fail "status one exited $?"
echo "$st" | grep -q "^array one: optimal, 1 member, " || fail "status said: $st"
echo "$st" | grep -qE "^  0 +mapper/ssl0 " || fail "status names the member: $st"
must ssdstripe stop one
out=$(ssdstripe assemble one) || fail "assemble one exited $?"
echo "$out" | grep -q "assembled one from mapper/ssl0 " || fail "assemble said: $out"
must ssdstripe stop one
created=$(ssdstripe examine "$s0" | sed -n 's/^  created=//p')
n=${created%% *}
echo "$created" | grep -qE "^[0-9]+ \([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\)$" ||
	fail "examine created=$created"
[ "$created" = "$n ($(date -u -d "@$n" '+%Y-%m-%dT%H:%M:%SZ'))" ] || fail "created=$created"
wipe_labels "$s0"

# an incomplete device list is refused at once, naming the missing index
must ssdstripe create --name two "$s0" "$s1"
must ssdstripe create --name inc "$s2" "$s3"
must ssdstripe stop two inc
t0=$(date +%s)
refused 3 "array two: member 1 \([0-9a-f-]+\) not found \(incomplete\)" ssdstripe assemble --timeout 60 "$s0"
[ $(($(date +%s) - t0)) -lt 30 ] || fail "assemble of an incomplete list waited $(($(date +%s) - t0))s"
# "already active" once while waiting for a missing member of another array
must ssdstripe assemble two
t3=$(dmsetup table ssl3)
must dmsetup remove ssl3
refused 3 "array inc: member 1 .*not found" ssdstripe assemble --timeout 3 two inc
[ "$(grep -c 'already active' /tmp/refused.out)" = 1 ] ||
	fail "already active said $(grep -c 'already active' /tmp/refused.out) times: $(cat /tmp/refused.out)"
printf '%s\n' "$t3" | dmsetup create ssl3 || fail "cannot recreate ssl3"
must ssdstripe stop two
wipe_labels "$@"
pass
