# shellcheck shell=sh
# Helpers of the target tests (after lib/common.sh): file systems filled
# and checked, and what a discard frees on each member.

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


# ---- discard shares ------------------------------------------------------
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
