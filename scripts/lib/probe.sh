# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: what a device is used for or carries now: mounts,
# holders, swap, and signatures (blkid -p, else the magic numbers).

# in_use DEV: prints why DEV or one of its partitions is busy (mounted,
# held, swap)
in_use() {
	local _iu_s _iu_d
	_iu_s=$(sysdir "$1") || return 1
	for _iu_d in "$_iu_s" "$_iu_s"/"${_iu_s##*/}"*; do
		[ -e "$_iu_d/dev" ] || continue
		busy_dir "$_iu_d" && return 0
	done
	return 1
}
# busy_dir SYSDIR: prints why this one block device is busy
busy_dir() {
	local _bd_mm _bd_m _bd_h _bd_f _bd_rest
	_bd_mm=$(cat "$1/dev")
	_bd_m=$(awk -v mm="$_bd_mm" '$3 == mm {print $5; exit}' /proc/self/mountinfo 2>/dev/null)
	[ -n "$_bd_m" ] && { echo "mounted on $_bd_m"; return 0; }
	for _bd_h in "$1"/holders/*; do
		[ -e "$_bd_h" ] && { echo "held by $(prettyname "${_bd_h##*/}")"; return 0; }
	done
	# /proc/swaps names the node swapon was given (/dev/mapper/x, /dev/dm-3)
	while read -r _bd_f _bd_rest; do
		[ -b "$_bd_f" ] || continue
		_bd_f=$(stat -L -c '%t:%T' "$_bd_f" 2>/dev/null) || continue
		[ "$(printf '%d:%d' "0x${_bd_f%:*}" "0x${_bd_f#*:}")" = "$_bd_mm" ] || continue
		echo "in use as swap"
		return 0
	done </proc/swaps 2>/dev/null
	return 1
}

# find_blkid: BLKID = util-linux blkid, or '' if there is none.  busybox's
# blkid cannot probe a device (-p, every signature type): with only that,
# the magic numbers of the common signatures are checked directly, and the
# tool says so once.  SSDSTRIPE_NO_BLKID=1 forces that path (tests).
BLKID='?'
find_blkid() {
	local _fb_bb _fb _fb_why
	[ "$BLKID" = "?" ] || return 0
	BLKID='' _fb_bb=''
	if [ -z "${SSDSTRIPE_NO_BLKID:-}" ]; then
		for _fb in /usr/sbin/blkid /sbin/blkid "$(command -v blkid 2>/dev/null)"; do
			{ [ -n "$_fb" ] && [ -x "$_fb" ]; } || continue
			if "$_fb" -V 2>&1 | grep -q util-linux; then
				BLKID=$_fb
				return 0
			fi
			_fb_bb=$_fb
		done
	fi
	if [ -n "$_fb_bb" ]; then
		_fb_why="only busybox blkid ($_fb_bb), which cannot probe devices"
	else
		_fb_why="no util-linux blkid${SSDSTRIPE_NO_BLKID:+ (SSDSTRIPE_NO_BLKID)}"
	fi
	once blkid-missing && warn "$_fb_why: checking the common signatures by their magic numbers only"
	return 0
}

# signature DEV: prints what DEV carries (our label, file system, partition
# table, other RAID/LVM metadata), nothing if it looks empty
signature() {
	if read_label "$1"; then
		echo "an ssdstripe label (member $L_INDEX of array $L_NAME)"
		return 0
	fi
	foreign_signature "$1"
}

# foreign_signature DEV: prints what else than our label DEV carries (file
# system, swap, partition table or partitions, md, LVM), nothing if none.
# Our label (text at 4-8 KiB, the first 4 KiB zero) matches no signature.
foreign_signature() {
	local _sg_s _sg_p _sg_o _sg_t _sg_pt _sg_k _sg_v _sg_h
	_sg_s=$(sysdir "$1")
	for _sg_p in "$_sg_s"/"${_sg_s##*/}"*; do
		[ -e "$_sg_p/partition" ] && { echo "partitions (${_sg_p##*/})"; return 0; }
	done
	find_blkid
	if [ -n "$BLKID" ]; then
		_sg_o=$("$BLKID" -p -o export "$1" 2>&1)
		[ $? = 8 ] && { echo "several signatures (blkid: ambivalent result; wipefs $1 lists them)"; return 0; }
		# parsed by the shell: every process costs under emulation
		_sg_t='' _sg_pt=''
		while IFS='=' read -r _sg_k _sg_v; do
			case $_sg_k in
			TYPE) [ -n "$_sg_t" ] || _sg_t=$_sg_v ;;
			PTTYPE) [ -n "$_sg_pt" ] || _sg_pt=$_sg_v ;;
			esac
		done <<EOF
$_sg_o
EOF
		[ -n "$_sg_t" ] && { echo "$(article "$_sg_t") $_sg_t signature"; return 0; }
		case $_sg_pt in
		'') return 1 ;;
		dos) echo "an MBR partition table" ;;
		gpt) echo "a GPT partition table" ;;
		*) echo "a $_sg_pt partition table" ;;
		esac
		return 0
	fi
	# the same checks without blkid (busybox): magic numbers at their offsets
	_sg_h=$(dd if="$1" bs=4096 count=17 2>/dev/null | od -A d -t x1 -v |
		awk 'NF > 1 {
			# busybox awk reads a leading 0 as octal
			o = $1; sub(/^0+/, "", o); o += 0
			for (i = 2; i <= NF; i++) b[o + i - 2] = $i
		}
		function s(o, n,  r, i) { r = ""; for (i = 0; i < n; i++) r = r b[o + i]; return r }
		END {
			if (s(510, 2) == "55aa") print "an MBR partition table"
			else if (s(512, 8) == "4546492050415254") print "a GPT partition table"
			else if (s(1080, 2) == "53ef") print "an ext2/3/4 signature"
			else if (s(0, 4) == "58465342") print "an xfs signature"
			else if (s(65600, 8) == "5f42485266535f4d") print "a btrfs signature"
			else if (s(512, 8) == "4c4142454c4f4e45") print "an LVM2 signature"
			else if (s(4096, 4) == "fc4e2ba9") print "a linux_raid_member signature"
			else if (s(4086, 10) == "53574150535041434532") print "a swap signature"
		}')
	[ -n "$_sg_h" ] && { echo "$_sg_h"; return 0; }
	return 1
}

# shadowed DEV: like foreign_signature, remembered for this run (assemble
# looks at the same devices on every pass of its wait)
# (no subshell and no cat: SHADOW is set to the result, empty if none)
shadowed() {
	local _sh_k _sh_f
	_sh_k=${1#/dev/}
	while :; do
		case $_sh_k in */*) _sh_k=${_sh_k%%/*}_${_sh_k#*/} ;; *) break ;; esac
	done
	_sh_f=$TMPD/probe.$_sh_k
	[ -f "$_sh_f" ] || { foreign_signature "$1" >"$_sh_f" || : >"$_sh_f"; }
	SHADOW=''
	[ -s "$_sh_f" ] && IFS= read -r SHADOW <"$_sh_f"
	[ -n "$SHADOW" ]
}

article() { case $1 in [aeiouAEIOU]* | x*) echo an ;; *) echo a ;; esac; }
