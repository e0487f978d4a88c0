# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
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
copy meanwhile.  Ctrl-C stops the replace: the array stays on OLD.

A drive error during the copy puts the array back on OLD, which holds
every acknowledged write (the mirror holds back a write a drive failed
until then): NEW failing stops the replace; OLD failing a write stops it
too (that write fails on OLD, as it would have without the replace); OLD
failing reads stops it and names the ranges it cannot give, or with
--ignore-read-errors copies around them.

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
  --ignore-read-errors OLD cannot be read everywhere: copy the rest (the
                       ranges it cannot give stay on OLD alone during the
                       copy and are copied block by block at the switch),
                       switch anyway, zero on NEW what OLD still cannot
                       give, and list it (member and array sectors, and
                       the files in them where debugfs can tell).  Without
                       it such a replace stops, names the ranges and
                       leaves the array on OLD.
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
	local _rt_i
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
	local _md
	_md=$(readlink -f "/sys/dev/block/$1" 2>/dev/null) || return 1
	devpath "${_md##*/}"
}
# rp_reload NAME TABLE: load TABLE into live array NAME (suspend, swap,
# resume: one reload)
rp_reload() {
	local _rr_e
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
# rp_mirror_status COPY: the copy's state from the mirror targets of its
# table (one per run of regions; regions OLD could not be read in lie on
# OLD alone, linear): RM_SYNC and RM_TOTAL (regions copied, regions to
# copy), RM_HEALTH a letter per leg, OLD's then NEW's, the worst of the
# targets' (A alive, D write failure, S copy failure, R read failure, F or
# U failed otherwise: mirror_status in the kernel's dm-raid1.c).  False
# when COPY holds no mirror target (it holds OLD alone: a retreat).
rp_mirror_status() {
	local _rm
	_rm=$(dmsetup status "$1" 2>/dev/null | awk '
		$3 == "mirror" {
			n++; nl = $4; split($(5 + nl), a, "/"); s += a[1]; t += a[2]; h = $(7 + nl)
			for (i = 1; i <= 2; i++) { c = substr(h, i, 1); if (!(i in w) || w[i] == "A") w[i] = c }
		}
		END { if (n) print s, t, w[1] w[2] }')
	[ -n "$_rm" ] || return 1
	RM_SYNC=${_rm%% *} _rm=${_rm#* }
	RM_TOTAL=${_rm%% *} RM_HEALTH=${_rm#* }
	[ "$RM_TOTAL" -gt 0 ]
}
# rp_mirror_legs COPY: RI_FROM and RI_TO, OLD and NEW, from the first
# mirror target of COPY's table (START LEN mirror core 1 REGION 2 OLD OFF
# NEW OFF ...); false when it holds none
rp_mirror_legs() {
	local _ml
	_ml=$(dmsetup table "$1" 2>/dev/null | awk '$3 == "mirror" {print $8, $10; exit}')
	[ -n "$_ml" ] || return 1
	RI_FROM=$(mm_dev "${_ml% *}") RI_TO=$(mm_dev "${_ml#* }")
}
# rp_copy_table OLDMM NEWMM BADREGS: the copy's table over member k's data
# area: the kernel's mirror target over every run of regions, OLD first
# (the source, where reads go), with handle_errors (a write a leg fails is
# held back, unacknowledged, until the tool puts the array back on OLD);
# the regions of BADREGS (numbers; OLD could not be read in them) linear on
# OLD alone, for the mirror's copy would fail on them again
rp_copy_table() {
	echo "$3" | tr ' ' '\n' | awk -v len="$R_DATA" -v r="$REPLACE_REGION" -v off="$R_OFFSET" \
		-v o="$1" -v n="$2" '
		function seg(st, l, isbad) {
			if (isbad) printf "%d %d linear %s %d\n", st, l, o, off + st
			else printf "%d %d mirror core 1 %d 2 %s %d %s %d 1 handle_errors\n", st, l, r, o, off + st, n, off + st
		}
		NF { bad[$1 + 0] = 1 }
		END {
			nreg = int((len + r - 1) / r); s = 0
			for (x = 0; x <= nreg; x++) {
				b = (x < nreg) ? ((x in bad) ? 1 : 0) : -1
				if (x == 0) { t = b; continue }
				if (b == t) continue
				e = x * r; if (e > len) e = len
				seg(s, e - s, t); s = e; t = b
			}
		}'
}
# rp_copy_badregs COPY: the regions COPY's table leaves on OLD alone
rp_copy_badregs() {
	dmsetup table "$1" 2>/dev/null | awk -v r="$REPLACE_REGION" '$3 == "linear" {
		for (x = $1 / r; x < ($1 + $2) / r; x++) printf "%d ", x }'
}
# rp_copy_load COPY TABLE: TABLE (lines) into COPY's inactive slot
rp_copy_load() { printf '%s\n' "$2" | dmsetup load "$1" 2>&1; }

# ---- labels ------------------------------------------------------------
# rp_labels UUID DEVS: read the label of every member (DEVS in index
# order): R_* the array's (from member 0's), RP_GEN the highest
# generation.  False, saying why, when one is not a label of array UUID at
# its index.
rp_labels() {
	local _rb_i _rb_d
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
			R_DATA=$L_DATA R_MEMBERS=$L_MEMBERS R_CREATED=$L_CREATED R_OP=$L_OP
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
	local _rw_i _rw_d
	L_UUID=$1 L_NAME=$R_NAME L_COUNT=$R_COUNT L_CHUNK=$R_CHUNK
	L_OFFSET=$R_OFFSET L_DATA=$R_DATA L_MEMBERS=$R_MEMBERS L_CREATED=$R_CREATED
	L_GEN=$4 L_STATE=$5 L_REPLACING=$6 L_REPBY=${RP_REPBY:-} L_REPAT=${RP_REPAT:-} L_OP=${R_OP:-}
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
	local _rs_n _rs_kv
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
# RI_PERCENT, RI_STATE (copying, read errors, failed), RI_RATE, RI_ETA,
# RI_WATCHED (the pid of the ssdstripe process that waits for the copy, if
# any); 1 when none is in progress, 2 when the copy's device is not under
# the array or holds no mirror (a replace being set up or taken down)
replace_info() {
	local _ri_m _ri_mm _ri_p _ri_k _ri_v
	_ri_u=$(dm_uuid "$1")
	_ri_u=${_ri_u#"$DM_UUID_PREFIX"}
	_ri_m=$(rp_mirror_of "$_ri_u")
	[ -n "$_ri_m" ] || return 1
	rp_table "$1" || return 1
	_ri_mm=$(dmsetup info -c --noheadings -o major,minor --separator : "$_ri_m" | tr -d ' ')
	RI_MEMBER=$(echo "$RP_MM" | awk -v m="$_ri_mm" '{for (i = 1; i <= NF; i++) if ($i == m) print i - 1}')
	# a copy's device not (yet) under the array, or one holding OLD alone:
	# a replace being set up or taken down
	[ -n "$RI_MEMBER" ] || return 2
	rp_mirror_legs "$_ri_m" || return 2
	RI_PERCENT='' RI_STATE=copying RI_RATE='' RI_ETA='' RI_WATCHED=''
	if [ -r "$REPLACE_RUN/$1.pid" ] && read -r _ri_p <"$REPLACE_RUN/$1.pid" && rp_is_watcher "$_ri_p"; then
		RI_WATCHED=$_ri_p
	fi
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
	local _ry_d
	replace_info "$1"
	case $? in
	0) ;;
	2)
		say "  replace: the copy's device $(rp_mirror_of "$_ri_u") is being set up or taken down (if no '$PROG replace' runs: '$PROG replace --abort $1')"
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
	[ -n "$RI_WATCHED" ] ||
		say "  no ssdstripe process waits for this copy (it was killed): '$PROG replace --finish $1' completes it, '$PROG replace --abort $1' stops it; until then a drive error during the copy holds the array's writes"
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
	local _bx_start _bx_end _bx_at _bx_n
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
	# one read of the whole piece (a read of 512 bytes would fail on a
	# drive of 4 KiB sectors, and cost a call per sector on the others)
	dd if="$1" of=/dev/null bs=$(($3 * 512)) count=1 skip=$(($2 * 512)) \
		iflag=direct,skip_bytes 2>/dev/null && return 0
	if [ "$3" -le 8 ]; then
		echo "$(($2 - $4)) $(($2 - $4 + $3 - 1))"
		return 0
	fi
	# halves of whole 4 KiB blocks, from the arguments, not a variable:
	# sh has no locals, and the first half's recursion would change it
	set -- "$1" "$2" "$3" "$4" $(($3 / 2 - $3 / 2 % 8 > 8 ? $3 / 2 - $3 / 2 % 8 : 8))
	rp_bad_in "$1" "$2" "$5" "$4"
	rp_bad_in "$1" $(($2 + $5)) $(($3 - $5)) "$4"
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
	local _rf_bs _rf_blocks _rf_ino
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
opt_replace() {
	case $1 in
	--background) bg=1 ;;
	--force) force=1 ;;
	--ignore-read-errors) ignore=1 ;;
	--finish) mode=finish ;;
	--abort) mode=abort ;;
	'') args="$args $2" ;;
	esac
}
cmd_replace() {
	bg='' force='' ignore='' mode=start args=''
	opts opt_replace '--background --force|-f --ignore-read-errors --finish --abort' "$@"
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $args
	set +f
	# in /run: the switch writes the labels it makes while the array is
	# suspended, and /tmp may be on the array
	tmp_at_boot
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
	local _rp_forced _rp_io _rp_why _rp_sp _rp_want
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
	REFUSE_RC=0 _rp_forced=''
	case " $RP_MM " in *" $newmm "*) refusal 3 "$new is a member of $nm already" ;; esac
	if rp_built_on "$new" "$(cat "$(dm_sysdir "$nm")/dev")"; then
		refusal 3 "$new is $nm itself or a device built on it; refusing to replace onto it"
	fi
	# after a power cut with NEW gone, assemble tells OLD from NEW by the
	# drive the newest labels record: one of them must be identifiable
	ident_of "$old" || ident_none
	_rp_io=$D_ID$D_SERIAL
	ident_of "$new" || ident_none
	if [ -z "$_rp_io$D_ID$D_SERIAL" ]; then
		_rp_why="neither $old nor $new has a serial number or a device-mapper uuid: after a power cut in the replace, with $new missing, assemble could not tell the old member from the new one"
		if [ -n "$force" ]; then
			_rp_forced="$_rp_forced$_rp_why (--force)$NL"
		else
			refusal 3 "$_rp_why; refusing (--force accepts it)"
		fi
	fi
	if why=$(in_use "$new"); then
		refusal 3 "$new is in use ($why); refusing to replace onto it"
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
			refusal 3 "$new carries $why; refusing to replace onto it (--force overwrites it)"
		fi
	fi
	need=$((R_OFFSET + R_DATA + TAIL))
	sz=$(devsize "$new")
	[ "$sz" -ge "$need" ] ||
		refusal 3 "$new holds $(human "$sz"); member $k of $nm needs $(human "$need") (data at $(human "$R_OFFSET"), $(human "$R_DATA") of it, and the tail)"
	# the array keeps R_OP % of each member spare: a smaller NEW keeps less
	if [ -n "${R_OP:-}" ] && [ "$sz" -ge "$need" ]; then
		# shellcheck disable=SC2017 # divided first: nothing overflows
		_rp_sp=$((sz - need)) _rp_want=$(((sz - R_OFFSET - TAIL) / 100 * R_OP))
		[ $((_rp_sp + R_CHUNK)) -ge "$_rp_want" ] ||
			_rp_forced="$_rp_forced$new keeps $(human "$_rp_sp") spare past its data, less than the $R_OP % of it that $nm keeps on each member ($(human "$_rp_want")): its write speed may drop sooner once full$NL"
	fi
	lbs_new=$(lbs_sectors "$new") lbs_old=$(lbs_sectors "$old")
	[ "$lbs_new" -le "$lbs_old" ] ||
		refusal 3 "$new has logical blocks of $((lbs_new * 512)) bytes, larger than $old's $((lbs_old * 512)): the array's users may write smaller ones"
	for id in $(drive_ids "$new" | tr ' ' '_'); do
		for d in $devs; do
			[ "$d" = "$old" ] && continue
			drive_ids "$d" | tr ' ' '_' | grep -qxF "$id" || continue
			_rp_why="$new and member $d are on one physical drive (${id%%:*} ${id#*:}): striping them gains no speed"
			if [ -n "$force" ]; then
				_rp_forced="$_rp_forced$_rp_why (--force)$NL"
			else
				refusal 3 "$_rp_why; refusing (--force accepts it)"
			fi
		done
	done
	[ "$REFUSE_RC" = 0 ] || die "$REFUSE_RC" "replace refused; nothing was written"
	printf '%s' "$_rp_forced" | while IFS= read -r l; do [ -n "$l" ] && warn "$l"; done
	modprobe dm-mirror >/dev/null 2>&1
	dmsetup targets 2>/dev/null | grep -q '^mirror ' ||
		die 1 "the kernel's mirror target is not available (modprobe dm-mirror), which replace copies with; nothing was written"

	[ -n "$restart" ] && say "$new holds an interrupted copy of member $k: starting the copy over"
	rp_begin ''
	if [ -n "$bg" ]; then
		mkdir -p "$REPLACE_RUN"
		# shellcheck disable=SC2086 # its options
		setsid "$0" replace --finish ${ignore:+--ignore-read-errors} "$nm" \
			</dev/null >"$REPLACE_RUN/$nm.log" 2>&1 &
		echo $! >"$REPLACE_RUN/$nm.pid"
		say "the copy goes on in the background ('$PROG status $nm' shows it; its log: $REPLACE_RUN/$nm.log)"
		return 0
	fi
	say "Ctrl-C stops the replace and leaves $nm on $old ('--background' leaves the copy to a process of its own)"
	replace_finish "$nm"
}

