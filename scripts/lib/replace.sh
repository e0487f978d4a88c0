# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# ssdstripe replace: move one member of an active array onto a new drive
# while the array is in use, as pvmove moves a striped LV off a PV: the
# kernel's mirror target (dm-raid1, core log) is stacked under the array
# in place of the old member by a table reload, copies it onto the new
# drive while every write goes to both, and when the copy is complete one
# more reload puts the array on the new drive.  The labels record each step
# with a higher generation, in an order that leaves a complete member
# behind a power cut at any moment (Documentation/ssdstripe-label.rst,
# "Replacing a member").

REPLACE_REGION=1024		# sectors per mirror region (512 KiB, as pvmove)
REPLACE_RUN=/run/ssdstripe/replace

help_replace() {
	cat <<EOF
usage: $PROG replace [--background] [--force] [--ignore-read-errors] NAME OLD NEW
       $PROG replace --finish [--ignore-read-errors] NAME
       $PROG replace --abort NAME

Move member OLD of active array NAME onto the drive NEW while the array is
in use: the kernel's mirror target copies OLD onto NEW, every write the
array makes meanwhile goes to both, and when NEW holds everything the
array is switched onto it in one table reload.  NEW then carries the
member's label, the other members' labels record NEW's drive, and OLD's
label says it was replaced (reuse it after '$PROG wipe OLD').  The other
members keep their counters and health; NEW's start afresh.  Without
--background a progress line shows percent, rate and time left, and the
command returns when the array runs on NEW; status and detail show the
copy meanwhile.

NEW is checked as create checks a device: large enough, not in use, not a
member of an array, on another drive than every other member, and
carrying nothing (a file system, a partition table, a label) unless
--force.  A power cut at any moment leaves the array to come up at the
next boot on OLD or on NEW, whichever holds every acknowledged write;
a copy cut short starts over ('replace NAME OLD NEW' again: the kernel
keeps the copy's progress in memory only).

  --background         start the copy and return; a process of its own
                       waits for it and switches (its log:
                       $REPLACE_RUN/NAME.log)
  --finish             wait for the copy of NAME's replace and switch
                       (after an interrupted command, or --background)
  --abort              stop the copy and put the array back on OLD,
                       nothing lost; NEW's label is erased
  --ignore-read-errors OLD could not be read everywhere: copy what it can
                       and switch anyway, listing every lost range (array
                       and member sectors, and the files in them where
                       debugfs can tell).  Without it such a replace stops,
                       names the ranges and leaves the array on OLD.
  --force              take a NEW that carries something, or that is on
                       the drive of another member

Exit: 0 done (or started, with --background), 1 failed (the array is on
OLD, or on NEW if it said so), 2 usage, 3 refused, 4 no such array or
device.
EOF
}

# ---- the array as the kernel has it -------------------------------------
# rp_table NAME: RP_* of the live table of array NAME: RP_LINE (the
# table), RP_N members, RP_CHUNK, RP_LEN, RP_MM and RP_OFF (space-separated
# lists by index), RP_FEAT (the feature words, with their count)
rp_table() {
	RP_LINE=$(dmsetup table "$1" 2>/dev/null) || return 1
	set -f
	# shellcheck disable=SC2086 # the table's words
	set -- $RP_LINE
	set +f
	[ "${3:-}" = ssdstripe ] || return 1
	RP_LEN=$2 RP_N=$4 RP_CHUNK=$5
	shift 5
	RP_MM='' RP_OFF='' _rt_i=0
	while [ "$_rt_i" -lt "$RP_N" ]; do
		RP_MM="$RP_MM $1" RP_OFF="$RP_OFF $2"
		shift 2
		_rt_i=$((_rt_i + 1))
	done
	RP_FEAT="$*"
}
# rp_word LIST I: the I-th (0-based) word of LIST
rp_word() { echo "$1" | awk -v i="$2" '{print $(i + 1)}'; }
# rp_line MM_LIST OFF_LIST: the array's table with these members
rp_line() {
	printf '0 %s ssdstripe %s %s' "$RP_LEN" "$RP_N" "$RP_CHUNK"
	_rl_i=0
	while [ "$_rl_i" -lt "$RP_N" ]; do
		printf ' %s %s' "$(rp_word "$1" "$_rl_i")" "$(rp_word "$2" "$_rl_i")"
		_rl_i=$((_rl_i + 1))
	done
	[ -n "$RP_FEAT" ] && printf ' %s' "$RP_FEAT"
	printf '\n'
}
# mm_dev MAJ:MIN: the /dev path of a block device (dm devices by name)
mm_dev() {
	_md=$(readlink -f "/sys/dev/block/$1" 2>/dev/null) || return 1
	devpath "${_md##*/}"
}
# rp_reload NAME TABLE: load TABLE into live array NAME (suspend, swap,
# resume: one reload)
rp_reload() {
	_rr_e=$(dmsetup reload "$1" --table "$2" 2>&1) || { warn "cannot load the new table of $1: $_rr_e"; return 1; }
	_rr_e=$(dmsetup resume "$1" 2>&1) || { warn "cannot resume $1 with its new table: $_rr_e"; return 1; }
}

# rp_stack ARRAY MIRROR TABLE: ARRAY suspended (nothing more reaches OLD
# but through the mirror), MIRROR's loaded table made live (its copy
# starts), ARRAY onto TABLE and resumed; on a failure ARRAY runs on as
# before (and MIRROR is the caller's to remove)
rp_stack() {
	_rs_e=$(dmsetup suspend "$1" 2>&1) || { warn "cannot suspend $1: $_rs_e"; return 1; }
	if ! _rs_e=$(dmsetup resume "$2" 2>&1); then
		warn "cannot start the copy $2: $_rs_e"
		dmsetup resume "$1"
		return 1
	fi
	rp_hook stacking
	if ! _rs_e=$(dmsetup reload "$1" --table "$3" 2>&1); then
		warn "cannot load the new table of $1: $_rs_e"
		dmsetup resume "$1"
		return 1
	fi
	_rs_e=$(dmsetup resume "$1" 2>&1) || { warn "cannot resume $1 with its new table ($_rs_e): it is suspended; 'dmsetup resume $1' tries again"; return 1; }
}

# The mirror of a replace: a dm device whose uuid names the array, so that
# nothing takes it for an array or a member (candidates skips SSDSTRIPE-*)
rp_mirror_uuid() { echo "${DM_UUID_PREFIX}REPLACE-$1"; }
# rp_mirror_of UUID: the name of array UUID's replace mirror, if any
rp_mirror_of() {
	dmsetup info -c --noheadings -o name,uuid --separator ' ' 2>/dev/null |
		awk -v u="$(rp_mirror_uuid "$1")" '$2 == u {print $1; exit}'
}
# rp_mirror_status MIRROR: RM_SYNC, RM_TOTAL (regions), RM_HEALTH (a letter
# per leg: A alive, D write failure, S sync (copy) failure, R read failure)
rp_mirror_status() {
	set -f
	# shellcheck disable=SC2046 # the status words
	set -- $(dmsetup status "$1" 2>/dev/null)
	set +f
	[ "${3:-}" = mirror ] || return 1
	shift $((4 + $4))
	RM_SYNC=${1%/*} RM_TOTAL=${1#*/} RM_HEALTH=${3:-}
	[ -n "$RM_TOTAL" ] && [ "$RM_TOTAL" -gt 0 ]
}

# ---- labels ------------------------------------------------------------
# rp_labels UUID DEVS: read the label of every member (DEVS in index
# order): R_* the array's (from member 0's), RP_GEN the highest
# generation.  False, saying why, when one is not a label of array UUID at
# its index.
rp_labels() {
	RP_GEN=0 _rb_i=0
	for _rb_d in $2; do
		if ! read_label "$_rb_d"; then
			warn "$_rb_d (member $_rb_i) carries no valid ssdstripe label${L_ERR:+ ($L_ERR)}: replace needs an array made by '$PROG create'"
			return 1
		fi
		if [ "$L_UUID" != "$1" ] || [ "$L_INDEX" != "$_rb_i" ]; then
			warn "$_rb_d is member $_rb_i of the live table, but its label says member $L_INDEX of array $L_NAME ($L_UUID)"
			return 1
		fi
		[ "$L_GEN" -gt "$RP_GEN" ] && RP_GEN=$L_GEN
		if [ "$_rb_i" = 0 ]; then
			R_NAME=$L_NAME R_COUNT=$L_COUNT R_CHUNK=$L_CHUNK R_OFFSET=$L_OFFSET
			R_DATA=$L_DATA R_MEMBERS=$L_MEMBERS R_CREATED=$L_CREATED
		fi
		_rb_i=$((_rb_i + 1))
	done
}
# rp_write_labels UUID DEVS WHICH GEN STATE REPLACING [DEV]: write the
# labels of members WHICH (indices) of array UUID, recording the drives of
# DEVS, with generation GEN, state STATE and marker REPLACING; with DEV,
# the one label of WHICH goes to DEV instead of its member.  Every label
# is made before the first is written.
rp_write_labels() {
	L_UUID=$1 L_NAME=$R_NAME L_COUNT=$R_COUNT L_CHUNK=$R_CHUNK
	L_OFFSET=$R_OFFSET L_DATA=$R_DATA L_MEMBERS=$R_MEMBERS L_CREATED=$R_CREATED
	L_GEN=$4 L_STATE=$5 L_REPLACING=$6 L_REPBY=${RP_REPBY:-} L_REPAT=${RP_REPAT:-}
	labels_make "$2" "$3" || { warn "$L_ERR"; return 1; }
	for _rw_i in $3; do
		_rw_d=${7:-$(rp_word "$2" "$_rw_i")}
		label_write "$_rw_d" "$_rw_i" ||
			{ warn "cannot write the label of member $_rw_i to $_rw_d: $L_ERR"; return 1; }
	done
}
# rp_hook POINT: the test rig's look inside (tests only: with
# SSDSTRIPE_TEST_HOOK=POINT, run SSDSTRIPE_TEST_HOOK_CMD there and go on)
rp_hook() {
	[ "${SSDSTRIPE_TEST_HOOK:-}" = "$1" ] || return 0
	${SSDSTRIPE_TEST_HOOK_CMD:-false}
}
# rp_cut POINT: the test rig's power cut (tests only: with
# SSDSTRIPE_TEST_CUT=POINT, run SSDSTRIPE_TEST_CUT_CMD and wait for the
# power to go)
rp_cut() {
	[ "${SSDSTRIPE_TEST_CUT:-}" = "$1" ] || return 0
	say "test: cutting the power at $1"
	${SSDSTRIPE_TEST_CUT_CMD:-false}
	sleep 600
}

# ---- the state file status reads ------------------------------------------
# rp_state NAME KEY=VALUE...: the replace's state in $REPLACE_RUN/NAME
# (member, from, to, state, started, percent, rate, eta, why)
rp_state() {
	_rs_n=$1
	shift
	mkdir -p "$REPLACE_RUN" 2>/dev/null || return 0
	{
		[ -f "$REPLACE_RUN/$_rs_n" ] && grep -v -e "^${1%%=*}=" "$REPLACE_RUN/$_rs_n" 2>/dev/null
		for _rs_kv in "$@"; do printf '%s\n' "$_rs_kv"; done
	} >"$REPLACE_RUN/$_rs_n.tmp" 2>/dev/null
	# keep one line per key: the last
	awk -F= '{v[$1] = $0; if (!($1 in o)) { o[$1] = n++; k[n - 1] = $1 } }
		END { for (i = 0; i < n; i++) print v[k[i]] }' "$REPLACE_RUN/$_rs_n.tmp" \
		>"$REPLACE_RUN/$_rs_n.new" 2>/dev/null &&
		mv -f "$REPLACE_RUN/$_rs_n.new" "$REPLACE_RUN/$_rs_n"
	rm -f "$REPLACE_RUN/$_rs_n.tmp"
}
# replace_info NAME: sets RI_* of array NAME's replace in progress (from the
# mirror under it, and the state file): RI_MEMBER, RI_FROM, RI_TO,
# RI_PERCENT, RI_STATE (copying, read errors, failed), RI_RATE, RI_ETA;
# 1 when none is in progress, 2 when its mirror is not under the array
replace_info() {
	_ri_u=$(dm_uuid "$1")
	_ri_u=${_ri_u#"$DM_UUID_PREFIX"}
	_ri_m=$(rp_mirror_of "$_ri_u")
	[ -n "$_ri_m" ] || return 1
	rp_table "$1" || return 1
	_ri_mm=$(dmsetup info -c --noheadings -o major,minor --separator : "$_ri_m" | tr -d ' ')
	RI_MEMBER=$(echo "$RP_MM" | awk -v m="$_ri_mm" '{for (i = 1; i <= NF; i++) if ($i == m) print i - 1}')
	# a mirror not (yet) under the array: being stacked, or left over
	[ -n "$RI_MEMBER" ] || return 2
	# its table: 0 LEN mirror core 1 REGION 2 OLD OFF NEW OFF ...
	set -f
	# shellcheck disable=SC2046 # the table's words
	set -- $(dmsetup table "$_ri_m")
	set +f
	RI_FROM=$(mm_dev "$8") RI_TO=$(mm_dev "${10}")
	RI_PERCENT='' RI_STATE=copying RI_RATE='' RI_ETA=''
	if rp_mirror_status "$_ri_m"; then
		RI_PERCENT=$((RM_SYNC * 100 / RM_TOTAL))
		case $RM_HEALTH in
		A?) ;;
		*) RI_STATE="read errors on ${RI_FROM#/dev/}" ;;
		esac
		case $RM_HEALTH in ?A | '') ;; *) RI_STATE="${RI_TO#/dev/} failed" ;; esac
	fi
	if [ -r "$REPLACE_RUN/$1" ]; then
		while IFS='=' read -r _ri_k _ri_v; do
			case $_ri_k in rate) RI_RATE=$_ri_v ;; eta) RI_ETA=$_ri_v ;; esac
		done <"$REPLACE_RUN/$1"
	fi
	return 0
}

