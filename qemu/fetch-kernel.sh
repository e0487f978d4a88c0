#!/bin/bash
# Fetch a Debian kernel image (never installed on the host) and make sure the
# matching headers are installed so the module can be built against it.
#
#   qemu/fetch-kernel.sh [6.12|6.1]     -> prints the ABI, e.g. 6.12.117+deb12-amd64
#
# The image is unpacked with dpkg -x into $SSDSTRIPE_CACHE/kernels/<abi>/
# (default /var/tmp/ssdstripe).  The newest version that has both an
# -unsigned image and a headers package is chosen at run time.
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

case "$series" in
6.12) img_re='^linux-image-6\.12\.[0-9.]+\+deb12-amd64-unsigned$'
      abi_sed='s/^linux-image-\(6\.12\.[0-9.]*+deb12\)-amd64-unsigned$/\1/' ;;
6.1)  img_re='^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$'
      abi_sed='s/^linux-image-\(6\.1\.0-[0-9]*\)-amd64-unsigned$/\1/' ;;
*) die "unknown kernel series '$series' (use 6.12 or 6.1)" ;;
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
if [ ! -e "/usr/src/linux-headers-$abi/Makefile" ]; then
	log "installing linux-headers-$abi"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		"linux-headers-$abi" >&2 ||
		{ apt_update_once; DEBIAN_FRONTEND=noninteractive apt-get install -y -q "linux-headers-$abi" >&2; }
fi

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
	touch "$kdir/.complete"
fi
echo "$abi"