# rp_begin BADREGS: the copy set up and the array put on it (nm, uuid,
# k, old, new, devs and the R_* of the labels set): BADREGS are regions
# OLD could not be read in, left on OLD alone (a second pass of
# --ignore-read-errors)
rp_begin() {
	local _rp_e
	oldmm=$(majmin "$old") newmm=$(majmin "$new")
	# 0. the copy's device loaded, not live: device-mapper claims OLD and
	# NEW now, so nothing mounts, swaps on or assembles NEW from here on
	# (and a NEW claimed since the checks is refused)
	mir=$nm-replace
	dm_exists "$mir" && die 3 "a device-mapper device called $mir exists already; nothing else was changed"
	_rp_e=$(dmsetup create "$mir" --uuid "$(rp_mirror_uuid "$uuid")" --notable 2>&1) ||
		die 1 "cannot set up the copy ($_rp_e); the array is unchanged"
	if ! _rp_e=$(rp_copy_load "$mir" "$(rp_copy_table "$oldmm" "$newmm" "$1")"); then
		dmsetup remove "$mir" >/dev/null 2>&1
		die 3 "cannot take $new for the copy ($_rp_e: is it in use now?); the array is unchanged, nothing was written"
	fi
	# 1. NEW claims the member, as an unfinished copy; 2. every member
	# says a replace of member k is under way (generation G+1)
	gen=$((RP_GEN + 1))
	if [ -z "$1" ]; then
		sz=$(devsize "$new")
		if ! zero_range "$new" 0 "$DATA_OFFSET" || ! zero_range "$new" $((sz - TAIL)) "$TAIL"; then
			dmsetup remove "$mir" >/dev/null 2>&1
			die 1 "cannot write to $new; the array is unchanged"
		fi
		wipe_partition_labels "$new"
		drop_partitions "$new"
	fi
	RP_REPBY='' RP_REPAT=''
	rp_write_labels "$uuid" "$devs" "$k" "$gen" copying "$k" "$new" || {
		dmsetup remove "$mir" >/dev/null 2>&1
		die 1 "the array is unchanged; '$PROG wipe $new' erases what was written to it"
	}
	rp_write_labels "$uuid" "$devs" "$(seq 0 $((RP_N - 1)) | tr '\n' ' ')" "$gen" '' "$k" || {
		dmsetup remove "$mir" >/dev/null 2>&1
		die 1 "the array is unchanged; '$PROG replace $nm $old $new' tries again"
	}
	rp_cut labelled
	# 3. the copy made live only with the array suspended (its writes to
	# OLD done): a write the array made to OLD directly after the mirror
	# had copied its region would be missing from NEW with the region
	# counted in sync; 4. the array onto it, resumed
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
	history_add replace-started "$nm" "$(array_uuid "$nm")" "$k" "" "copying ${old#/dev/} onto ${new#/dev/} (${HIST_CMD:-})"
}