# replace_say NAME: the line status and detail print under an array whose
# member is being replaced; nothing when none is
replace_say() {
	replace_info "$1"
	case $? in
	0) ;;
	2)
		say "  replace: a copy's device exists, the array not on it: a replace starting (or one that failed to start: 'dmsetup remove $(rp_mirror_of "$_ri_u")' if none runs)"
		return 0 ;;
	*)
		# no copy runs, but the labels say one did: cut short
		rp_table "$1" || return 0
		_ry_d=$(mm_dev "${RP_MM%% *}" 2>/dev/null) || return 0
		read_label "$_ry_d" 2>/dev/null && [ -n "$L_REPLACING" ] || return 0
		say "  a replace of member $L_REPLACING was cut short (the array runs on its old drive): '$PROG replace $1 OLD NEW' starts it over ('$PROG assemble' named the new drive an unfinished copy)"
		return 0 ;;
	esac
	say "  replace: member $RI_MEMBER, ${RI_FROM#/dev/} onto ${RI_TO#/dev/}: ${RI_PERCENT:-?}% copied${RI_RATE:+, $(human $((RI_RATE / 512)))/s}${RI_ETA:+, ${RI_ETA}s left}${RI_STATE:+ ($RI_STATE)}"
	case $RI_STATE in
	copying) ;;
	*) say "  the replace cannot complete as it is: '$PROG replace --finish $1' says why, '$PROG replace --abort $1' goes back to ${RI_FROM#/dev/}" ;;
	esac
}
# replace_json NAME: the "replace" member of an array's JSON object: null,
# or the replace in progress
replace_json() {
	if replace_info "$1"; then
		printf '{"member":%s,"from":%s,"to":%s,"percent":%s,"state":%s,"rate_bytes":%s,"eta_seconds":%s}' 			"$RI_MEMBER" "$(json_str "${RI_FROM#/dev/}")" "$(json_str "${RI_TO#/dev/}")" 			"${RI_PERCENT:-null}" "$(json_str "$RI_STATE")" "${RI_RATE:-null}" "${RI_ETA:-null}"
	else
		printf null
	fi
}

# ---- unreadable ranges ---------------------------------------------------
# rp_bad_ranges DEV START LEN: the ranges of DEV's sectors [START,
# START+LEN) that cannot be read, as "first last" lines (member sectors
# from START), found with direct reads of 1 MiB, then halves down to 8
# sectors where one fails
rp_bad_ranges() {
	_bx_start=$2 _bx_end=$(($2 + $3)) _bx_at=$2
	while [ "$_bx_at" -lt "$_bx_end" ]; do
		_bx_n=2048
		[ $((_bx_at + _bx_n)) -gt "$_bx_end" ] && _bx_n=$((_bx_end - _bx_at))
		rp_bad_in "$1" "$_bx_at" "$_bx_n" "$_bx_start"
		_bx_at=$((_bx_at + _bx_n))
	done | awk 'NF == 2 {
			if (n && $1 == last + 1) { last = $2; next }
			if (n) print first, last
			first = $1; last = $2; n = 1 }
		END { if (n) print first, last }'
}
rp_bad_in() {
	dd if="$1" of=/dev/null bs=512 skip="$2" count="$3" iflag=direct 2>/dev/null && return 0
	if [ "$3" -le 8 ]; then
		echo "$(($2 - $4)) $(($2 - $4 + $3 - 1))"
		return 0
	fi
	# halves from the arguments, not a variable: sh has no locals, and
	# the first half's recursion would change it under the second
	rp_bad_in "$1" "$2" $(($3 / 2)) "$4"
	rp_bad_in "$1" $(($2 + $3 / 2)) $(($3 - $3 / 2)) "$4"
}
# rp_array_ranges K FIRST LAST: member K's data sectors FIRST..LAST as
# array sector ranges (a chunk at a time: the stripe interleaves them)
rp_array_ranges() {
	awk -v k="$1" -v f="$2" -v l="$3" -v c="$RP_CHUNK" -v n="$RP_N" 'BEGIN {
		s = f
		while (s <= l) {
			row = int(s / c); w = s - row * c; e = (row + 1) * c - 1
			if (e > l) e = l
			a = (row * n + k) * c + w
			printf "%d-%d\n", a, a + e - s
			s = e + 1
		}
	}'
}
# rp_files ARRAY RANGES: the files of an ext2/3/4 file system on ARRAY that
# hold array sectors in RANGES ("a-b" lines), where debugfs can tell
rp_files() {
	command -v debugfs >/dev/null 2>&1 || return 0
	_rf_bs=$(dumpe2fs -h "$1" 2>/dev/null | awk -F: '/^Block size/ {gsub(/ /, "", $2); print $2}')
	[ -n "$_rf_bs" ] || return 0
	_rf_blocks=$(printf '%s\n' "$2" | awk -F- -v b="$_rf_bs" 'NF == 2 {
		for (x = int($1 * 512 / b); x <= int($2 * 512 / b) && x < int($1 * 512 / b) + 64; x++) printf "%d ", x }')
	[ -n "$_rf_blocks" ] || return 0
	_rf_ino=$(debugfs -c -R "icheck $_rf_blocks" "$1" 2>/dev/null | awk 'NR > 1 && $2 ~ /^[0-9]+$/ {print $2}' | sort -un | tr '\n' ' ')
	[ -n "$_rf_ino" ] || return 0
	debugfs -c -R "ncheck $_rf_ino" "$1" 2>/dev/null | awk 'NR > 1 {$1 = ""; sub(/^ /, ""); print}'
}

