#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Root file system on an ssdstripe array, installed from the Debian
# packages (make deb) the way an administrator installs them, and booted
# by Debian's own initramfs generators: make check's "boot" part.
#
#   qemu/boot-root.sh [--kernel 6.12|6.1]
#                     [--only packages|initramfs-tools|dracut|initramfs-tools-all|sid]
#                     [--except sid] [--timeout SECS] [--keep]
#
# --kernel names the kernel the system is upgraded to (K_NEW, default 6.12);
# it starts with the other series' kernel (K_OLD).
# 1. make deb: dm-ssdstripe-dkms, ssdstripe, ssdstripe-initramfs,
#    ssdstripe-dracut (build/deb of a copy of the tree).
# 2. A bookworm tree (mmdebstrap, cached in $SSDSTRIPE_CACHE/boot) with
#    initramfs-tools and Debian's K_OLD (linux-image, linux-headers), in
#    which apt, chrooted, installs the packages (apt fetches dkms and the
#    compiler): DKMS builds the module for K_OLD, their trigger regenerates
#    K_OLD's initramfs (the test never runs mkinitramfs); "apt remove"
#    takes the hooks, units and module away and regenerates the initramfs
#    without them; "apt purge" leaves nothing; installing again brings it
#    all back.  Then the administrator's /etc/ssdstripe.conf (BOOT root),
#    and apt installs K_NEW: DKMS's kernel hook builds the module for it
#    and its initramfs has module, tool and configuration.  A second tree
#    with dracut and K_NEW gets ssdstripe-dracut the same way.  Each step
#    is a RESULT (package-install, package-remove, package-purge,
#    package-reinstall, kernel-upgrade, package-dracut).
# 3. A rig guest (qemu/boot-root-init) creates array "root" on 3 NVMe disks,
#    array "data" on 2 more (and "spare", and "old" re-used as swap),
#    extracts the first tree onto root, mkfs's data.
# 4. Boots, root=/dev/mapper/root, the disks attached in another order than
#    at creation, the kernel and initramfs from /boot of the tree:
#    initramfs-tools   K_NEW: its initramfs assembles root only (BOOT root),
#                      ssdstripe-assemble.service (enabled by the package)
#                      assembles data, udev leaves spare alone; real udev
#                      and health uevents (udev-health)
#    dracut            K_NEW, the dracut tree's initramfs (the trigger's),
#                      ssdstripe.assemble=root: udev assembles data; then
#                      member 1 of root, which holds /, is replaced onto
#                      the blank disk rootnew0 with the page cache dropped
#                      just before the switch, and back (root-replace)
#    initramfs-tools-all  K_OLD with the initramfs the packages' trigger
#                      made when they were installed again (BOOT all, the
#                      shipped file): it assembles every array; then, on
#                      that running system, an upgrade from the previous
#                      version's ssdstripe and ssdstripe-initramfs (built
#                      from git) with the monitor and scrub timer running
#                      (package-upgrade: they run after it, the assembly
#                      unit was never stopped), debian/tests/smoke
#                      (autopkgtest-smoke), and "apt-get remove" and "purge"
#                      of the packages (remove-live): the prerm warns that
#                      / is on an array, hooks, units and modules go, the
#                      arrays stay active, their labels and data unchanged
#    ssdstripe-boot-report.service (qemu/boot-root-report) prints what the
#    host checks and powers off.  A boot passes when / is /dev/mapper/root,
#    the unit succeeded, data is active and mounted from fstab, the
#    module that runs is the one DKMS built in the tree for that kernel
#    (same build ID), and the console shows no BUG, WARNING, oops or hung
#    task.
# 5. sid: the packages built (make deb, sid's debhelper and dh-dkms) and
#    installed in a Debian unstable tree with its newest kernel: apt
#    installs them, DKMS builds the module, the trigger puts it and the
#    tool in the initramfs (no boot).
# Prints RESULT lines and "N passed, N failed".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${SSDSTRIPE_CACHE:-/var/tmp/ssdstripe}
# shellcheck source=qemu/rig.sh
. "$here/rig.sh"
bcache=$cache/boot

series=6.12 only='' except='' timeout=900 keep=''
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) series=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--except) except=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h | --help) sed -n '7,13p' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
case $series in
6.12) old_series=6.1 ;;
6.1) old_series=6.12 ;;
*) echo "--kernel: 6.12 or 6.1" >&2; exit 2 ;;
esac

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
	make:make gcc:gcc unshare:util-linux readelf:binutils xz:xz-utils ||
	die "cannot install the tools it needs"

# want NAME: is NAME (or a prefix of it) among what --only and --except pick
want() {
	[ -n "$except" ] && [ "${except#"$1"}" != "$except" ] && return 1
	[ -z "$only" ] || [ "${only#"$1"}" != "$only" ]
}
# the bookworm part: the packages' checks, and the boots that need them
bookworm=''
for b in packages initramfs-tools dracut; do want "$b" && bookworm=1; done

run_name=sid
if [ -n "$bookworm" ]; then
	abi=$("$here/fetch-kernel.sh" "$series") || die "cannot fetch kernel $series"
	kroot=$cache/kernels/$abi
	kdir=/usr/src/linux-headers-$abi
	run_name=$abi
fi
# SSDSTRIPE_BOOT_WORK: another directory for this run's trees, images and
# logs.  By default one per checkout and kind (two worktrees' runs would
# otherwise delete each other's files; make check runs "--only sid" beside
# "--except sid"); two runs on one directory: the second waits.
work=${SSDSTRIPE_BOOT_WORK:-$bcache/run/$run_name-$(printf '%s' "$repo" | sha256sum | cut -c1-8)}
mkdir -p "$work"
exec {work_lock}>"$work/.lock"
if ! flock -n "$work_lock"; then
	log "another boot-root.sh is using $work (SSDSTRIPE_BOOT_WORK picks another); waiting"
	flock "$work_lock"
fi
version=$(cat "$repo/VERSION")
# the tool package is built for this machine's architecture, the others are "all"
deb_arch=$(dpkg --print-architecture)

# ---- the packages, and the module for the rig's own guest -------------------
src=$work/src
rm -rf "$src"
mkdir -p "$src"
tar -C "$repo" --exclude=.git -cf - . | tar -C "$src" -xf -
debs=$work/debs
# this run's own directory (make deb refuses one it did not make)
rm -rf "$debs"
t0=$(date +%s)
make -C "$src" deb DEBDIR="$debs" >"$work/make-deb.log" 2>&1 ||
	{ tail -n 30 "$work/make-deb.log" >&2; die "make deb failed"; }