# rp_find NAME WHY: nm, uuid and mir (the copy's device) of array NAME's
# replace; exit 4 when NAME is no active array or has none (WHY says more)
rp_find() {
	nm=$1
	is_array "$nm" || die 4 "$nm is not an active ssdstripe array"
	uuid=$(dm_uuid "$nm")
	uuid=${uuid#"$DM_UUID_PREFIX"}
	mir=$(rp_mirror_of "$uuid")
	[ -n "$mir" ] || die 4 "no replace of a member of $nm is in progress$2"
}

# replace_finish NAME: wait for NAME's copy, then switch the array onto
# NEW; on a drive error during it, put the array back on OLD (and with
# --ignore-read-errors copy around what OLD cannot give)
replace_finish() {
	rp_find "$1" ''
	replace_info "$nm"
	case $? in
	0) ;;
	2) die 1 "the copy's device $mir holds no copy under $nm (a replace being set up or taken down): nothing to finish; '$PROG replace --abort $nm' clears it when no replace runs" ;;
	*) die 1 "cannot read the replace of $nm" ;;
	esac
	if [ -n "$RI_WATCHED" ] && [ "$RI_WATCHED" != "$$" ]; then
		die 3 "process $RI_WATCHED waits for this copy already ('$PROG status $nm')"
	fi
	k=$RI_MEMBER old=$RI_FROM new=$RI_TO
	mkdir -p "$REPLACE_RUN"
	echo $$ >"$REPLACE_RUN/$nm.pid"
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	rp_labels "$uuid" "$(rp_devs "$old")" || die 1 "cannot read the labels of $nm"
	rp_wait
}