# ---- the command ----------------------------------------------------------
cmd_replace() {
	bg='' force='' ignore='' mode=start args=''
	while [ $# -gt 0 ]; do
		case $1 in
		--background) bg=1; shift ;;
		--force | -f) force=1; shift ;;
		--ignore-read-errors) ignore=1; shift ;;
		--finish) mode=finish; shift ;;
		--abort) mode=abort; shift ;;
		-h | --help) help_replace; exit 0 ;;
		--)
			shift
			for a in "$@"; do args="$args $a"; done
			break ;;
		-?*) usage_die "unknown option $1" ;;
		*) args="$args $1"; shift ;;
		esac
	done
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $args
	set +f
	tmpdir
	case $mode in
	start)
		[ $# = 3 ] || usage_die "replace needs NAME OLD NEW"
		replace_start "$1" "$2" "$3" ;;
	finish)
		[ $# = 1 ] || usage_die "replace --finish needs the array's NAME"
		replace_finish "$1" ;;
	abort)
		[ $# = 1 ] || usage_die "replace --abort needs the array's NAME"
		replace_abort "$1" ;;
	esac
}

# replace_start NAME OLD NEW: every check, then the labels of the copy,
# the mirror, the array onto it; then replace_finish (or its process)
replace_start() {
	nm=$1
	is_array "$nm" || die 4 "$nm is not an active ssdstripe array"
	uuid=$(dm_uuid "$nm")
	case $uuid in "$DM_UUID_PREFIX"*) uuid=${uuid#"$DM_UUID_PREFIX"} ;; *) uuid='' ;; esac
	[ -n "$uuid" ] || die 3 "$nm was not made by '$PROG create' (no array uuid, no labels): replace needs its labels"
	[ -z "$(rp_mirror_of "$uuid")" ] ||
		die 3 "a replace of a member of $nm is in progress ('$PROG status $nm'; '$PROG replace --finish $nm' or '--abort')"
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	old=$(canon "$2") || die 4 "$2: not a block device"
	new=$(canon "$3") || die 4 "$3: not a block device"
	oldmm=$(majmin "$old") newmm=$(majmin "$new")
	k=$(echo "$RP_MM" | awk -v m="$oldmm" '{for (i = 1; i <= NF; i++) if ($i == m) print i - 1}')
	[ -n "$k" ] || die 3 "$old is not a member of $nm (members: $(for m in $RP_MM; do printf '%s ' "$(mm_dev "$m")"; done))"
	devs=''
	for m in $RP_MM; do
		d=$(mm_dev "$m") || die 1 "member $m of $nm has no device node: is it gone? ('$PROG status $nm')"
		devs="$devs $d"
	done
	rp_labels "$uuid" "$devs" || die 3 "replace refused; nothing was written"
	off=$(rp_word "$RP_OFF" "$k")
	[ "$off" = "$R_OFFSET" ] || die 3 "member $k's offset in the table ($off) is not its label's ($R_OFFSET)"

	# NEW, checked as create checks a device
	_rp_rc=0 _rp_forced=''
	_rp_no() { warn "$2"; [ "$1" -gt "$_rp_rc" ] && _rp_rc=$1; }
	case " $RP_MM " in *" $newmm "*) _rp_no 3 "$new is a member of $nm already" ;; esac
	if why=$(in_use "$new"); then
		_rp_no 3 "$new is in use ($why); refusing to replace onto it"
	fi
	find_blkid
	restart=''
	if read_label "$new" && [ "$L_UUID" = "$uuid" ] && [ "$L_INDEX" = "$k" ] && [ "$L_STATE" = copying ]; then
		# the copy of an interrupted replace of this very member: again
		restart=1
	elif why=$(signature "$new"); then
		if [ -n "$force" ]; then
			_rp_forced="$_rp_forced$new carries $why: overwriting (--force)$NL"
		else
			_rp_no 3 "$new carries $why; refusing to replace onto it (--force overwrites it)"
		fi
	fi
	need=$((R_OFFSET + R_DATA + TAIL))
	sz=$(devsize "$new")
	[ "$sz" -ge "$need" ] ||
		_rp_no 3 "$new holds $(human "$sz"); member $k of $nm needs $(human "$need") (data at $(human "$R_OFFSET"), $(human "$R_DATA") of it, and the tail)"
	lbs_new=$(lbs_sectors "$new") lbs_old=$(lbs_sectors "$old")
	[ "$lbs_new" -le "$lbs_old" ] ||
		_rp_no 3 "$new has logical blocks of $((lbs_new * 512)) bytes, larger than $old's $((lbs_old * 512)): the array's users may write smaller ones"
	for id in $(drive_ids "$new" | tr ' ' '_'); do
		for d in $devs; do
			[ "$d" = "$old" ] && continue
			drive_ids "$d" | tr ' ' '_' | grep -qxF "$id" || continue
			_rp_why="$new and member $d are on one physical drive (${id%%:*} ${id#*:}): striping them gains no speed"
			if [ -n "$force" ]; then
				_rp_forced="$_rp_forced$_rp_why (--force)$NL"
			else
				_rp_no 3 "$_rp_why; refusing (--force accepts it)"
			fi
		done
	done
	[ "$_rp_rc" = 0 ] || die "$_rp_rc" "replace refused; nothing was written"
	printf '%s' "$_rp_forced" | while IFS= read -r l; do [ -n "$l" ] && warn "$l"; done
	modprobe dm-mirror >/dev/null 2>&1
	dmsetup targets 2>/dev/null | grep -q '^mirror ' ||
		die 1 "the kernel's mirror target is not available (modprobe dm-mirror), which replace copies with; nothing was written"

	# 1. NEW claims the member, as an unfinished copy; 2. every member
	# says a replace of member k is under way (generation G+1)
	gen=$((RP_GEN + 1))
	[ -n "$restart" ] && say "$new holds an interrupted copy of member $k: starting the copy over"
	zero_range "$new" 0 "$DATA_OFFSET" || die 1 "cannot write to $new"
	zero_range "$new" $((sz - TAIL)) "$TAIL" || die 1 "cannot write to $new"
	wipe_partition_labels "$new"
	drop_partitions "$new"
	RP_REPBY='' RP_REPAT=''
	rp_write_labels "$uuid" "$devs" "$k" "$gen" copying "$k" "$new" ||
		die 1 "nothing else was written; '$PROG wipe $new' erases what was"
	rp_write_labels "$uuid" "$devs" "$(seq 0 $((RP_N - 1)) | tr '\n' ' ')" "$gen" '' "$k" ||
		die 1 "the array is unchanged; '$PROG replace $nm $old $new' tries again"
	rp_cut labelled

	# 3. the mirror, OLD first (the copy's source, and where reads go
	# until it is complete), loaded but not yet live: its copy starts the
	# moment it is, and a write the array made to OLD directly after a
	# region was copied would be missing from NEW with the region counted
	# in sync.  So: the array suspended (its writes on OLD done), the
	# mirror live, 4. the array onto it, resumed.
	mir=$nm-replace
	dm_exists "$mir" && die 3 "a device-mapper device called $mir exists already; nothing else was changed"
	_rp_e=$(dmsetup create "$mir" --uuid "$(rp_mirror_uuid "$uuid")" --notable 2>&1) ||
		die 1 "cannot set up the copy ($_rp_e); the array is unchanged"
	_rp_e=$(dmsetup load "$mir" --table \
		"0 $R_DATA mirror core 1 $REPLACE_REGION 2 $oldmm $R_OFFSET $newmm $R_OFFSET 1 handle_errors" 2>&1) || {
		dmsetup remove "$mir" >/dev/null 2>&1
		die 1 "cannot set up the copy ($_rp_e); the array is unchanged"
	}
	mirmm=$(dmsetup info -c --noheadings -o major,minor --separator : "$mir" | tr -d ' ')
	mms='' offs=''
	i=0
	for m in $RP_MM; do
		if [ "$i" = "$k" ]; then mms="$mms $mirmm" offs="$offs 0"; else mms="$mms $m" offs="$offs $(rp_word "$RP_OFF" "$i")"; fi
		i=$((i + 1))
	done
	if ! rp_stack "$nm" "$mir" "$(rp_line "$mms" "$offs")"; then
		dmsetup remove "$mir" >/dev/null 2>&1
		die 1 "the array stays on $old; '$PROG replace $nm $old $new' tries again"
	fi
	mknode "$mir" >/dev/null 2>&1
	rp_state "$nm" "member=$k" "from=$old" "to=$new" state=copying "started=$(date +%s)" percent=0
	say "replacing member $k of $nm: copying $old onto $new ($(human "$R_DATA"))"
	if [ -n "$bg" ]; then
		mkdir -p "$REPLACE_RUN"
		# shellcheck disable=SC2086 # its options
		setsid "$0" replace --finish ${ignore:+--ignore-read-errors} "$nm" \
			</dev/null >"$REPLACE_RUN/$nm.log" 2>&1 &
		echo $! >"$REPLACE_RUN/$nm.pid"
		say "the copy goes on in the background ('$PROG status $nm' shows it; its log: $REPLACE_RUN/$nm.log)"
		return 0
	fi
	replace_finish "$nm"
}

