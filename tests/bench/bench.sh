#!/bin/sh
# Guest side of tests/bench/run: every figure of one benchmark run, measured
# in this one guest so that ratios against the kernel's striped target are
# fair.  Prints one line per measurement:
#   BENCH section=S target=T members=N workload=W rep=R iops=.. bw_kib=..
#         p50_us=.. p99_us=.. cpu_us_per_io=..
#   BENCH section=chunk target=T chunk=C members=4 workload=W rep=R iops=..
#         bw_kib=.. p50_us=.. p99_us=.. cpu_us_per_io=..
#   BENCH section=fabric target=ssdstripe_local|ssdstripe_tcp members=2
#         workload=W rep=R iops=.. bw_kib=.. p50_us=.. p99_us=.. cpu_us_per_io=..
#   BENCH section=discard target=T members=N size_mib=M rep=R secs=..
#         member_discards=a,b,c,..
#   BENCH section=profile target=T workload=W ios=.. samples=.. period_ns=..
#   BENCH-SYM target=T workload=W samples=.. dso=D sym=S
# and BENCH-DONE at the end.  Argument: full (3 repetitions, 3 s runs),
# quick (1 repetition, 1 s runs), profile (only the profile, section 0),
# chunk (only section 1c, 3 repetitions, 3 s runs), nowait (only section
# 1n, then its profile) or fabric (only section
# 1f, over NVMe/TCP: tests/bench/run --fabric); SIZE:ENGINE (e.g.
# chunk:io_uring) runs fio with that ioengine instead of libaio.
# shellcheck disable=SC1091 # lib/ is at /tests/integration in the guest
. /tests/integration/lib/common.sh

size=${1:-full} ENGINE=libaio
case $size in *:*) ENGINE=${size#*:} size=${size%%:*} ;; esac
case $size in
quick) REPS=1 RT=1 PRT=2 ;;
profile) REPS=1 RT=3 PRT=5 ;;	# only section 0
chunk) REPS=3 RT=3 PRT=5 ;;	# only section 1c
nowait) REPS=3 RT=3 PRT=5 ;;	# only section 1n and its profile
fabric) REPS=3 RT=3 PRT=5 ;;	# only section 1f
*) REPS=3 RT=3 PRT=5 ;;
esac
CHUNK=128		# 64 KiB, the same for every striping target

progress() { echo "BENCH-PROGRESS $*"; }

# Busy and total jiffies of all CPUs.
cpu_jiffies() {
	awk '/^cpu / {b = $2 + $3 + $4 + $7 + $8; print b, b + $5 + $6}' /proc/stat
}

fio_args() { # WORKLOAD
	case $1 in
	rr4k_qd1) echo "--rw=randread --bs=4k --iodepth=1" ;;
	rr4k_qd32) echo "--rw=randread --bs=4k --iodepth=32" ;;
	rw4k_qd1) echo "--rw=randwrite --bs=4k --iodepth=1" ;;
	rw4k_qd32) echo "--rw=randwrite --bs=4k --iodepth=32" ;;
	sr128k) echo "--rw=read --bs=128k --iodepth=8" ;;
	sw128k) echo "--rw=write --bs=128k --iodepth=8" ;;
	sr1m) echo "--rw=read --bs=1m --iodepth=8" ;;
	sw1m) echo "--rw=write --bs=1m --iodepth=8" ;;
	*) echo "unknown workload $1" >&2; return 1 ;;
	esac
}

