#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Root file system on an ssdstripe array, booted by Debian's own initramfs
# generators: make check's "boot" part.
#
#   qemu/boot-root.sh [--kernel 6.12|6.1]
#                     [--only initramfs-tools|dracut|initramfs-tools-all|dkms]
#                     [--timeout SECS] [--keep]
#
# 1. Builds (cached in $SSDSTRIPE_CACHE/boot, rebuilt when missing) two
#    minimal bookworm trees with mmdebstrap: one with initramfs-tools (also
#    the root file system that is booted), one with dracut (they conflict).
# 2. Into both: Debian's kernel modules (qemu/fetch-kernel.sh), dm-ssdstripe.ko
#    built against that kernel's headers, and "make install DESTDIR=<tree>";
#    then mkinitramfs or dracut runs inside its tree.
# 3. A rig guest (qemu/boot-root-init) creates array "root" on 3 NVMe disks and
#    array "data" on 2 more, extracts the root tree onto root, mkfs's data.
# 4. Boots each initramfs with root=/dev/mapper/root, the disks attached in
#    another order than at creation.  The initramfs assembles root only
#    (initramfs-tools: BOOT root in /etc/ssdstripe.conf; dracut:
#    ssdstripe.assemble=root on the command line), ssdstripe-assemble.service
#    assembles data, ssdstripe-boot-report.service (qemu/boot-root-report)
#    prints the result and powers off.  A third boot (initramfs-tools-all)
#    has the initramfs assemble everything (ssdstripe.assemble=all): the
#    unit then finds nothing to do and must still succeed.
# 5. DKMS: "dkms add" + "dkms build" of the tree in a bookworm chroot with
#    Debian's dkms and the kernel's headers.
# A boot passes when / is /dev/mapper/root, the unit succeeded, data is
# active (and mounted from fstab) and the console shows no BUG, WARNING,
# oops or hung task.  Prints RESULT lines and "N passed, N failed".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${SSDSTRIPE_CACHE:-/var/tmp/ssdstripe}
# shellcheck source=qemu/rig.sh
. "$here/rig.sh"
bcache=$cache/boot

series=6.12 only='' timeout=900 keep=''
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) series=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '6,9p' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done

