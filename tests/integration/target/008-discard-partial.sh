#!/bin/sh
# DESCRIPTION: unaligned discards zero exactly their range and free exactly its host blocks on each member
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# Discards smaller than a chunk and with unaligned edges free exactly their
# range: the data reads back as zeros inside and unchanged outside, and each
# member's backing image frees exactly the host blocks fully inside its share.
. /tests/integration/lib/common.sh
. /tests/integration/lib/target.sh
hbs=$(host_fs_block) || fail "host measurement failed"
for g in "3 24" "4 16" "2 2048"; do
	# shellcheck disable=SC2086
	set -- $g; m=$1 chunk=$2
	reset_disks
	args=$(member_args "$m" 8 1032)
	offs=$(echo "$args" | awk '{for (i = 2; i <= NF; i += 2) printf "%s ", $i}')
	per=$(( (8 * 2048 / m) / chunk * chunk )); len=$((per * m))
	# shellcheck disable=SC2086
	mk_array t008 "$(stripe_table "$TARGET" "$len" "$chunk" $args)"
	dev=/dev/mapper/t008
	pat=$(pattern_file 8)
	dd if="$pat" of=/tmp/expect bs=512 count="$len" 2>/dev/null
	dd if=/tmp/expect of=$dev bs=64k conv=fsync 2>/dev/null
	# start len (sectors): inside one chunk, across a boundary, tiny,
	# multi-chunk with ragged edges, one whole chunk
	for r in "5 7" "$((chunk - 3)) 9" "$((chunk * 3 + 1)) 1" \
		"$((chunk * 7 + 11)) $((chunk * m * 2 + 13))" "$((chunk * (m * 5)))  $chunk" \
		"$((chunk * m * 9 + 9)) $((chunk * 2 + 30))"; do
		# shellcheck disable=SC2086
		set -- $r; s=$1 l=$2
		[ $((s + l)) -le "$len" ] || continue
		b1=$(host_blocks)
		/usr/sbin/blkdiscard -o $((s * 512)) -l $((l * 512)) $dev || fail "blkdiscard $s+$l failed"
		b2=$(host_blocks)
		got=$(vec_sub "$b1" "$b2" | cut -d' ' -f1-"$m")
		exp=$(member_share_blocks "$m" "$chunk" "$offs" "$s" "$l" "$hbs" | awk -v k=$((hbs / 512)) '{o = ""; for (i = 1; i <= NF; i++) o = o (i > 1 ? " " : "") $i * k; print o}')
		log "m=$m chunk=$chunk discard $s+$l: freed [$got] expected [$exp]"
		[ "$got" = "$exp" ] || fail "m=$m chunk=$chunk discard $s+$l freed [$got], expected [$exp]"
		dd if=/dev/zero of=/tmp/expect bs=512 seek="$s" count="$l" conv=notrunc 2>/dev/null
	done
	cmp /tmp/expect $dev || fail "m=$m chunk=$chunk: array content differs from expected after discards"
	rm_array t008
done
pass