# measure SECTION TARGET MEMBERS WORKLOAD DEVICE REP
measure() {
	_j0=$(cpu_jiffies)
	# shellcheck disable=SC2046
	_out=$(fio --name=b --filename="$5" --direct=1 --ioengine="$ENGINE" \
		$(fio_args "$4") --time_based --runtime="$RT" --norandommap \
		--randrepeat=0 --output-format=terse --terse-version=3 2>/dev/null)
	_j1=$(cpu_jiffies)
	echo "$_out" | awk -F';' -v sec="$1" -v tgt="$2" -v n="$3" -v wl="$4" \
		-v rep="$6" -v j0="$_j0" -v j1="$_j1" -v rt="$RT" '
	function val(f,  a) { split(f, a, "="); return a[2] + 0 }
	NF > 90 && $5 == 0 && $8 + $49 > 0 {
		iops = $8 + $49; bw = $7 + $48
		if ($8 >= $49) { p50 = val($24); p99 = val($30) }
		else { p50 = val($65); p99 = val($71) }
		split(j0, a, " "); split(j1, b, " ")
		busy = b[1] - a[1]
		# USER_HZ is 100: one jiffy is 10 ms.
		cpu = iops > 0 ? busy * 10000 / (iops * rt) : 0
		printf "BENCH section=%s target=%s members=%s workload=%s rep=%s iops=%.0f bw_kib=%.0f p50_us=%d p99_us=%d cpu_us_per_io=%.2f\n",
			sec, tgt, n, wl, rep, iops, bw, p50, p99, cpu
		found = 1
	}
	END { if (!found) printf "BENCH-ERROR fio gave no result for %s %s %s\n", sec, tgt, wl }'
}

# h2h_lines SECTION WORKLOAD REP: BENCH lines from the terse output of one
# fio process running one job per target (on stdin).  A job named T-C is
# target T with a chunk of C sectors (chunk=C in the line).  CPU per I/O
# is each job's own user + system time (% of one CPU) over its I/Os.
h2h_lines() {
	awk -F';' -v sec="$1" -v wl="$2" -v rep="$3" '
	function val(f,  a) { split(f, a, "="); return a[2] + 0 }
	NF > 90 && $5 == 0 && $8 + $49 > 0 {
		iops = $8 + $49; bw = $7 + $48
		if ($8 >= $49) { p50 = val($24); p99 = val($30) }
		else { p50 = val($65); p99 = val($71) }
		cpu = ($88 + $89) * 10000 / iops
		n = split($3, tc, "-")
		printf "BENCH section=%s target=%s%s members=4 workload=%s rep=%s iops=%.0f bw_kib=%.0f p50_us=%d p99_us=%d cpu_us_per_io=%.2f\n",
			sec, tc[1], (n > 1 ? " chunk=" tc[2] : ""), wl, rep, iops, bw, p50, p99, cpu
	}'
}

# make_target TARGET DEV...: one array over the members, as large as the
# smallest member allows: /dev/mapper/b_<TARGET> for striped, ssdstripe and
# ssdstripe_nostats, /dev/md/bench (raid0 without superblock) for md_raid0.
# One at a time: md cannot claim members that device-mapper holds.
make_target() {
	_t=$1
	shift
	_n=$#
	_min=
	for _d in "$@"; do
		_s=$(blockdev --getsz "$_d")
		if [ -z "$_min" ] || [ "$_s" -lt "$_min" ]; then _min=$_s; fi
	done
	_len=$((_min / CHUNK * CHUNK * _n))
	_devs=''
	for _d in "$@"; do _devs="$_devs $_d 0"; done
	case $_t in
	striped | ssdstripe)
		dmsetup create "b_$_t" --table "0 $_len $_t $_n $CHUNK$_devs" ;;
	ssdstripe_nostats)
		dmsetup create "b_$_t" \
			--table "0 $_len ssdstripe $_n $CHUNK$_devs 1 no_stats" ;;
	md_raid0)
		_force=''
		[ "$_n" = 1 ] && _force=--force
		# shellcheck disable=SC2086
		mdadm --build /dev/md/bench --level=0 --chunk=$((CHUNK / 2)) $_force \
			--raid-devices="$_n" "$@" >/dev/null ;;
	single | linear)
		dmsetup create b_linear --table "0 $(blockdev --getsz "$1") linear $1 0" ;;
	esac || { echo "BENCH-ERROR cannot build $_t over $*"; return 1; }
}