log() { printf 'boot-root: %s\n' "$*" >&2; }
passed=0 failed=0
result() { # result NAME PASS|FAIL WHY SECS
	echo "RESULT $1 $2${3:+ $3} ($4s)"
	if [ "$2" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
die() {
	log "error: $*"
	echo "$passed passed, $((failed + 1)) failed"
	exit 1
}
t_start=$(date +%s)

[ "$(id -u)" = 0 ] || die "must run as root (mmdebstrap, chroot)"
"$repo/scripts/need-debs" mmdebstrap:mmdebstrap qemu-system-x86_64:qemu-system-x86 \
	make:make gcc:gcc unshare:util-linux || die "cannot install the tools it needs"

abi=$("$here/fetch-kernel.sh" "$series") || die "cannot fetch kernel $series"
kroot=$cache/kernels/$abi
kdir=/usr/src/linux-headers-$abi
# SSDSTRIPE_BOOT_WORK: another directory for this run's trees, images and
# logs.  By default one per checkout (two worktrees' runs would otherwise
# delete each other's files); two runs on one directory: the second waits.
work=${SSDSTRIPE_BOOT_WORK:-$bcache/run/$abi-$(printf '%s' "$repo" | sha256sum | cut -c1-8)}
mkdir -p "$work"
exec {work_lock}>"$work/.lock"
if ! flock -n "$work_lock"; then
	log "another boot-root.sh is using $work (SSDSTRIPE_BOOT_WORK picks another); waiting"
	flock "$work_lock"
fi

# ---- the module, built in a copy of the tree ------------------------------
src=$work/src
log "building dm-ssdstripe.ko against $kdir"
rm -rf "$src"
mkdir -p "$src"
tar -C "$repo" --exclude=.git -cf - . | tar -C "$src" -xf -
make -C "$src" KDIR="$kdir" module >"$work/module-build.log" 2>&1 ||
	{ tail -n 30 "$work/module-build.log" >&2; die "module build failed"; }
module=$src/dm-ssdstripe/dm-ssdstripe.ko

# ---- bookworm trees -----------------------------------------------------
# this machine's Debian sources (with -security: the kernel's headers are
# there), else the default mirror
mirror=/etc/apt/sources.list.d/debian.sources
[ -r "$mirror" ] || mirror=http://deb.debian.org/debian
common=systemd-sysv,udev,kmod,dmsetup,e2fsprogs,zstd
# base_tar NAME PACKAGES: a cached mmdebstrap tarball of bookworm minbase
base_tar() {
	local t
	t=$bcache/base-$1-$({ echo "$2"; cat "$mirror" 2>/dev/null || echo "$mirror"; } |
		sha256sum | cut -c1-12).tar
	if [ ! -s "$t" ]; then
		log "mmdebstrap $1 ($2) from $mirror"
		# mmdebstrap picks the output format by the name's extension
		mmdebstrap --mode=root --variant=minbase --include="$2" bookworm "${t%.tar}.tmp.tar" \
			"$mirror" >"$work/mmdebstrap-$1.log" 2>&1 ||
			{ tail -n 20 "$work/mmdebstrap-$1.log" >&2; rm -f "${t%.tar}.tmp.tar"; return 1; }
		mv "${t%.tar}.tmp.tar" "$t"
	fi
	echo "$t"
}
# in_tree DIR CMD...: run CMD chrooted into DIR with /proc, /sys and /dev,
# in a private mount namespace so nothing stays mounted
in_tree() {
	local d=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare --mount --propagation private sh -ec '
		d=$1; shift
		mount -t proc proc "$d/proc"
		mount -t sysfs sysfs "$d/sys"
		mount --rbind /dev "$d/dev"
		mount -t tmpfs tmpfs "$d/run"
		mount -t tmpfs tmpfs "$d/tmp"
		exec chroot "$d" "$@"' sh "$d" "$@"
}
# ---- DKMS: dkms.conf against Debian's dkms and this kernel's headers -------
dkms_check() {
	local d=$work/tree-dkms t v t0 el rc=0
	t0=$(date +%s)
	v=$(cat "$repo/VERSION")
	if t=$(base_tar dkms "dkms,make,linux-headers-$abi"); then
		rm -rf "$d"
		mkdir -p "$d/usr/src/dm-ssdstripe-$v"
		tar -C "$d" -xf "$t"
		# the source tree as DKMS users copy it, without build output
		tar -C "$repo" --exclude=.git --exclude-vcs-ignores -cf - . |
			tar -C "$d/usr/src/dm-ssdstripe-$v" -xf -
		make -s -C "$d/usr/src/dm-ssdstripe-$v" dkms.conf >"$work/dkms.log" 2>&1 || rc=1
		[ "$rc" = 0 ] && {
			in_tree "$d" dkms add "dm-ssdstripe/$v" &&
			in_tree "$d" dkms build "dm-ssdstripe/$v" -k "$abi" &&
			in_tree "$d" dkms status
		} >>"$work/dkms.log" 2>&1 || rc=$?
	else
		rc=1
	fi
	el=$(($(date +%s) - t0))
	if [ "$rc" = 0 ] && ls "$d/var/lib/dkms/dm-ssdstripe/$v/$abi"/*/module/dm-ssdstripe.ko* >/dev/null 2>&1; then
		result dkms-build PASS "dkms add + build dm-ssdstripe/$v for $abi in a bookworm chroot" "$el"
	else
		tail -n 20 "$work/dkms.log" >&2 || true
		result dkms-build FAIL "see $work/dkms.log" "$el"
	fi
	[ -n "$keep" ] || rm -rf "$d"
}
if [ "$only" = dkms ]; then
	dkms_check
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi

# make_tree NAME PACKAGES: a fresh $work/tree-NAME with the kernel's modules
# and "make install"
make_tree() {
	local t d=$work/tree-$1
	t=$(base_tar "$1" "$2") || return 1
	rm -rf "$d"
	mkdir -p "$d"
	tar -C "$d" -xf "$t"
	mkdir -p "$d/usr/lib/modules" "$d/boot"
	cp -a "$kroot/lib/modules/$abi" "$d/usr/lib/modules/"
	cp "$kroot/boot/config-$abi" "$kroot/boot/System.map-$abi" "$d/boot/"
	make -C "$src" KDIR="$kdir" DESTDIR="$d" install >"$work/install-$1.log" 2>&1 ||
		{ tail -n 20 "$work/install-$1.log" >&2; return 1; }
	# test system: the initramfs assembles "root" only (dracut is told so
	# on the command line instead, and keeps the shipped "BOOT all")
	# The booted system lists data (its unit waits for data's members) and
	# leaves the other arrays alone (AUTO no: spare stays inactive);
	# ssdstripe.test-conf=auto on the command line swaps in the other file
	# (ssdstripe-test-conf.service): nothing listed, AUTO yes (the default).
	if [ "$1" = itools ]; then
		printf 'BOOT root\nTIMEOUT 30\nARRAY data  # /srv/data\nAUTO no\n' >"$d/etc/ssdstripe.conf"
		printf 'BOOT root\nTIMEOUT 30\n' >"$d/etc/ssdstripe.conf.auto"
	fi
	# TCG: udev loading kvm_amd, and once powernow_k8, soft-locked guests
	printf 'blacklist %s\n' kvm kvm_amd kvm_intel powernow_k8 \
		>"$d/etc/modprobe.d/ssdstripe-test-kvm.conf"
}

t0=$(date +%s)
itools_root=$work/tree-itools dracut_root=$work/tree-dracut
# lvm2: its udev rules are what a health uevent must not set off (udev_check)
make_tree itools "$common,initramfs-tools,busybox,lvm2" || die "initramfs-tools tree"
make_tree dracut "$common,dracut-core" || die "dracut tree"
log "trees ready ($(($(date +%s) - t0))s)"

# the booted system: fstab, units, a quiet console
r=$itools_root
# data's device appears only when ssdstripe-assemble.service has run, after
# udev settled: under TCG that took past systemd's 90 s device timeout once
cat >"$r/etc/fstab" <<'EOF'
/dev/mapper/root	/		ext4	errors=remount-ro	0 1
/dev/mapper/data	/srv/data	ext4	defaults,nofail,x-systemd.device-timeout=5min	0 2
EOF
echo ssdstripe-boot >"$r/etc/hostname"
echo 5ddc0ffee0ddf00d5ddc0ffee0ddf00d >"$r/etc/machine-id"
install -m 0755 "$here/boot-root-report" "$r/usr/local/sbin/ssdstripe-boot-report"
cat >"$r/etc/systemd/system/ssdstripe-boot-report.service" <<'EOF'
[Unit]
Description=dm-ssdstripe boot test: report and power off
After=ssdstripe-assemble.service local-fs.target srv-data.mount systemd-user-sessions.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/ssdstripe-boot-report

[Install]
WantedBy=multi-user.target
EOF
cat >"$r/usr/local/sbin/ssdstripe-test-conf" <<'EOF'
#!/bin/sh
for a in $(cat /proc/cmdline); do
	case $a in
	ssdstripe.test-conf=*) exec mount --bind "/etc/ssdstripe.conf.${a#*=}" /etc/ssdstripe.conf ;;
	esac
done
EOF
chmod 0755 "$r/usr/local/sbin/ssdstripe-test-conf"
# test only: ssdstripe.test-conf=NAME binds /etc/ssdstripe.conf.NAME over
# /etc/ssdstripe.conf (/ is read-only) before udev and the unit read it
cat >"$r/etc/systemd/system/ssdstripe-test-conf.service" <<'EOF'
[Unit]
Description=dm-ssdstripe boot test: choose /etc/ssdstripe.conf
DefaultDependencies=no
Before=systemd-udevd.service systemd-udev-trigger.service ssdstripe-assemble.service
ConditionKernelCommandLine=ssdstripe.test-conf

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/ssdstripe-test-conf

[Install]
WantedBy=sysinit.target
EOF
# test only: the host attaches the disks marked +late (qemu_run) once the
# console says SSDSTRIPE-BOOT-ATTACH-NOW: with ssdstripe.test-late=trigger
# as soon as udev was told to look at the disks (the unit is waiting for
# data then), with =unit once ssdstripe-assemble.service has finished
# (only udev can assemble what comes then)
for w in trigger unit; do
	if [ "$w" = trigger ]; then a=systemd-udev-trigger.service; else a=ssdstripe-assemble.service; fi
	cat >"$r/etc/systemd/system/ssdstripe-test-attach-$w.service" <<EOF
[Unit]
Description=dm-ssdstripe boot test: time to attach the late disks
DefaultDependencies=no
After=$a
ConditionKernelCommandLine=ssdstripe.test-late=$w

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo SSDSTRIPE-BOOT-ATTACH-NOW >/dev/ttyS0'

[Install]
WantedBy=sysinit.target
EOF
done
# a failed boot powers off with the journal instead of waiting at a prompt
for u in emergency rescue; do
	mkdir -p "$r/etc/systemd/system/$u.service.d"
	cat >"$r/etc/systemd/system/$u.service.d/poweroff.conf" <<'EOF'
[Service]
ExecStart=
ExecStart=/bin/sh -c 'echo SSDSTRIPE-BOOT-EMERGENCY >/dev/ttyS0; journalctl -b --no-pager -n 80 >/dev/ttyS0; systemctl --no-block poweroff'
EOF
done
in_tree "$r" systemctl enable ssdstripe-assemble.service ssdstripe-boot-report.service \
	ssdstripe-test-conf.service ssdstripe-test-attach-trigger.service \
	ssdstripe-test-attach-unit.service \
	>"$work/enable.log" 2>&1 || { cat "$work/enable.log" >&2; die "systemctl enable"; }
in_tree "$r" systemctl mask getty@tty1.service serial-getty@ttyS0.service \
	console-getty.service systemd-firstboot.service systemd-timesyncd.service \
	apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
	fstrim.timer lvm2-monitor.service lvm2-lvmpolld.socket >>"$work/enable.log" 2>&1 || true
in_tree "$r" systemctl set-default multi-user.target >>"$work/enable.log" 2>&1

# ---- initramfs images ---------------------------------------------------
t0=$(date +%s)
initrd_itools=$work/initrd-initramfs-tools.img
initrd_dracut=$work/initrd-dracut.img
rm -f "$initrd_itools" "$initrd_dracut"
# want NAME: is the boot NAME (or a prefix of it) among those to run
want() { [ -z "$only" ] || [ "${only#"$1"}" != "$only" ]; }
if want initramfs-tools; then
	in_tree "$itools_root" mkinitramfs -o /boot/initrd.img-"$abi" "$abi" \
		>"$work/mkinitramfs.log" 2>&1 ||
		{ tail -n 20 "$work/mkinitramfs.log" >&2; die "mkinitramfs failed"; }
	cp "$itools_root/boot/initrd.img-$abi" "$initrd_itools"
	# the hook's work, checked before booting
	lsinitramfs "$initrd_itools" >"$work/initrd-itools.list" 2>/dev/null ||
		in_tree "$itools_root" lsinitramfs /boot/initrd.img-"$abi" >"$work/initrd-itools.list"
	for f in usr/sbin/ssdstripe etc/ssdstripe.conf scripts/local-top/ssdstripe dm-ssdstripe.ko; do
		grep -q "$f" "$work/initrd-itools.list" || die "mkinitramfs image lacks $f"
	done
	log "mkinitramfs: $(du -h "$initrd_itools" | cut -f1) ($(($(date +%s) - t0))s)"
fi
t0=$(date +%s)
if want dracut; then
	in_tree "$dracut_root" dracut --no-hostonly --force --kver "$abi" --add ssdstripe \
		--omit "plymouth" /boot/initrd-dracut.img >"$work/dracut.log" 2>&1 ||
		{ tail -n 20 "$work/dracut.log" >&2; die "dracut failed"; }
	cp "$dracut_root/boot/initrd-dracut.img" "$initrd_dracut"
	in_tree "$dracut_root" lsinitrd /boot/initrd-dracut.img >"$work/initrd-dracut.list" 2>&1 || true
	for f in usr/sbin/ssdstripe initqueue/settled/50-ssdstripe-assemble.sh dm-ssdstripe.ko; do
		grep -q "$f" "$work/initrd-dracut.list" || die "dracut image lacks $f"
	done
	log "dracut: $(du -h "$initrd_dracut" | cut -f1) ($(($(date +%s) - t0))s)"
fi

# ---- disks ----------------------------------------------------------------
img=$work/img
rm -rf "$img"
mkdir -p "$img"
for s in root0 root1 root2; do truncate -s 1G "$img/$s.img"; done
for s in data0 data1; do truncate -s 256M "$img/$s.img"; done
for s in spare0 old0; do truncate -s 64M "$img/$s.img"; done
tar -C "$itools_root" --one-file-system --exclude=./boot/initrd.img-"$abi" \
	-cf "$img/rootfs-tar.img" .
# NVMe namespaces are whole blocks
truncate -s "%4096" "$img/rootfs-tar.img"
log "root file system tarball: $(du -h "$img/rootfs-tar.img" | cut -f1)"
[ -n "$keep" ] || rm -rf "$itools_root" "$dracut_root"

qemu_t0=0 qemu_secs=0 qemu_note=''
kcmd="console=ttyS0 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1 panic=-1"
kcmd+=" mitigations=off modprobe.blacklist=kvm,kvm_amd,kvm_intel,powernow_k8"
# A full system's udev loads dozens of modules at once on two emulated CPUs
# that share a busy host: a 20 s soft-lockup threshold fired there (47 s in
# vmalloc) with no fault of ours.  60 s (lockups reported after 120 s) still
# catches a real hang, and every report still fails the boot.
kcmd+=" watchdog_thresh=60"
# qemu_run LOG INITRD APPEND SERIAL...: one guest under the rig's lock.  A
# kernel that dies before /init (rig.sh) is booted once more, and
# qemu_note says so; nothing has touched the disks then.
# A SERIAL ending in +late is attached (device_add on QEMU's monitor) only
# once the console says SSDSTRIPE-BOOT-ATTACH-NOW, 10 s later
# (late_attach); its drive and PCIe port are there from the start.
qemu_run() {
	local logf=$1 initrd=$2 append=$3 rc early a late=' ' lateadd=() watcher=''
	shift 3
	local -a args all
	for a in "$@"; do [ "${a%+late}" = "$a" ] || late+="${a%+late} "; done
	mapfile -t all < <(nvme_drive_args "$img" "${@%+late}")
	args=()
	for a in "${all[@]}"; do
		if [[ $a =~ ^nvme,.*serial=([^,]*) ]] && [[ $late == *" ${BASH_REMATCH[1]} "* ]]; then
			lateadd+=("device_add $a")
			unset 'args[${#args[@]}-1]'	# its -device
			continue
		fi
		args+=("$a")
	done
	rm -f "$work/monitor.sock"
	rig_slot_take
	qemu_t0=$(date +%s) qemu_note=''
	while :; do
		: >"$logf"
		if [ ${#lateadd[@]} -gt 0 ]; then
			late_attach "$logf" "${lateadd[@]}" >"$logf.attach" 2>&1 &
			watcher=$!
		fi
		set +e
		timeout -k 10 "$timeout" qemu-system-x86_64 -machine q35 -accel tcg -cpu max -smp 2 -m 1024 \
			-nographic -no-reboot -nic none -kernel "$kroot/boot/vmlinuz-$abi" \
			-monitor "unix:$work/monitor.sock,server=on,wait=off" \
			-initrd "$initrd" -append "$append" "${args[@]}" </dev/null >"$logf" 2>&1
		rc=$?
		set -e
		if [ -n "$watcher" ]; then
			kill "$watcher" 2>/dev/null || true
			wait "$watcher" 2>/dev/null || true
			watcher=''
		fi
		[ -z "$qemu_note" ] || break
		early=$(died_before_init "$logf" 'Run /init as init process') || break
		cp "$logf" "$logf.boot-failure"
		qemu_note="the kernel died before /init ran ($early); booted again, that console is $logf.boot-failure"
		log "BOOT FAILURE: $qemu_note"
	done
	rig_slot_release
	# RESULT times are the guest's own, without the wait for the lock
	qemu_secs=$(($(date +%s) - qemu_t0))
	tr -d '\r' <"$logf" >"$logf.clean"
	return "$rc"
}
# late_attach LOG CMD...: once LOG shows SSDSTRIPE-BOOT-ATTACH-NOW, wait
# 10 s, then send each CMD to QEMU's monitor (prints what it did)
late_attach() {
	local logf=$1 c
	shift
	until grep -q SSDSTRIPE-BOOT-ATTACH-NOW "$logf" 2>/dev/null; do sleep 1; done
	sleep 10
	for c in "$@"; do
		echo "$(date +%s) $c: $(rig_monitor_cmd "$work/monitor.sock" "$c")"
	done
}
# console_bad LOG: print the console findings, true if there are any
console_bad() {
	grep -E "$console_bad_re" "$1.clean" | grep -v -E 'Command line:|command line:' | head -n 20 | grep .
}

# ---- create the arrays ----------------------------------------------------
log "preparing the arrays in a rig guest"
"$here/build-initramfs.sh" --abi "$abi" --out "$work/prep-base.cpio.gz" --module "$module" ||
	die "rig initramfs build failed"
ov=$(mktemp -d)
install -m 0755 "$here/boot-root-init" "$ov/init"
(cd "$ov" && echo init | cpio -o -H newc --quiet) | gzip -1 >"$work/prep-init.cpio.gz"
rm -rf "$ov"
# the kernel unpacks both archives; the second one's /init wins
cat "$work/prep-base.cpio.gz" "$work/prep-init.cpio.gz" >"$work/prep.cpio.gz"
prep_log=$work/console-prep.log
rc=0
qemu_run "$prep_log" "$work/prep.cpio.gz" "$kcmd ssddisks=8" \
	root0 root1 root2 data0 data1 spare0 old0 rootfs-tar || rc=$?
el=$qemu_secs
if [ "$rc" != 0 ] || ! grep -q '^BOOTROOT-PREP: done' "$prep_log.clean" || console_bad "$prep_log" >&2; then
	grep -E '^BOOTROOT-PREP|^PREP' "$prep_log.clean" | tail -n 20 >&2 || true
	result prepare FAIL "qemu rc $rc, see $prep_log${qemu_note:+; $qemu_note}" "$el"
	echo "$passed passed, $failed failed"
	exit 1
fi
result prepare PASS "arrays root (3 disks), data (2), spare (1) and old (1, then swap) created${qemu_note:+; $qemu_note}" "$el"
sed -n 's/^PREP //p' "$prep_log.clean" >"$work/transcript-create.txt"

# ---- boot -----------------------------------------------------------------
# boot NAME INITRD EXTRA_APPEND EXPECT SERIAL...: EXPECT says who must
# assemble array data (data=initramfs: the initramfs; data=boot: the unit
# or udev; data=udev: udev's --incremental, in a transient unit), whether
# spare must be active (spare=active|inactive), whether udev's rule must
# have looked at spare's disk and decided to leave it alone
# (spare-udev=not-listed, SSDSTRIPE_ASSEMBLE_RESULT in the udev database:
# a spare left inactive by a rule that failed proves nothing) and whether
# the unit must say why it refuses the re-used disk old0 (old=refused); a
# SERIAL+late is attached late (qemu_run)
boot() {
	local name=$1 initrd=$2 extra=$3 want=$4 expect=" $4 " logf=$work/console-boot-$1.log rc=0 el why=''
	shift 4
	log "booting the $name initramfs, disks in the order $*"
	qemu_run "$logf" "$initrd" "root=/dev/mapper/root ro $kcmd $extra" "$@" || rc=$?
	el=$qemu_secs
	local c=$logf.clean by
	by=$(sed -n 's/^SSDSTRIPE-BOOT-LOG: \([^ ]*\) assembled data from.*/\1/p' "$c" | head -n 1)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="timeout after ${timeout}s"
	elif [ "$rc" != 0 ]; then why="qemu exited with $rc"
	elif ! grep -q '^SSDSTRIPE-BOOT-DONE' "$c"; then why="no report (emergency: $(grep -c SSDSTRIPE-BOOT-EMERGENCY "$c" || true))"
	elif ! grep -qx 'SSDSTRIPE-BOOT-ROOT: /dev/mapper/root' "$c"; then why="/ is $(sed -n 's/^SSDSTRIPE-BOOT-ROOT: //p' "$c")"
	elif ! grep -qx 'SSDSTRIPE-BOOT-UNIT: success active status=0' "$c"; then
		why="ssdstripe-assemble.service: $(sed -n 's/^SSDSTRIPE-BOOT-UNIT: //p' "$c")"
	elif ! grep -qx 'SSDSTRIPE-BOOT-SETTLE: inactive' "$c"; then
		why="systemd-udev-settle.service: $(sed -n 's/^SSDSTRIPE-BOOT-SETTLE: //p' "$c")"
	elif [ "${*%+late}" != "$*" ] && ! grep -q ': ok$' "$logf.attach" 2>/dev/null; then
		why="late disks not attached: $(cat "$logf.attach" 2>/dev/null)"
	elif ! grep -qx 'SSDSTRIPE-BOOT-DATA: active' "$c"; then why="array data is not active"
	elif [[ $expect == *" data=boot "* ]] &&
		[[ ! $by =~ ^(ssdstripe-assemble|ssdstripe-incremental-[0-9a-f-]+)\.service$ ]]; then
		why="data was not assembled by ssdstripe-assemble.service or udev (${by:-nobody})"
	elif [[ $expect == *" data=udev "* ]] && [[ ! $by =~ ^ssdstripe-incremental-[0-9a-f-]+\.service$ ]]; then
		why="data was not assembled by udev (${by:-nobody})"
	elif [[ $expect == *" data=initramfs "* ]] && ! grep -qE '^assembled data from' "$c"; then
		why="data was not assembled in the initramfs"
	elif [[ $expect == *" data=initramfs "* ]] &&
		! grep -q '^SSDSTRIPE-BOOT-LOG: ssdstripe-assemble.service array data is already active' "$c"; then
		why="ssdstripe-assemble.service did not find data active"
	elif ! grep -qx 'SSDSTRIPE-BOOT-DATA-MOUNT: /dev/mapper/data written before the reboot' "$c"; then
		why="/srv/data: $(sed -n 's/^SSDSTRIPE-BOOT-DATA-MOUNT: //p' "$c")"
	elif [[ $expect == *" spare=active "* ]] && ! grep -qx 'SSDSTRIPE-BOOT-SPARE: active' "$c"; then
		why="array spare is not active (AUTO yes)"
	elif [[ $expect == *" spare=inactive "* ]] && ! grep -qx 'SSDSTRIPE-BOOT-SPARE: inactive' "$c"; then
		why="array spare is active (AUTO no, not listed)"
	elif [[ $expect == *" spare-udev=not-listed "* ]] &&
		! grep -qx 'SSDSTRIPE-BOOT-SPARE-UDEV: not-listed' "$c"; then
		why="udev's rule did not decide to leave spare's disk alone: SSDSTRIPE_ASSEMBLE_RESULT $(sed -n 's/^SSDSTRIPE-BOOT-SPARE-UDEV: //p' "$c")"
	elif ! grep -qE '^SSDSTRIPE-BOOT-OLD: nvme[0-9]+n1 holders=0 swapon=0 blkid=swap$' "$c"; then
		why="re-used disk old0: $(sed -n 's/^SSDSTRIPE-BOOT-OLD: //p' "$c")"
	elif [[ $expect == *" old=refused "* ]] &&
		! grep -qE '^SSDSTRIPE-BOOT-LOG: ssdstripe-assemble.service (ssdstripe: )?refusing nvme[0-9]+n1: it carries a swap signature now' "$c"; then
		why="ssdstripe-assemble.service did not say why old0 is not taken"
	fi
	if console_bad "$logf" >"$work/console-bad-$name.txt"; then
		why="${why:+$why; }console: $(head -n 1 "$work/console-bad-$name.txt")"
	fi
	if [ -n "$why" ]; then
		grep -E 'ssdstripe|SSDSTRIPE' "$c" | tail -n 30 >&2 || true
		result "boot-$name" FAIL "$why, see $logf${qemu_note:+; $qemu_note}" "$el"
	else
		result "boot-$name" PASS "/ on /dev/mapper/root, data assembled by ${by:-the initramfs} ($want)${qemu_note:+; $qemu_note}" "$el"
	fi
	# create -> status -> reboot -> assembled, for people to read
	{
		echo "## created in the rig guest"
		cat "$work/transcript-create.txt"
		echo "## booted with the $name initramfs, disks in the order $*"
		grep -E '^(\[ *[0-9.]+\] dracut-initqueue\[[0-9]+\]: )?assembled (root|data|spare) from' "$c" || true
		sed -n '/^SSDSTRIPE-BOOT-ROOT/,/^SSDSTRIPE-BOOT-DONE/p' "$c" | grep -v $'^\e\\|^\[.*OK' || true
	} >"$work/transcript-$name.txt"
}
# udev_check: what the initramfs-tools boot's report (boot-root-report,
# udev_health) saw real udev do with two health uevents of an array holding
# ext4, then an LVM PV: both marked DM_NOSCAN by 56-ssdstripe.rules, no
# blkid probe (no read beyond the failing one), the by-uuid and LVM PV
# links and the udev database's file system kept, dm events still raised,
# no pvscan; and a later plain change event finds the PV link and
# SYSTEMD_READY=1 (nothing of ours stuck in the udev database).
# ul KEY: the first SSDSTRIPE-BOOT-UDEV-KEY line of the udev boot's console
ul() { sed -n "s/^SSDSTRIPE-BOOT-UDEV-$1: //p" "$work/console-boot-initramfs-tools.log.clean" | head -n 1; }
udev_check() {
	local c=$work/console-boot-initramfs-tools.log.clean why='' t0 ev
	t0=$(date +%s)
	ev=$(sed -n 's/^SSDSTRIPE-BOOT-UDEV-EVENT: //p' "$c" | tr '\n' ',')
	if ! grep -q '^SSDSTRIPE-BOOT-UDEV-DONE' "$c"; then why="no udev report"
	elif grep -q '^SSDSTRIPE-BOOT-UDEV-NOTE' "$c"; then why=$(ul NOTE)
	elif ! ul BEFORE | grep -q 'uuid=..* link=yes$'; then why="no by-uuid link after mkfs: $(ul BEFORE)"
	elif ! ul FS | grep -qE '^state=erroring reads=1 link=yes fstype=ext4$'; then why="ext4: $(ul FS)"
	elif ! ul LVM | grep -qE '^state=optimal reads=0 fstype=LVM2_member pvlink=yes pvscan=0$'; then why="LVM: $(ul LVM)"
	elif ! ul AFTER | grep -qE '^pvlink=yes ready=1$'; then why="after a later change event: $(ul AFTER)"
	elif [ "$ev" != "erroring noscan=1,optimal noscan=1," ]; then why="uevents: ${ev:-none}"
	elif ! [ "$(ul DMEVENTS)" -ge 2 ] 2>/dev/null; then why="dm events: $(ul DMEVENTS)"
	fi
	if [ -n "$why" ]; then
		result udev-health FAIL "$why" $(($(date +%s) - t0))
	else
		result udev-health PASS "2 health uevents: DM_NOSCAN, no probe, links, LVM and readiness untouched" \
			$(($(date +%s) - t0))
	fi
}
if [ -z "$only" ] || [ "$only" = initramfs-tools ]; then
	# ARRAY data, AUTO no: the unit waits for data1, attached 10 s after
	# udev was triggered; spare is left alone, by the unit and by udev:
	# spare's only disk is attached late too (first), so only udev's
	# incremental rule could assemble it, and it must have said why not
	boot initramfs-tools "$initrd_itools" "ssdstripe.test-udev ssdstripe.test-late=trigger" \
		"data=boot spare=inactive spare-udev=not-listed" spare0+late data1+late root2 old0 data0 root0 root1
	udev_check
fi
if want dracut; then
	# nothing listed, AUTO yes: data1 comes after the unit has finished,
	# so udev assembles data; the unit takes spare and refuses old0
	boot dracut "$initrd_dracut" "ssdstripe.assemble=root rd.shell=0 rd.emergency=poweroff ssdstripe.test-conf=auto ssdstripe.test-late=unit" \
		"data=udev spare=active old=refused" root1 data0 spare0 root2 old0 data1+late root0
fi
if want initramfs-tools-all; then
	boot initramfs-tools-all "$initrd_itools" "ssdstripe.assemble=all" "data=initramfs spare=active" \
		root2 data1 old0 root1 spare0 root0 data0
fi

if [ -z "$only" ]; then dkms_check; fi

echo "=== boot: root on ssdstripe on $abi, $(($(date +%s) - t_start))s (logs in $work)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
