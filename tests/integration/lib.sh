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
# does on Debian's kernel (004 had not filled its 256 MiB of ext4 after 45
# minutes there), while what those checkers look at is code paths, not volume.
scaled() {
	debug_kernel || { echo "$1"; return 0; }
	_s=$(($1 / 4))
	[ "$_s" -ge "${2:-1}" ] || _s=${2:-1}
	echo "$_s"
}
# Health tests on the debug kernel.  There the whole guest completes a few
# dozen I/Os a second (7 per member with one other guest on the host, 2 with
# two), and healthy latencies grow to tens of ms, so a 1 s window judged on
# 16 I/Os sees nothing and a 40 ms dm-delay is not 4 times its peers.  The
# health tests therefore use, there only: 4 s windows judged on 4 I/Os and a
# 20 s stall_ms (health_opts, table feature words to append to
# stripe_table's arguments), a 400 ms delay (slow_delay_ms), and 4 times the
# load and idle time (health_secs N).  On Debian's kernels all are the
# defaults.
health_opts() { if debug_kernel; then echo "-- health_window_ms 4000 min_ios 4 stall_ms 20000"; fi; }
slow_delay_ms() { if debug_kernel; then echo 400; else echo 40; fi; }
# the stall_ms and health_window_ms health_opts leaves (the defaults, on
# Debian's kernels), in ms
stall_ms() { if debug_kernel; then echo 20000; else echo 5000; fi; }
window_ms() { if debug_kernel; then echo 4000; else echo 1000; fi; }
health_secs() { if debug_kernel; then echo $(($1 * 4)); else echo "$1"; fi; }
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
# host_critical_warning K V: SSD K's controller reports NVMe critical-warning
# bits V (QEMU's smart_critical_warning property, set through its monitor);
# 0 clears them.  Prints QEMU's answer ("ok" when it had nothing to say).
host_critical_warning() { _host_query "critwarn$1.$2"; }