remove_target() {
	case $1 in
	md_raid0) mdadm --stop /dev/md/bench >/dev/null 2>&1 ;;
	single | linear) dmsetup remove b_linear ;;
	*) dmsetup remove "b_$1" ;;
	esac
}

target_dev() { # TARGET MEMBER0 -> device
	case $1 in
	md_raid0) echo /dev/md/bench ;;
	single) echo "$2" ;;
	*) echo "/dev/mapper/b_$1" ;;
	esac
}

# bench_target SECTION TARGET WORKLOAD REP DEV...
bench_target() {
	_sec=$1 _t=$2 _wl=$3 _rep=$4
	shift 4
	make_target "$_t" "$@" || return
	measure "$_sec" "$_t" $# "$_wl" "$(target_dev "$_t" "$1")" "$_rep"
	remove_target "$_t"
}

modprobe dm-ssdstripe
modprobe raid0
plain="/dev/nullb0 /dev/nullb1 /dev/nullb2 /dev/nullb3"

# --- 0. profile: where the CPU time of one I/O goes -----------------------
# perf samples guest CPU 0 (cpu-clock: one sample per PROF_PERIOD ns of
# CPU 0's time, busy or idle) while one fio job pinned there drives the
# target over 4 plain null_blk members.  With irqmode=0 null_blk completes
# in the submitter's context, so all an I/O costs runs on CPU 0, and
# samples x period / I/Os is the time per I/O spent in each function.
# Under TCG there are no hardware counters; a timer is what perf has.
PROF_PERIOD=200000
# What profile measures: PROF_TARGETS with PROF_WORKLOADS (requests of
# PROF_KIB KiB), labelled target PROF_LABEL in the BENCH lines.
PROF_TARGETS="striped ssdstripe ssdstripe_nostats md_raid0"
PROF_WORKLOADS="rr4k_qd32 rw4k_qd32"
PROF_KIB=4
PROF_LABEL=''
profile() {
	command -v perf >/dev/null || { echo "BENCH-ERROR no perf in the guest"; return; }
	modprobe null_blk nr_devices=4 gb=4 queue_mode=2 irqmode=0 memory_backed=0 \
		submit_queues=2 hw_queue_depth=256 || { echo "BENCH-ERROR null_blk"; return; }
	for _t in $PROF_TARGETS; do
		# shellcheck disable=SC2086
		make_target "$_t" $plain || continue
		for _wl in $PROF_WORKLOADS; do
			progress "profile $_t $_wl"
			# shellcheck disable=SC2046
			perf record -N -q -e cpu-clock -c "$PROF_PERIOD" -C 0 -o /tmp/perf.data -- \
				fio --name=p --filename="$(target_dev "$_t" -)" --direct=1 \
				--ioengine="$ENGINE" $(fio_args "$_wl") --cpus_allowed=0 \
				--time_based --runtime="$PRT" --norandommap --randrepeat=0 \
				--output-format=terse --terse-version=3 >/tmp/prof.fio 2>/dev/null ||
				{ echo "BENCH-ERROR perf record $_t $_wl"; continue; }
			# KiB read + written, PROF_KIB each
			_ios=$(awk -F';' -v kib="$PROF_KIB" 'NF > 90 {print int(($6 + $47) / kib)}' /tmp/prof.fio)
			# lines: IP SYMBOL (DSO).  perf finds no module files
			# here and calls every kernel symbol [kernel.kallsyms]:
			# the module comes from /proc/kallsyms instead.
			perf script -i /tmp/perf.data -F ip,sym,dso 2>/dev/null | awk \
				-v t="$_t$PROF_LABEL" -v wl="$_wl" -v ios="${_ios:-0}" -v per="$PROF_PERIOD" '
			NR == FNR { if (NF == 4) mod[$3] = $4; next }
			NF >= 2 {
				dso = $NF; gsub(/[()]/, "", dso)
				sym = NF >= 3 ? $2 : "[unknown]"
				if (dso == "[kernel.kallsyms]" && (sym in mod)) dso = mod[sym]
				n[sym " " dso]++; total++
			}
			END {
				printf "BENCH section=profile target=%s workload=%s ios=%d samples=%d period_ns=%d\n",
					t, wl, ios, total, per
				for (k in n) {
					split(k, a, " ")
					printf "BENCH-SYM target=%s workload=%s samples=%d dso=%s sym=%s\n",
						t, wl, n[k], a[2], a[1]
				}
			}' /proc/kallsyms -
			rm -f /tmp/perf.data /tmp/prof.fio
		done
		remove_target "$_t"
	done
	rmmod null_blk
}

