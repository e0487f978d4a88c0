# shellcheck shell=sh
# What every dm-ssdstripe guest test needs (busybox sh): reporting, the
# member disks, arrays, the host measurement channel, marks in the kernel
# log.  A test sources this first, then the helpers of its concern:
#   . /tests/integration/lib/common.sh
#   . /tests/integration/lib/health.sh
# lib/target.sh: file systems and what a discard frees on each member;
# lib/health.sh: the health tests' timing on the debug kernel, waiting for
# a state, the no-false-alarm verdict; lib/faults.sh: member faults under
# load; lib/tool.sh: the ssdstripe tool's labels and
# refusals.
# A test exits 0 (pass), 77 (skip) or anything else (fail); the reason for
# a fail or skip goes to $SSD_REASON_FILE (see fail/skip below).

export PATH=/usr/sbin:/usr/bin
export DM_DISABLE_UDEV=1
TARGET=${SSDSTRIPE_TARGET:-ssdstripe}
SSD_REASON_FILE=${SSD_REASON_FILE:-/tmp/reason}
MEASURE_PORT_NAME=org.ssdstripe.measure

# ---- reporting ---------------------------------------------------------
# log MESSAGE: a line on the console, named after the test (SSD_TEST,
# which the runner sets: target/001)
log() { echo "  [${SSD_TEST:-$(basename "$0" .sh)}] $*"; }
# fail REASON: end the test as failed.  Inside a command substitution or
# other subshell the exit ends only the subshell, so the reason is also
# kept in REASON_FILE.failed, and the runner fails a test that left one
# whatever its exit status.
fail() {
	echo "$*" >"$SSD_REASON_FILE"
	echo "$*" >"$SSD_REASON_FILE.failed"
	log "FAIL: $*"
	exit 1
}
skip() {
	echo "$*" >"$SSD_REASON_FILE"
	log "SKIP: $*"
	exit 77
}
pass() { [ $# -gt 0 ] && echo "$*" >"$SSD_REASON_FILE"; exit 0; }
# the KASAN/lockdep kernel of qemu/debug-kernel (timings mean nothing there)
debug_kernel() {
	case $(uname -r) in *-ssddbg-*) return 0 ;; esac
	[ -e /sys/kernel/debug/kmemleak ]
}
# scaled N [MIN]: a test's data volume (MiB, files, rounds).  N on Debian's
# kernels; on the debug kernel N/4, at least MIN (default 1).  Under KASAN,
# lockdep and kmemleak in TCG a MiB written costs 50 times or more what it
# does on Debian's kernel (target/004 had not filled its 256 MiB of ext4
# after 45 minutes there), while what those checkers look at is code paths,
# not volume.
scaled() {
	debug_kernel || { echo "$1"; return 0; }
	_s=$(($1 / 4))
	[ "$_s" -ge "${2:-1}" ] || _s=${2:-1}
	echo "$_s"
}
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

# disks_stat FIELD: that field of every disk's stat (disk_stat), in serial
# order, on one line
disks_stat() {
	for _ds in $(disks); do printf '%s ' "$(disk_stat "$_ds" "$1")"; done
	echo
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
# member_args M [BASE [STEP]]: the member arguments of a table over the
# first M disks, "DEV OFFSET" pairs: disk i at sector BASE + i * STEP
member_args() {
	_ma_i=0
	while [ "$_ma_i" -lt "$1" ]; do
		_ma_d=$(disk "$_ma_i") || fail "disk $_ma_i missing"
		printf '%s %s ' "$_ma_d" $((${2:-0} + _ma_i * ${3:-0}))
		_ma_i=$((_ma_i + 1))
	done
}
# mk_stripe NAME LEN CHUNK M [BASE [STEP]] [-- FEATURE...]: array NAME of
# $TARGET, LEN sectors in chunks of CHUNK, over the first M disks at the
# offsets of member_args
mk_stripe() {
	_ms_name=$1 _ms_len=$2 _ms_chunk=$3 _ms_m=$4 _ms_base=0 _ms_step=0
	shift 4
	if [ $# -gt 0 ] && [ "$1" != -- ]; then _ms_base=$1; shift; fi
	if [ $# -gt 0 ] && [ "$1" != -- ]; then _ms_step=$1; shift; fi
	# shellcheck disable=SC2046 # DEV OFFSET pairs are words
	mk_array "$_ms_name" "$(stripe_table "$TARGET" "$_ms_len" "$_ms_chunk" \
		$(member_args "$_ms_m" "$_ms_base" "$_ms_step") "$@")"
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
# host_critical_warning K V: SSD K's controller reports NVMe critical-warning
# bits V (QEMU's smart_critical_warning property, set through its monitor);
# 0 clears them.  Prints QEMU's answer ("ok" when it had nothing to say).
host_critical_warning() { _host_query "critwarn$1.$2"; }
# host_powercut: the host kills this guest at once, a power cut: no
# shutdown, no flush of its own (the emulated drives keep what they
# acknowledged, as drives with power-loss protection do).  Only for tests
# of RUN: alone: qemu/run.sh boots the guest again on the same disks, the
# run's selection again, with SSD_PHASE one higher.  Never returns.
host_powercut() {
	log "power cut (phase $(phase))"
	_host_query powercut >/dev/null 2>&1
	sleep 600
	fail "the host did not cut the power"
}
# phase: which boot of the run this is: 1, then one more after each power
# cut (host_powercut)
phase() { echo "${SSD_PHASE:-1}"; }

# ---- misc --------------------------------------------------------------
# random data file shared by tests (tmpfs), deterministic per size
pattern_file() { # SIZE_MB -> path
	_f=/tmp/pattern.$1
	[ -e "$_f" ] || dd if=/dev/urandom of="$_f" bs=1M count="$1" 2>/dev/null
	echo "$_f"
}
kmsg_mark() { echo "ssdstripe-test-mark $1" >/dev/kmsg; }
# dmesg_since MARK: the kernel log from kmsg_mark MARK on
dmesg_since() {
	dmesg | awk -v m="ssdstripe-test-mark $1" \
		'!f && length($0) >= length(m) && substr($0, length($0) - length(m) + 1) == m { f = 1 } f'
}
# dmesg_test: the kernel log since the runner began this test
dmesg_test() { dmesg_since "begin $SSD_TEST"; }

# ---- golden output -------------------------------------------------------
# What a test prints that must be the same every run (error messages, exit
# codes, help texts), compared by the runner with GROUP/NNN.out beside the
# test when the test passes (blktests' golden files; runner.sh says how
# UPDATE=1 rewrites them).  golden TEXT appends one line, golden with no
# argument every line of stdin, after golden_sub's substitutions.
SSD_GOLDEN=${SSD_GOLDEN:-/tmp/golden}
# golden_sub VALUE NAME: from here on VALUE (literal text: a device name, a
# size, a uuid) reads NAME in the golden output, longest VALUE first
golden_sub() { printf '%s\t%s\n' "$1" "$2" >>"$SSD_GOLDEN.subst"; }
golden() {
	if [ $# -gt 0 ]; then printf '%s\n' "$*"; else cat; fi |
		awk -v subst="$SSD_GOLDEN.subst" '
		function swap(s, a, b,   o, p) {
			o = ""
			while ((p = index(s, a)) > 0) {
				o = o substr(s, 1, p - 1) b
				s = substr(s, p + length(a))
			}
			return o s
		}
		BEGIN {
			while ((getline l <subst) > 0) {
				t = index(l, "\t")
				if (t < 2) continue
				n++; v[n] = substr(l, 1, t - 1); r[n] = substr(l, t + 1)
			}
			# longest first: /dev/nvme10n1 before /dev/nvme1n1
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (length(v[j]) > length(v[i])) {
						x = v[i]; v[i] = v[j]; v[j] = x
						x = r[i]; r[i] = r[j]; r[j] = x
					}
		}
		{
			s = $0
			gsub(/\r/, "", s)
			for (i = 1; i <= n; i++) s = swap(s, v[i], r[i])
			print s
		}' >>"$SSD_GOLDEN"
}
# golden_disks: the member disks' kernel names (nvme2n1, which differ
# from boot to boot) read <ssdK> by their serials in the golden output
golden_disks() {
	_gd=0
	for _gd_d in $(disks); do
		golden_sub "${_gd_d#/dev/}" "<ssd$_gd>"
		_gd=$((_gd + 1))
	done
}
# golden_skip REASON: this run's output is not comparable (the runner says
# so and compares nothing)
golden_skip() { echo "$*" >"$SSD_GOLDEN.skip"; }

# put the guest back in a clean state (runner calls this after every test)
cleanup_all() {
	# shellcheck disable=SC2013
	for _m in $(awk '$2 ~ "^/mnt" {print $2}' /proc/mounts | sort -r); do
		umount "$_m" 2>/dev/null || umount -l "$_m"
	done
	for _md in /dev/md*; do [ -b "$_md" ] && mdadm --stop "$_md" >/dev/null 2>&1; done
	dmsetup remove_all >/dev/null 2>&1 || dmsetup remove_all --force >/dev/null 2>&1
	rmmod null_blk 2>/dev/null
	rmmod scsi_debug 2>/dev/null
	losetup -D 2>/dev/null
	[ "$TARGET" = ssdstripe ] && rmmod dm_ssdstripe 2>/dev/null
	return 0
}

# vec_sub "a b c" "x y z" -> "a-x b-y c-z"
vec_sub() {
	echo "$1 $2" | awk '{n = NF / 2; o = ""; for (i = 1; i <= n; i++) o = o (i > 1 ? " " : "") ($i - $(i + n)); print o}'
}

# ---- live tables ---------------------------------------------------------
# swap_table NAME TABLE: replace the table of live device NAME (suspend,
# reload, resume), as a fault appears under a member
swap_table() {
	if ! { dmsetup suspend "$1" && dmsetup reload "$1" --table "$2" &&
		dmsetup resume "$1"; }; then
		fail "cannot switch $1 to '$2'"
	fi
}
# mm DEV: major:minor of a device node
mm() { cat "/sys/class/block/$(sysname "$1")/dev"; }
# wait_until SECS CMD...: run CMD every half second until it succeeds;
# returns non-zero if it has not after SECS seconds
wait_until() {
	_w=$(($1 * 2))
	shift
	until "$@"; do
		_w=$((_w - 1))
		[ "$_w" -ge 0 ] || return 1
		sleep 0.5
	done
}
