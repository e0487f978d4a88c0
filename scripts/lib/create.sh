# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe create: make a new array, or write lost labels back
# (--assume-clean).

DEFAULT_CHUNK_KIB=64

# ---- create ------------------------------------------------------------
help_create() {
	cat <<EOF
usage: $PROG create [--name NAME] [--chunk SIZE] [--overprovision PCT] [--trim]
                 [--force] DEV...
       $PROG create --assume-clean --name NAME [--chunk SIZE]
                 [--overprovision PCT] [--force] DEV...

Make a new array of the given devices, in the given order: write a label to
each member and activate /dev/mapper/NAME.  The data starts 1 MiB into each
member; every member contributes as much as the smallest one, in whole
chunks, and create prints what each member gives.  Options may come
anywhere on the line; -- ends them.

  --name NAME    array name, also its /dev/mapper name (default: ss0, ss1, ...)
  --chunk SIZE   chunk size: 64K, 1M, 1G, 128s (sectors); a plain number is
                 KiB (default ${DEFAULT_CHUNK_KIB}K); at least 4 KiB, at most
                 what the smallest member holds; a power of two and a
                 multiple of 4 KiB and of every member's physical block
                 size unless --force (see the refusals)
  --overprovision PCT
                 leave PCT % (1 to 50) of every member's space past the
                 label area unused, at its end, as spare area for the
                 drive: discarded once here, so the drive knows it is
                 free, and recorded in the labels (assemble keeps the
                 geometry; replace discards the same area on the new
                 member).  A drive that cannot discard gets the space only
                 if it was never written (secure-erase it first: sanitize)
  --trim         discard every member completely first, showing progress
  --force        use devices that carry a label, a file system, swap, a
                 partition table or partitions (all lost: labels left inside
                 the partitions are wiped, the kernel drops the partitions),
                 and accept a wasteful geometry or chunk, one member
                 or two members on one drive (all below);
                 mounted, open or held devices are always refused
  --assume-clean the devices already are array NAME, in this order, and
                 some lost their label: write back the missing labels (same
                 array and member uuids), rewrite the others with the next
                 generation and every member's drive, write nothing but
                 these label blocks, and activate.
                 Refused unless the devices that kept a label say they are
                 these members of NAME, with this many members, the chunk
                 given (if any), every device large enough for a member's
                 data where the labels put it (after a replace the
                 smallest may differ from create's), no
                 other device carries the array's label, no device given
                 carries anything else now, and each device given for a
                 lost member is the drive the labels record for it (its
                 WWN/id, else serial and model, and its size): a blank disk
                 is not the lost member.  --force writes where the labels
                 record another drive, no drive that can be told (a dm or
                 loop device without an id) or no drive at all (labels of
                 version 1), and says what was recorded and what it found.
                 With no label left at all it needs --force and --chunk and
                 writes new labels (new uuids; get the order right); an
                 array made with --overprovision needs it again then.  With
                 labels left, --overprovision, if given, must be theirs

Refused without --force (exit 3), every such device named on a line:
  - a device carrying data (see --force);
  - a member leaving unused more than one chunk, or more than 5 % of the
    smallest member (mixed sizes, a chunk too big for the members);
  - two members on one physical drive (the same serial or WWN);
  - a chunk that is not a multiple of 4 KiB or of a member's physical
    block size (the drive reads and rewrites a page at every chunk
    boundary), or not a power of two (on Debian's 6.12 kernel XFS over a
    3 x 12 KiB stripe crashed with slab corruption under xfstests
    generic/251, on the kernel's striped target too);
  - one member (an array of one device stripes nothing).
Every label records every member's drive (WWN or serial, model, size)
and a generation; an array whose labels would not fit the 4 KiB label
block (many members with long identities) is refused.

Exit: 0 created, 1 failed, 2 usage, 3 refused (device in use or holds data,
wasteful geometry or chunk, one member, one drive twice), 4 a device not
found.
EOF
}
# util-linux blkdiscard and its -f (no check for signatures: create --force
# has judged the device already); busybox blkdiscard has no -f and checks none
blkdiscard_cmd() {
	local _bc
	for _bc in /usr/sbin/blkdiscard /sbin/blkdiscard "$(command -v blkdiscard 2>/dev/null)"; do
		{ [ -n "$_bc" ] && [ -x "$_bc" ]; } || continue
		if "$_bc" -V 2>&1 | grep -q util-linux && "$_bc" -h 2>&1 | grep -q -- '--force'; then
			echo "$_bc -f"
		else
			echo "$_bc"
		fi
		return 0
	done
	return 1
}

# can_discard DEV: DEV's queue takes discards (discard_max_bytes not 0)
can_discard() { [ "$(cat "$(queuedir "$1")/discard_max_bytes" 2>/dev/null || echo 0)" != 0 ]; }
# op_data SECTORS CHUNK PCT: what a member of SECTORS gives the array with
# PCT % of its space past the label area kept spare: the rest, in whole
# chunks (PCT empty or 0: all of it)
op_data() {
	local _od
	_od=$(($1 - DATA_OFFSET - TAIL))
	[ "$_od" -gt 0 ] || { echo 0; return; }
	# PCT % of it spare, in two steps so that nothing overflows
	# shellcheck disable=SC2017 # the order is the point
	_od=$((_od - _od / 100 * ${3:-0} - _od % 100 * ${3:-0} / 100))
	echo $((_od / $2 * $2))
}
# valid_op PCT: a whole percentage create takes for --overprovision
valid_op() {
	case $1 in '' | *[!0-9]* | 0*) return 1 ;; esac
	[ ${#1} -le 2 ] && [ "$1" -le 50 ]
}
# op_discard DEV END: discard DEV's spare area, from END (the sector its
# data ends at) to its tail: says what it did, or why the drive was not
# told (then the area is spare only if never written).  The array never
# reads or writes there: safe while it runs.
op_discard() {
	local _odd_from _odd_to _odd_len _odd_bd _odd_e
	_odd_from=$2 _odd_to=$(($(devsize "$1") - TAIL))
	[ "$_odd_to" -gt "$_odd_from" ] || return 0
	_odd_len=$((_odd_to - _odd_from))
	if ! can_discard "$1"; then
		warn "$1 does not support discard: its $(human "$_odd_len") of spare area is left as it is (spare for the drive only if never written; '$PROG sanitize' erases a stopped array's members first)"
		return 0
	fi
	_odd_bd=$(blkdiscard_cmd) || { warn "no blkdiscard: $1's spare area was not discarded"; return 0; }
	# shellcheck disable=SC2086 # the command and its -f
	if _odd_e=$($_odd_bd -o $((_odd_from * 512)) -l $((_odd_len * 512)) "$1" 2>&1 >/dev/null); then
		say "member ${1#/dev/}: $(human "$_odd_len") spare area discarded"
	else
		warn "discard of $1's spare area failed (${_odd_e:-blkdiscard exited $?}): it is spare for the drive only if never written"
	fi
}

trim_device() { # trim_device DEV: discard it all, with progress
	local _td_bd _td_size _td_step _td_off _td_len _td_e
	if ! can_discard "$1"; then
		warn "$1 does not support discard; --trim skipped for it"
		return 0
	fi
	_td_bd=$(blkdiscard_cmd) || die 1 "--trim needs blkdiscard, and there is none"
	_td_size=$(($(devsize "$1") * 512))
	_td_step=$((1024 * 1024 * 1024))
	_td_off=0
	while [ "$_td_off" -lt "$_td_size" ]; do
		_td_len=$_td_step
		[ $((_td_off + _td_len)) -gt "$_td_size" ] && _td_len=$((_td_size - _td_off))
		# shellcheck disable=SC2086 # the command and its -f
		_td_e=$($_td_bd -o "$_td_off" -l "$_td_len" "$1" 2>&1 >/dev/null) ||
			die 1 "trim of $1 failed at byte $_td_off: ${_td_e:-blkdiscard exited $?}"
		_td_off=$((_td_off + _td_len))
		printf 'trim %s: %3d%%\n' "$1" $((_td_off * 100 / _td_size))
	done
}

next_free_name() {
	local _nf
	_nf=0
	while :; do
		if ! dm_exists "ss$_nf" && ! scan_names | grep -qxF -e "ss$_nf"; then
			echo "ss$_nf"
			return
		fi
		_nf=$((_nf + 1))
	done
}
# names of labelled arrays on this system (active or not)
scan_names() {
	local _sn
	for _sn in $(candidates); do
		read_label "$_sn" >/dev/null 2>&1 && echo "$L_NAME"
	done | sort -u
}


# wipe_partition_labels DEV: zero our labels found inside DEV's partitions,
# before the partition table that shows them goes away
wipe_partition_labels() {
	local _wp _wp_what
	for _wp in $(partitions_of "$1"); do
		{ [ -b "/dev/$_wp" ] && label_magic "/dev/$_wp"; } || continue
		if read_label "/dev/$_wp"; then
			_wp_what="member $L_INDEX of array $L_NAME"
		else
			_wp_what=${L_ERR:-damaged label}
		fi
		zero_label "/dev/$_wp" || die 1 "cannot wipe the stale label on /dev/$_wp"
		say "wiped the stale ssdstripe label on /dev/$_wp ($_wp_what)"
	done
}

# drop_partitions DEV: make the kernel forget DEV's partitions once its
# partition table is zeroed (blockdev --rereadpt, else partx -d)
drop_partitions() {
	local _dr_e _dr_left
	[ -n "$(partitions_of "$1")" ] || return 0
	_dr_e=''
	command -v blockdev >/dev/null 2>&1 && _dr_e=$(blockdev --rereadpt "$1" 2>&1)
	if [ -n "$(partitions_of "$1")" ] && command -v partx >/dev/null 2>&1; then
		_dr_e="$_dr_e${_dr_e:+; }$(partx -d "$1" 2>&1)"
	fi
	_dr_left=$(partitions_of "$1" | tr '\n' ' ')
	[ -z "$_dr_left" ] && return 0
	warn "$1: the kernel still shows partitions ${_dr_left% } (${_dr_e:-no blockdev or partx here}); they are gone after a reboot"
}

# drive_ids DEV: "serial:X" and "wwn:X" lines of the physical drive under
# DEV (a partition's disk); nothing where sysfs has neither (dm, loop)
drive_ids() {
	local _di _di_f
	_di=$(sysdir "$1") || return 0
	[ -e "$_di/partition" ] && _di=${_di%/*}
	drive_serial "$_di" && echo "serial:$V"
	for _di_f in "$_di/wwid" "$_di/device/wwid"; do
		sysfs_word "$_di_f" && { echo "wwn:$V"; break; }
	done
	return 0
}

# chunk_why SECTORS: why a chunk of SECTORS is refused without --force
# (Documentation/ssdstripe.rst, "Chunk size"), printed; false when it is fine
chunk_why() {
	if [ $(($1 % 8)) != 0 ]; then
		echo "a chunk of $(human "$1") is not a multiple of 4 KiB: every SSD writes in pages of 4 KiB or more, and a chunk that splits them makes it read and rewrite a page at every chunk boundary"
	elif [ $(($1 & ($1 - 1))) != 0 ]; then
		echo "a chunk of $(human "$1") is not a power of two: on Debian's 6.12 kernel, XFS over a 3 x 12 KiB stripe crashed with slab corruption (xfstests generic/251, on the kernel's own striped target too) and generic/040 found its log corrupt; see 'Chunk size' in ssdstripe(8)"
	else
		return 1
	fi
}

opt_create() {
	case $1 in
	--name) name=$2 ;;
	--chunk) chunk=$2 ;;
	--trim) trim=1 ;;
	--force) force=1 ;;
	--assume-clean) clean=1 ;;
	--overprovision)
		valid_op "$2" || usage_die "--overprovision is a whole percentage from 1 to 50, not '$2'"
		op=$2 ;;
	'') args="$args $2" ;;
	esac
}
# create_geo WHY: a geometry --force accepts: refused without it, said
# with it (after the checks, in _cr_forced)
create_geo() {
	if [ -n "$force" ]; then
		_cr_forced="$_cr_forced$1 (--force)
"
	else
		refusal 3 "$1; refusing to create (--force accepts it)"
	fi
}
cmd_create() {
	local _cr_cw _cr_why _cr_all
	name='' chunk='' trim='' force='' args='' clean='' op=''
	opts opt_create '--name= --chunk= --overprovision= --trim --force|-f --assume-clean' "$@"
	[ -n "$args" ] || usage_die "create needs at least one device"
	if [ -n "$name" ]; then
		valid_name "$name" || usage_die "invalid array name '$name' (letters, digits, . _ -; at most 64)"
	fi
	chunk_s=$(to_sectors "${chunk:-${DEFAULT_CHUNK_KIB}K}") ||
		usage_die "invalid chunk size '$chunk' (a number with s, K, M, G or T; a plain number is KiB)"
	[ "$chunk_s" -ge 8 ] || usage_die "chunk size must be at least 4 KiB"
	tmpdir
	if [ -n "$clean" ]; then
		[ -n "$name" ] || usage_die "--assume-clean needs --name NAME (the array's name)"
		[ -z "$trim" ] || usage_die "--assume-clean and --trim contradict each other"
		# shellcheck disable=SC2086 # a list of devices
		create_clean $args
		return
	fi

	# Every check runs on every device, and every refusal is said on a line
	# of its own, before anything is written.
	REFUSE_RC=0 _cr_forced='' devs='' mms='' n=0 min='' mindev=''
	: >"$TMPD/drives"
	find_blkid	# once, not in every $(signature) below
	# the operands as given (a * in one is no glob); one device stripes
	# nothing (mdadm asks for --force too)
	set -f
	# shellcheck disable=SC2086 # the devices given
	set -- $args
	set +f
	[ $# = 1 ] && create_geo "one member: an array of one device stripes nothing (it is that device behind a label)"
	# the chunk: 4 KiB and a power of two (chunk_why)
	_cr_cw=$(chunk_why "$chunk_s") && create_geo "$_cr_cw"
	for d in "$@"; do
		c=$(canon "$d") || { refusal 4 "$d: not a block device"; continue; }
		mm=$(majmin "$c")
		case " $mms " in *" $mm "*) refusal 3 "$d: given twice"; continue ;; esac
		mms="$mms $mm"
		if why=$(in_use "$c"); then
			refusal 3 "$c is in use ($why); refusing to create"
			continue
		fi
		if why=$(signature "$c"); then
			if [ -n "$force" ]; then
				_cr_forced="$_cr_forced$c carries $why: overwriting (--force)
"
			else
				refusal 3 "$c carries $why; refusing to create (--force overwrites it)"
			fi
		fi
		lbs=$(lbs_sectors "$c")
		[ $((chunk_s % lbs)) = 0 ] ||
			refusal 3 "chunk of $chunk_s sectors is not a multiple of $c's logical block size ($((lbs * 512)) bytes)"
		# a chunk boundary inside a physical block: every write across it
		# is a read-modify-write in the drive
		pbs=$(pbs_sectors "$c")
		[ $((chunk_s % pbs)) = 0 ] || [ $((chunk_s % lbs)) != 0 ] ||
			{ [ $((chunk_s % 8)) != 0 ] && [ "$pbs" -le 8 ]; } ||
			create_geo "a chunk of $(human "$chunk_s") is not a multiple of $c's physical block size ($((pbs * 512)) bytes): the drive reads and rewrites a block at every chunk boundary"
		for id in $(drive_ids "$c" | tr ' ' '_'); do
			other=$(awk -F'|' -v i="$id" '$1 == i {print $2; exit}' "$TMPD/drives")
			if [ -n "$other" ]; then
				_cr_why="$other and $c are on one physical drive (${id%%:*} ${id#*:}): striping them gains no speed"
				if [ -n "$force" ]; then
					_cr_forced="$_cr_forced$_cr_why (--force)
"
				else
					refusal 3 "$_cr_why; refusing to create (--force accepts it)"
				fi
				break
			fi
		done
		drive_ids "$c" | tr ' ' '_' | sed "s|\$|\|$c|" >>"$TMPD/drives"
		sz=$(devsize "$c")
		if [ -z "$min" ] || [ "$sz" -lt "$min" ]; then min=$sz mindev=$c; fi
		devs="$devs $c" n=$((n + 1))
	done
	# the geometry: every member gives the smallest one's space past the
	# label area, less the tail and the spare area, in whole chunks
	data=0
	if [ -n "$min" ]; then
		data=$(op_data "$min" "$chunk_s" "$op")
		[ "$data" -gt 0 ] ||
			refusal 3 "a chunk of $(human "$chunk_s") is larger than $mindev holds ($(human "$min") less the 2 MiB label area and tail${op:+, and $op % spare})"
	fi
	if [ "$data" -gt 0 ]; then
		# what a member leaves unused beyond the spare area asked for
		_cr_all=$(op_data "$min" "$chunk_s" "")
		for d in $devs; do
			sz=$(devsize "$d")
			unused=$((sz - DATA_OFFSET - TAIL - _cr_all))
			if [ "$unused" -gt "$chunk_s" ] || [ $((unused * 20)) -gt "$min" ]; then
				_cr_why="$d would leave $(human "$unused") of its $(human "$sz") unused (chunk $(human "$chunk_s"), smallest member $(human "$min"))"
				if [ -n "$force" ]; then
					_cr_forced="$_cr_forced$_cr_why (--force)
"
				else
					refusal 3 "$_cr_why; refusing to create (--force accepts the waste)"
				fi
			fi
		done
	fi
	[ -n "$name" ] || name=$(next_free_name)
	dm_exists "$name" && refusal 3 "a device-mapper device called $name already exists"
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create refused; nothing was written"
	# the same name on other devices would make 'assemble NAME' ambiguous
	# (after the devices' checks: reading every label is slow in a VM)
	for other in $(candidates); do
		case " $devs " in *" $other "*) continue ;; esac
		read_label "$other" && [ "$L_NAME" = "$name" ] &&
			refusal 3 "an array called $name already exists on $other (see '$PROG list')"
	done
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create refused; nothing was written"
	uuid=$(newuuid)
	members='' all=''
	i=0
	for d in $devs; do
		members="$members${members:+,}$(newuuid)" all="$all $i"
		i=$((i + 1))
	done
	# every label, each recording every member's drive, before the first
	# write: they must fit their block
	L_NAME=$name L_UUID=$uuid L_COUNT=$n L_CHUNK=$chunk_s L_OFFSET=$DATA_OFFSET L_DATA=$data
	L_MEMBERS=$members L_CREATED=$(date +%s) L_GEN=1 L_OP=$op
	# a new array's labels say nothing of a replace (the last label read
	# above, another array's, may have)
	L_STATE='' L_REPLACING='' L_REPBY='' L_REPAT=''
	labels_make "$devs" "$all" || die 3 "$L_ERR; create refused; nothing was written"
	printf '%s' "$_cr_forced" | while IFS= read -r l; do warn "$l"; done
	load_module

	if [ -n "$trim" ]; then
		for d in $devs; do trim_device "$d"; done
	fi
	i=0
	for d in $devs; do
		sz=$(devsize "$d")
		# labels of an earlier life inside partitions would come back with
		# the partitions; the partitions themselves go with the table
		wipe_partition_labels "$d"
		# stale signatures at either end would still be found by blkid
		zero_range "$d" 0 "$DATA_OFFSET" || die 1 "cannot write to $d"
		zero_range "$d" $((sz - TAIL)) "$TAIL" || die 1 "cannot write to $d"
		drop_partitions "$d"
		label_write "$d" "$i" || die 1 "cannot write the label to $d: $L_ERR"
		say "member ${d#/dev/}: $(human "$sz"), uses $(human "$data")"
		# the spare area, once (--trim discarded it all already)
		[ -n "$op" ] && [ -z "$trim" ] && op_discard "$d" $((DATA_OFFSET + data))
		i=$((i + 1))
	done
	say "created array $name: $(plural "$n" member), chunk $(human "$chunk_s"), $(human $((data * n)))${op:+, $op % of each member spare} (uuid $uuid)"
	history_add created "$name" "$uuid" "" "" "$(plural "$n" member), chunk $(human "$chunk_s"), $(human $((data * n))):$(for d in $devs; do printf ' %s' "${d#/dev/}"; done) (${HIST_CMD:-})"
	# read the labels back, exactly as a later assemble will
	# shellcheck disable=SC2086
	assemble_set "" 0 $devs || die 1 "created the labels, but could not activate $name"
}

# create_clean DEV...: create --assume-clean (see help_create), with name,
# chunk ("" if not given), chunk_s and force of cmd_create.  Every check
# runs before the first write.
create_clean() {
	local _cc_ref _cc_lost _cc_new _cc_l _cc_data _cc_forced _cc_which _cc_lab _cc_repl
	REFUSE_RC=0 devs='' mms='' n=0 min='' mindev='' _cc_ref='' _cc_lost='' _cc_new='' R_GEN=-1 R_DRIVES='' R_OP=''
	_cc_lab='' _cc_repl=''
	find_blkid
	for d in "$@"; do
		i=$n n=$((n + 1))
		c=$(canon "$d") || { refusal 4 "$d: not a block device"; continue; }
		mm=$(majmin "$c")
		case " $mms " in *" $mm "*) refusal 3 "$d: given twice"; continue ;; esac
		mms="$mms $mm" devs="$devs $c"
		if why=$(in_use "$c"); then
			refusal 3 "$c is in use ($why); refusing to create"
			continue
		fi
		sz=$(devsize "$c")
		if [ -z "$min" ] || [ "$sz" -lt "$min" ]; then min=$sz mindev=$c; fi
		read_label "$c"
		case $? in
		0)
			if [ "$L_NAME" != "$name" ]; then
				refusal 3 "$c is member $L_INDEX of array $L_NAME, not of $name; refusing to relabel it"
			elif [ "$L_INDEX" != "$i" ]; then
				refusal 3 "$c is member $L_INDEX of array $name, but given as member $i (wrong order)"
			elif shadowed "$c"; then
				refusal 3 "$c kept its label of $name but carries $SHADOW now: re-used since? refusing"
			elif [ -z "$_cc_ref" ]; then
				_cc_ref=$c R_UUID=$L_UUID R_COUNT=$L_COUNT R_CHUNK=$L_CHUNK R_CREATED=$L_CREATED
				R_OFFSET=$L_OFFSET R_DATA=$L_DATA R_MEMBERS=$L_MEMBERS R_OP=$L_OP
			elif [ "$L_UUID|$L_COUNT|$L_CHUNK|$L_OFFSET|$L_DATA|$L_MEMBERS|$L_OP" != \
				"$R_UUID|$R_COUNT|$R_CHUNK|$R_OFFSET|$R_DATA|$R_MEMBERS|$R_OP" ]; then
				refusal 3 "$c and $_cc_ref carry labels of two different arrays called $name"
			fi
			# the drives the newest label records (none in version 1)
			# and whether it marks a replace
			if [ "$L_GEN" -gt "$R_GEN" ]; then R_GEN=$L_GEN R_DRIVES=$L_DRIVES _cc_repl=$L_REPLACING; fi
			_cc_lab="$_cc_lab $i=$c"
			continue ;;
		3)
			# a newer tool's label: not ours to judge
			if [ -z "$force" ]; then
				refusal 3 "$c: $L_ERR; refusing to overwrite it (--force does)"
				continue
			fi ;;
		esac
		# no label, or a damaged one: a member whose label was lost
		if why=$(foreign_signature "$c"); then
			refusal 3 "$c has no label of $name and carries $why: its data was overwritten, or it is not a member of $name"
			continue
		fi
		_cc_lost="$_cc_lost $i=$c"
	done
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create --assume-clean refused; nothing was written"
	# the rules assemble applies to labels (create_clean_state)
	for l in $_cc_lab; do
		create_clean_state "${l%%=*}" "${l#*=}" || refusal 3 "$WHY"
	done
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create --assume-clean refused; nothing was written"
	[ -n "$_cc_lost" ] || die 3 "every device still carries its label of $name: nothing to write ('$PROG assemble $name')"
	dm_exists "$name" && die 3 "a device-mapper device called $name already exists"
	# a member said to be lost must not be somewhere else
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	cat "$TMPD/labels" "$TMPD/shadowed" >"$TMPD/others"
	while IFS= read -r _cc_l; do
		label_rec "$_cc_l"
		case " $devs " in *" $L_DEV "*) continue ;; esac
		# a label assemble leaves out is no member elsewhere: a retired
		# one, an unfinished copy, one older than the newest given
		case $L_STATE in replaced | copying) continue ;; esac
		if [ -n "$_cc_ref" ] && [ "$L_UUID" = "$R_UUID" ] && [ "${L_GEN:-0}" -lt "$R_GEN" ]; then
			continue
		fi
		if [ -n "$_cc_ref" ] && [ "$L_UUID" = "$R_UUID" ]; then
			refusal 3 "$L_DEV carries a label of array $name (uuid $R_UUID): that member is not lost (see '$PROG examine $L_DEV')"
		elif [ -z "$_cc_ref" ] && [ "$L_NAME" = "$name" ]; then
			refusal 3 "$L_DEV carries a label of an array called $name: use the devices that carry its labels"
		fi
	done <"$TMPD/others"
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create --assume-clean refused; nothing was written"
	if [ -z "$_cc_ref" ]; then
		[ -n "$force" ] || die 3 "no device carries a label of array $name, so nothing can check the order and chunk; with --force and --chunk, new labels are written in the order given"
		[ -n "$chunk" ] || die 3 "no device carries a label of array $name: give its chunk (--chunk)"
		for d in $devs; do
			[ $((chunk_s % $(lbs_sectors "$d"))) = 0 ] ||
				die 3 "chunk of $chunk_s sectors is not a multiple of $d's logical block size"
		done
		R_UUID=$(newuuid) R_COUNT=$n R_CHUNK=$chunk_s R_OFFSET=$DATA_OFFSET R_CREATED=''
		R_DATA=$(op_data "$min" "$chunk_s" "$op") R_OP=$op
		R_MEMBERS='' _cc_new=1
		for d in $devs; do R_MEMBERS="$R_MEMBERS${R_MEMBERS:+,}$(newuuid)"; done
		[ "$R_DATA" -gt 0 ] || die 3 "a chunk of $(human "$chunk_s") is larger than the smallest device holds"
	else
		[ "$n" = "$R_COUNT" ] ||
			die 3 "array $name has $R_COUNT members ($_cc_ref's label), $n devices given"
		[ -z "$chunk" ] || [ "$chunk_s" = "$R_CHUNK" ] ||
			die 3 "array $name has a chunk of $(human "$R_CHUNK") ($_cc_ref's label), not $(human "$chunk_s")"
		[ -z "$op" ] || [ "$op" = "${R_OP:-0}" ] ||
			die 3 "array $name keeps ${R_OP:-no} % of each member spare ($_cc_ref's label), not $op %"
		# every device holds a member's data where the labels put it (a
		# replace may have put a larger or, past a spare area, a smaller
		# drive in: what the devices give now need not be the array's)
		[ "$min" -ge $((R_OFFSET + R_DATA + TAIL)) ] ||
			die 3 "$mindev holds $(human "$min"); a member of $name needs $(human $((R_OFFSET + R_DATA + TAIL))) (data at $(human "$R_OFFSET"), $(human "$R_DATA") of it, and the tail): not a device of $name?"
		# a lost member is written only onto the drive its labels record
		_cc_forced=''
		for l in $_cc_lost; do
			i=${l%%=*} d=${l#*=}
			if ! create_clean_ident "$i" "$d"; then
				if [ -n "$force" ]; then
					_cc_forced="$_cc_forced$WHY: writing it anyway (--force)$NL"
				else
					refusal 3 "$WHY; --force writes it anyway"
				fi
			fi
		done
		[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "create --assume-clean refused; nothing was written"
		printf '%s' "$_cc_forced" | while IFS= read -r l; do warn "$l"; done
	fi
	# every member's label, of the next generation, records the drives of
	# all the devices given: the survivors' too, or they would go on naming
	# a drive that is no longer the member's (after --force), or none (a
	# version 1 label)
	L_NAME=$name L_UUID=$R_UUID L_COUNT=$R_COUNT L_CHUNK=$R_CHUNK L_OFFSET=$R_OFFSET
	L_DATA=$R_DATA L_MEMBERS=$R_MEMBERS L_CREATED=$R_CREATED L_GEN=$((R_GEN + 1)) L_OP=$R_OP
	# members that are assembled: no replace under way, none retired
	# shellcheck disable=SC2034 # label_block writes them (LABEL_KEYS)
	L_STATE='' L_REPLACING='' L_REPBY='' L_REPAT=''
	[ -z "$_cc_new" ] || L_GEN=1
	_cc_which='' i=0
	for d in $devs; do _cc_which="$_cc_which $i" i=$((i + 1)); done
	labels_make "$devs" "$_cc_which" || die 3 "$L_ERR; create --assume-clean refused; nothing was written"
	load_module
	# the lost labels first: a run cut short leaves the survivors as they were
	for l in $_cc_lost; do
		i=${l%%=*} d=${l#*=}
		label_write "$d" "$i" || die 1 "cannot write the label to $d: $L_ERR"
		if [ -n "$_cc_new" ]; then
			say "member $i: wrote a new label of array $name to ${d#/dev/} (nothing else)"
		else
			say "member $i: wrote the label of array $name back to ${d#/dev/} (nothing else)"
		fi
	done
	i=0
	for d in $devs; do
		case " $_cc_lost " in
		*" $i=$d "*) ;;
		*)
			label_write "$d" "$i" || die 1 "cannot write the label to $d: $L_ERR"
			say "member $i: rewrote the label of array $name on ${d#/dev/}: generation $L_GEN, every member's drive (nothing else)" ;;
		esac
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	assemble_set "" 0 $devs || die 1 "wrote the labels, but could not activate $name"
}

# create_clean_state I DEV: DEV's label of array $name may stand as member
# I, by the rules assemble applies (Documentation/ssdstripe-label.rst,
# "Replacing a member"): not a retired member (state replaced); not an
# unfinished copy (state copying), unless the newest labels given (R_GEN,
# R_DRIVES, marking no replace) record its drive for member I, as after a
# switch cut short; and not a label older than the newest whose drive is
# not the one the newest labels record for member I (superseded: a replace
# moved the member).  Else false, and WHY says why.
create_clean_state() {
	WHY=''
	read_label "$2" >/dev/null 2>&1 || return 0
	case $L_STATE in
	replaced)
		WHY="$2 was member $1 of $name until it was replaced${L_REPBY:+ by $L_REPBY}: not a member (give the drive that replaced it); '$PROG wipe $2' frees it"
		return 1 ;;
	copying)
		if drives_ident "$R_DRIVES" "$1" && switched_copy "$2" "$L_GEN" "$R_GEN" "$_cc_repl"; then
			return 0
		fi
		WHY="$2 is an unfinished copy of member $1 of $name (a replace onto it was cut short): not a member (give the drive it was copied from)"
		return 1 ;;
	esac
	[ "$L_GEN" -lt "$R_GEN" ] || return 0
	drives_ident "$R_DRIVES" "$1" && ident_known || return 0
	ident_of "$2" || ident_none
	ident_match && return 0
	ident_words
	WHY="$2 holds an older label of member $1 of $name (generation $L_GEN; the newest, $R_GEN, record $IW for it): a replace moved the member; give that drive"
	return 1
}
# create_clean_ident I DEV: DEV is the drive the newest label of the
# array (R_DRIVES, from R_GEN) records for lost member I; else false, and
# WHY says why it cannot be told or what differs
create_clean_ident() {
	local _ci_at
	WHY=''
	if [ -z "$R_DRIVES" ]; then
		WHY="labels of version 1 record no drive identity: cannot tell that $2 is the lost member $1 of $name"
		return 1
	fi
	if ! drives_ident "$R_DRIVES" "$1"; then
		WHY="the labels of $name record no drive for member $1: cannot tell that $2 is it"
		return 1
	fi
	ident_words
	if ! ident_known; then
		WHY="nothing recorded identifies member $1 of $name ($IW): cannot tell that $2 is it"
		return 1
	fi
	ident_of "$2" || ident_none
	ident_match && return 0
	ident_full
	WHY="$2 is not member $1 of $name: its labels record $IW for it"
	ident_full D
	WHY="$WHY, and $2 is $IW"
	_ci_at=$(ident_find | tr '\n' ' ')
	[ -z "$_ci_at" ] || WHY="$WHY; the recorded drive is present as ${_ci_at% }"
	return 1
}