# --- 1c. chunk size: gather against per-chunk splitting -------------------
# striped, md raid0 and ssdstripe, each with 4 KiB, 32 KiB and 256 KiB
# chunks over 4 plain null_blk members of its own: nine arrays loaded at
# once by one fio process on guest CPU 0, as in 1b, so every IOPS ratio in
# a workload (across targets and across chunk sizes) is the inverse ratio
# of what one I/O costs.  striped and md raid0 cut a 1 MiB request into
# 1 MiB / chunk pieces; ssdstripe sends one bio per member.
CHUNKS="8 64 512"
CHUNK_TARGETS="striped md_raid0 ssdstripe"
chunk_dev() { # TARGET CHUNK
	case $1 in
	md_raid0) echo "/dev/md/c$2" ;;
	*) echo "/dev/mapper/c_$1_$2" ;;
	esac
}
chunk_bench() {
	progress "chunk sizes"
	modprobe null_blk nr_devices=36 gb=1 queue_mode=2 irqmode=0 memory_backed=0 \
		submit_queues=2 hw_queue_depth=256 ||
		{ echo "BENCH-ERROR null_blk x36"; return; }
	_k=0 _jobs=''
	for _c in $CHUNKS; do
		for _t in $CHUNK_TARGETS; do
			_devs="/dev/nullb$_k /dev/nullb$((_k + 1)) /dev/nullb$((_k + 2)) /dev/nullb$((_k + 3))"
			_k=$((_k + 4))
			_len=$(($(blockdev --getsz /dev/nullb0) / _c * _c * 4))
			case $_t in
			md_raid0)
				# shellcheck disable=SC2086
				mdadm --build "/dev/md/c$_c" --level=0 --chunk=$((_c / 2)) \
					--raid-devices=4 $_devs >/dev/null ;;
			*)
				dmsetup create "c_${_t}_$_c" --table \
					"0 $_len $_t 4 $_c $(echo "$_devs" | sed 's/ / 0 /g') 0" ;;
			esac || { echo "BENCH-ERROR cannot build $_t chunk $_c"; return; }
			_jobs="$_jobs --name=$_t-$_c --filename=$(chunk_dev "$_t" "$_c")"
		done
	done
	_rep=1
	while [ $_rep -le $REPS ]; do
		for _wl in sr1m sw1m sr128k sw128k rr4k_qd32 rw4k_qd32; do
			progress "chunk sizes rep $_rep $_wl"
			# shellcheck disable=SC2046,SC2086
			fio --direct=1 --ioengine="$ENGINE" $(fio_args "$_wl") --time_based --cpus_allowed=0 \
				--runtime="$RT" --ramp_time=1 --norandommap --randrepeat=0 \
				--output-format=terse --terse-version=3 $_jobs 2>/dev/null |
				h2h_lines chunk "$_wl" "$_rep"
		done
		_rep=$((_rep + 1))
	done
	for _c in $CHUNKS; do
		for _t in $CHUNK_TARGETS; do
			case $_t in
			md_raid0) mdadm --stop "/dev/md/c$_c" >/dev/null 2>&1 ;;
			*) dmsetup remove "c_${_t}_$_c" ;;
			esac
		done
	done
	rmmod null_blk
}