# replace_finish NAME: wait for NAME's copy, then switch the array onto
# NEW (or stop on read errors, or with --ignore-read-errors salvage)
replace_finish() {
	nm=$1
	is_array "$nm" || die 4 "$nm is not an active ssdstripe array"
	uuid=$(dm_uuid "$nm")
	uuid=${uuid#"$DM_UUID_PREFIX"}
	mir=$(rp_mirror_of "$uuid")
	[ -n "$mir" ] || die 4 "no replace of a member of $nm is in progress"
	replace_info "$nm"
	case $? in
	0) ;;
	2) die 1 "the copy's device $mir is not under $nm (a replace starting, or one that failed to start): nothing to finish; if no replace runs, 'dmsetup remove $mir' removes it" ;;
	*) die 1 "cannot read the replace of $nm" ;;
	esac
	k=$RI_MEMBER old=$RI_FROM new=$RI_TO
	rp_labels "$uuid" "$(rp_devs "$old")" || die 1 "cannot read the labels of $nm"
	trap 'say ""; say "the copy goes on in the kernel: '"'$PROG replace --finish $nm'"' completes it, '"'$PROG replace --abort $nm'"' stops it"; exit 130' INT TERM
	t0=$(date +%s) s0='' tl='' stuck=0 last=-1
	while :; do
		rp_mirror_status "$mir" || die 1 "cannot read the copy's status ($mir)"
		case $RM_HEALTH in
		?A) ;;
		*)
			rp_state "$nm" state=failed "why=$new failed during the copy"
			warn "$new failed while the copy went on (mirror $RM_HEALTH): putting $nm back on $old"
			replace_abort "$nm"
			exit 1 ;;
		esac
		now=$(date +%s)
		[ -z "$s0" ] && s0=$RM_SYNC
		done_s=$((RM_SYNC * REPLACE_REGION)) all_s=$((RM_TOTAL * REPLACE_REGION))
		pct=$((RM_SYNC * 100 / RM_TOTAL))
		el=$((now - t0))
		rate='' eta=''
		if [ "$el" -gt 0 ] && [ "$RM_SYNC" -gt "$s0" ]; then
			rate=$(((RM_SYNC - s0) * REPLACE_REGION * 512 / el))
			eta=$(((RM_TOTAL - RM_SYNC) * el / (RM_SYNC - s0)))
		fi
		rp_state "$nm" "percent=$pct" "rate=${rate:-}" "eta=${eta:-}"
		if [ "$tl" != "$pct" ]; then
			say "replace $nm member $k: $pct% ($(human "$done_s") of $(human "$all_s")${rate:+, $(human $((rate / 512)))/s}${eta:+, ${eta}s left})"
			tl=$pct
		fi
		# the rig's mid-copy power cut: the mirror stacked, the labels
		# marking the replace, the writes going to both
		rp_cut copying
		[ "$RM_SYNC" = "$RM_TOTAL" ] && break
		case $RM_HEALTH in
		A?) ;;
		*)
			# OLD could not be read: the regions it could not give
			# stay out of sync; wait until nothing moves
			if [ "$RM_SYNC" = "$last" ]; then stuck=$((stuck + 1)); else stuck=0; fi
			last=$RM_SYNC
			[ "$stuck" -ge 5 ] && { replace_read_errors "$nm"; return $?; } ;;
		esac
		sleep 1
	done
	replace_switch "$nm" ''
}

