#!/bin/bash
# Build the busybox initramfs for the dm-ssdstripe QEMU rig.
#
#   qemu/build-initramfs.sh --abi ABI --out FILE [--module dm-ssdstripe.ko] [--perf]
#                           [--sh-tool DIR]
#
# ABI is what qemu/fetch-kernel.sh printed; the kernel modules come from the
# unpacked image in $SSDSTRIPE_CACHE/kernels/ABI.  Userland: busybox-static
# applets plus real binaries (with their shared libraries from ldd) at their
# own paths, so /usr/sbin/blkdiscard is util-linux, not busybox.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${SSDSTRIPE_CACHE:-/var/tmp/ssdstripe}
abi='' out='' module='' perf='' sh_tool=''

while [ $# -gt 0 ]; do
	case "$1" in
	--abi) abi=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	--perf) perf=1; shift ;;	# the benchmark's profile (linux-perf, 30 MB)
	--sh-tool) sh_tool=$2; shift 2 ;;	# DIR/scripts: an older sh tool (run.sh --sh-tool)
	*) echo "usage: $0 --abi ABI --out FILE [--module KO] [--perf]" >&2; exit 2 ;;
	esac
done
if [ -z "$abi" ] || [ -z "$out" ]; then echo "usage: $0 --abi ABI --out FILE [--module KO]" >&2; exit 2; fi

log() { printf 'build-initramfs: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

kroot="$cache/kernels/$abi"
[ -d "$kroot/lib/modules/$abi" ] || die "kernel $abi not fetched (run qemu/fetch-kernel.sh)"

# ---- host tools --------------------------------------------------------
# command or file -> Debian package; busybox must be the static one (the
# initramfs has no libc for it)
static_busybox=/bin/busybox:busybox-static
if [ -x /bin/busybox ] && ldd /bin/busybox >/dev/null 2>&1; then
	static_busybox='busybox-static'
fi
"$repo/scripts/need-debs" "$static_busybox" dmsetup:dmsetup \
	/usr/sbin/blkdiscard:util-linux /usr/sbin/losetup:mount /usr/bin/lsblk:util-linux \
	mke2fs:e2fsprogs mkfs.xfs:xfsprogs fio:fio mdadm:mdadm kmod:kmod \
	blktrace:blktrace jq:jq cpio:cpio xz:xz-utils ldd:libc-bin \
	smartctl:smartmontools nvme:nvme-cli tc:iproute2 \
	${perf:+/usr/bin/perf:linux-perf} || die "cannot install the rig's tools"
busybox=/bin/busybox
ldd "$busybox" >/dev/null 2>&1 && die "$busybox is not statically linked (install busybox-static)"

root=$(mktemp -d "${TMPDIR:-/tmp}/ssdstripe-initramfs.XXXXXX")
trap 'rm -rf "$root" "$root.tool"' EXIT

# merged /usr layout like Debian 12
mkdir -p "$root"/usr/bin "$root"/usr/sbin "$root"/usr/lib "$root"/usr/lib64 \
	"$root"/dev "$root"/proc "$root"/sys "$root"/tmp "$root"/run "$root"/mnt \
	"$root"/etc "$root"/var/tmp "$root"/root
ln -s usr/bin "$root/bin"
ln -s usr/sbin "$root/sbin"
ln -s usr/lib "$root/lib"
ln -s usr/lib64 "$root/lib64"

# copy a file (resolving symlinks) to the same path inside the initramfs
copy_file() {
	local src=$1 dst
	dst="$root$(realpath -s "$src" | sed 's|^/bin/|/usr/bin/|; s|^/sbin/|/usr/sbin/|; s|^/lib/|/usr/lib/|; s|^/lib64/|/usr/lib64/|')"
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	cp -L "$src" "$dst"
}

# copy a binary with its shared libraries and the dynamic loader
copy_bin() {
	local b=$1 lib
	[ -e "$b" ] || { log "warning: $b missing, skipped"; return 0; }
	copy_file "$b"
	for lib in $(ldd "$b" 2>/dev/null | grep -o '/[^ ]*' || true); do
		copy_file "$lib"
	done
}

bins="
/usr/sbin/dmsetup
/usr/sbin/blkdiscard /usr/sbin/fstrim /usr/bin/lsblk /usr/sbin/blockdev
/usr/sbin/losetup /usr/sbin/wipefs
/usr/sbin/mke2fs /usr/sbin/e2fsck /usr/sbin/dumpe2fs /usr/sbin/tune2fs /usr/sbin/debugfs
/usr/sbin/mkfs.xfs /usr/sbin/xfs_repair /usr/sbin/xfs_io /usr/sbin/xfs_db
/usr/bin/fio /usr/sbin/mdadm /usr/bin/kmod
/usr/sbin/blktrace /usr/bin/blkparse
/usr/sbin/blkid /usr/bin/jq
/usr/sbin/smartctl /usr/sbin/nvme
/usr/sbin/tc
"
[ -n "$perf" ] && bins="$bins /usr/bin/perf"
for b in $bins; do copy_bin "$b"; done
for l in mkfs.ext4 mkfs.ext3 mkfs.ext2; do ln -sf mke2fs "$root/usr/sbin/$l"; done
ln -sf e2fsck "$root/usr/sbin/fsck.ext4"
for l in modprobe insmod rmmod lsmod depmod modinfo; do
	ln -sf ../bin/kmod "$root/usr/sbin/$l"
done
[ -e /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/"
# xfsprogs/mdadm want a few config bits; none are required
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"
: >"$root/etc/fstab"
ln -s /proc/mounts "$root/etc/mtab"

# busybox: applets only where no real binary sits (real tools win by path)
cp "$busybox" "$root/usr/bin/busybox"
for a in $("$busybox" --list); do
	if [ ! -e "$root/usr/bin/$a" ] && [ ! -e "$root/usr/sbin/$a" ] && [ ! -L "$root/usr/sbin/$a" ]; then
		ln -s busybox "$root/usr/bin/$a"
	fi
done

# ---- kernel modules ----------------------------------------------------
mroot="$root/usr/lib/modules/$abi"
mkdir -p "$mroot"
# modules.dep for the unpacked image (cached) so modprobe can resolve deps
if [ ! -e "$kroot/lib/modules/$abi/modules.dep" ]; then
	depmod -b "$kroot" "$abi"
fi
mods="nvme nvme-core dm-mod dm-delay dm-flakey dm-mirror null_blk raid0 md-mod ext4 xfs
virtio_pci virtio_console loop crc32c_generic crc32c-intel libcrc32c crc32_generic
scsi_debug sd_mod
configfs nvmet nvmet-tcp nvme-tcp nvme-fabrics virtio_net sch_netem"
# not every kernel has every module (the debug kernel has no crc32c-intel)
for m in $mods; do
	modprobe -d "$kroot" -S "$abi" --show-depends "$m" 2>/dev/null |
		awk '$1 == "insmod" {print $2}' || true
done | sort -u | while read -r ko; do
	rel=${ko#"$kroot/lib/modules/$abi/"}
	mkdir -p "$mroot/$(dirname "$rel")"
	case "$ko" in
	*.xz)  xz -dc "$ko" >"$mroot/${rel%.xz}" ;;
	*.zst) zstd -qdc "$ko" >"$mroot/${rel%.zst}" ;;
	*.gz)  gzip -dc "$ko" >"$mroot/${rel%.gz}" ;;
	*)     cp "$ko" "$mroot/$rel" ;;
	esac