# --- 1n. io_uring: REQ_NOWAIT bios ----------------------------------------
# io_uring submits with REQ_NOWAIT: a member that would have to split such
# a bio ends it with BLK_STS_AGAIN, so ssdstripe cuts every NOWAIT bio to
# what its member takes (ssdstripe_nowait_fit()), a cost libaio's bios do
# not pay.  striped and ssdstripe, each over 4 plain null_blk members of
# its own (the sets swap between repetitions), loaded at once by one fio
# process with the io_uring engine on guest CPU 0, as in 1b: the IOPS ratio
# is the inverse ratio of per-I/O cost.
NOWAIT_TARGETS="striped ssdstripe"
nowait_bench() {
	progress "io_uring"
	modprobe null_blk nr_devices=8 gb=1 queue_mode=2 irqmode=0 memory_backed=0 \
		submit_queues=2 hw_queue_depth=256 ||
		{ echo "BENCH-ERROR null_blk x8"; return; }
	_rep=1
	while [ $_rep -le $REPS ]; do
		_k=$_rep _jobs=''
		for _t in $NOWAIT_TARGETS; do
			_s=$((_k % 2 * 4))
			make_target "$_t" /dev/nullb$_s /dev/nullb$((_s + 1)) /dev/nullb$((_s + 2)) \
				/dev/nullb$((_s + 3)) || return
			_jobs="$_jobs --name=$_t --filename=$(target_dev "$_t" -)"
			_k=$((_k + 1))
		done
		for _wl in rr4k_qd1 rr4k_qd32; do
			progress "io_uring rep $_rep $_wl"
			# shellcheck disable=SC2046,SC2086
			fio --direct=1 --ioengine=io_uring $(fio_args "$_wl") --time_based --cpus_allowed=0 \
				--runtime="$RT" --ramp_time=1 --norandommap --randrepeat=0 \
				--output-format=terse --terse-version=3 $_jobs 2>/dev/null |
				h2h_lines nowait "$_wl" "$_rep"
		done
		for _t in $NOWAIT_TARGETS; do remove_target "$_t"; done
		_rep=$((_rep + 1))
	done
	rmmod null_blk
}

if [ "$size" = nowait ]; then
	nowait_bench
	# where one NOWAIT I/O's time goes, in striped and in ssdstripe
	ENGINE=io_uring PROF_TARGETS=$NOWAIT_TARGETS PROF_WORKLOADS="rr4k_qd1 rr4k_qd32"
	profile
	echo "BENCH-DONE"
	exit 0
fi

if [ "$size" = chunk ]; then
	chunk_bench
	# where a gathered 1 MiB read's time goes, 4 KiB against 256 KiB chunks
	PROF_TARGETS=ssdstripe PROF_WORKLOADS=sr1m PROF_KIB=1024
	for CHUNK in 8 512; do
		PROF_LABEL=@$((CHUNK / 2))k
		profile
	done
	echo "BENCH-DONE"
	exit 0
fi