# replace_read_errors NAME: OLD gave read errors during the copy: find the
# ranges, then stop (the default) or salvage and switch (--ignore-read-errors)
replace_read_errors() {
	say "replace $nm member $k: $old returned read errors; finding the ranges it cannot give"
	rp_table "$nm"
	ranges=$(rp_bad_ranges "$old" "$R_OFFSET" "$R_DATA")
	arr=''
	while read -r f l; do
		[ -n "$f" ] || continue
		arr="$arr$(rp_array_ranges "$k" "$f" "$l")$NL"
	done <<EOF
$ranges
EOF
	list=$(printf '%s\n' "$ranges" | awk 'NF == 2 {printf "%s%d-%d", (n++ ? ", " : ""), $1, $2}')
	alist=$(printf '%s' "$arr" | awk 'NF {printf "%s%s", (n++ ? ", " : ""), $0}')
	files=$(rp_files "/dev/mapper/$nm" "$arr")
	rp_state "$nm" state="read errors" "why=$old cannot be read at member sectors ${list:-?}"
	if [ -z "$ignore" ]; then
		replace_abort "$nm" >/dev/null
		warn "replace of member $k of $nm stopped: $old cannot be read at member data sectors ${list:-(none found now: a passing error?)} (array sectors ${alist:-?})"
		[ -n "$files" ] && warn "files there: $(printf '%s\n' "$files" | tr '\n' ' ')"
		warn "nothing was switched: $nm runs on $old as before, and $new was given nothing.  Back up what lies there now; '$PROG replace --ignore-read-errors $nm $old $new' copies the rest and leaves those ranges of $new unwritten (lost)"
		return 1
	fi
	replace_switch "$nm" "$ranges"
	say "lost (unreadable on $old, not written on $new): member data sectors $list; array sectors $alist"
	[ -n "$files" ] && say "files in them: $(printf '%s\n' "$files" | tr '\n' ' ')"
	return 0
}

