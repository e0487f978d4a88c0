# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe assemble: the command is the program's (tool/assemble.c); its
# help stays here, with the set rules that list, table and create still
# use (check_set and its helpers, missing_members) and the activation of
# the devices create just labelled (assemble_set).

# ---- assemble ----------------------------------------------------------
help_assemble() {
	cat <<EOF
usage: $PROG assemble [--timeout SECS] NAME...
       $PROG assemble [--timeout SECS] --scan
       $PROG assemble [--timeout SECS] DEV...
       $PROG assemble --boot [--timeout SECS]
       $PROG assemble --boot-late [--timeout SECS]
       $PROG assemble --incremental [--export] DEV

Activate arrays from the labels on their members.  Never writes to a member.
Members are found by label, in any order.  A set that is incomplete (after
waiting), has two devices claiming one member, mixes arrays, disagrees about
the member order or the geometry is refused with a message naming the device.
A missing member is named by the drive its labels record (model and serial)
with what to do: reseat it, or replace it; when that drive is present under
another name, the name and what keeps it out (no label, another array's
label, in use).  Only when the recorded drive of every missing member is
there without its label does it print the 'create --assume-clean' command
that writes the labels back.
A labelled device that carries another signature now (blkid -p finds a file
system, swap, a partition table, md or LVM: it was re-used) is never taken:
its array is refused at once, naming the device and what it carries, and
--scan still assembles the other arrays.

  NAME...     the arrays of these names, from all block devices
  --scan      every complete array found
  DEV...      exactly these devices, which must form one whole array (an
              incomplete list is refused at once, naming the missing member)
  --boot      the arrays chosen by the kernel command line
              (ssdstripe.assemble=all|none|NAME[,NAME...]) or else $CONF
              (BOOT all | BOOT none | BOOT NAME...; default all);
              timeout from ssdstripe.timeout= or TIMEOUT in the file
  --boot-late what ssdstripe-assemble.service runs: the arrays $CONF
              lists (ARRAY NAME | ARRAY uuid=UUID, and BOOT names), waiting
              for their members; with AUTO yes (the default) every other
              complete array too, without waiting.  Nothing with
              ssdstripe.assemble=none.  The exit status is the listed
              arrays' alone: 0 when they are all active (or none is
              listed); refusals of other arrays are reported but do
              not fail it
  --incremental DEV
              what the udev rule runs for a device that appeared: if DEV
              carries a label of an array that boot may assemble (listed,
              or AUTO yes) and completes it, activate that array; else
              nothing (exit 0).  --export prints the array (udev variables
              SSDSTRIPE_ASSEMBLE_UUID, _NAME, _DEVICES) instead, and for
              any labelled device that is not held what was decided:
              SSDSTRIPE_ASSEMBLE_RESULT=complete, incomplete, active or
              not-listed
  --timeout   seconds to wait for missing members (default 10, --boot and
              --boot-late: TIMEOUT, 30).  A NAME that no label on any
              device carries is not waited for while udev brings up no
              device (its queue is empty): it fails at once (exit 4); a
              member that comes later is assembled by udev's rule
              (--incremental) anyway.  --boot waits the whole timeout.

Arrays already active are left alone.
Exit: 0 all active, 1 failed, 2 usage, 3 refused, 4 nothing found.
EOF
}