# --- 1f. fabric: the same array over NVMe/TCP against local members -------
# tests/bench/run --fabric: run.sh boots the rig's two storage guests
# (--storage-hosts 2, qemu/rig.sh).  ssdstripe over two local NVMe disks
# and ssdstripe over two NVMe/TCP namespaces, one from each storage guest,
# alike in all but the transport (2 members, the same chunk, 512 MiB of
# each member), measured turn about within each repetition; report.py
# gives the tcp / local ratios.  The connections use the timeouts
# Documentation/ssdstripe-fabric.rst recommends (tests/integration/lib/fabric.sh).
FABRIC_WORKLOADS="rr4k_qd1 rr4k_qd32 rw4k_qd32 sr1m sw1m"
fabric_bench() {
	if [ "${SSDSTRIPE_LINKS:-0}" -lt 2 ]; then
		echo "BENCH-ERROR no storage guests (tests/bench/run --fabric boots them)"
		return 1
	fi
	# shellcheck disable=SC1091
	. /tests/integration/lib/fabric.sh
	# the test library's fail ends this script: with a BENCH-ERROR
	trap '[ -e "$SSD_REASON_FILE.failed" ] && echo "BENCH-ERROR $(cat "$SSD_REASON_FILE.failed")"' EXIT
	fabric_rig 2
	fabric_connect 1 >/dev/null
	fabric_connect 2 >/dev/null
	_fb_sz=1048576		# 512 MiB of each member
	_fb_i=0
	for _fb_d in $(disk 0) $(disk 1) $(fabric_dev 1) $(fabric_dev 2); do
		dmsetup create "bf_m$_fb_i" --table "0 $_fb_sz linear $_fb_d 0" || {
			echo "BENCH-ERROR cannot map $_fb_d"
			return 1
		}
		_fb_i=$((_fb_i + 1))
	done
	for _fb_k in local tcp; do
		_fb_m=/dev/mapper/bf_m0 _fb_n=/dev/mapper/bf_m1
		[ "$_fb_k" = local ] || _fb_m=/dev/mapper/bf_m2 _fb_n=/dev/mapper/bf_m3
		dmsetup create "bf_$_fb_k" --table "0 $((2 * _fb_sz)) ssdstripe 2 $CHUNK $_fb_m 0 $_fb_n 0" || {
			echo "BENCH-ERROR cannot build the $_fb_k array"
			return 1
		}
	done
	rep=1
	while [ "$rep" -le "$REPS" ]; do
		for wl in $FABRIC_WORKLOADS; do
			progress "fabric rep $rep $wl"
			for _fb_k in local tcp; do
				measure fabric "ssdstripe_$_fb_k" 2 "$wl" "/dev/mapper/bf_$_fb_k" "$rep"
			done
		done
		rep=$((rep + 1))
	done
	for _fb_k in local tcp; do dmsetup remove "bf_$_fb_k"; done
	for _fb_i in 0 1 2 3; do dmsetup remove "bf_m$_fb_i"; done
	for _fb_k in 1 2; do fabric_disconnect "$_fb_k"; done
	trap - EXIT
}
if [ "$size" = fabric ]; then
	fabric_bench
	echo "BENCH-DONE"
	exit 0
fi

profile
if [ "$size" = profile ]; then
	echo "BENCH-DONE"
	exit 0
fi

# --- 1. plain null_blk: the target's CPU cost per I/O dominates ----------
progress "plain null_blk members"
modprobe null_blk nr_devices=4 gb=4 queue_mode=2 irqmode=0 memory_backed=0 \
	submit_queues=2 hw_queue_depth=256 || { echo "BENCH-ERROR null_blk"; exit 1; }
rep=1
while [ $rep -le $REPS ]; do
	for wl in rr4k_qd1 rr4k_qd32 rw4k_qd1 rw4k_qd32 sr128k sw128k sr1m sw1m; do
		progress "plain rep $rep $wl"
		for t in striped ssdstripe ssdstripe_nostats md_raid0; do
			# shellcheck disable=SC2086
			bench_target plain "$t" "$wl" "$rep" $plain
		done
		# Floors: one member, bare and under dm-linear (reported as 4
		# members' worth of comparison, but it is one null_blk).
		bench_target plain single "$wl" "$rep" /dev/nullb0
		bench_target plain linear "$wl" "$rep" /dev/nullb0
	done
	rep=$((rep + 1))
done
rmmod null_blk

# --- 1b. head to head: every target loaded at the same time --------------
# Back-to-back runs on a shared, emulated CPU differ by tens of percent
# from one second to the next (section 1's spread column).  Here the four
# targets stand side by side on four identical sets of plain null_blk
# members and one fio process per target loads all of them at once, all
# on guest CPU 0: the guest scheduler shares that CPU between them,
# whatever else the host does slows all of them alike, and the IOPS ratio
# between two targets is the inverse ratio of what one I/O costs each.
# (Spread over both vCPUs, which are separate host threads under TCG,
# they would measure how much of a busy host each thread got.)  The sets rotate between repetitions.
# CPU per I/O is each fio thread's own user + system time (with irqmode=0
# null_blk completes in the submitter's context) over its I/Os.
progress "head to head"
modprobe null_blk nr_devices=16 gb=1 queue_mode=2 irqmode=0 memory_backed=0 \
	submit_queues=2 hw_queue_depth=256 || { echo "BENCH-ERROR null_blk x16"; exit 1; }