# rp_wait: the copy's progress, every second, until it is complete (then
# replace_switch) or a leg reports an error (then back to OLD).  An
# interrupt stops the replace: a copy no process watches would hold the
# array's writes for good after a drive error (the mirror holds a write a
# leg failed until it is told what to do).
rp_wait() {
	trap 'trap "" INT TERM; say ""; warn "interrupted: stopping the replace"; rp_retreat; say "the replace of member $k of $nm is stopped: the array runs on $old as before; $new was given nothing to keep"; exit 130' INT TERM
	t0=$(date +%s) s0='' tl=''
	while :; do
		rp_mirror_status "$mir" || die 1 "cannot read the copy's status ($mir)"
		case $RM_HEALTH in
		AA) ;;
		?A) rp_old_failed; return $? ;;
		*)
			rp_state "$nm" state=failed "why=$new failed during the copy"
			warn "$new failed during the copy (mirror legs $RM_HEALTH): putting $nm back on $old"
			rp_retreat
			warn "the replace of member $k of $nm is stopped: $nm runs on $old as before, every write on it; $new was given nothing to keep.  Check $new ('$PROG smart $new'), or replace onto another drive"
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
		sleep 1
	done
	replace_switch
}

# rp_old_failed: OLD, the copy's source, reported an error: the array
# back on OLD (where every acknowledged write is); then, for read errors,
# the ranges OLD cannot give, and either stop there (the default) or copy
# around them (--ignore-read-errors)
rp_old_failed() {
	case $RM_HEALTH in
	D?)
		rp_state "$nm" state=failed "why=$old failed a write"
		warn "$old failed a write during the copy: putting $nm back on $old alone"
		rp_retreat
		warn "the replace of member $k of $nm is stopped: $nm runs on $old alone, where that write failed as it would have without the replace (what wrote it was told so).  A drive that fails writes cannot be copied from while in use: back up what $nm holds now"
		exit 1 ;;
	esac
	say "replace $nm member $k: $old returned read errors (mirror legs $RM_HEALTH); putting $nm back on $old to find the ranges it cannot give"
	rp_state "$nm" state="read errors" "why=$old returned read errors during the copy"
	rp_retreat
	trap 'exit 130' INT TERM
	say "replace $nm member $k: reading $old for the ranges it cannot give"
	ranges=$(rp_bad_ranges "$old" "$R_OFFSET" "$R_DATA")
	rp_describe "$ranges"
	if [ -z "$ignore" ]; then
		warn "replace of member $k of $nm stopped: $old cannot be read at member data sectors ${RD_LIST:-(none found now: a passing error?)} (array sectors ${RD_ALIST:-?})"
		[ -n "$RD_FILES" ] && warn "files there: $RD_FILES"
		warn "nothing was switched: $nm runs on $old as before, and $new was given nothing.  Back up what lies there now; '$PROG replace --ignore-read-errors $nm $old $new' copies the rest and lists what is lost"
		return 1
	fi
	RP_PASS=$((${RP_PASS:-1} + 1))
	[ "$RP_PASS" -le 3 ] ||
		die 1 "$old gave new read errors on every pass (now at member data sectors ${RD_LIST:-?}): replace stopped, $nm runs on $old; back up what it holds"
	badregs=$(printf '%s\n' "$ranges" | awk -v r="$REPLACE_REGION" 'NF == 2 {
		for (x = int($1 / r); x <= int($2 / r); x++) print x }' | sort -un | tr '\n' ' ')
	runs=$(echo "$badregs" | tr ' ' '\n' | awk 'NF { if ($1 != p + 1 || !n) c++; p = $1; n = 1 } END { print c + 0 }')
	[ "$runs" -le 64 ] ||
		die 1 "$old cannot be read in $runs places (member data sectors $RD_LIST): too many to copy around online; $nm runs on $old; back up what it holds"
	RP_BAD=$ranges
	say "copying around what $old cannot give (member data sectors ${RD_LIST:-none now}): those regions stay on $old alone until the switch, and what still cannot be read then is listed as lost"
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	rp_labels "$uuid" "$devs" || die 1 "cannot read the labels of $nm; it runs on $old"
	rp_begin "$badregs"
	rp_wait
}