done
cp "$kroot/lib/modules/$abi/modules.builtin" "$kroot/lib/modules/$abi/modules.order" "$mroot/"
[ -e "$kroot/lib/modules/$abi/modules.builtin.modinfo" ] &&
	cp "$kroot/lib/modules/$abi/modules.builtin.modinfo" "$mroot/"
if [ -n "$module" ]; then
	[ -e "$module" ] || die "module $module not found"
	mkdir -p "$mroot/extra"
	# by the module's own name: run.sh's build cache keeps it as
	# ABI-TREEKEY.ko, which modprobe dm-ssdstripe would not find
	cp "$module" "$mroot/extra/dm-ssdstripe.ko"
	log "including $(basename "$module") as dm-ssdstripe.ko"
else
	log "no dm-ssdstripe module given: guest tests will use the kernel's striped target"
	echo striped >"$root/etc/ssdstripe-target"
fi
depmod -b "$root" "$abi"   # ROOT/lib -> usr/lib, so this is usr/lib/modules
[ -e "$mroot/modules.dep" ] || die "depmod failed"

# ---- the ssdstripe tool ------------------------------------------------
# where make install puts it: the program (C, built here with its shared
# libraries) in sbin
"$repo/scripts/need-debs" gcc:build-essential make:make /usr/include/libdevmapper.h:libdevmapper-dev /usr/include/blkid/blkid.h:libblkid-dev \
	/usr/include/gcrypt.h:libgcrypt20-dev /usr/include/json-c/json.h:libjson-c-dev || die "cannot install what the tool's build needs"
make -s -C "$repo/tool" OUT="$root.tool" >&2 || die "cannot build the ssdstripe tool"
install -m 0755 "$root.tool/ssdstripe" "$root/usr/sbin/ssdstripe"
for lib in $(ldd "$root.tool/ssdstripe" | grep -o '/[^ ]*'); do copy_file "$lib"; done
rm -rf "$root.tool"
# the tree's version, which target/001 holds the module's and the tool's to
install -D -m 0644 "$repo/VERSION" "$root/usr/lib/ssdstripe/VERSION"
# an older sh tool to compare with (run.sh --sh-tool): its entry finds its
# library in lib/ beside it
if [ -n "$sh_tool" ]; then
	install -d "$root/usr/lib/ssdstripe-sh/lib"
	install -m 0755 "$sh_tool/scripts/ssdstripe" "$root/usr/lib/ssdstripe-sh/ssdstripe.sh"
	install -m 0644 "$sh_tool"/scripts/lib/*.sh "$sh_tool/VERSION" "$root/usr/lib/ssdstripe-sh/lib/"
fi

# ---- tests and init ----------------------------------------------------
# the tests' own helpers (tests/integration/tools/*.c), static: the
# initramfs has no compiler and no libc headers
"$repo/scripts/need-debs" gcc:build-essential || die "cannot install gcc"
for src in "$repo"/tests/integration/tools/*.c; do
	[ -e "$src" ] || continue
	gcc -static -O2 -Wall -Wextra -Werror -o "$root/usr/bin/$(basename "$src" .c)" "$src" ||
		die "cannot build $src"
done
mkdir -p "$root/tests"
cp -r "$repo/tests/integration" "$root/tests/"
# the benchmark's guest side only (its runner, report and results stay here)
install -D -m 0755 "$repo/tests/bench/bench.sh" "$root/tests/bench/bench.sh"
cp "$here/demo.sh" "$root/demo.sh" 2>/dev/null || true
cp "$here/init" "$root/init"
cp "$here/fabric-init.sh" "$root/fabric-init.sh"
chmod +x "$root/init" "$root"/tests/integration/*.sh "$root"/tests/integration/list \
	"$root"/tests/integration/*/[0-9][0-9][0-9]
echo "$abi" >"$root/etc/kernel-abi"

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