H2H="striped ssdstripe ssdstripe_nostats md_raid0"
h2h_set() { # K -> the four null_blk devices of set K
	echo "/dev/nullb$((4 * $1)) /dev/nullb$((4 * $1 + 1)) /dev/nullb$((4 * $1 + 2)) /dev/nullb$((4 * $1 + 3))"
}
rep=1
while [ $rep -le $REPS ]; do
	k=$rep
	for t in $H2H; do
		# shellcheck disable=SC2046
		make_target "$t" $(h2h_set $((k % 4))) || exit 1
		k=$((k + 1))
	done
	for wl in rr4k_qd1 rr4k_qd32 rw4k_qd1 rw4k_qd32 sr128k sw128k sr1m sw1m; do
		progress "head to head rep $rep $wl"
		jobs=''
		for t in $H2H; do
			jobs="$jobs --name=$t --filename=$(target_dev "$t" -)"
		done
		# shellcheck disable=SC2046,SC2086
		fio --direct=1 --ioengine="$ENGINE" $(fio_args "$wl") --time_based --cpus_allowed=0 \
			--runtime="$RT" --ramp_time=1 --norandommap --randrepeat=0 \
			--output-format=terse --terse-version=3 $jobs 2>/dev/null |
			h2h_lines h2h "$wl" "$rep"
	done
	for t in $H2H; do remove_target "$t"; done
	rep=$((rep + 1))
done
rmmod null_blk

nowait_bench
chunk_bench

# --- 2. SSD-like members: a bandwidth cap and a completion latency --------
# Each member: 4 MiB/s (null_blk's mbps budget is refilled 50 times a
# second, 80 KiB each time: enough for one 64 KiB chunk), 2 ms per I/O and
# a deep queue (64), so one member is the bottleneck and striping must
# scale.  The deep queue matters: with 2 tags per member (the first
# published run) a submitter that hit a busy member slept for a tag and
# could not feed the others, which capped 4K QD32 scaling at ~3.8x for
# every target.  Kept slow on purpose: eight members must stay within what
# the emulated CPU can drive, or the CPU, not the members, is measured.
# Each command is at most 64 KiB (max_sectors=128, as a drive whose MDTS is
# 64 KiB): null_blk requeues a command larger than one refill of its
# budget for ever, and since 1.3.0 ssdstripe sends a member more than one
# chunk at once (gathered, or whole on a one-member array), so the first
# full run after it hung there.
progress "throttled null_blk members"
modprobe null_blk nr_devices=8 gb=1 queue_mode=2 irqmode=2 completion_nsec=2000000 \
	submit_queues=1 hw_queue_depth=64 mbps=4 memory_backed=0 max_sectors=128 ||
	{ echo "BENCH-ERROR throttled null_blk"; exit 1; }
rep=1
while [ $rep -le $REPS ]; do
	for n in 1 2 4 8; do
		devs=''
		i=0
		while [ $i -lt $n ]; do devs="$devs /dev/nullb$i"; i=$((i + 1)); done
		for wl in sr1m sw1m rr4k_qd32 rr4k_qd1; do
			progress "ssd-like rep $rep members $n $wl"
			for t in striped ssdstripe md_raid0; do
				# shellcheck disable=SC2086
				bench_target ssd "$t" "$wl" "$rep" $devs
			done
		done
	done
	rep=$((rep + 1))
done
rmmod null_blk