# rp_describe RANGES: RD_LIST (member data sectors), RD_ALIST (array
# sectors) and RD_FILES (files, where debugfs can tell) of RANGES ("first
# last" member data sectors)
rp_describe() {
	local _dr_arr _dr_f _dr_l
	_dr_arr=''
	while read -r _dr_f _dr_l; do
		[ -n "$_dr_f" ] || continue
		_dr_arr="$_dr_arr$(rp_array_ranges "$k" "$_dr_f" "$_dr_l")$NL"
	done <<EOF
$1
EOF
	RD_LIST=$(printf '%s\n' "$1" | awk 'NF == 2 {printf "%s%d-%d", (n++ ? ", " : ""), $1, $2}')
	RD_ALIST=$(printf '%s' "$_dr_arr" | awk 'NF {printf "%s%s", (n++ ? ", " : ""), $0}')
	RD_FILES=$(rp_files "/dev/mapper/$nm" "$_dr_arr" | tr '\n' ' ')
}

# replace_switch: the copy is complete (but for regions left on OLD by
# --ignore-read-errors): put the array on NEW.  The order of the writes is
# the crash-safety argument of Documentation/ssdstripe-label.rst
# ("Replacing a member").  Nothing in it writes to a file system while the
# array is suspended (the labels are made in a tmpfs): the array may hold
# the one the tool runs from.
replace_switch() {
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	devs=$(rp_devs "$new")
	badregs=$(rp_copy_badregs "$mir")
	rp_labels "$uuid" "$(rp_devs "$old")" || die 1 "cannot read the labels of $nm; the copy goes on: '$PROG replace --finish $nm' tries again"
	gen=$((RP_GEN + 1))
	# the switch runs to its end, or back to OLD: never half-way
	trap '' INT TERM
	# 5. nothing moves: the array suspended, its writes on both legs
	if ! rp_suspend; then
		warn "cannot suspend $nm to switch it: putting it back on $old"
		rp_retreat
		die 1 "the replace of member $k of $nm is stopped: $nm runs on $old as before"
	fi
	if ! rp_mirror_status "$mir" || [ "$RM_SYNC" != "$RM_TOTAL" ] || [ "$RM_HEALTH" != AA ]; then
		dmsetup resume "$nm"
		rp_retreat
		die 1 "the copy was not complete after all (${RM_SYNC:-?}/${RM_TOTAL:-?} regions, legs ${RM_HEALTH:-?}): the replace is stopped, $nm runs on $old as before"
	fi
	RS_LOST=''
	if [ -n "$badregs" ]; then
		# what lay on OLD alone: copied now that nothing writes; what
		# OLD still cannot give is zeroed on NEW and listed
		if ! rp_salvage "$badregs" "${RP_BAD:-}"; then
			dmsetup resume "$nm"
			rp_retreat
			die 1 "$new could not be written while copying around the unreadable ranges: the replace is stopped, $nm runs on $old as before"
		fi
	fi
	# NEW's cache flushed before anything says it holds the member
	if ! dd if=/dev/null of="$new" count=0 conv=notrunc,fsync 2>/dev/null; then
		dmsetup resume "$nm"
		rp_retreat
		die 1 "$new could not be flushed: the replace is stopped, $nm runs on $old as before"
	fi
	# 6. NEW becomes member k, generation G+2: from here a boot takes NEW,
	# which holds everything (the array is suspended)
	RP_REPBY='' RP_REPAT=''
	if ! rp_write_labels "$uuid" "$devs" "$k" "$gen" '' '' "$new"; then
		dmsetup resume "$nm"
		rp_retreat
		die 1 "$new's label could not be written: the replace is stopped, $nm runs on $old as before"
	fi
	rp_cut switch
	# 7. the other members record NEW's drive for member k, generation
	# G+2: from here a boot without NEW leaves OLD out (superseded)
	others=$(seq 0 $((RP_N - 1)) | awk -v k="$k" '$1 != k' | tr '\n' ' ')
	if ! rp_write_labels "$uuid" "$devs" "$others" "$gen" '' ''; then
		dmsetup resume "$nm"
		rp_retreat
		die 1 "the other members' labels could not be written: the replace is stopped, $nm runs on $old as before"
	fi
	rp_cut relabelled
	# 8. the array onto NEW: one reload
	mms='' offs='' i=0
	for m in $RP_MM; do
		if [ "$i" = "$k" ]; then mms="$mms $(majmin "$new")" offs="$offs $R_OFFSET"
		else mms="$mms $m" offs="$offs $(rp_word "$RP_OFF" "$i")"; fi
		i=$((i + 1))
	done
	if ! _rs_e=$(dmsetup reload "$nm" --table "$(rp_line "$mms" "$offs")" 2>&1); then
		dmsetup resume "$nm"
		rp_retreat
		die 1 "cannot load the table onto $new ($_rs_e): the replace is stopped, $nm runs on $old as before"
	fi
	dmsetup resume "$nm" || die 1 "cannot resume $nm on $new: it is suspended; 'dmsetup resume $nm' tries again"
	rp_cut switched
	dmsetup remove "$mir" >/dev/null 2>&1 || warn "cannot remove the copy's device $mir (remove it: 'dmsetup remove $mir')"
	# 9. OLD says it was replaced, and by what
	ident_of "$new" || ident_none
	ident_words D
	RP_REPBY=$IW RP_REPAT=$(date +%s)
	rp_write_labels "$uuid" "$devs" "$k" "$gen" replaced '' "$old" ||
		warn "could not mark $old replaced (assemble leaves it out all the same: an older label of a member that moved on); 'ssdstripe wipe $old' erases its label"
	RP_REPBY='' RP_REPAT=''
	rp_state "$nm" state=done
	mv -f "$REPLACE_RUN/$nm" "$REPLACE_RUN/$nm.last" 2>/dev/null
	rm -f "$REPLACE_RUN/$nm.pid"
	trap 'exit 130' INT TERM
	if [ -n "$RS_LOST" ]; then
		rp_describe "$RS_LOST"
		say "lost (unreadable on $old, zeroed on $new): member data sectors $RD_LIST; array sectors $RD_ALIST"
		[ -n "$RD_FILES" ] && say "files in them: $RD_FILES"
	fi
	say "member $k of $nm is now $new (was $old); $old is free: '$PROG wipe $old' erases its retired label"
	# the array keeps R_OP % of each member spare (create --overprovision):
	# NEW's spare area told to the drive
	[ -n "${R_OP:-}" ] && op_discard "$new" $((R_OFFSET + R_DATA))
	history_add replaced "$nm" "$(array_uuid "$nm")" "$k" "" "now ${new#/dev/}, was ${old#/dev/}${RS_LOST:+; lost (zeroed) array sectors $RD_ALIST} (${HIST_CMD:-})"
}