# check_set UUID: validate the members of one array in $TMPD/labels.
# Prints the refusal and returns 3 if the set is wrong, 4 if members are
# missing (MISSING lists them), 0 if complete (ORDERED = devs by index).
check_set() {
	local _cs_l _r_dev _r_name _r_count _r_chunk _r_off _r_data _r_members _cs_seen _cs_f _cs_k _cs_v _cs_pos _cs_dup _cs_i
	MISSING='' ORDERED=''
	label_awk -v u="$1" '$UUID == u' "$TMPD/labels" |
		sort -t'|' -k"$LABEL_COL_INDEX,${LABEL_COL_INDEX}n" >"$TMPD/set"
	set_losers "$1"
	# the first member (lowest index) is the reference for the geometry
	IFS= read -r _cs_l <"$TMPD/set"
	label_rec "$_cs_l"
	_r_dev=$L_DEV _r_name=$L_NAME _r_count=$L_COUNT _r_chunk=$L_CHUNK
	_r_off=$L_OFFSET _r_data=$L_DATA _r_members=$L_MEMBERS
	_cs_seen=''
	while IFS= read -r _cs_l; do
		label_rec "$_cs_l"
		for _cs_f in name:"$L_NAME":"$_r_name" count:"$L_COUNT":"$_r_count" \
			chunk_sectors:"$L_CHUNK":"$_r_chunk" data_offset:"$L_OFFSET":"$_r_off" \
			data_sectors:"$L_DATA":"$_r_data"; do
			_cs_k=${_cs_f%%:*} _cs_v=${_cs_f#*:}
			[ "${_cs_v%%:*}" = "${_cs_v#*:}" ] && continue
			warn "$L_DEV: $_cs_k ${_cs_v%%:*} differs from ${_cs_v#*:} on $_r_dev (mismatched member)"
			return 3
		done
		if [ "$L_MEMBERS" != "$_r_members" ]; then
			warn "$L_DEV: its member list differs from $_r_dev's (mismatched member of array $L_NAME)"
			return 3
		fi
		if [ "$L_INDEX" -ge "$L_COUNT" ]; then
			warn "$L_DEV: member index $L_INDEX is beyond the array's $L_COUNT members"
			return 3
		fi
		_cs_pos=$(echo "$L_MEMBERS" | tr ',' '\n' | grep -n -x -F -e "$L_MEMBER" | cut -d: -f1)
		if [ -z "$_cs_pos" ]; then
			warn "$L_DEV: its member uuid $L_MEMBER is not in array $L_NAME's member list"
			return 3
		fi
		if [ $((_cs_pos - 1)) != "$L_INDEX" ]; then
			warn "$L_DEV: label says member $L_INDEX but array $L_NAME's member list puts it at $((_cs_pos - 1)) (reordered member)"
			return 3
		fi
		_cs_dup=$(echo "$_cs_seen" | tr ' ' '\n' | awk -F= -v i="$L_INDEX" '$1 == i {print $2}')
		if [ -n "$_cs_dup" ]; then
			warn "$L_DEV and $_cs_dup both claim to be member $L_INDEX of array $L_NAME (duplicated member: a cloned disk?)"
			return 3
		fi
		if [ "$L_SIZE" -lt $((L_OFFSET + L_DATA)) ]; then
			warn "$L_DEV: $L_SIZE sectors, smaller than its label's data end $((L_OFFSET + L_DATA)) (truncated member)"
			return 3
		fi
		_cs_seen="$_cs_seen $L_INDEX=$L_DEV"
		ORDERED="$ORDERED $L_DEV"
	done <"$TMPD/set"
	_cs_i=0
	while [ "$_cs_i" -lt "$_r_count" ]; do
		case " $_cs_seen" in
		*" $_cs_i="*) ;;
		*) MISSING="$MISSING $_cs_i" ;;
		esac
		_cs_i=$((_cs_i + 1))
	done
	[ -z "$MISSING" ] || return 4
	return 0
}

# set_losers UUID: take out of $TMPD/set the labels that never take part
# in array UUID, and say why in $TMPD/losers (assemble_found prints it):
# an unfinished copy of a replace (state copying), a retired member (state
# replaced), and of two labels claiming one member the one of the older
# generation, or, of the same generation, the one on a drive other than
# the one the labels record for that member (Documentation/ssdstripe-
# label.rst, "Replacing a member").  Two claims it cannot decide stay, and
# check_set refuses them as a duplicated member.
set_losers() {
	local _sl_t _sl_why _sl_l _sl_by
	: >"$TMPD/losers.$1"
	label_awk '
		$STATE == "copying" || $STATE == "replaced" { print "L|" $STATE "|" $0; next }
		{ n[$INDEX]++; if (!($INDEX in g) || $GEN + 0 > g[$INDEX] + 0) g[$INDEX] = $GEN; r[NR] = $0; i[NR] = $INDEX; e[NR] = $GEN }
		END {
			for (x = 1; x <= NR; x++) {
				if (!(x in r)) continue
				if (n[i[x]] > 1 && e[x] + 0 < g[i[x]] + 0) print "L|older " g[i[x]] "|" r[x]
				else print "K|" r[x]
			}
		}' "$TMPD/set" >"$TMPD/set.sorted"
	grep '^K|' "$TMPD/set.sorted" | cut -d'|' -f2- >"$TMPD/set.keep"
	while IFS='|' read -r _sl_t _sl_why _sl_l; do
		[ "$_sl_t" = L ] || continue
		label_rec "$_sl_l"
		if [ "$_sl_why" = copying ] && set_switched "$1"; then
			printf '%s\n' "$_sl_l" >>"$TMPD/set.keep"
			printf '%s\n' "$L_DEV: holds member $L_INDEX of array $L_NAME: the switch of a replace onto it was cut short after the other members recorded it, before its own label said so; taken as member $L_INDEX ('$PROG replace --finish $L_NAME' writes its label)"
			continue
		fi
		read_label "$L_DEV" >/dev/null 2>&1
		_sl_by=$(label_awk -v k="$L_INDEX" '$INDEX == k {print $DEV; exit}' "$TMPD/set.keep")
		case $_sl_why in
		copying)
			printf '%s
