# shellcheck shell=sh
# Helpers for the dm-ssdstripe guest tests (busybox sh).  Source it:
#   . /tests/integration/lib.sh
# A test exits 0 (pass), 77 (skip) or anything else (fail); the reason for
# a fail or skip goes to $SSD_REASON_FILE (see fail/skip below).

export PATH=/usr/sbin:/usr/bin
export DM_DISABLE_UDEV=1
TARGET=${SSDSTRIPE_TARGET:-ssdstripe}
SSD_REASON_FILE=${SSD_REASON_FILE:-/tmp/reason}
MEASURE_PORT_NAME=org.ssdstripe.measure

# ---- reporting ---------------------------------------------------------
log() { echo "  [$(basename "$0" .sh)] $*"; }
fail() {
	echo "$*" >"$SSD_REASON_FILE"
	log "FAIL: $*"
	exit 1
}
skip() {
	echo "$*" >"$SSD_REASON_FILE"
	log "SKIP: $*"
	exit 77
}
pass() { [ $# -gt 0 ] && echo "$*" >"$SSD_REASON_FILE"; exit 0; }
# run a command, fail the test with its output if it fails
must() {
	_out=$("$@" 2>&1) || { echo "$_out" | tail -n 20; fail "command failed: $*"; }
	[ -n "${VERBOSE:-}" ] && echo "$_out"
	return 0
}

# ---- members -----------------------------------------------------------
# The host attaches NVMe disks with serials ssd0..ssdN-1; guest names do not
# follow that order, so map serial -> block device through sysfs.
_trim() { tr -d ' \t\n'; }
# member_dev SERIAL -> /dev/nvmeXnY
member_dev() {
	_want=$1
	# native multipath: head disks hang below the subsystem
	for _s in /sys/class/nvme-subsystem/nvme-subsys*; do
		[ -e "$_s/serial" ] || continue
		[ "$(_trim <"$_s/serial")" = "$_want" ] || continue
		for _n in "$_s"/nvme*n*; do
			[ -e "$_n" ] || continue
			case "${_n##*/}" in *c*) continue ;; esac
			echo "/dev/${_n##*/}"; return 0
		done
	done
	for _c in /sys/class/nvme/nvme*; do
		[ "$(_trim <"$_c/serial")" = "$_want" ] || continue
		for _n in "$_c"/nvme*n*; do
			[ -e "$_n" ] || continue
			case "${_n##*/}" in nvme*c*n*) continue ;; esac
			echo "/dev/${_n##*/}"; return 0
		done
	done
	return 1
}
ndisks() {
	if [ -n "${SSDSTRIPE_DISKS:-}" ] && [ "$SSDSTRIPE_DISKS" != 0 ]; then echo "$SSDSTRIPE_DISKS"; return; fi
	_c=0; for _x in /sys/class/nvme/nvme*; do [ -e "$_x" ] && _c=$((_c + 1)); done; echo $_c
}
# all member disks in serial order
disks() {
	_i=0
	while [ "$_i" -lt "$(ndisks)" ]; do
		member_dev "ssd$_i" || { echo "no disk with serial ssd$_i" >&2; return 1; }
		_i=$((_i + 1))
	done
}
disk() { member_dev "ssd$1"; }   # disk K -> device of serial ssdK
sectors() { blockdev --getsz "$1"; }
sysname() { # /dev/X or /dev/mapper/X -> X as in /sys/block (dm-N for dm)
	_mm=$(stat -L -c '%t %T' "$1") || return 1
	# shellcheck disable=SC2086
	_mm=$(printf '%d:%d' 0x${_mm% *} 0x${_mm#* })
	_d=$(readlink -f "/sys/dev/block/$_mm"); echo "${_d##*/}"
}
# disk_stat DEV FIELD  (1-based field of /sys/block/X/stat; 12 = discard ios,
# 16 = flush ios)
disk_stat() {
	awk -v f="$2" '{print $f}' "/sys/block/$(sysname "$1")/stat"
}

# ---- arrays ------------------------------------------------------------
# stripe_table TARGET LEN CHUNK DEV OFF [DEV OFF]... [-- OPT...]
stripe_table() {
	_t=$1 _len=$2 _chunk=$3; shift 3
	_n=0 _devs='' _opts=''
	while [ $# -gt 0 ]; do
		if [ "$1" = -- ]; then shift; _opts="$#${*:+ $*}"; break; fi
		_devs="$_devs $1 $2"; _n=$((_n + 1)); shift 2
	done
	echo "0 $_len $_t $_n $_chunk$_devs${_opts:+ $_opts}"
}
# mk_array NAME TABLE...  -> creates /dev/mapper/NAME
mk_array() {
	_name=$1; shift
	log "dmsetup create $_name: $*"
	dmsetup create "$_name" --table "$*" || fail "dmsetup create $_name failed: $*"
	[ -b "/dev/mapper/$_name" ] || dmsetup mknodes "$_name"
	[ -b "/dev/mapper/$_name" ] || fail "/dev/mapper/$_name missing"
}
rm_array() {
	dmsetup remove "$1" || { sleep 1; dmsetup remove "$1"; } || fail "dmsetup remove $1 failed"
}
dm_sysname() { sysname "/dev/mapper/$1"; }

# slices COUNT SECTORS [BASE]: COUNT dm-linear devices ssl0..ssl<COUNT-1>,
# slice i on disk (i mod ndisks) at BASE + (i div ndisks) * SECTORS.
# Prints their /dev/mapper paths in order.
slices() {
	_cnt=$1 _sz=$2 _base=${3:-0} _i=0 _nd=$(ndisks)
	while [ "$_i" -lt "$_cnt" ]; do
		_d=$(disk $((_i % _nd))) || fail "disk $((_i % _nd)) missing"
		_o=$((_base + (_i / _nd) * _sz))
		dmsetup create "ssl$_i" --table "0 $_sz linear $_d $_o" >&2 || fail "slice $_i"
		echo "/dev/mapper/ssl$_i"
		_i=$((_i + 1))
	done
}
rm_slices() {
	for _s in $(dmsetup ls 2>/dev/null | awk '$1 ~ /^ssl[0-9]+$/ {print $1}'); do
		dmsetup remove "$_s"
	done
}

# discard every disk completely (fresh, fully unallocated members)
reset_disks() {
	for _d in $(disks); do /usr/sbin/blkdiscard -f "$_d" >/dev/null 2>&1; done
}

# ---- host measurement --------------------------------------------------
# host_blocks: allocated 512-byte blocks of every member's backing image on
# the host (stat %b), space separated, in serial order (ssd0 first).
measure_port() {
	for _p in /sys/class/virtio-ports/*; do
		[ "$(cat "$_p/name" 2>/dev/null)" = "$MEASURE_PORT_NAME" ] && { echo "/dev/${_p##*/}"; return 0; }
	done
	return 1
}
_host_query() {
	_port=$(measure_port) || { echo "no host measurement port" >&2; return 1; }
	_seq=$$.$(date +%s).$(cut -c1-8 /proc/sys/kernel/random/uuid)
	exec 5<>"$_port"
	echo "$1 $_seq" >&5
	_ans=''
	while read -r -t 20 _tag _rest <&5; do
		[ "$_tag" = "$_seq" ] && { _ans=$_rest; break; }
	done
	exec 5>&-
	[ -n "$_ans" ] || { echo "host did not answer $1" >&2; return 1; }
	echo "$_ans"
}
host_blocks() { _host_query measure; }
# host_blocks_of K: blocks of disk ssdK only
host_blocks_of() { host_blocks | awk -v k="$1" '{print $(k + 1)}'; }
# host file system block size in bytes (granularity of freed space)
host_fs_block() { _host_query fsblock; }
# host_unplug K: QEMU pulls SSD K (serial ssdK) out of its PCIe slot, as a
# surprise removal; the disk is gone for the rest of this boot.
host_unplug() { _host_query "unplug$1"; }

# ---- file systems ------------------------------------------------------
# fs_fill_check FSTYPE NAME CHECK_CMD...: /dev/mapper/NAME, already made
# with FSTYPE, is mounted on /mnt/NAME, filled with 200 small files of odd
# sizes and then 8 MiB files until full, checked read-only with CHECK_CMD
# (e.g. e2fsck -fn), and every file read back.  Prints the big file count.
fs_fill_check() {
	_fs=$1 _n=$2
	shift 2
	_mnt=/mnt/$_n
	mkdir -p "$_mnt"
	must mount -t "$_fs" "/dev/mapper/$_n" "$_mnt"
	_pat=$(pattern_file 8)
	_i=0
	while [ $_i -lt 200 ]; do
		dd if="$_pat" of="$_mnt/small.$_i" bs=1 count=$((_i * 37 + 1)) skip=$_i 2>/dev/null
		_i=$((_i + 1))
	done
	_i=0
	while dd if="$_pat" of="$_mnt/big.$_i" bs=1M count=8 2>/dev/null; do _i=$((_i + 1)); done
	_avail=$(df -k "$_mnt" | awk 'NR == 2 {print $4}')
	[ "$_avail" -lt 8192 ] || fail "file system not filled ($_avail KiB left)"
	sync
	umount "$_mnt"
	must "$@" "/dev/mapper/$_n"
	must mount -t "$_fs" -o ro "/dev/mapper/$_n" "$_mnt"
	_want=$(md5sum <"$_pat" | cut -d' ' -f1)
	_j=0
	while [ $_j -lt $((_i - 1)) ]; do
		[ "$(md5sum <"$_mnt/big.$_j" | cut -d' ' -f1)" = "$_want" ] || fail "big.$_j corrupted"
		_j=$((_j + 1))
	done
	[ "$(wc -c <"$_mnt/small.199")" = $((199 * 37 + 1)) ] || fail "small.199 wrong size"
	umount "$_mnt"
	echo "$_i"
}

# ---- misc --------------------------------------------------------------
# random data file shared by tests (tmpfs), deterministic per size
pattern_file() { # SIZE_MB -> path
	_f=/tmp/pattern.$1
	[ -e "$_f" ] || dd if=/dev/urandom of="$_f" bs=1M count="$1" 2>/dev/null
	echo "$_f"
}
kmsg_mark() { echo "ssdstripe-test-mark $1" >/dev/kmsg; }
# dmesg since mark
dmesg_since() { dmesg | sed -n "/ssdstripe-test-mark $1\$/,\$p"; }

# put the guest back in a clean state (runner calls this after every test)
cleanup_all() {
	# shellcheck disable=SC2013
	for _m in $(awk '$2 ~ "^/mnt" {print $2}' /proc/mounts | sort -r); do
		umount "$_m" 2>/dev/null || umount -l "$_m"
	done
	for _md in /dev/md*; do [ -b "$_md" ] && mdadm --stop "$_md" >/dev/null 2>&1; done
	dmsetup remove_all >/dev/null 2>&1 || dmsetup remove_all --force >/dev/null 2>&1
	rmmod null_blk 2>/dev/null
	losetup -D 2>/dev/null
	[ "$TARGET" = ssdstripe ] && rmmod dm_ssdstripe 2>/dev/null
	return 0
}

# member_share_blocks M CHUNK OFFSETS START LEN HOSTBS
# For a logical range [START, START+LEN) sectors of an array with M members,
# chunk CHUNK sectors, member offsets "o0 o1 ..." (sectors in the member
# disks), print for each member the number of host file-system blocks
# (HOSTBS bytes) that lie completely inside that member's share - what a
# hole punch on the backing image frees.  Also sets nothing; pure function.
member_share_blocks() {
	awk -v m="$1" -v chunk="$2" -v offs="$3" -v s="$4" -v l="$5" -v hbs="$6" '
	BEGIN {
		split(offs, o, " ")
		for (i = 0; i < m; i++) { ns[i] = 0 }
		e = s + l
		while (s < e) {
			k = int(s / chunk); within = s - k * chunk
			idx = k % m; ms = int(k / m) * chunk + within + o[idx + 1]
			n = chunk - within; if (n > e - s) n = e - s
			c = ns[idx]
			if (c > 0 && rs[idx, c - 1] + rl[idx, c - 1] == ms) {
				rl[idx, c - 1] += n
			} else { rs[idx, c] = ms; rl[idx, c] = n; ns[idx] = c + 1 }
			s += n
		}
		out = ""
		for (i = 0; i < m; i++) {
			t = 0
			for (j = 0; j < ns[i]; j++) {
				b0 = rs[i, j] * 512; b1 = (rs[i, j] + rl[i, j]) * 512
				first = int((b0 + hbs - 1) / hbs); last = int(b1 / hbs)
				if (last > first) t += last - first
			}
			out = out (i ? " " : "") t
		}
		print out
	}'
}
# members_with_share M CHUNK START LEN -> how many members get part of the range
members_with_share() {
	member_share_blocks "$1" "$2" "$(yes 0 | head -n "$1" | tr '\n' ' ')" "$3" "$4" 512 |
		awk '{n = 0; for (i = 1; i <= NF; i++) if ($i > 0) n++; print n}'
}
# vec_sub "a b c" "x y z" -> "a-x b-y c-z"
vec_sub() {
	echo "$1 $2" | awk '{n = NF / 2; o = ""; for (i = 1; i <= n; i++) o = o (i > 1 ? " " : "") ($i - $(i + n)); print o}'
}