# rp_suspend: suspend the array.  A write a leg of the copy fails meanwhile
# is held by the mirror, and the suspend would wait for it for good: while
# it waits, a leg's error puts the copy's device on OLD alone (the held
# writes go there), and the caller then finds no mirror in it
rp_suspend() {
	local _su_p
	dmsetup suspend "$nm" >/dev/null 2>&1 &
	_su_p=$!
	while kill -0 "$_su_p" 2>/dev/null; do
		if rp_mirror_status "$mir" && [ "$RM_HEALTH" != AA ]; then
			rp_copy_to_old || return 1
		fi
		sleep 0.2
	done
	wait "$_su_p"
}

# rp_copy_to_old: the copy's device holds OLD alone: suspended without a
# flush (writes the mirror held after a leg's error go back to
# device-mapper, not failed: hold_bio in dm-raid1.c), loaded with OLD and
# resumed (they go to OLD now)
rp_copy_to_old() {
	dmsetup suspend --noflush "$mir" >/dev/null 2>&1 || return 1
	if ! rp_copy_load "$mir" "0 $R_DATA linear $(majmin "$old") $R_OFFSET" >/dev/null; then
		dmsetup resume "$mir" >/dev/null 2>&1
		return 1
	fi
	dmsetup resume "$mir" >/dev/null 2>&1
}