' "$L_DEV: an unfinished copy of member $L_INDEX of array $L_NAME (a replace onto it was cut short): not assembled; '$PROG replace $L_NAME ${_sl_by:-OLD} $L_DEV' starts the copy over, '$PROG wipe $L_DEV' frees it" ;;
		replaced)
			printf '%s
' "$L_DEV: was member $L_INDEX of array $L_NAME until it was replaced${L_REPBY:+ by $L_REPBY}${L_REPAT:+ on $(iso_time "$L_REPAT")}: not assembled; '$PROG wipe $L_DEV' frees it" ;;
		*)
			printf '%s
' "$L_DEV: an older label of member $L_INDEX of array $L_NAME (generation $L_GEN; ${_sl_by:-another device} carries generation ${_sl_why#older }): the member moved on since (a replace); not assembled; '$PROG wipe $L_DEV' frees it" ;;
		esac
	done <"$TMPD/set.sorted" >>"$TMPD/losers.$1"
	# by index, as check_set reads them (a switched copy came last)
	sort -t'|' -k"$LABEL_COL_INDEX,${LABEL_COL_INDEX}n" "$TMPD/set.keep" >"$TMPD/set"
	rm -f "$TMPD/set.keep"
	set_superseded "$1"
	set_tie "$1"
}
# set_switched UUID: the label L_* (state copying) is the member's now: a
# replace's switch wrote the other members' labels, recording this drive
# for the member, and was cut before this one (Documentation/ssdstripe-
# label.rst, "Replacing a member", step 6): the newest labels of array
# UUID are newer than it, mark no replace, and record this device's drive
# for its member
set_switched() {
	local _sw_max _sw_rep
	_sw_max=$(label_awk '{ if ($GEN + 0 > m) m = $GEN + 0 } END { print m + 0 }' "$TMPD/set.keep")
	_sw_rep=$(label_awk -v g="$_sw_max" '$GEN + 0 == g && $REPLACING != "" {print "r"; exit}' "$TMPD/set.keep")
	rec_ident "$1" "$L_INDEX" || return 1
	switched_copy "$L_DEV" "$L_GEN" "$_sw_max" "$_sw_rep"
}
# switched_copy DEV GEN MAXGEN REPLACING: a label of state copying, of
# generation GEN, on DEV is its member's now: the newest labels (of
# generation MAXGEN, REPLACING their replace marker) are newer, mark no
# replace, and record DEV's drive for the member (I_*, which the caller
# sets from them).  The rule of ident_switched_copy (tool/ident.c), which
# replace --finish and create --assume-clean apply in C
switched_copy() {
	[ "$3" -gt "${2:-0}" ] && [ -z "$4" ] && ident_known || return 1
	ident_of "$1" || return 1
	ident_match
}
# set_superseded UUID: take out of $TMPD/set a label of array UUID older
# than the set's newest whose device is not the drive the newest labels
# record for its member: the member moved onto another drive since (a
# replace switched it), and this device holds an older copy of it.  It is
# what keeps a boot that misses the new drive off the old one.  Where the
# newest labels identify no drive (version 1, a device-mapper device
# without a uuid), nothing can be told and the label stays.
set_superseded() {
	local _ss_max _ss_l _ss_by
	_ss_max=$(label_awk '{ if ($GEN + 0 > m) m = $GEN + 0 } END { print m + 0 }' "$TMPD/set")
	: >"$TMPD/set.out"
	cp "$TMPD/set" "$TMPD/set.scan"
	while IFS= read -r _ss_l; do
		label_rec "$_ss_l"
		[ "${L_GEN:-0}" -lt "$_ss_max" ] || continue
		if ! rec_ident "$1" "$L_INDEX" || ! ident_known; then continue; fi
		ident_of "$L_DEV" || ident_none
		ident_match && continue
		ident_words
		printf '%s\n' "$L_DEV" >>"$TMPD/set.out"
		_ss_by=$(label_awk -v k="$L_INDEX" -v d="$L_DEV" '$INDEX == k && $DEV != d {print $DEV; exit}' "$TMPD/set")
		if [ -n "$_ss_by" ]; then
			printf '%s\n' "$L_DEV: an older label of member $L_INDEX of array $L_NAME (generation $L_GEN; $_ss_by is the drive the newest labels record for it): the member moved on since (a replace); not assembled; '$PROG wipe $L_DEV' frees it"
		else
			printf '%s\n' "$L_DEV: an older label of member $L_INDEX of array $L_NAME (generation $L_GEN): the newest labels (generation $_ss_max) record another drive for member $L_INDEX, $IW, which is not here; this device holds an older copy of the member (a replace moved it) and is not assembled.  Keep it until $L_NAME runs again: attach $IW"
		fi >>"$TMPD/losers.$1"
	done <"$TMPD/set.scan"
	[ -s "$TMPD/set.out" ] || return 0
	awk -F'|' 'NR == FNR { out[$0] = 1; next } !($1 in out)' "$TMPD/set.out" "$TMPD/set" >"$TMPD/set.new"
	mv "$TMPD/set.new" "$TMPD/set"
}
# set_tie UUID: two labels of one generation claiming one member of array
# UUID: keep the one on the drive the labels record for it, when exactly
# one is
set_tie() {
	local _st_k _st_ok _st_n _st_d
	for _st_k in $(label_awk '{print $INDEX}' "$TMPD/set" | sort | uniq -d); do
		if ! rec_ident "$1" "$_st_k" || ! ident_known; then continue; fi
		_st_ok='' _st_n=0
		for _st_d in $(label_awk -v k="$_st_k" '$INDEX == k {print $DEV}' "$TMPD/set"); do
			ident_of "$_st_d" && ident_match && { _st_ok=$_st_d; _st_n=$((_st_n + 1)); }
		done
		[ "$_st_n" = 1 ] || continue
		ident_words
		label_awk -v k="$_st_k" -v d="$_st_ok" '$INDEX == k && $DEV != d {print $DEV}' "$TMPD/set" |
		while read -r _st_d; do
			printf '%s
' "$_st_d: carries the label of member $_st_k of array $(label_awk '{print $NAME; exit}' "$TMPD/set"), but its drive is not the one the labels record for member $_st_k ($IW, which is $_st_ok): a copy of the label; not assembled; '$PROG wipe $_st_d' frees it"
		done >>"$TMPD/losers.$1"
		label_awk -v k="$_st_k" -v d="$_st_ok" '$INDEX != k || $DEV == d' "$TMPD/set" >"$TMPD/set.tie"
		mv "$TMPD/set.tie" "$TMPD/set"
	done
}