# ---- file systems ------------------------------------------------------
# fs_fill_check FSTYPE NAME CHECK_CMD...: /dev/mapper/NAME, already made
# with FSTYPE, is mounted on /mnt/NAME, filled with 200 small files of odd
# sizes and then 8 MiB files until full (or FILL_MAX_MB written, when set),
# checked read-only with CHECK_CMD (e.g. e2fsck -fn), and every file read
# back.  Prints the big file count.
fs_fill_check() {
	_fs=$1 _n=$2
	shift 2
	_mnt=/mnt/$_n
	mkdir -p "$_mnt"
	must mount -t "$_fs" "/dev/mapper/$_n" "$_mnt"
	_pat=$(pattern_file 8)
	_i=0
	while [ $_i -lt 200 ]; do
		dd if="$_pat" of="$_mnt/small.$_i" bs=$((_i * 37 + 1)) count=1 skip=$_i \
			iflag=skip_bytes 2>/dev/null
		_i=$((_i + 1))
	done
	_i=0 _cap=${FILL_MAX_MB:+$((FILL_MAX_MB / 8))}
	while [ -z "$_cap" ] || [ "$_i" -lt "$_cap" ]; do
		dd if="$_pat" of="$_mnt/big.$_i" bs=1M count=8 2>/dev/null || break
		_i=$((_i + 1))
	done
	if [ -n "$_cap" ] && [ "$_i" -ge "$_cap" ]; then
		_whole=$_i
		log "stopped after $FILL_MAX_MB MiB (FILL_MAX_MB), not filled" >&2
	else
		# the file that hit ENOSPC is short: read back the ones before it
		_whole=$((_i - 1))
		_avail=$(df -k "$_mnt" | awk 'NR == 2 {print $4}')
		[ "$_avail" -lt 8192 ] || fail "file system not filled ($_avail KiB left)"
	fi
	sync
	umount "$_mnt"
	must "$@" "/dev/mapper/$_n"
	must mount -t "$_fs" -o ro "/dev/mapper/$_n" "$_mnt"
	_want=$(md5sum <"$_pat" | cut -d' ' -f1)
	_j=0
	while [ $_j -lt $_whole ]; do
		[ "$(md5sum <"$_mnt/big.$_j" | cut -d' ' -f1)" = "$_want" ] || fail "big.$_j corrupted"
		_j=$((_j + 1))
	done
	[ "$(wc -c <"$_mnt/small.199")" = $((199 * 37 + 1)) ] || fail "small.199 wrong size"
	[ "$(md5sum <"$_mnt/small.199")" = "$(dd if="$_pat" bs=$((199 * 37 + 1)) count=1 \
		skip=199 iflag=skip_bytes 2>/dev/null | md5sum)" ] || fail "small.199 corrupted"
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
	rmmod scsi_debug 2>/dev/null
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

# ---- the ssdstripe tool --------------------------------------------------
# wipe_labels DEV...: zero the label area (first 2 MiB) of each device, so
# labels left by an earlier test are not found by a scan
wipe_labels() {
	for _w in "$@"; do
		dd if=/dev/zero of="$_w" bs=1M count=2 conv=notrunc,fsync 2>/dev/null ||
			fail "cannot wipe $_w"
	done
}
# writes_done DEV...: sum of completed writes (stat field 5) of the devices
writes_done() {
	for _w in "$@"; do disk_stat "$_w" 5; done | awk '{s += $1} END {print s + 0}'
}
# refused CODE PATTERN CMD...: CMD must exit with CODE and say PATTERN
# (an extended regular expression) on stderr
refused() {
	_rc_want=$1 _rc_pat=$2
	shift 2
	"$@" >/tmp/refused.out 2>/tmp/refused.err
	_rc=$?
	log "$* -> $_rc: $(head -n 3 /tmp/refused.err | tr '\n' ' ')"
	[ "$_rc" = "$_rc_want" ] || fail "'$*' exited $_rc, not $_rc_want: $(cat /tmp/refused.err)"
	grep -qE "$_rc_pat" /tmp/refused.err || fail "'$*' did not say /$_rc_pat/: $(cat /tmp/refused.err)"
}
# array_members NAME: member major:minor list of an active array, in table order
array_members() {
	dmsetup table "$1" | awk '{for (i = 6; i < 6 + 2 * $4; i += 2) printf "%s ", $i; print ""}'
}
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
# ---- member faults under load (tests 040-049, 099) ---------------------
# Layout of a fault test: chunks of 1 MiB; the first PREFILL MiB of the
# array get a known pattern before the fault (region A, never touched
# again), fio writes and verifies behind it while the fault happens.
# shellcheck disable=SC2034 # used by the tests that source this file
FAULT_CHUNK=2048
# every bio completes within this bound after fio's own runtime
FAULT_BOUND=${SSD_FAULT_BOUND:-120}
# prefill NAME MB: region A of /dev/mapper/NAME
prefill() {
	dd if="$(pattern_file "$2")" of="/dev/mapper/$1" bs=1M count="$2" \
		oflag=direct conv=fsync 2>/dev/null || fail "prefill of $1 failed"
}
# survivors_verify MB FAILED DEV... : region A of an array of the given
# members (offset 0) is, on every member but FAILED, still what prefill
# wrote: member k holds pattern chunks k, k+N, k+2N, ...
survivors_verify() {
	_mb=$1 _bad=$2
	shift 2
	_pat=$(pattern_file "$_mb") _nm=$# _k=0
	for _dev in "$@"; do
		if [ "$_k" != "$_bad" ]; then
			_c=$_k
			: >/tmp/expect
			while [ "$_c" -lt "$_mb" ]; do
				dd if="$_pat" bs=1M skip="$_c" count=1 2>/dev/null >>/tmp/expect
				_c=$((_c + _nm))
			done
			_n=$(($(wc -c </tmp/expect) / 1048576))
			_got=$(dd if="$_dev" bs=1M count="$_n" iflag=direct 2>/dev/null | md5sum)
			[ "$_got" = "$(md5sum </tmp/expect)" ] ||
				fail "member $_k ($_dev): data written before the fault does not verify"
		fi
		_k=$((_k + 1))
	done
	rm -f /tmp/expect
}
# fault_load NAME OFFSET_MB RUNTIME OUT: 4 KiB random writes with crc32c
# verify (verify_backlog: reads back what it wrote as it goes) from
# OFFSET_MB to the end of /dev/mapper/NAME, errors and all, output in OUT.
# Exit status 137 means fio was still not done RUNTIME + FAULT_BOUND s
# later: some bio never completed.
fault_load() {
	timeout -s KILL $(($3 + FAULT_BOUND)) fio --name=load \
		--filename="/dev/mapper/$1" --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randwrite --bs=4k --offset="$2M" \
		--verify=crc32c --verify_backlog=64 --verify_fatal=0 \
		--continue_on_error=all --time_based --runtime="$3" \
		--randseed=7 >"$4" 2>&1
}
# fio_errors OUT: how many I/O errors and verify failures fio counted
# (with continue_on_error fio only sums them up: "errors : total=N")
fio_errors() {
	awk '/errors *: total=/ { sub(/.*total=/, ""); sub(/,.*/, ""); n += $0 }
	/verify failed|bad magic|bad header|io_u error/ { n++ }
	END { print n + 0 }' "$1"
}
# wait_state TOP MEMBER STATES SECS: until members/MEMBER/state is one of
# STATES ("erroring|failed"); fails the test after SECS seconds
wait_state() {
	_i=0
	while :; do
		_s=$(cat "$1/members/$2/state")
		case "|$3|" in *"|$_s|"*) return 0 ;; esac
		_i=$((_i + 1))
		[ "$_i" -gt "$4" ] && fail "member $2 is $_s, not $3, after $4 s"
		sleep 1
	done
}
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
# all_quiet TOP NMEMBERS: nothing in flight on any member
all_quiet() {
	_k=0
	while [ "$_k" -lt "$2" ]; do
		[ "$(cat "$1/members/$_k/inflight")" = 0 ] ||
			fail "member $_k still has $(cat "$1/members/$_k/inflight") bios in flight"
		_k=$((_k + 1))
	done
}
# dm_events NAME: the array's dm event counter (what "dmsetup wait" waits on)
dm_events() { dmsetup info -c --noheadings -o events "$1" | tr -d ' '; }
# no_alarm NAME MARK EVENTS0 WHAT: the no-false-alarm verdict after a
# workload on array NAME (kmsg_mark MARK and dm_events EVENTS0 taken before
# it): every member ok with 0 errors, the array optimal, no health log line
# and no dm event since.  WHAT names the workload in the reasons.
no_alarm() {
	_top=/sys/block/$(dm_sysname "$1")/ssdstripe
	log "$4: states $(cat "$_top"/members/*/state | tr '\n' ' ')array $(cat "$_top/state");" \
		"errors $(cat "$_top"/members/*/errors | tr '\n' ' ')retries $(cat "$_top"/members/*/retries | tr '\n' ' ')"
	for _m in "$_top"/members/*; do
		[ "$(cat "$_m/state")" = ok ] || fail "$4: member ${_m##*/} is $(cat "$_m/state")"
		[ "$(cat "$_m/errors")" = 0 ] || fail "$4: member ${_m##*/} counted $(cat "$_m/errors") errors"
	done
	[ "$(cat "$_top/state")" = optimal ] || fail "$4: array is $(cat "$_top/state")"
	_l=$(dmesg_since "$2" | grep -E 'I/O error on member|member [0-9]+ \(.*\) .* -> ' | head -n 1)
	[ -z "$_l" ] || fail "$4: logged: $_l"
	[ "$(dm_events "$1")" = "$3" ] || fail "$4: $(($(dm_events "$1") - $3)) dm events raised on a healthy array"
}
