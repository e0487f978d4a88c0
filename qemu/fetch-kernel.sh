#!/bin/bash
# Fetch a Debian kernel image (never installed on the host) and make sure the
# matching headers are installed so the module can be built against it.
#
#   qemu/fetch-kernel.sh [6.12|6.1|sid] -> prints the ABI, e.g. 6.12.117+deb12-amd64
#
# The image is unpacked with dpkg -x into $SSDSTRIPE_CACHE/kernels/<abi>/
# (default /var/tmp/ssdstripe).  The newest version that has both an
# -unsigned image and a headers package is chosen at run time.
#
# sid is Debian unstable's newest kernel (a 7.x when this was written).
# Its packages come from sid through a private apt configuration and its
# headers go into a sid build root (scripts/sid-root), never onto this host;
# the header directory is written to <abi>/kdir in the cache.
set -euo pipefail

series=${1:-6.12}
cache=${SSDSTRIPE_CACHE:-/var/tmp/ssdstripe}

log() { printf 'fetch-kernel: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root (apt-get)"

need_apt_update_done=
apt_update_once() {
	[ -n "$need_apt_update_done" ] && return 0
	log "apt-get update"
	apt-get update -qq >&2 || true
	need_apt_update_done=1
}

if [ "$series" = sid ]; then
	sid=$(cd "$(dirname "$0")/.." && pwd)/scripts/sid-root
	abi=$("$sid" abi) || die "no sid kernel found"
	log "series sid -> $abi"
	kdir=$("$sid" kdir "$abi") || die "no headers for $abi in the sid build root"
	kroot="$cache/kernels/$abi"
	if [ ! -e "$kroot/.complete" ]; then
		# Sid splits the image: linux-binary-unsigned-ABI (the vmlinuz),
		# linux-modules-ABI, linux-base-ABI (System.map, modules.builtin...).
		if "$sid" apt-cache show "linux-binary-unsigned-$abi" >/dev/null 2>&1; then
			pkgs=("linux-binary-unsigned-$abi" "linux-modules-$abi" "linux-base-$abi")
		else
			pkgs=("linux-image-$abi-unsigned")
		fi
		log "downloading ${pkgs[*]}"
		mkdir -p "$cache"
		tmp=$(mktemp -d "$cache/dl.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		chmod 755 "$tmp"
		(cd "$tmp" && "$sid" apt-get download "${pkgs[@]}" >&2) ||
			die "cannot download ${pkgs[*]}"
		rm -rf "$kroot"
		mkdir -p "$kroot"
		for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$kroot"; done
		# The rig expects boot/vmlinuz-ABI and lib/modules/ABI.
		[ -e "$kroot/lib" ] || ln -s usr/lib "$kroot/lib"
		if [ ! -e "$kroot/boot/vmlinuz-$abi" ]; then
			for v in vmlinuz vmlinuz.unsigned; do
				[ -f "$kroot/lib/modules/$abi/$v" ] || continue
				mkdir -p "$kroot/boot"
				ln -s "../usr/lib/modules/$abi/$v" "$kroot/boot/vmlinuz-$abi"
				break
			done
		fi
		[ -e "$kroot/boot/vmlinuz-$abi" ] || die "no vmlinuz in ${pkgs[*]}"
		[ -d "$kroot/lib/modules/$abi/kernel" ] || die "no modules in ${pkgs[*]}"
		depmod -b "$kroot" "$abi" || die "depmod for $abi failed"
		touch "$kroot/.complete"
	fi
	echo "$kdir" >"$kroot/kdir"
	echo "$abi"
	exit 0
fi

case "$series" in
6.12) img_re='^linux-image-6\.12\.[0-9.]+\+deb12-amd64-unsigned$'
      abi_sed='s/^linux-image-\(6\.12\.[0-9.]*+deb12\)-amd64-unsigned$/\1/' ;;
6.1)  img_re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$'
      abi_sed='s/^linux-image-\(6\.1\.0-[0-9]*\)-amd64-unsigned$/\1/' ;;
*) die "unknown kernel series '$series' (use 6.12, 6.1 or sid)" ;;
esac

list_versions() {
	apt-cache search --names-only "$img_re" | awk '{print $1}' |
		sed -n "$abi_sed"'p' | sort -V -r
}

versions=$(list_versions)
if [ -z "$versions" ]; then
	apt_update_once
	versions=$(list_versions)
fi
[ -n "$versions" ] || die "no linux-image package for series $series found"

abi=
for v in $versions; do
	if apt-cache show "linux-headers-$v-amd64" >/dev/null 2>&1; then
		abi="$v-amd64"
		break
	fi
done
[ -n "$abi" ] || die "no $series version has both image and headers"
log "series $series -> $abi"

# Headers on the host (build target for the module).
"$(dirname "$0")/../scripts/need-debs" \
	"/usr/src/linux-headers-$abi/Makefile:linux-headers-$abi" ||
	die "cannot install linux-headers-$abi"

# Image: download and unpack, never install.
kdir="$cache/kernels/$abi"
if [ ! -e "$kdir/.complete" ]; then
	log "downloading linux-image-$abi-unsigned"
	tmp=$(mktemp -d "$cache/dl.XXXXXX" 2>/dev/null || { mkdir -p "$cache"; mktemp -d "$cache/dl.XXXXXX"; })
	trap 'rm -rf "$tmp"' EXIT
	chmod 755 "$tmp"   # let _apt write, avoids the "unsandboxed" warning
	(cd "$tmp" && apt-get download "linux-image-$abi-unsigned" >&2) ||
		{ apt_update_once; (cd "$tmp" && apt-get download "linux-image-$abi-unsigned" >&2); }
	rm -rf "$kdir"
	mkdir -p "$kdir"
	dpkg -x "$tmp"/linux-image-*.deb "$kdir"
	[ -e "$kdir/boot/vmlinuz-$abi" ] || die "no vmlinuz in package"
	[ -d "$kdir/lib/modules/$abi" ] || die "no modules in package"
	# modules.dep for the rig's initramfs builds, made here once: two of
	# them at once (make check's lanes) must not both write it
	depmod -b "$kdir" "$abi" || die "depmod for $abi failed"
	touch "$kdir/.complete"
fi
echo "$abi"