# missing_members NAME UUID TAG: after check_set found members MISSING of
# array NAME (UUID) absent, a line for each saying "member K (the drive
# its labels record) not found" and TAG (" (incomplete)" from assemble),
# then what to do: reseat it, or replace it; or, when the recorded drive is
# present under another name, that name and what keeps it out.  Only when
# the recorded drive of every missing member is there without a label (or
# with a damaged one) does it name the 'create --assume-clean' that writes
# the labels back.  Reads $TMPD/set, $TMPD/idents and $TMPD/damaged.
missing_members() {
	local _mm_cmd _mm_rest _mm_i _mm_at _mm_u _mm_w _mm_found _mm_n _mm_d _mm_s _mm_why _mm_c _mm_k _mm_count _mm_r
	_mm_cmd=1 _mm_rest=''
	for _mm_i in $MISSING; do
		_mm_at=''
		if ! rec_ident "$2" "$_mm_i"; then
			_mm_u=$(label_awk -v u="$2" '$UUID == u {print $MEMBERS; exit}' "$TMPD/labels" |
				cut -d, -f$((_mm_i + 1)))
			warn "array $1: member $_mm_i (uuid $_mm_u; labels of version 1 record no drive identity) not found$3: reseat it, or replace it"
			_mm_cmd=''
			continue
		fi
		ident_words
		_mm_w=$IW
		if ! ident_known; then
			warn "array $1: member $_mm_i ($_mm_w) not found$3: reseat it, or replace it (nothing recorded identifies it: no other device can be told to be it)"
			_mm_cmd=''
			continue
		fi
		_mm_found=$(ident_find)
		if [ -z "$_mm_found" ]; then
			warn "array $1: member $_mm_i ($_mm_w) not found$3: reseat it, or replace it"
			_mm_cmd=''
			continue
		fi
		for _mm_n in $_mm_found; do
			_mm_d=$(devpath "$_mm_n") || _mm_d=/dev/$_mm_n
			_mm_s="the drive is present as ${_mm_d#/dev/}"
			if _mm_why=$(in_use "$_mm_d"); then
				warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, but in use ($_mm_why)"
				_mm_cmd=''
				continue
			fi
			read_label "$_mm_d"
			case $? in
			0)
				if [ "$L_UUID" = "$2" ] && [ "$L_INDEX" = "$_mm_i" ]; then
					if [ -n "${_as_exact-}" ]; then
						_mm_why="not among the devices given"
					else
						_mm_why="it appeared just now: assemble again"
					fi
					warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, with its label ($_mm_why)"
				else
					warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, but it carries a label of array $L_NAME (member $L_INDEX) now"
				fi
				_mm_cmd='' ;;
			1)
				if _mm_why=$(foreign_signature "$_mm_d"); then
					warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, without its label, and carries $_mm_why now: its data was overwritten?"
					_mm_cmd=''
				else
					warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, without a label"
					_mm_at="$_mm_at $_mm_d"
				fi ;;
			*)
				warn "array $1: member $_mm_i ($_mm_w) not found$3: $_mm_s, its label damaged ($L_ERR)"
				_mm_at="$_mm_at $_mm_d" ;;
			esac
		done
		# one device, no more: else it cannot be said which is the member
		case $_mm_at in
		' '*' '*) _mm_cmd='' ;;
		' '*) _mm_rest="$_mm_rest $_mm_i=${_mm_at# }" ;;
		*) _mm_cmd='' ;;
		esac
	done
	# a damaged label that no recorded identity explains may be a member
	while IFS='|' read -r _mm_d _mm_why; do
		case " $_mm_rest" in *"=$_mm_d "* | *"=$_mm_d") continue ;; esac
		warn "$_mm_d: $_mm_why: it may be member$MISSING of array $1"
	done <"$TMPD/damaged"
	[ -n "$_mm_cmd" ] && [ -n "$_mm_rest" ] || return 0
	# every member in order: the survivors' devices and the found ones
	_mm_c='' _mm_k=0
	_mm_count=$(label_awk -v u="$2" '$UUID == u {print $COUNT; exit}' "$TMPD/labels")
	while [ "$_mm_k" -lt "$_mm_count" ]; do
		_mm_d=$(label_awk -v u="$2" -v k="$_mm_k" '$UUID == u && $INDEX == k {print $DEV; exit}' "$TMPD/set")
		if [ -z "$_mm_d" ]; then
			for _mm_r in $_mm_rest; do
				[ "${_mm_r%%=*}" = "$_mm_k" ] && _mm_d=${_mm_r#*=}
			done
		fi
		[ -n "$_mm_d" ] || return 0
		_mm_c="$_mm_c $_mm_d"
		_mm_k=$((_mm_k + 1))
	done
	warn "array $1: if only the label of member$MISSING was lost (its data is intact), '$PROG create --assume-clean --name $1$_mm_c' writes it back and nothing else"
}