log "make deb: $(cd "$debs" && echo ./*.deb | sed 's|\./||g') ($(($(date +%s) - t0))s)"
# the previous version's packages (debian/changelog's second entry), built
# from the newest commit that had that VERSION, for the upgrade test of the
# initramfs-tools-all boot (upgrade_live in boot-root-report)
prev_debs=$work/prev-debs prev_why=''
rm -rf "$prev_debs" "$work/prev-src"
if want initramfs-tools-all; then
	prev=$(dpkg-parsechangelog -l "$repo/debian/changelog" -o 1 -c 1 -S Version 2>/dev/null) || prev=''
	prev_rev=''
	if [ -z "$prev" ]; then
		prev_why="debian/changelog has no previous version"
	elif ! git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
		prev_why="not a git checkout: no $prev to build"
	else
		for c in $(git -C "$repo" rev-list HEAD -- VERSION); do
			[ "$(git -C "$repo" show "$c^:VERSION" 2>/dev/null)" = "$prev" ] || continue
			prev_rev=$(git -C "$repo" rev-parse "$c^")
			break
		done
		[ -n "$prev_rev" ] || prev_why="no commit with VERSION $prev"
	fi
	if [ -n "$prev_rev" ]; then
		t0=$(date +%s)
		mkdir -p "$work/prev-src"
		git -C "$repo" archive "$prev_rev" | tar -C "$work/prev-src" -xf -
		if make -C "$work/prev-src" deb DEBDIR="$prev_debs" >"$work/make-deb-prev.log" 2>&1; then
			log "make deb of $prev (${prev_rev:0:12}): $(cd "$prev_debs" && echo ./*.deb | sed 's|\./||g') ($(($(date +%s) - t0))s)"
		else
			prev_why="make deb of $prev (${prev_rev:0:12}) failed: $(tail -n 3 "$work/make-deb-prev.log" | tr '\n' ' ')"
		fi
		rm -rf "$work/prev-src"
	fi
fi
if [ -n "$bookworm" ]; then
	log "building dm-ssdstripe.ko against $kdir (for the guest that makes the arrays)"
	make -C "$src" KDIR="$kdir" module >"$work/module-build.log" 2>&1 ||
		{ tail -n 30 "$work/module-build.log" >&2; die "module build failed"; }
	module=$src/dm-ssdstripe/dm-ssdstripe.ko
fi