# replace_switch NAME BAD: the copy is complete (but for the BAD ranges of
# OLD, "first last" member data sectors, with --ignore-read-errors): put
# the array on NEW.  The order of the writes is the crash-safety argument
# of Documentation/ssdstripe-label.rst ("Replacing a member").
replace_switch() {
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	devs=$(rp_devs "$new")
	# 5. nothing moves: suspend the array (its writes reach both legs
	# first), and check the copy once more
	dmsetup suspend "$nm" || die 1 "cannot suspend $nm to switch it; the copy is complete: '$PROG replace --finish $nm' tries again"
	if ! rp_mirror_status "$mir" || { [ "$RM_SYNC" != "$RM_TOTAL" ] && [ -z "$2" ]; } ||
		[ "${RM_HEALTH#?}" != A ]; then
		dmsetup resume "$nm"
		die 1 "the copy is not complete after all ($RM_SYNC/$RM_TOTAL, $RM_HEALTH); the array stays on $old"
	fi
	if [ -n "$2" ]; then
		# the regions the mirror could not copy: what OLD gives of them,
		# now that nothing writes (a bad range itself stays unwritten)
		rp_salvage "$2" || { dmsetup resume "$nm"; die 1 "cannot copy around the unreadable ranges; the array stays on $old"; }
	fi
	rp_labels "$uuid" "$(rp_devs "$old")" || { dmsetup resume "$nm"; die 1 "cannot read the labels of $nm; the array stays on the copy"; }
	gen=$((RP_GEN + 1))
	# 6. NEW becomes the member, with the next generation: from here on
	# a boot takes NEW, which holds everything (the array is suspended)
	RP_REPBY='' RP_REPAT=''
	if ! rp_write_labels "$uuid" "$devs" "$k" "$gen" '' '' "$new"; then
		dmsetup resume "$nm"
		die 1 "the array stays on the copy; '$PROG replace --finish $nm' tries again"
	fi
	rp_cut switch
	# 7. the array onto NEW: one reload
	mms='' offs='' i=0
	for m in $RP_MM; do
		if [ "$i" = "$k" ]; then mms="$mms $(majmin "$new")"; else mms="$mms $m"; fi
		offs="$offs $R_OFFSET"
		i=$((i + 1))
	done
	_rs_e=$(dmsetup reload "$nm" --table "$(rp_line "$mms" "$offs")" 2>&1) ||
		{ dmsetup resume "$nm"; die 1 "cannot load the table onto $new ($_rs_e): '$PROG replace --finish $nm' tries again"; }
	dmsetup resume "$nm" || die 1 "cannot resume $nm on $new: resume it ('dmsetup resume $nm')"
	rp_cut switched
	dmsetup remove "$mir" >/dev/null 2>&1 || warn "cannot remove the copy's device $mir (remove it: 'dmsetup remove $mir')"
	# 8. the other members record NEW's drive; 9. OLD says it was replaced
	others=$(seq 0 $((RP_N - 1)) | awk -v k="$k" '$1 != k' | tr '\n' ' ')
	rp_write_labels "$uuid" "$devs" "$others" "$gen" '' '' ||
		warn "the array runs on $new, but the other members' labels could not all be updated: run '$PROG replace' only after 'ssdstripe examine' shows them"
	rp_cut relabelled
	ident_of "$new" || ident_none
	ident_words D
	RP_REPBY=$IW RP_REPAT=$(date +%s)
	rp_write_labels "$uuid" "$devs" "$k" "$gen" replaced '' "$old" ||
		warn "could not mark $old replaced; 'ssdstripe wipe $old' erases its label"
	RP_REPBY='' RP_REPAT=''
	rm -f "$REPLACE_RUN/$nm" "$REPLACE_RUN/$nm.pid"
	say "member $k of $nm is now $new (was $old); $old is free: '$PROG wipe $old' erases its retired label"
}