# rp_retreat: the array back on OLD alone, from any state of the copy, and
# nothing acknowledged lost: the mirror acknowledges a write only once OLD
# has it (and NEW, in a copied region).  The copy's device onto OLD alone;
# NEW's label erased; every member's label with the next generation, OLD
# member k, no replace marked (from here a boot takes OLD); the array
# reloaded onto OLD; the copy's device removed.  Uses nm, uuid, mir, k,
# old, new.
rp_retreat() {
	local _rt_mm
	if rp_mirror_status "$mir"; then
		rp_copy_to_old ||
			die 1 "cannot put the copy's device $mir on $old alone (writes to member $k of $nm may wait): 'dmsetup resume $mir', then '$PROG replace --abort $nm'"
	fi
	if ! zero_label "$new" 2>/dev/null; then
		read_label "$new" >/dev/null 2>&1
		warn "cannot erase $new's label${L_GEN:+ (generation $L_GEN${L_STATE:+, $L_STATE})}: the labels written next outrank it, but take $new out of this system before anything assembles $nm again"
	fi
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	devs=$(rp_devs "$old")
	if rp_labels "$uuid" "$devs"; then
		rp_write_labels "$uuid" "$devs" "$(seq 0 $((RP_N - 1)) | tr '\n' ' ')" $((RP_GEN + 2)) '' '' ||
			warn "the labels of $nm still mark the replace: assemble takes $old all the same"
	fi
	_rt_mm=$(majmin "$old")
	mms='' offs='' i=0
	for m in $RP_MM; do
		if [ "$i" = "$k" ]; then mms="$mms $_rt_mm" offs="$offs $R_OFFSET"
		else mms="$mms $m" offs="$offs $(rp_word "$RP_OFF" "$i")"; fi
		i=$((i + 1))
	done
	rp_reload "$nm" "$(rp_line "$mms" "$offs")" ||
		die 1 "cannot reload $nm onto $old: it runs on $old through $mir, which holds $old alone; '$PROG replace --abort $nm' tries again"
	dmsetup remove "$mir" >/dev/null 2>&1 || warn "cannot remove the copy's device $mir (remove it: 'dmsetup remove $mir')"
	# the state stays behind for the monitor, which says why it stopped
	mv -f "$REPLACE_RUN/$nm" "$REPLACE_RUN/$nm.last" 2>/dev/null
	rm -f "$REPLACE_RUN/$nm.pid"
}

# rp_salvage BADREGS RANGES: with the array suspended, the regions of
# BADREGS (they lay on OLD alone) from OLD to NEW: the runs between the
# blocks of RANGES (unreadable at the scan: "first last" member data
# sectors) in one read each, those blocks one at a time (a block that
# fails is not read again: a dying drive can take seconds over each).  What OLD
# cannot give now is zeroed on NEW and listed in RS_LOST; false when NEW
# cannot be written.
rp_salvage() {
	local _sv_plan _sv_lost _sv_w _sv_at _sv_n _sv_x _sv_e _sv_b _sv_rc
	_sv_plan=$(printf '%s\n' "$2" | awk -v regs="$1" -v r="$REPLACE_REGION" -v len="$R_DATA" '
		BEGIN { nr = split(regs, g, " ") }
		NF == 2 { nb++; bf[nb] = $1; bl[nb] = $2 }
		END {
			for (i = 1; i <= nr; i++) {
				s = g[i] * r; e = s + r; if (e > len) e = len
				x = s
				for (j = 1; j <= nb; j++) {
					if (bl[j] < s || bf[j] >= e) continue
					f = (bf[j] > x) ? bf[j] : x; l = (bl[j] < e - 1) ? bl[j] : e - 1
					if (f > x) print "run", x, f - x
					for (y = f; y <= l; y += 8) print "block", y, ((l - y + 1 < 8) ? l - y + 1 : 8)
					x = l + 1
				}
				if (x < e) print "run", x, e - x
			}
		}')
	_sv_lost=''
	while read -r _sv_w _sv_at _sv_n; do
		[ -n "$_sv_w" ] || continue
		rp_copy_blocks "$_sv_at" "$_sv_n"
		case $? in
		0) ;;
		2)
			# a run unreadable now, or a block still: block by block
			_sv_x=$_sv_at _sv_e=$((_sv_at + _sv_n))
			while [ "$_sv_x" -lt "$_sv_e" ]; do
				_sv_b=8
				[ $((_sv_x + _sv_b)) -gt "$_sv_e" ] && _sv_b=$((_sv_e - _sv_x))
				# a block tried once already is not read again
				if [ "$_sv_w" = block ]; then
					_sv_rc=2
				else
					rp_copy_blocks "$_sv_x" "$_sv_b"
					_sv_rc=$?
				fi
				case $_sv_rc in
				0) ;;
				2)
					dd if=/dev/zero of="$new" bs=$((_sv_b * 512)) count=1 seek=$(((R_OFFSET + _sv_x) * 512)) \
						oflag=direct,seek_bytes conv=notrunc 2>/dev/null || return 1
					_sv_lost="$_sv_lost$_sv_x $((_sv_x + _sv_b - 1))$NL" ;;
				*) return 1 ;;
				esac
				_sv_x=$((_sv_x + _sv_b))
			done ;;
		*) return 1 ;;
		esac
	done <<EOF
