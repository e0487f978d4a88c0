#!/bin/sh
# DESCRIPTION: writes, discards and write-zeroes leave every member byte-identical to the striped target's
# KERNELS: all
# DEBUG: yes
# QUICK: no
# TARGET: ssdstripe
# RUN: always
#
# Layout identical to the kernel's striped target: the same table with
# "striped" and with "ssdstripe", the same writes, discards and write-zeroes,
# leave identical bytes on every member, and reads of every size read the
# same bytes back.  The direct writes and reads run from 512 B to 4 MiB at
# alignments on and around every chunk edge of a stripe: ssdstripe gathers
# each that spans chunks into one bio per member, and this is its oracle.
. /tests/integration/lib/common.sh

[ "$TARGET" = striped ] && skip "target under test is striped itself"
pat=$(pattern_file 24)
nd=$(ndisks)

run_ops() { # TARGETNAME M CHUNK -> prints md5 of each member region
	tgt=$1 m=$2 chunk=$3
	per=$(( ($(scaled 20 8) * 2048 / m) / chunk * chunk ))
	len=$((per * m))
	reset_disks
	# shellcheck disable=SC2046 # DEV OFFSET pairs
	mk_array t003 "$(stripe_table "$tgt" "$len" "$chunk" $(member_args "$m" 8 1032))" >&2
	dev=/dev/mapper/t003
	dd if="$pat" of=$dev bs=1M count=$((len / 2048)) conv=fsync 2>/dev/null
	dd if="$pat" of=$dev bs=512 skip=7 seek=$((len - len / 2048 * 2048)) count=$((len % 2048)) conv=fsync 2>/dev/null
	# odd-sized, unaligned writes
	xfs_io -c "pwrite -q -i $pat -s 4097 1000003 77777" -c "pwrite -q -i $pat -s 0 5000000 1234567" -c fsync $dev
	direct_writes "$m" "$chunk" "$len" >/tmp/t003.cmds
	xfs_io -d $dev </tmp/t003.cmds || { echo "xfs_io direct writes failed" >&2; exit 1; }
	# discards and write-zeroes with edges off the chunk grid (sector
	# aligned: the block layer refuses anything else)
	half=$((len / 2)) third=$((len / 3)) quarter=$((len / 4))
	must /usr/sbin/blkdiscard -o $((5 * 512)) -l $((7 * 512)) $dev >&2
	must /usr/sbin/blkdiscard -o $((3 * 512 + chunk * 512)) -l $((chunk * 512 * 5 + 512 * 11)) $dev >&2
	must /usr/sbin/blkdiscard -o $((half * 512 + 512)) -l $((quarter * 512)) $dev >&2
	must /usr/sbin/blkdiscard -z -o $((third * 512 + 1024)) -l $((chunk * 512 * 3 + 1536)) $dev >&2
	sync
	# direct reads across chunks at shifting alignments: 60.5 KiB and
	# 4 MiB - 512 B at a time through the whole array (an odd number of
	# sectors: each read starts one sector further off the chunk grid)
	for bs in 61952 4193792; do
		printf 'r%s:%s\n' $bs "$(dd if=$dev bs=$bs iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1)"
	done
	rm_array t003 >&2
	i=0
	while [ $i -lt "$m" ]; do
		# byte offsets and counts, read 1 MiB at a time (512-byte reads
		# were most of this test's time on the debug kernel)
		sum=$(dd if="$(disk $i)" bs=1M skip=$(((8 + i * 1032) * 512)) count=$((per * 512)) \
			iflag=skip_bytes,count_bytes 2>/dev/null | md5sum | cut -d' ' -f1)
		# and what lies before it: nothing outside may change
		out=$(dd if="$(disk $i)" bs=1M count=$(((8 + i * 1032) * 512)) \
			iflag=count_bytes 2>/dev/null | md5sum | cut -d' ' -f1)
		echo "m$i:$sum:$out"
		i=$((i + 1))
	done
}

# direct_writes M CHUNK LEN: xfs_io commands that write every size of a
# list from 512 B to 4 MiB (chunk and stripe edges, 1 MiB and 4 MiB
# around their ends) at stripe offsets 0, 1, 3, chunk - 1, chunk,
# chunk + 1, stripe - 1 (1 MiB and more at two of them), each in a row of
# its own, from the pattern file.
direct_writes() {
	awk -v m="$1" -v c="$2" -v len="$3" -v pat="$pat" 'BEGIN {
		s = m * c
		n = split("1 2 7 8 9 " c - 1 " " c " " c + 1 " " 2 * c + 1 " " \
			  s - 1 " " s " " s + 1 " 255 256 257 1024 2047 2048 2049 " \
			  "4096 8191 8192", sz, " ")
		na = split("0 1 3 " c - 1 " " c " " c + 1 " " s - 1, al, " ")
		rows = int(len / s)
		k = 0
		for (i = 1; i <= n; i++) {
			if (sz[i] < 1 || sz[i] > 8192 || sz[i] + 2 * s > len)
				continue
			# the 1 MiB and larger writes at two alignments only
			lim = sz[i] >= 2048 ? 2 : na
			for (j = 1; j <= lim; j++) {
				a = al[(j + i) % na + 1]
				if (a < 0 || a >= s)
					continue
				span = rows - int((sz[i] + a) / s) - 1
				if (span < 1)
					continue
				row = (i * 7919 + j * 104729) % span
				k++
				# -b: one write(2) of the whole size (xfs_io
				# cuts a write into 4 KiB calls by default)
				printf "pwrite -q -b %d -i %s -s %d %d %d\n", sz[i] * 512, pat,
					(k * 4096) % (20 * 1048576), (row * s + a) * 512, sz[i] * 512
			}
		}
	}'
}

n=0
for g in 4,24 3,128 2,8 4,8 4,2048 3,40; do
	m=${g%,*} chunk=${g#*,}
	[ "$m" -le "$nd" ] || continue
	# a failure inside run_ops has written its reason already
	a=$(run_ops striped "$m" "$chunk") || exit 1
	b=$(run_ops "$TARGET" "$m" "$chunk") || exit 1
	log "members $m chunk $chunk: striped [$(echo "$a" | cut -c1-16 | tr '\n' ' ')] $TARGET [$(echo "$b" | cut -c1-16 | tr '\n' ' ')]"
	[ "$a" = "$b" ] || { echo "striped: $a"; echo "$TARGET: $b"; fail "member bytes differ from striped for $m members, chunk $chunk"; }
	n=$((n + 1))
done
pass "$n geometries byte-identical to striped"