# rp_salvage BAD: copy the readable sectors of each mirror region that
# holds an unreadable range of OLD from OLD to NEW (the array suspended)
rp_salvage() {
	printf '%s\n' "$1" | awk -v r="$REPLACE_REGION" 'NF == 2 {
		for (x = int($1 / r); x <= int($2 / r); x++) print x }' | sort -un |
	while read -r reg; do
		s=$((R_OFFSET + reg * REPLACE_REGION)) n=$REPLACE_REGION
		[ $((reg * REPLACE_REGION + n)) -gt "$R_DATA" ] && n=$((R_DATA - reg * REPLACE_REGION))
		x=0
		while [ "$x" -lt "$n" ]; do
			dd if="$old" of="$new" bs=4096 skip=$(((s + x) / 8)) seek=$(((s + x) / 8)) count=1 \
				iflag=direct oflag=direct conv=notrunc 2>/dev/null || :
			x=$((x + 8))
		done
	done
	sync
}

# replace_abort NAME: back onto OLD, nothing lost: the array off the
# mirror, the mirror gone, NEW's claim erased, the markers cleared
replace_abort() {
	nm=$1
	is_array "$nm" || die 4 "$nm is not an active ssdstripe array"
	uuid=$(dm_uuid "$nm")
	uuid=${uuid#"$DM_UUID_PREFIX"}
	mir=$(rp_mirror_of "$uuid")
	[ -n "$mir" ] || die 4 "no replace of a member of $nm is in progress (nothing to abort)"
	replace_info "$nm"
	case $? in
	0) ;;
	2) die 1 "the copy's device $mir is not under $nm (a replace starting, or one that failed to start): nothing to abort; if no replace runs, 'dmsetup remove $mir' removes it" ;;
	*) die 1 "cannot read the replace of $nm" ;;
	esac
	k=$RI_MEMBER old=$RI_FROM new=$RI_TO
	# a --background process waiting for this copy: it has nothing to wait for
	if [ -r "$REPLACE_RUN/$nm.pid" ]; then
		read -r _ra_p <"$REPLACE_RUN/$nm.pid" && [ "$_ra_p" != "$$" ] && kill "$_ra_p" 2>/dev/null
		rm -f "$REPLACE_RUN/$nm.pid"
	fi
	mms='' offs='' i=0
	rp_table "$nm"
	for m in $RP_MM; do
		if [ "$i" = "$k" ]; then mms="$mms $(majmin "$old")"; offs="$offs $(rp_label_offset "$old")"
		else mms="$mms $m" offs="$offs $(rp_word "$RP_OFF" "$i")"; fi
		i=$((i + 1))
	done
	rp_reload "$nm" "$(rp_line "$mms" "$offs")" || die 1 "cannot put $nm back on $old; the copy goes on"
	dmsetup remove "$mir" >/dev/null 2>&1 || warn "cannot remove the copy's device $mir (remove it: 'dmsetup remove $mir')"
	zero_label "$new" || warn "cannot erase $new's label: 'ssdstripe wipe $new' erases it"
	devs=$(rp_devs "$old")
	if rp_labels "$uuid" "$devs"; then
		rp_write_labels "$uuid" "$devs" "$(seq 0 $((RP_N - 1)) | tr '\n' ' ')" $((RP_GEN + 1)) '' '' ||
			warn "the array is back on $old, but its labels still mention the replace"
	fi
	rm -f "$REPLACE_RUN/$nm"
	say "replace of member $k of $nm stopped: the array runs on $old as before; $new was given nothing to keep"
}
# rp_devs DEV: the members' devices by index (from RP_MM), DEV for member
# k (whatever the table holds there: the copy's mirror, during a replace)
rp_devs() {
	_rd_i=0 _rd=''
	for _rd_m in $RP_MM; do
		if [ "$_rd_i" = "$k" ]; then _rd="$_rd $1"; else _rd="$_rd $(mm_dev "$_rd_m")"; fi
		_rd_i=$((_rd_i + 1))
	done
	echo "$_rd"
}
# rp_label_offset DEV: the data offset DEV's label says
rp_label_offset() { read_label "$1" >/dev/null 2>&1; echo "${L_OFFSET:-$DATA_OFFSET}"; }