$_sv_plan
EOF
	RS_LOST=$(printf '%s' "$_sv_lost" | sort -n | awk 'NF == 2 {
		if (n && $1 == last + 1) { last = $2; next }
		if (n) print first, last
		first = $1; last = $2; n = 1 }
		END { if (n) print first, last }')
	return 0
}
# rp_copy_blocks AT N: member data sectors AT..AT+N-1 from OLD to NEW in
# one read and one write: 0 done, 2 OLD could not be read, 1 NEW could not
# be written
rp_copy_blocks() {
	dd if="$old" of="$TMPD/salvage" bs=$(($2 * 512)) count=1 skip=$(((R_OFFSET + $1) * 512)) \
		iflag=direct,skip_bytes 2>/dev/null || return 2
	[ "$(wc -c <"$TMPD/salvage")" = $(($2 * 512)) ] || return 2
	dd if="$TMPD/salvage" of="$new" bs=$(($2 * 512)) count=1 seek=$(((R_OFFSET + $1) * 512)) \
		oflag=direct,seek_bytes conv=notrunc 2>/dev/null || return 1
}

# replace_abort NAME: back onto OLD, nothing lost (rp_retreat), after the
# process that waits for the copy (--background) has gone: it is told to
# stop, and its switch, if it has begun one, runs to its end first
replace_abort() {
	local _ra_p _ra_w _ra_mm
	rp_find "$1" ' (nothing to abort)'
	if [ -r "$REPLACE_RUN/$nm.pid" ] && read -r _ra_p <"$REPLACE_RUN/$nm.pid" &&
		[ "$_ra_p" != "$$" ] && rp_is_watcher "$_ra_p"; then
		kill "$_ra_p" 2>/dev/null
		_ra_w=0
		while kill -0 "$_ra_p" 2>/dev/null; do
			_ra_w=$((_ra_w + 1))
			[ "$_ra_w" -le 600 ] || die 1 "process $_ra_p, which waits for the copy, did not stop in 60 s; nothing was changed"
			sleep 0.1
		done
		# it stopped the replace itself (it retreats on TERM), or it had
		# switched: either way, look again
		mir=$(rp_mirror_of "$uuid")
		if [ -z "$mir" ]; then
			rp_table "$nm"
			say "the replace of $nm has ended (the process that waited for it stopped it, or had switched the array): its members are $(for m in $RP_MM; do printf '%s ' "$(mm_dev "$m")"; done)"
			return 0
		fi
	fi
	rm -f "$REPLACE_RUN/$nm.pid"
	replace_info "$nm"
	case $? in
	0) k=$RI_MEMBER old=$RI_FROM new=$RI_TO ;;
	2)
		# set up or taken down half-way: if the copy's device is not
		# under the array, it holds nothing of it
		rp_table "$nm"
		_ra_mm=$(dmsetup info -c --noheadings -o major,minor --separator : "$mir" | tr -d ' ')
		case " $RP_MM " in
		*" $_ra_mm "*) die 1 "the copy's device $mir is under $nm but holds no copy: '$PROG replace --finish $nm' or '--abort' again once no replace command runs" ;;
		esac
		dmsetup remove "$mir" >/dev/null 2>&1 || die 1 "cannot remove the copy's device $mir"
		say "removed the copy's device $mir, which held nothing of $nm; a new drive given to it keeps a label marking an unfinished copy: '$PROG wipe' it"
		return 0 ;;
	*) die 1 "cannot read the replace of $nm" ;;
	esac
	rp_table "$nm" || die 1 "cannot read the table of $nm"
	R_OFFSET=$(rp_label_offset "$old")
	read_label "$old" >/dev/null 2>&1
	R_DATA=${L_DATA:-}
	[ -n "$R_DATA" ] || die 1 "cannot read $old's label"
	rp_retreat
	say "replace of member $k of $nm stopped: the array runs on $old as before; $new was given nothing to keep"
	history_add replace-stopped "$nm" "$(array_uuid "$nm")" "$k" "" "back on ${old#/dev/}; ${new#/dev/} given nothing (${HIST_CMD:-})"
}
# rp_devs DEV: the members' devices by index (from RP_MM), DEV for member
# k (whatever the table holds there: the copy's mirror, during a replace)
rp_devs() {
	local _rd
	_rd_i=0 _rd=''
	for _rd_m in $RP_MM; do
		if [ "$_rd_i" = "$k" ]; then _rd="$_rd $1"; else _rd="$_rd $(mm_dev "$_rd_m")"; fi
		_rd_i=$((_rd_i + 1))
	done
	echo "$_rd"
}
# rp_built_on DEV MAJ:MIN: DEV is the block device MAJ:MIN or is built on
# it (MAJ:MIN among the devices under it, at any depth)
rp_built_on() {
	local _bo _bo_s
	_bo=$(sysdir "$1") || return 1
	[ "$(cat "$_bo/dev" 2>/dev/null)" = "$2" ] && return 0
	for _bo_s in "$_bo"/slaves/*; do
		[ -e "$_bo_s" ] || continue
		rp_built_on "/dev/${_bo_s##*/}" "$2" && return 0
	done
	return 1
}
# rp_is_watcher PID: PID is an ssdstripe replace process (the one that
# waits for a copy), not some other that took over a stale pid
rp_is_watcher() {
	[ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -q ' replace '
}
# rp_label_offset DEV: the data offset DEV's label says
rp_label_offset() { read_label "$1" >/dev/null 2>&1; echo "${L_OFFSET:-$DATA_OFFSET}"; }