# set_table: the table of the set check_set accepted, members as
# major:minor as dmsetup prints them, so it reads the same live or not
set_table() {
	local _t_l _t_d
	IFS= read -r _t_l <"$TMPD/set"
	label_rec "$_t_l"
	printf '0 %s ssdstripe %s %s' $((L_DATA * L_COUNT)) "$L_COUNT" "$L_CHUNK"
	for _t_d in $ORDERED; do printf ' %s %s' "$(majmin "$_t_d")" "$L_OFFSET"; done
	printf '\n'
}

# refuse_shadowed UUID: say (once per device) why the members of array UUID
# (all of $TMPD/shadowed when UUID is "") that carry another signature are
# not taken
refuse_shadowed() {
	local _rs_l _rs_of
	while IFS= read -r _rs_l; do
		label_rec "$_rs_l"
		[ -z "$1" ] || [ "$L_UUID" = "$1" ] || continue
		once "shadowed $L_DEV" || continue
		if [ -n "$L_NAME" ]; then
			_rs_of="member $L_INDEX of array $L_NAME"
		else
			_rs_of="a damaged ssdstripe label"
		fi
		warn "refusing ${L_DEV#/dev/}: it carries $L_WHAT now, over its old label ($_rs_of): re-used since the array was made? ('$PROG wipe $L_DEV' drops the old label)"
		[ -n "$L_NAME" ] && once "not assembled $L_UUID" && warn "array $L_NAME not assembled"
	done <"$TMPD/shadowed"
	return 0
}
