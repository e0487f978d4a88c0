# shellcheck shell=sh
# Helpers of the fault tests (after lib/common.sh): member faults under
# load.  (The fault tests also source lib/health.sh.)

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
