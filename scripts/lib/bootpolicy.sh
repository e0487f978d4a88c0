# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: boot policy: which arrays boot assembles (the
# configuration's ARRAY, AUTO, BOOT and TIMEOUT, the kernel command line's
# ssdstripe.assemble= and ssdstripe.timeout=), and assemble --boot-late,
# what ssdstripe-assemble.service runs.  The initramfs (assemble --boot)
# and udev (assemble --incremental) ask it too.

# boot_selection: reads $CONF and the kernel command line.  Sets BOOT_SEL
# ("all", "none" or names: what the initramfs assembles), BOOT_TIMEOUT,
# CMDLINE_NONE (1 with ssdstripe.assemble=none: nothing at all at boot),
# CONF_ARRAYS (the ARRAY lines: NAME or uuid=UUID words) and CONF_AUTO
# (yes or no: whether boot assembles the arrays nothing lists)
boot_selection() {
	local _bs_sel _bs_out _bs_l _bs_a
	_bs_sel='' BOOT_TIMEOUT='' CMDLINE_NONE='' CONF_ARRAYS='' CONF_AUTO=''
	# its problems said, with their lines, and boot goes on
	conf_warn_once
	if [ -r "$CONF" ]; then
		# one awk for every key; a # starts a comment anywhere on a line
		_bs_out=$(awk '{sub(/#.*/, "")}
			$1 == "BOOT" {$1 = ""; sub(/^ /, ""); s = s (s ? " " : "") $0}
			$1 == "TIMEOUT" {t = $2}
			$1 == "ARRAY" && NF >= 2 {a = a (a ? " " : "") $2}
			$1 == "AUTO" {u = $2 " " NR}
			END {print "B=" s; print "T=" t; print "A=" a; print "U=" u}' "$CONF")
		while IFS= read -r _bs_l; do
			case $_bs_l in
			B=*) _bs_sel=${_bs_l#B=} ;;
			T=*) BOOT_TIMEOUT=${_bs_l#T=} ;;
			A=*) CONF_ARRAYS=${_bs_l#A=} ;;
			U=*) CONF_AUTO=${_bs_l#U=} ;;
			esac
		done <<EOF
$_bs_out
EOF
	fi
	case $CONF_AUTO in
	'' | 'yes '* | 'no '*) CONF_AUTO=${CONF_AUTO%% *} ;;
	*) CONF_AUTO=yes ;;	# conf_warn_once said so
	esac
	[ -n "$CONF_AUTO" ] || CONF_AUTO=yes
	# shellcheck disable=SC2013 # the command line is one line of words
	for _bs_a in $(cat "${SSDSTRIPE_CMDLINE:-/proc/cmdline}" 2>/dev/null); do
		case $_bs_a in
		ssdstripe.assemble=*)
			_bs_sel=$(echo "${_bs_a#*=}" | tr ',' ' ')
			CMDLINE_NONE=''
			[ "$_bs_sel" = none ] && CMDLINE_NONE=1 ;;
		ssdstripe.timeout=*) BOOT_TIMEOUT=${_bs_a#*=} ;;
		esac
	done
	case $BOOT_TIMEOUT in '' | *[!0-9]*) BOOT_TIMEOUT=30 ;; esac
	BOOT_SEL=${_bs_sel:-all}
	return 0
}

# boot_wanted: the arrays the configuration asks for at boot, as words for
# assemble_found: the ARRAY lines (NAME or uuid=UUID) and the names BOOT
# (or ssdstripe.assemble=) gives the initramfs
boot_wanted() {
	local _bw
	_bw=$CONF_ARRAYS
	case $BOOT_SEL in all | none) ;; *) _bw="$_bw $BOOT_SEL" ;; esac
	echo "$_bw" | tr ' ' '\n' | sed '/^$/d; s/^[Uu][Uu][Ii][Dd]=/uuid=/; s/^name=//' |
		awk '/^uuid=/ {$0 = tolower($0)} !seen[$0]++' | tr '\n' ' '
}

# boot_allowed NAME UUID: may boot-time assembly (--boot-late,
# --incremental) take array NAME (UUID)?  Listed, or AUTO yes.
boot_allowed() {
	local _ba
	[ "$CONF_AUTO" = yes ] && return 0
	for _ba in $(boot_wanted); do
		case $_ba in
		uuid=*) [ "${_ba#uuid=}" = "$2" ] && return 0 ;;
		*) [ "$_ba" = "$1" ] && return 0 ;;
		esac
	done
	return 1
}

# assemble_boot_late TIMEOUT: --boot-late, what ssdstripe-assemble.service
# runs once udev has been told to look at every device: the arrays the
# configuration lists (ARRAY lines, BOOT names), waiting up to TIMEOUT
# seconds for their members; with AUTO yes also every other complete array,
# without waiting (udev's --incremental assembles one whose last member
# comes later).  The exit status is the listed arrays' alone.
assemble_boot_late() {
	local _bl_want _bl_rc _bl_names _bl_did _bl_un _bl_u _bl_n _bl_act
	if [ -n "$CMDLINE_NONE" ]; then
		say "ssdstripe: boot assembly disabled (ssdstripe.assemble=none)"
		return 0
	fi
	_bl_want=$(boot_wanted) _bl_rc=0
	if [ -n "$_bl_want" ]; then
		# shellcheck disable=SC2046 # a list of device paths
		assemble_set "$_bl_want" "$1" $(candidates)
		_bl_rc=$?
	fi
	if [ "$CONF_AUTO" != yes ]; then
		[ -n "$_bl_want" ] || say "ssdstripe: AUTO no and no array listed in $CONF: nothing to assemble"
		return "$_bl_rc"
	fi
	tmpdir
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	_bl_names=$(label_awk '$UUID != "" || $NAME != "" {print $UUID "|" $NAME}' \
		"$TMPD/labels" "$TMPD/shadowed" | sort -u)
	_bl_did=''
	for _bl_un in $_bl_names; do
		_bl_u=${_bl_un%%|*} _bl_n=${_bl_un#*|}
		case " $_bl_want " in *" $_bl_n "* | *" uuid=$_bl_u "*) continue ;; esac
		_bl_did=1
		assemble_found "$_bl_n" ""
		[ $? = 4 ] && say "array $_bl_n is incomplete: udev assembles it when its last member appears ($(missing_words "$_bl_u") not present)"
	done
	if [ -z "$_bl_did" ] && [ -z "$_bl_want" ]; then
		_bl_act=$(active_arrays | tr '\n' ' ')
		say "no inactive arrays found${_bl_act:+; active: ${_bl_act% }}"
	fi
	return "$_bl_rc"
}