# ---- trees ----------------------------------------------------------------
# this machine's Debian sources (with -security: the kernels are there),
# else the default mirror
mirror=/etc/apt/sources.list.d/debian.sources
[ -r "$mirror" ] || mirror=http://deb.debian.org/debian
common=systemd-sysv,udev,kmod,dmsetup,e2fsprogs,zstd
# base_tar NAME SUITE MIRROR PACKAGES: a cached mmdebstrap tarball of SUITE
# minbase with PACKAGES
base_tar() {
	local t valid_until=true check_date=true
	t=$bcache/base-$1-$({ echo "$2 $4"; cat "$3" 2>/dev/null || echo "$3"; } |
		sha256sum | cut -c1-12).tar
	if [ ! -s "$t" ]; then
		log "mmdebstrap $1 ($2: $4) from $3"
		# a frozen mirror's Release files have expired: this host's apt
		# settings for that go along (scripts/sid-root does the same)
		eval "$(apt-config shell valid_until Acquire::Check-Valid-Until \
			check_date Acquire::Check-Date)"
		# mmdebstrap picks the output format by the name's extension
		mmdebstrap --mode=root --variant=minbase --include="$4" \
			--aptopt="Acquire::Check-Valid-Until \"$valid_until\"" \
			--aptopt="Acquire::Check-Date \"$check_date\"" \
			"$2" "${t%.tar}.tmp.tar" "$3" >"$work/mmdebstrap-$1.log" 2>&1 ||
			{ tail -n 20 "$work/mmdebstrap-$1.log" >&2; rm -f "${t%.tar}.tmp.tar"; return 1; }
		mv "${t%.tar}.tmp.tar" "$t"
	fi
	echo "$t"
}
# in_tree [--apt SUITE] DIR CMD...: run CMD chrooted into DIR with /proc,
# /sys, /dev and a fresh /run and /tmp, in a private mount namespace so
# nothing stays mounted; --apt: with this host's resolv.conf and apt's
# lists and downloads kept for SUITE in $bcache/apt-SUITE (one apt at a
# time uses them)
in_tree() {
	local apt='' d
	if [ "$1" = --apt ]; then
		apt=$bcache/apt-$2
		shift 2
		mkdir -p "$apt/lists/partial" "$apt/archives/partial"
	fi
	d=$1
	shift
	local lock=()
	[ -z "$apt" ] || lock=(flock "$apt/.lock")
	# shellcheck disable=SC2016 # expanded by the inner sh
	"${lock[@]}" unshare --mount --propagation private sh -ec '
		apt=$1 d=$2; shift 2
		mount -t proc proc "$d/proc"
		mount -t sysfs sysfs "$d/sys"
		mount --rbind /dev "$d/dev"
		mount -t tmpfs tmpfs "$d/run"
		mount -t tmpfs tmpfs "$d/tmp"
		if [ -n "$apt" ]; then
			mount --bind "$apt/lists" "$d/var/lib/apt/lists"
			mount --bind "$apt/archives" "$d/var/cache/apt/archives"
			mount --bind /etc/resolv.conf "$d/etc/resolv.conf"
		fi
		exec chroot "$d" "$@"' sh "$apt" "$d" "$@"
}
# tree_apt SUITE DIR LOG ARGS...: apt-get ARGS in the tree, as an
# administrator runs it (no questions; a changed configuration file kept),
# its output appended to LOG (without the CRs of dpkg's terminal).  No
# Recommends: what the packages Depend on must be enough (dkms recommends
# linux-headers-amd64, which would bring another kernel's headers)
tree_apt() {
	local s=$1 d=$2 l=$3
	shift 3
	echo "# apt-get $*" >>"$l"
	in_tree --apt "$s" "$d" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
		apt-get -y --no-install-recommends \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
		"$@" 2>&1 | tr -d '\r' >>"$l"
}
# new_tree NAME TARBALL: a fresh $work/tree-NAME from TARBALL, its path
new_tree() {
	local d=$work/tree-$1
	rm -rf "$d"
	mkdir -p "$d"
	tar -C "$d" -xf "$2"
	# apt in the tree resolves names with this host's resolv.conf
	rm -f "$d/etc/resolv.conf"
	: >"$d/etc/resolv.conf"
	mkdir -p "$d/root/debs"
	cp "$debs"/*.deb "$d/root/debs/"
	# TCG: udev loading kvm_amd, and once powernow_k8, soft-locked guests
	printf 'blacklist %s\n' kvm kvm_amd kvm_intel powernow_k8 \
		>"$d/etc/modprobe.d/test-no-kvm.conf"
	echo "$d"
}
# kernel_pkgs ABI: Debian's image (signed where there is one) and headers.
# A new ABI's signed image reaches the archive after its unsigned one (seen
# with 6.1.0-57 in bookworm-security, 2026-11-28): until then the signed
# name is only a virtual package, which "apt-cache show" accepts with exit 0
# and no record, so the test is for a record.
kernel_pkgs() {
	if apt-cache show "linux-image-$1" 2>/dev/null | grep -q '^Package:'; then
		echo "linux-image-$1 linux-headers-$1"
	else
		echo "linux-image-$1-unsigned linux-headers-$1"
	fi
}

# ---- what the packages did, read in a tree ---------------------------------
# build_id FILE: the GNU build ID of a module (.ko, .ko.xz or .ko.zst)
build_id() {
	local t
	t=$(mktemp)
	case $1 in
	*.xz) xz -dc "$1" >"$t" ;;
	*.zst) zstd -q -dc "$1" >"$t" ;;
	*) cat "$1" >"$t" ;;
	esac
	readelf -n "$t" 2>/dev/null | awk '/Build ID:/ {print $3; exit}'
	rm -f "$t"
}
# dkms_module DIR KVER: the module DKMS installed in the tree for KVER
dkms_module() {
	local f
	for f in "$1"/lib/modules/"$2"/updates/dkms/dm-ssdstripe.ko*; do
		[ -f "$f" ] && echo "$f" && return 0
	done
	return 1
}
# pkg_state DIR PKG: dpkg's status abbreviation ("ii ", "rc ", or "un" for
# a package dpkg does not know)
pkg_state() {
	# shellcheck disable=SC2016 # dpkg-query's own ${field} syntax
	in_tree "$1" dpkg-query -W -f '${db:Status-Abbrev}' "$2" 2>/dev/null || echo un
}
# initrd_list DIR KVER OUT: the files of the tree's initramfs for KVER
initrd_list() {
	in_tree "$1" lsinitramfs "/boot/initrd.img-$2" >"$3" 2>&1
}
# installed_why DIR LOG BOOTPKG KVER...: why the packages are not installed
# as they should be (nothing when they are): each installed, DKMS's module
# for every KVER, the assembly unit enabled and the monitor not, the
# shipped configuration file; and the initramfs (of the first KVER, the
# newest when the packages came: the one their trigger regenerates) made
# by the trigger after that, with module, tool, hook and configuration
installed_why() {
	local d=$1 l=$2 bp=$3 k p f list=$work/initrd.list
	shift 3
	for p in ssdstripe dm-ssdstripe-dkms "$bp"; do
		[ "$(pkg_state "$d" "$p")" = "ii " ] || { echo "$p is not installed ($(pkg_state "$d" "$p"))"; return; }
	done
	for k in "$@"; do
		in_tree "$d" dkms status dm-ssdstripe/"$version" -k "$k" 2>&1 |
			grep -q ": installed" || { echo "dkms status for $k: $(in_tree "$d" dkms status 2>&1 | tr '\n' ' ')"; return; }
		f=$(dkms_module "$d" "$k") || { echo "no DKMS module in /lib/modules/$k/updates/dkms"; return; }
		[ -n "$(build_id "$f")" ] || { echo "${f#"$d"} has no build ID"; return; }
	done
	[ -L "$d/etc/systemd/system/local-fs.target.wants/ssdstripe-assemble.service" ] ||
		{ echo "ssdstripe-assemble.service is not enabled"; return; }
	[ ! -e "$d/etc/systemd/system/multi-user.target.wants/ssdstripe-monitor.service" ] ||
		{ echo "ssdstripe-monitor.service was enabled"; return; }
	cmp -s "$d/etc/ssdstripe.conf" "$repo/scripts/ssdstripe.conf" ||
		{ echo "/etc/ssdstripe.conf is not the shipped one"; return; }
	k=$1
	[ "$bp" = ssdstripe-initramfs ] || return 0
	# the trigger: update-initramfs ran for it after the packages were set up
	awk -v k="$k" '/^# apt-get/ {s = 0} /^Setting up ssdstripe-initramfs/ {s = 1}
		s == 1 && /^Processing triggers for initramfs-tools/ {s = 2}
		s == 2 && $0 == "update-initramfs: Generating /boot/initrd.img-" k {f = 1}
		END {exit !f}' "$l" ||
		{ echo "initramfs-tools' trigger did not regenerate /boot/initrd.img-$k after the packages"; return; }
	initrd_list "$d" "$k" "$list" || { echo "lsinitramfs: $(head -n 3 "$list")"; return; }
	for f in usr/sbin/ssdstripe \
		etc/ssdstripe.conf scripts/local-top/ssdstripe "$k/updates/dkms/dm-ssdstripe.ko"; do
		grep -q "$f" "$list" || { echo "initrd.img-$k lacks $f"; return; }
	done
}

# ---- initramfs-tools: install, remove, purge, install again, new kernel ------
if [ -n "$bookworm" ]; then
	abi_old=$("$here/fetch-kernel.sh" "$old_series") || die "cannot fetch kernel $old_series"
	t0=$(date +%s)
	# lvm2: its udev rules are what a health uevent must not set off (udev_check)
	tar_itools=$(base_tar itools bookworm "$mirror" \
		"$common,initramfs-tools,busybox,lvm2,$(kernel_pkgs "$abi_old" | tr ' ' ',')") ||
		die "mmdebstrap of the initramfs-tools tree"
	tar_dracut=$(base_tar dracut bookworm "$mirror" \
		"$common,dracut,$(kernel_pkgs "$abi" | tr ' ' ',')") || die "mmdebstrap of the dracut tree"
	r=$(new_tree itools "$tar_itools")
	dr=$(new_tree dracut "$tar_dracut")
	log "trees: bookworm with $abi_old, with dracut and $abi ($(($(date +%s) - t0))s)"
	pkgs_itools="./root/debs/ssdstripe_${version}_${deb_arch}.deb ./root/debs/dm-ssdstripe-dkms_${version}_all.deb ./root/debs/ssdstripe-initramfs_${version}_all.deb"
	ilog=$work/apt-itools.log
	: >"$ilog"
	tree_apt bookworm "$r" "$ilog" update -qq || { tail -n 20 "$ilog" >&2; die "apt-get update in the tree"; }

	# 1. apt install: DKMS builds for K_OLD, the trigger regenerates its initramfs
	t0=$(date +%s)
	# shellcheck disable=SC2086 # package files
	tree_apt bookworm "$r" "$ilog" install $pkgs_itools || { tail -n 30 "$ilog" >&2; die "apt-get install of the packages"; }
	why=$(installed_why "$r" "$ilog" ssdstripe-initramfs "$abi_old")
	if [ -z "$why" ]; then
		result package-install PASS "apt installed $version (dkms and the compiler from the archive): DKMS built the module for $abi_old, the trigger regenerated its initramfs with it, the tool and the hook; ssdstripe-assemble.service enabled" $(($(date +%s) - t0))
	else
		result package-install FAIL "$why (see $ilog)" $(($(date +%s) - t0))
	fi

	# 2. apt remove: hooks, units, rules, module and its DKMS tree go; the
	#    initramfs is regenerated without them; the configuration stays.
	#    Nothing here is an array (a chroot), so the prerm must not warn.
	t0=$(date +%s)
	n0=$(wc -l <"$ilog")
	tree_apt bookworm "$r" "$ilog" remove ssdstripe ssdstripe-initramfs dm-ssdstripe-dkms ||
		{ tail -n 30 "$ilog" >&2; die "apt-get remove"; }
	why=''
	for p in ssdstripe ssdstripe-initramfs dm-ssdstripe-dkms; do
		case $(pkg_state "$r" "$p") in ii*) why="$p is still installed" ;; esac
	done
	for f in usr/sbin/ssdstripe usr/lib/ssdstripe usr/share/initramfs-tools/hooks/ssdstripe \
		usr/share/initramfs-tools/scripts/local-top/ssdstripe lib/systemd/system/ssdstripe-assemble.service \
		lib/systemd/system/ssdstripe-monitor.service lib/udev/rules.d/64-ssdstripe-incremental.rules \
		lib/udev/rules.d/56-ssdstripe.rules "usr/src/dm-ssdstripe-$version" "var/lib/dkms/dm-ssdstripe/$version"; do
		[ -e "$r/$f" ] && why="${why:+$why; }/$f is still there"
	done
	f=$(dkms_module "$r" "$abi_old") && why="${why:+$why; }${f#"$r"} is still there"
	in_tree "$r" modinfo -k "$abi_old" dm-ssdstripe >/dev/null 2>&1 &&
		why="${why:+$why; }modinfo still finds dm-ssdstripe for $abi_old (depmod)"
	[ -f "$r/etc/ssdstripe.conf" ] || why="${why:+$why; }/etc/ssdstripe.conf went with remove"
	tail -n +"$n0" "$ilog" | grep -q '^W: .*ssdstripe array' && why="${why:+$why; }the prerm warned with no array anywhere"
	tail -n +"$n0" "$ilog" | awk -v k="$abi_old" '/^Processing triggers for initramfs-tools/ {s = 1}
		s && $0 == "update-initramfs: Generating /boot/initrd.img-" k {f = 1} END {exit !f}' ||
		why="${why:+$why; }the initramfs of $abi_old was not regenerated"
	initrd_list "$r" "$abi_old" "$work/initrd.list" || why="${why:+$why; }lsinitramfs failed"
	grep -q ssdstripe "$work/initrd.list" &&
		why="${why:+$why; }initrd.img-$abi_old still holds $(grep ssdstripe "$work/initrd.list" | head -n 3 | tr '\n' ' ')"
	if [ -z "$why" ]; then
		result package-remove PASS "apt removed hooks, units, rules, the tool, the module and its DKMS tree; initrd.img-$abi_old regenerated without them; /etc/ssdstripe.conf kept; no warning" $(($(date +%s) - t0))
	else
		result package-remove FAIL "$why (see $ilog)" $(($(date +%s) - t0))
	fi

	# 3. apt purge: nothing of the packages is left in the tree
	t0=$(date +%s)
	tree_apt bookworm "$r" "$ilog" purge ssdstripe ssdstripe-initramfs dm-ssdstripe-dkms ||
		{ tail -n 30 "$ilog" >&2; die "apt-get purge"; }
	why=''
	for p in ssdstripe ssdstripe-initramfs dm-ssdstripe-dkms; do
		s=$(pkg_state "$r" "$p")
		[ "$s" = un ] || why="${why:+$why; }dpkg still knows $p ($s)"
	done
	left=$(find "$r" -xdev \( -path "$r/proc" -o -path "$r/sys" -o -path "$r/dev" -o -path "$r/root/debs" \) \
		-prune -o -name '*ssdstripe*' -print | sed "s|^$r||" | head -n 5 | tr '\n' ' ')
	[ -z "$left" ] || why="${why:+$why; }left behind: $left"
	if [ -z "$why" ]; then
		result package-purge PASS "apt purged the configuration and the units' state: no file named *ssdstripe* left" $(($(date +%s) - t0))
	else
		result package-purge FAIL "$why (see $ilog)" $(($(date +%s) - t0))
	fi

	# 4. apt install again: as on a machine that never had them
	t0=$(date +%s)
	# shellcheck disable=SC2086 # package files
	tree_apt bookworm "$r" "$ilog" install $pkgs_itools || { tail -n 30 "$ilog" >&2; die "apt-get install after purge"; }
	n0=$(grep -n '^# apt-get install' "$ilog" | tail -n 1 | cut -d: -f1)
	why=$(tail -n +"$n0" "$ilog" >"$work/apt-itools-reinstall.log" &&
		installed_why "$r" "$work/apt-itools-reinstall.log" ssdstripe-initramfs "$abi_old")
	# the initramfs the boot "initramfs-tools-all" boots, as the trigger made it
	cp "$r/boot/initrd.img-$abi_old" "$work/initrd-$abi_old.img"
	id_old=$(build_id "$(dkms_module "$r" "$abi_old")") || id_old=''
	if [ -z "$why" ]; then
		result package-reinstall PASS "apt installed it again: module for $abi_old (build ID ${id_old:0:12}), initramfs regenerated by the trigger" $(($(date +%s) - t0))
	else
		result package-reinstall FAIL "$why (see $ilog)" $(($(date +%s) - t0))
	fi

	# 5. the administrator's configuration, then a new kernel: DKMS's
	#    kernel hook builds the module, the kernel's own initramfs has it
	#    and this configuration.  The initramfs assembles root only; the
	#    booted system lists data (its unit waits for data's members) and
	#    leaves the other arrays alone (AUTO no: spare stays inactive);
	#    ssdstripe.test-conf=auto on the command line swaps in the other
	#    file (ssdstripe-test-conf.service): nothing listed, AUTO yes.
	printf 'BOOT root\nTIMEOUT 30\nARRAY data  # /srv/data\nAUTO no\n' >"$r/etc/ssdstripe.conf"
	printf 'BOOT root\nTIMEOUT 30\n' >"$r/etc/ssdstripe.conf.auto"
	t0=$(date +%s)
	n0=$(($(wc -l <"$ilog") + 1))
	# shellcheck disable=SC2046 # package names
	tree_apt bookworm "$r" "$ilog" install $(kernel_pkgs "$abi") ||
		{ tail -n 30 "$ilog" >&2; die "apt-get install of $abi"; }
	why=''
	in_tree "$r" dkms status dm-ssdstripe/"$version" -k "$abi" 2>&1 | grep -q ": installed" ||
		why="DKMS did not install the module for $abi: $(in_tree "$r" dkms status 2>&1 | tr '\n' ' ')"
	tail -n +"$n0" "$ilog" | grep -qF "dkms: running auto installation service for kernel $abi" ||
		why="${why:+$why; }DKMS's kernel hook did not run for $abi"
	id_new=''
	f=$(dkms_module "$r" "$abi") && id_new=$(build_id "$f")
	[ -n "$id_new" ] || why="${why:+$why; }no module with a build ID in /lib/modules/$abi/updates/dkms"
	initrd_list "$r" "$abi" "$work/initrd.list" || why="${why:+$why; }lsinitramfs of $abi failed"
	for f in usr/sbin/ssdstripe scripts/local-top/ssdstripe etc/ssdstripe.conf "$abi/updates/dkms/dm-ssdstripe.ko"; do
		grep -q "$f" "$work/initrd.list" || why="${why:+$why; }initrd.img-$abi lacks $f"
	done
	cmp -s "$r/boot/initrd.img-$abi_old" "$work/initrd-$abi_old.img" ||
		why="${why:+$why; }initrd.img-$abi_old changed"
	cp "$r/boot/initrd.img-$abi" "$work/initrd-$abi.img"
	if [ -z "$why" ]; then
		result kernel-upgrade PASS "apt installed $abi: DKMS's kernel hook built the module (build ID ${id_new:0:12}), its initramfs has it, the tool and BOOT root" $(($(date +%s) - t0))
	else
		result kernel-upgrade FAIL "$why (see $ilog)" $(($(date +%s) - t0))
	fi

	# dracut: the packages' trigger makes dracut regenerate every initramfs
	t0=$(date +%s)
	dlog=$work/apt-dracut.log
	: >"$dlog"
	tree_apt bookworm "$dr" "$dlog" update -qq || { tail -n 20 "$dlog" >&2; die "apt-get update in the dracut tree"; }
	tree_apt bookworm "$dr" "$dlog" install "./root/debs/ssdstripe_${version}_${deb_arch}.deb" \
		"./root/debs/dm-ssdstripe-dkms_${version}_all.deb" "./root/debs/ssdstripe-dracut_${version}_all.deb" ||
		{ tail -n 30 "$dlog" >&2; die "apt-get install in the dracut tree"; }
	why=$(installed_why "$dr" "$dlog" ssdstripe-dracut "$abi")
	awk -v k="$abi" '/^Setting up ssdstripe-dracut/ {s = 1}
		s == 1 && /^Processing triggers for dracut/ {s = 2}
		s == 2 && $0 == "dracut: Generating /boot/initrd.img-" k {f = 1} END {exit !f}' "$dlog" ||
		why="${why:+$why; }dracut's trigger did not regenerate initrd.img-$abi after the packages"
	in_tree "$dr" lsinitrd "/boot/initrd.img-$abi" >"$work/initrd-dracut.list" 2>&1 || true
	for f in usr/sbin/ssdstripe etc/ssdstripe.conf \
		initqueue/settled/50-ssdstripe-assemble.sh "$abi/updates/dkms/dm-ssdstripe.ko"; do
		grep -q "$f" "$work/initrd-dracut.list" || why="${why:+$why; }dracut's initrd.img-$abi lacks $f"
	done
	id_dracut=''
	f=$(dkms_module "$dr" "$abi") && id_dracut=$(build_id "$f")
	cp "$dr/boot/initrd.img-$abi" "$work/initrd-dracut.img"
	cp "$dr/boot/vmlinuz-$abi" "$work/vmlinuz-$abi"
	if [ -z "$why" ]; then
		result package-dracut PASS "apt installed ssdstripe-dracut: DKMS built the module for $abi, dracut's trigger regenerated its initramfs with it" $(($(date +%s) - t0))
	else
		result package-dracut FAIL "$why (see $dlog)" $(($(date +%s) - t0))
	fi
	cp "$r/boot/vmlinuz-$abi_old" "$work/vmlinuz-$abi_old"
	[ -n "$keep" ] || rm -rf "$dr"
fi

# ---- sid: the same packages on Debian unstable's newest kernel --------------
if want sid; then
	t0=$(date +%s)
	why=''
	sid_abi=$("$repo/scripts/sid-root" abi) || die "no sid kernel"
	sid_mirror=$("$repo/scripts/sid-root" mirror) || die "no mirror for sid"
	# sid's linux-image prefers dracut: name initramfs-tools
	if tar_sid=$(base_tar sid sid "$sid_mirror" "$common,initramfs-tools,linux-image-$sid_abi,linux-headers-$sid_abi"); then
		s=$(new_tree sid "$tar_sid")
		slog=$work/apt-sid.log
		: >"$slog"
		# built there too, by sid's debhelper and dh-dkms (make deb in a
		# copy of the tree), and those packages are the ones installed
		rm -rf "$s/root/debs"
		mkdir -p "$s/root/src"
		tar -C "$src" --exclude=./build -cf - . | tar -C "$s/root/src" -xf -
		if ! { tree_apt sid "$s" "$slog" update -qq &&
			tree_apt sid "$s" "$slog" install build-essential debhelper dh-dkms python3-docutils pkgconf systemd-dev \
				libdevmapper-dev libblkid-dev libgcrypt20-dev libjson-c-dev; }; then
			why="apt-get install of the build's tools failed: $(tail -n 5 "$slog" | tr '\n' ' ')"
		elif ! in_tree "$s" make -C /root/src deb DEBDIR=/root/debs >>"$slog" 2>&1; then
			why="make deb failed in the sid tree: $(tail -n 5 "$slog" | tr '\n' ' ')"
		elif tree_apt sid "$s" "$slog" install "./root/debs/ssdstripe_${version}_${deb_arch}.deb" \
			"./root/debs/dm-ssdstripe-dkms_${version}_all.deb" \
			"./root/debs/ssdstripe-initramfs_${version}_all.deb"; then
			why=$(installed_why "$s" "$slog" ssdstripe-initramfs "$sid_abi")
		else
			why="apt-get install failed: $(tail -n 5 "$slog" | tr '\n' ' ')"
		fi
		sid_id=''
		f=$(dkms_module "$s" "$sid_abi") && sid_id=$(build_id "$f")
		sid_dkms=$(in_tree "$s" dkms --version 2>/dev/null || true)
		[ -n "$keep" ] || rm -rf "$s"
	else
		why="mmdebstrap of sid failed (see $work/mmdebstrap-sid.log)"
	fi
	if [ -z "$why" ]; then
		result package-sid PASS "in a sid tree: make deb built the packages with its debhelper, apt installed them, ${sid_dkms:-dkms} built the module for $sid_abi (build ID ${sid_id:0:12}), the trigger put it, the tool and the hook in its initramfs" $(($(date +%s) - t0))
	else
		result package-sid FAIL "$why (see ${slog:-$work})" $(($(date +%s) - t0))
	fi
fi

# shellcheck disable=SC2015 # the boots follow only with the trees
want initramfs-tools || want dracut || { [ -n "$keep" ] || rm -rf "$work/tree-itools"; }
if ! { want initramfs-tools || want dracut; } || [ "$failed" != 0 ]; then
	[ "$failed" = 0 ] || log "not booting: the packages failed above"
	echo "=== boot: packages of $version, $(($(date +%s) - t_start))s (logs in $work)"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
fi

# ---- the booted system: fstab, the report, a quiet console -------------------
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
# the upgrade test's previous packages (under /root/debs: the purge
# checks leave them alone), and the autopkgtest run by hand
if [ -z "$prev_why" ] && [ -d "$prev_debs" ]; then
	mkdir -p "$r/root/debs/prev"
	cp "$prev_debs"/*.deb "$r/root/debs/prev/"
	# what they depend on and this tree's packages do not bring (1.5.0's
	# sh tool needed jq), from the archive now: the guest has no network
	prev_deps=$(for f in "$prev_debs"/ssdstripe_*.deb "$prev_debs"/ssdstripe-initramfs_*.deb; do
		dpkg-deb -f "$f" Depends; done | tr ',' '\n' |
		sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep -v -e '^$' -e ssdstripe | sort -u)
	if [ -n "$prev_deps" ]; then
		# shellcheck disable=SC2086 # package names are words
		tree_apt bookworm "$r" "$work/apt-prev-deps.log" install $prev_deps ||
			{ tail -n 20 "$work/apt-prev-deps.log" >&2; die "apt-get install of what the previous packages need"; }
	fi
fi
install -m 0755 "$repo/debian/tests/smoke" "$r/usr/local/sbin/ssdstripe-test-smoke"
# ssdstripe-assemble.service: enabled by the package (package-install)
in_tree "$r" systemctl enable ssdstripe-boot-report.service \
	ssdstripe-test-conf.service ssdstripe-test-attach-trigger.service \
	ssdstripe-test-attach-unit.service \
	>"$work/enable.log" 2>&1 || { cat "$work/enable.log" >&2; die "systemctl enable"; }
in_tree "$r" systemctl mask getty@tty1.service serial-getty@ttyS0.service \
	console-getty.service systemd-firstboot.service systemd-timesyncd.service \
	apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
	fstrim.timer lvm2-monitor.service lvm2-lvmpolld.socket dkms.service >>"$work/enable.log" 2>&1 || true
in_tree "$r" systemctl set-default multi-user.target >>"$work/enable.log" 2>&1

# ---- disks ----------------------------------------------------------------
img=$work/img
rm -rf "$img"
mkdir -p "$img"
for s in root0 root1 root2 rootnew0; do truncate -s 2G "$img/$s.img"; done
for s in data0 data1; do truncate -s 256M "$img/$s.img"; done
for s in spare0 old0; do truncate -s 64M "$img/$s.img"; done
# the initramfs images are the host's to boot with (their copies in $work)
tar -C "$r" --one-file-system --exclude='./boot/initrd.img-*' \
	-cf "$img/rootfs-tar.img" .
# NVMe namespaces are whole blocks
truncate -s "%4096" "$img/rootfs-tar.img"
log "root file system tarball: $(du -h "$img/rootfs-tar.img" | cut -f1)"
[ -n "$keep" ] || rm -rf "$r"

qemu_t0=0 qemu_secs=0 qemu_note=''
kcmd="console=ttyS0 panic_on_warn=1 oops=panic softlockup_panic=1 hung_task_panic=1 panic=-1"
kcmd+=" mitigations=off modprobe.blacklist=kvm,kvm_amd,kvm_intel,powernow_k8"
# A full system's udev loads dozens of modules at once on two emulated CPUs
# that share a busy host: a 20 s soft-lockup threshold fired there (47 s in
# vmalloc) with no fault of ours.  60 s (lockups reported after 120 s) still
# catches a real hang, and every report still fails the boot.
kcmd+=" watchdog_thresh=60"
# qemu_run LOG KERNEL INITRD APPEND SERIAL...: one guest under the rig's
# lock.  A kernel that dies before /init (rig.sh) is booted once more, and
# qemu_note says so; nothing has touched the disks then.
# A SERIAL ending in +late is attached (device_add on QEMU's monitor) only
# once the console says SSDSTRIPE-BOOT-ATTACH-NOW, 10 s later
# (late_attach); its drive and PCIe port are there from the start.
qemu_run() {
	local logf=$1 kernel=$2 initrd=$3 append=$4 rc early a late=' ' lateadd=() watcher='' qpid wpid
	shift 4
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
			-nographic -no-reboot -nic none -kernel "$kernel" \
			-monitor "unix:$work/monitor.sock,server=on,wait=off" \
			-initrd "$initrd" -append "$append" "${args[@]}" </dev/null >"$logf" 2>&1 &
		qpid=$!
		boot_watch "$logf" 'Run /init as init process' 300 "$qpid" &
		wpid=$!
		wait "$qpid"
		rc=$?
		kill "$wpid" 2>/dev/null
		wait "$wpid" 2>/dev/null
		set -e
		if [ -n "$watcher" ]; then
			kill "$watcher" 2>/dev/null || true
			wait "$watcher" 2>/dev/null || true
			watcher=''
		fi
		[ -z "$qemu_note" ] || break
		early=$(died_before_init "$logf" 'Run /init as init process') || break
		cp "$logf" "$logf.boot-failure"
		qemu_note="the kernel died or hung before /init ran ($early); booted again, that console is $logf.boot-failure"
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
qemu_run "$prep_log" "$kroot/boot/vmlinuz-$abi" "$work/prep.cpio.gz" "$kcmd ssddisks=8" \
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
# boot NAME KVER BUILDID INITRD EXTRA_APPEND EXPECT SERIAL...: boot
# /boot/vmlinuz-KVER of the tree with INITRD.  The module that runs must be
# BUILDID, the one DKMS built for KVER.  EXPECT says who must assemble
# array data (data=initramfs: the initramfs; data=boot: the unit or udev;
# data=udev: udev's --incremental, in a transient unit), whether spare must
# be active (spare=active|inactive), whether udev's rule must have looked at
# spare's disk and decided to leave it alone (spare-udev=not-listed,
# SSDSTRIPE_ASSEMBLE_RESULT in the udev database: a spare left inactive by
# a rule that failed proves nothing) and whether the unit must say why it
# refuses the re-used disk old0 (old=refused); a SERIAL+late is attached
# late (qemu_run)
boot() {
	local name=$1 kver=$2 id=$3 initrd=$4 extra=$5 want=$6 expect=" $6 " logf=$work/console-boot-$1.log rc=0 el why=''
	shift 6
	log "booting $kver with the $name initramfs, disks in the order $*"
	qemu_run "$logf" "$work/vmlinuz-$kver" "$initrd" "root=/dev/mapper/root ro $kcmd $extra" "$@" || rc=$?
	el=$qemu_secs
	local c=$logf.clean by
	by=$(sed -n 's/^SSDSTRIPE-BOOT-LOG: \([^ ]*\) assembled data from.*/\1/p' "$c" | head -n 1)
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then why="timeout after ${timeout}s"
	elif [ "$rc" != 0 ]; then why="qemu exited with $rc"
	elif ! grep -q '^SSDSTRIPE-BOOT-DONE' "$c"; then why="no report (emergency: $(grep -c SSDSTRIPE-BOOT-EMERGENCY "$c" || true))"
	elif ! grep -qx 'SSDSTRIPE-BOOT-ROOT: /dev/mapper/root' "$c"; then why="/ is $(sed -n 's/^SSDSTRIPE-BOOT-ROOT: //p' "$c")"
	elif ! grep -qx "SSDSTRIPE-BOOT-MODULE: kernel=$kver version=$version build-id=$id" "$c"; then
		why="not the module DKMS built for $kver (build ID $id): $(sed -n 's/^SSDSTRIPE-BOOT-MODULE: //p' "$c")"
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
		result "boot-$name" PASS "$kver: / on /dev/mapper/root, DKMS's module, data assembled by ${by:-the initramfs} ($want)${qemu_note:+; $qemu_note}" "$el"
	fi
	# create -> status -> reboot -> assembled, for people to read
	{
		echo "## created in the rig guest"
		cat "$work/transcript-create.txt"
		echo "## booted $kver with the $name initramfs, disks in the order $*"
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
# remove_check: what "apt-get remove" and "purge" of the packages did on the
# running root-on-array system of the initramfs-tools-all boot
# (boot-root-report, remove_live): the prerm of dm-ssdstripe-dkms and of
# ssdstripe-initramfs warned that / is on array root and that BOOT names
# it; every array stayed active with the same table, / stayed mounted from
# root, data's file reads back, every member's first MiB (the label) is
# byte for byte what it was; modules, hooks, units and rules were gone
# after remove, the configuration and every trace after purge.
rl() { sed -n "s/^SSDSTRIPE-BOOT-REMOVE-$1: //p" "$work/console-boot-initramfs-tools-all.log.clean" | head -n 1; }
remove_check() {
	local c=$work/console-boot-initramfs-tools-all.log.clean why='' p
	if ! grep -q '^SSDSTRIPE-BOOT-REMOVE-DONE' "$c"; then why="no report of the removal"
	elif grep -q '^SSDSTRIPE-BOOT-REMOVE-NOTE' "$c"; then why=$(rl NOTE)
	else
		for p in dm-ssdstripe-dkms ssdstripe-initramfs; do
			grep -q "^SSDSTRIPE-BOOT-APT: W: $p: / or /usr is on the ssdstripe array root: " "$c" ||
				why="${why:+$why; }the prerm of $p did not warn that / is on array root"
			grep -q "^SSDSTRIPE-BOOT-APT: W: $p: the initramfs is to assemble the ssdstripe arrays root " "$c" ||
				why="${why:+$why; }the prerm of $p did not name BOOT root"
		done
		# its / has no initramfs images (QEMU boots them from the host), so
		# update-initramfs finds none to regenerate here: package-remove
		# saw it regenerate one
		grep -q '^SSDSTRIPE-BOOT-APT: Processing triggers for initramfs-tools' "$c" ||
			why="${why:+$why; }the removal did not trigger update-initramfs"
		[ "$(rl REMOVED)" = "apt=0 pkgs=rc,un,un files=none modules=none root=/dev/mapper/root" ] ||
			why="${why:+$why; }after remove: $(rl REMOVED)"
		[ "$(rl PURGED)" = "apt=0 pkgs=un,un,un conf=none left=none" ] ||
			why="${why:+$why; }after purge: $(rl PURGED)"
		[ "$(rl ARRAYS)" = "same" ] || why="${why:+$why; }arrays: $(rl ARRAYS)"
		[ "$(rl LABELS)" = "same 7" ] || why="${why:+$why; }labels: $(rl LABELS)"
		[ "$(rl DATA)" = "written before the reboot" ] || why="${why:+$why; }data: $(rl DATA)"
	fi
	if [ -n "$why" ]; then
		result remove-live FAIL "$why" "$(rl SECS)"
	else
		result remove-live PASS "on the running system (/ on array root): apt remove (both prerms warned, update-initramfs triggered) and purge; nothing left; arrays active, 7 labels and data unchanged" "$(rl SECS)"
	fi
}
# upgrade_check: what the upgrade from the previous version's ssdstripe
# and ssdstripe-initramfs to this tree's did on the running system of the
# initramfs-tools-all boot (boot-root-report, upgrade_live): before it the
# monitor, the scrub timer and the assembly unit ran; after it all three
# run, the monitor was restarted (it runs the new tool), the assembly
# unit is the same invocation and systemd stopped it at no point; and
# debian/tests/smoke, the autopkgtest, passed on that system.
ug() { sed -n "s/^SSDSTRIPE-BOOT-UPGRADE-$1: //p" "$work/console-boot-initramfs-tools-all.log.clean" | head -n 1; }
upgrade_check() {
	local c=$work/console-boot-initramfs-tools-all.log.clean why='' a m='ssdstripe-monitor.service' t='ssdstripe-scrub.timer' u='ssdstripe-assemble.service'
	if [ -n "$prev_why" ]; then why=$prev_why
	elif ! grep -q '^SSDSTRIPE-BOOT-UPGRADE-DONE' "$c"; then why="no report of the upgrade"
	elif grep -q '^SSDSTRIPE-BOOT-UPGRADE-NOTE' "$c"; then why=$(ug NOTE)
	else
		[ "$(ug BEFORE)" = "version=$prev $m=active $t=active $u=active" ] ||
			why="before: $(ug BEFORE)"
		a=$(ug AFTER)
		[[ $a =~ ^apt=0\ version=$version\ $m=active/restarted\ $t=active/(restarted|same)\ $u=active/same\ stopped=(.*)$ ]] ||
			why="${why:+$why; }after: $a"
		[[ ${BASH_REMATCH[2]:-} == *ssdstripe-assemble* || ${BASH_REMATCH[2]:-} == *"Assemble ssdstripe"* ]] &&
			why="${why:+$why; }systemd stopped the assembly unit: ${BASH_REMATCH[2]}"
	fi
	if [ -n "$why" ]; then
		result package-upgrade FAIL "$why" "$(ug SECS)"
	else
		result package-upgrade PASS "on the running system: ssdstripe and ssdstripe-initramfs $prev -> $version by apt; the monitor restarted and running, the scrub timer running, ssdstripe-assemble.service never stopped (same invocation)" "$(ug SECS)"
	fi
	# the autopkgtest's smoke test, run by hand in that guest
	a=$(sed -n 's/^SSDSTRIPE-BOOT-SMOKE: //p' "$c" | head -n 1)
	if [ "$a" = exit=0 ]; then
		result autopkgtest-smoke PASS "debian/tests/smoke on the booted system: $(sed -n 's/^SSDSTRIPE-BOOT-SMOKE-OUT: smoke: //p' "$c" | tail -n 1)" 0
	else
		result autopkgtest-smoke FAIL "debian/tests/smoke: ${a:-not run}: $(sed -n 's/^SSDSTRIPE-BOOT-SMOKE-OUT: //p' "$c" | tail -n 2 | tr '\n' ' ')" 0
	fi
}
# replace_check: what the dracut boot's report (boot-root-report,
# replace_root) saw: member 1 of array root, which holds /, replaced onto
# rootnew0 with the page cache dropped just before the switch suspended /
# (issue #37: the critical section holds there; the sh tool hung), exit 0,
# / still on root and the machine answering after it; and back onto root1.
rr() { sed -n "s/^SSDSTRIPE-BOOT-REPLACE$1: //p" "$work/console-boot-dracut.log.clean" | head -n 1; }
replace_check() {
	local c=$work/console-boot-dracut.log.clean why='' a
	a=$(rr '')
	if ! grep -q '^SSDSTRIPE-BOOT-REPLACE-DONE' "$c"; then why="no report of the replace (the machine hung?)"
	elif grep -q '^SSDSTRIPE-BOOT-REPLACE-NOTE' "$c"; then why=$(rr -NOTE)
	elif [[ ! $a =~ ^exit=0\ dropped=yes\ member1=rootnew0\ secs=([0-9]+)\ root=/dev/mapper/root$ ]]; then
		why="replace onto rootnew0: $a: $(rr -OUT)"
	elif [ "$(rr -BACK)" != "exit=0 member1=root1" ]; then why="replace back onto root1: $(rr -BACK)"
	fi
	if [ -n "$why" ]; then
		result root-replace FAIL "$why" 0
	else
		result root-replace PASS "member 1 of root (/) replaced onto rootnew0 on the running system, the page cache dropped just before the switch suspended /, in ${BASH_REMATCH[1]}s; / on root after it, and back onto root1" 0
	fi
}
if want initramfs-tools && { [ -z "$only" ] || [ "$only" = initramfs-tools ]; }; then
	# ARRAY data, AUTO no: the unit waits for data1, attached 10 s after
	# udev was triggered; spare is left alone, by the unit and by udev:
	# spare's only disk is attached late too (first), so only udev's
	# incremental rule could assemble it, and it must have said why not
	boot initramfs-tools "$abi" "$id_new" "$work/initrd-$abi.img" \
		"ssdstripe.test-udev ssdstripe.test-late=trigger" \
		"data=boot spare=inactive spare-udev=not-listed" spare0+late data1+late root2 old0 data0 root0 root1
	udev_check
fi
if want dracut; then
	# nothing listed, AUTO yes: data1 comes after the unit has finished,
	# so udev assembles data; the unit takes spare and refuses old0; then a
	# member of root is replaced onto the blank rootnew0 and back
	boot dracut "$abi" "$id_dracut" "$work/initrd-dracut.img" \
		"ssdstripe.assemble=root rd.shell=0 rd.emergency=poweroff ssdstripe.test-conf=auto ssdstripe.test-late=unit ssdstripe.test-replace" \
		"data=udev spare=active old=refused" root1 data0 spare0 root2 old0 data1+late root0 rootnew0
	replace_check
fi
if want initramfs-tools-all; then
	# the old kernel, with the initramfs the trigger made when the packages
	# came again (the shipped file: BOOT all); last, as it removes them
	# first an upgrade from the previous packages (update-initramfs runs
	# for it in the guest: more time) and the autopkgtest, then the removal
	timeout0=$timeout
	timeout=$((timeout + 600))
	boot initramfs-tools-all "$abi_old" "$id_old" "$work/initrd-$abi_old.img" \
		"ssdstripe.test-upgrade ssdstripe.test-remove" \
		"data=initramfs spare=active" root2 data1 old0 root1 spare0 root0 data0
	timeout=$timeout0
	upgrade_check
	remove_check
fi

echo "=== boot: root on ssdstripe, $abi_old then $abi, packages of $version, $(($(date +%s) - t_start))s (logs in $work)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