# --- 3. discard: members that cap their discard size ---------------------
# scsi_debug disks (128 MiB) accept at most 4 MiB per UNMAP; the
# NVMe disks accept about 2 GiB.  Whole-array blkdiscard: time and how many
# discard requests each member received.
discard_stats() { # DEV... -> comma list of member discard I/O counts
	for _d in "$@"; do
		awk '{printf "%s ", $12}' "/sys/block/$(sysname "$_d")/stat"
	done | sed 's/ $//; s/ /,/g'
}
vec_delta() { # "a,b" "c,d" -> "c-a,d-b"
	echo "$1 $2" | awk '{n = split($1, a, ","); split($2, b, ",")
		for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? "," : ""), b[i] - a[i]
		print ""}'
}
now_cs() { awk '{printf "%d", $1 * 100}' /proc/uptime; }
discard_bench() { # LABEL DEV...
	_label=$1
	shift
	for _t in striped ssdstripe md_raid0; do
		make_target "$_t" "$@" || continue
		_dev=$(target_dev "$_t" "$1")
		_mib=$(($(blockdev --getsz "$_dev") / 2048))
		_s0=$(discard_stats "$@")
		_t0=$(now_cs)
		/usr/sbin/blkdiscard "$_dev" || echo "BENCH-ERROR blkdiscard $_t"
		_t1=$(now_cs)
		_s1=$(discard_stats "$@")
		echo "BENCH section=discard target=$_t members=$# members_kind=$_label size_mib=$_mib rep=$rep secs=$(awk -v a="$_t0" -v b="$_t1" 'BEGIN {printf "%.2f", (b - a) / 100}') member_discards=$(vec_delta "$_s0" "$_s1") max_discard_bytes=$(cat "/sys/block/$(sysname "$_dev")/queue/discard_max_bytes")"
		remove_target "$_t"
	done
}

# Members are wrapped in dm-linear so their stat counts the bios the array
# sent (a request queue below could merge adjacent discards and hide it).
wrap() { # PREFIX SECTORS DEV... -> /dev/mapper/PREFIX<i> ...
	_p=$1 _sz=$2
	shift 2
	_i=0
	for _d in "$@"; do
		dmsetup create "$_p$_i" --table "0 $_sz linear $_d 0" >&2
		printf ' /dev/mapper/%s%d' "$_p" "$_i"
		_i=$((_i + 1))
	done
}
unwrap() { # PREFIX
	for _m in $(dmsetup ls | awk -v p="$1" 'index($1, p) == 1 {print $1}'); do
		dmsetup remove "$_m"
	done
}

progress "discard"
modprobe sd_mod
if modprobe scsi_debug dev_size_mb=128 num_tgts=4 max_luns=1 lbpu=1 \
	unmap_max_blocks=8192 unmap_max_desc=1 2>/dev/null; then
	sdevs=''
	i=0
	while [ $i -lt 50 ]; do
		sdevs=''
		for b in /sys/block/sd*; do
			[ "$(tr -d ' ' <"$b/device/model" 2>/dev/null)" = scsi_debug ] &&
				sdevs="$sdevs /dev/${b##*/}"
		done
		[ "$(echo "$sdevs" | wc -w)" -ge 4 ] && break
		i=$((i + 1))
		sleep 0.2
	done
	# shellcheck disable=SC2086
	members=$(wrap b_sd 262144 $sdevs)
	rep=1
	while [ $rep -le $REPS ]; do
		# shellcheck disable=SC2086
		discard_bench capped_4mib $members
		rep=$((rep + 1))
	done
	unwrap b_sd
	rmmod scsi_debug 2>/dev/null
else
	echo "BENCH-ERROR no scsi_debug"
fi
# 4 NVMe disks, 256 MiB each: a 1 GiB array; each accepts ~2 GiB discards.
# shellcheck disable=SC2046
members=$(wrap b_nv 524288 $(disks))
rep=1
while [ $rep -le $REPS ]; do
	# shellcheck disable=SC2086
	discard_bench nvme $members
	rep=$((rep + 1))
done
unwrap b_nv

echo "BENCH-DONE"
