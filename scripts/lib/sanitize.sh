# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe sanitize: erase every member of a stopped array with its
# drive's own erase command (NVMe Sanitize or Format NVM through nvme-cli,
# ATA security erase through hdparm), all members or none.
#
# What a drive supports is read from the controller itself, in the binary
# form the NVMe specification defines (nvme-cli's -b), not from nvme-cli's
# text or JSON, whose names changed between its versions:
#   Identify Controller  OACS (bytes 256-257; bit 1 Format NVM), SANICAP
#                        (328-331; bit 0 crypto erase, bit 1 block erase),
#                        FNA (524; bit 0 a format reaches every namespace,
#                        bit 1 so does a secure erase, bit 2 crypto erase)
#   Identify Namespace   FLBAS (26) and DPS (29): the format in use, which
#                        a Format NVM is given again unchanged
#   Sanitize Status log  SPROG (0-1), SSTAT (2-3; bits 0-2: 1 completed,
#                        2 in progress, 3 failed, 4 completed without
#                        deallocation)
# hdparm -I gives an ATA drive's security state (supported, enabled,
# locked, frozen, enhanced erase).

HDPARM=${SSDSTRIPE_HDPARM:-hdparm}
# the password an ATA security erase sets for the moment of the erase,
# which clears it; named in the message if the erase fails half-way
SZ_ATA_PASS=ssdstripe

help_sanitize() {
	cat <<EOF
usage: $PROG sanitize [--yes] [--force] [--method format|sanitize|ata] NAME

Erase every member of the stopped array NAME with its drive's own erase
command: the array's data, its labels and everything else on those drives
are gone for good.  For drives that leave (decommissioning, return, sale).
The members are found by their labels, as assemble finds them.  Each
drive's method is chosen from what the drive says it supports, crypto
erase first:
  NVMe  Sanitize crypto erase, Format NVM crypto erase, Sanitize block
        erase, Format NVM user data erase (nvme-cli: nvme sanitize,
        nvme format --ses)
  SATA  ATA enhanced security erase, else security erase (hdparm)
  --method format|sanitize|ata   only that command (its best action)

Nothing is erased unless every member can be; refused (exit 3), each
member named with what its drive supports:
  - the array is active (stop it first); a member is mounted, swap, held,
    or open by a process (a virtual machine's disk, a copy running);
  - a member is missing: --force erases the members present (the missing
    one keeps its data and its label);
  - a member is a partition, a dm, loop or md device, or a drive with no
    erase command (or not the one --method asks for);
  - a SATA drive whose security is frozen (suspend and resume the machine,
    or unplug and replug the drive), locked or enabled (a password set);
  - an NVMe drive whose erase would reach other namespaces (Sanitize acts
    on the whole drive; Format NVM too where the drive says so);
  - a member that carries another signature now (re-used).
Before erasing, a line per member: device, model, serial, method.  Without
--yes the array's name must be typed on the terminal (/dev/tty, else a
standard input that is one); no terminal, or another answer, refuses.
After: each drive's label block is read back (it must be gone) and its
first and last MiB are reported (zeros, or not: a crypto erase leaves
unreadable data); the history keeps a line per member.
Exit: 0 erased, 1 an erase or its check failed, 2 usage, 3 refused
(nothing erased), 4 no array of that name.
EOF
}

# sz_le FILE OFFSET LENGTH: the little-endian number at OFFSET of FILE
sz_le() {
	od -A n -t u1 -j "$2" -N "$3" "$1" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
		END { v = 0; for (i = n - 1; i >= 0; i--) v = v * 256 + b[i]; print v }'
}

# sz_method_words METHOD: how a method is named to the administrator
sz_method_words() {
	case $1 in
	sanitize-crypto) echo "NVMe Sanitize, crypto erase (nvme sanitize --sanact=4)" ;;
	sanitize-block) echo "NVMe Sanitize, block erase (nvme sanitize --sanact=2)" ;;
	format-crypto) echo "NVMe Format NVM, crypto erase (nvme format --ses=2)" ;;
	format-user) echo "NVMe Format NVM, user data erase (nvme format --ses=1)" ;;
	ata-enhanced) echo "ATA enhanced security erase (hdparm --security-erase-enhanced)" ;;
	ata) echo "ATA security erase (hdparm --security-erase)" ;;
	esac
}

# sz_plan DEV WANT: the erase for member DEV (WANT: the --method, or ""):
# SZ_M the method (sz_method_words), SZ_ARGS its extra arguments, SZ_CAN
# what the drive supports in words; false with SZ_NO saying why DEV
# cannot be erased
sz_plan() {
	SZ_M='' SZ_ARGS='' SZ_CAN='' SZ_NO=''
	ident_of "$1" || ident_none
	if [ -n "$D_PART" ]; then
		SZ_NO="a partition (number $D_PART): a drive's erase command erases the whole drive, not one partition ('$PROG wipe' removes the label only)"
		return 1
	fi
	case $D_TYPE in
	nvme) sz_plan_nvme "$1" "$2" ;;
	scsi) sz_plan_ata "$1" "$2" ;;
	dm) SZ_NO="a device-mapper device: no drive's erase command reaches through it"; return 1 ;;
	loop) SZ_NO="a loop device: no drive's erase command reaches through it"; return 1 ;;
	md) SZ_NO="an md device: no drive's erase command reaches through it"; return 1 ;;
	*) SZ_NO="not an NVMe or SATA drive: no erase command known for it"; return 1 ;;
	esac
}

# sz_identify WHAT DEV FILE NAME: nvme-cli's binary Identify WHAT (id-ctrl,
# id-ns) of DEV in FILE; false, SZ_NO saying why, when the drive gives no
# whole 4 KiB answer
sz_identify() {
	local _sy_e
	if ! _sy_e=$("$NVME_CLI" "$1" "$2" -b 2>&1 >"$3" </dev/null) || [ "$(wc -c <"$3")" -lt 4096 ]; then
		SZ_NO="the drive does not answer Identify $4 (nvme $1: $(printf '%s' "$_sy_e" | tail -n 1))"
		return 1
	fi
}
# sz_plan_nvme DEV WANT: sz_plan for an NVMe namespace
sz_plan_nvme() {
	local _sn_f _sn_oacs _sn_sani _sn_fna _sn_fmt _sn_fc _sn_sc _sn_sb _sn_s _sn_fw _sn_ns _sn_whole _sn_why _sn_m _sn_all _sn_n _sn_flbas _sn_dps _sn_multi
	if ! command -v "$NVME_CLI" >/dev/null 2>&1; then
		SZ_NO="nvme-cli ($NVME_CLI) is not installed: it asks the drive what it supports and erases it"
		return 1
	fi
	# a fabric's namespace is the storage host's drive, which other hosts
	# may use: erased there, not from here
	if fabric_ctrl_of "$(sysdir "$1")" && read_attr "$V/transport" && [ "$V" != pcie ]; then
		SZ_NO="the namespace is reached over NVMe/$V (a fabric): an erase would act on the storage host's drive, which other hosts may use; erase it on the storage host"
		return 1
	fi
	_sn_f=$TMPD/id-ctrl.${1##*/}
	sz_identify id-ctrl "$1" "$_sn_f" Controller || return 1
	# CMIC bit 1: the NVM subsystem has more than one controller (another
	# port or host may see namespaces this one does not list)
	_sn_multi=$(($(sz_le "$_sn_f" 76 1) >> 1 & 1))
	_sn_oacs=$(sz_le "$_sn_f" 256 2)
	_sn_sani=$(sz_le "$_sn_f" 328 4)
	_sn_fna=$(sz_le "$_sn_f" 524 1)
	_sn_fmt=$((_sn_oacs >> 1 & 1))
	_sn_fc=$((_sn_fna >> 2 & 1))
	_sn_sc=$((_sn_sani & 1))
	_sn_sb=$((_sn_sani >> 1 & 1))
	_sn_s='' _sn_fw=''
	[ "$_sn_sc" = 1 ] && _sn_s="crypto erase"
	[ "$_sn_sb" = 1 ] && _sn_s="${_sn_s:+$_sn_s, }block erase"
	[ "$_sn_fmt" = 1 ] && _sn_fw="user data erase"
	[ "$_sn_fmt$_sn_fc" = 11 ] && _sn_fw="$_sn_fw, crypto erase"
	SZ_CAN=''
	[ -n "$_sn_s" ] && SZ_CAN="Sanitize ($_sn_s)"
	[ -n "$_sn_fw" ] && SZ_CAN="${SZ_CAN:+$SZ_CAN, }Format NVM ($_sn_fw)"
	[ -n "$SZ_CAN" ] || SZ_CAN="neither Sanitize nor Format NVM"
	# other namespaces on the drive: Sanitize always reaches them, a
	# format or secure erase where FNA says so.  --all: the allocated
	# ones, attached to this controller or not (without it, a namespace
	# detached from this host, or attached to another, goes uncounted)
	_sn_ns=$("$NVME_CLI" list-ns --all "$1" 2>/dev/null </dev/null | grep -c '^ *\[') || _sn_ns=''
	case $_sn_ns in '' | *[!0-9]* | 0) _sn_ns='?' ;; esac
	_sn_whole=''
	[ "$_sn_ns" = 1 ] && _sn_whole=1
	_sn_why=''
	for _sn_m in sanitize-crypto format-crypto sanitize-block format-user; do
		case $2 in '' | "${_sn_m%%-*}") ;; *) continue ;; esac
		case $_sn_m in
		sanitize-crypto) [ "$_sn_sc" = 1 ] || continue ;;
		sanitize-block) [ "$_sn_sb" = 1 ] || continue ;;
		format-crypto) [ "$_sn_fmt$_sn_fc" = 11 ] || continue ;;
		format-user) [ "$_sn_fmt" = 1 ] || continue ;;
		esac
		case $_sn_m in
		sanitize-*) _sn_all=1 ;;
		*) _sn_all=$((_sn_fna & 3)) ;;
		esac
		if [ "$_sn_all" != 0 ] && [ "$_sn_multi" = 1 ]; then
			_sn_why="the drive's NVM subsystem has more than one controller (CMIC), and $(sz_method_words "$_sn_m") would reach namespaces another port or host sees"
			continue
		fi
		if [ "$_sn_all" != 0 ] && [ -z "$_sn_whole" ]; then
			if [ "$_sn_ns" = "?" ]; then
				_sn_why="its namespaces cannot be listed (nvme list-ns), and $(sz_method_words "$_sn_m") would erase all of them"
			else
				_sn_why="the drive has $_sn_ns namespaces, and $(sz_method_words "$_sn_m") would erase all of them"
			fi
			continue
		fi
		SZ_M=$_sn_m
		break
	done
	if [ -z "$SZ_M" ]; then
		if [ -n "$_sn_why" ]; then
			SZ_NO=$_sn_why
		elif [ -n "$2" ]; then
			SZ_NO="--method $2 asked, and the drive supports $SZ_CAN"
		else
			SZ_NO="the drive supports no erase command (OACS: no Format NVM; SANICAP: no Sanitize)"
		fi
		return 1
	fi
	case $SZ_M in
	format-*)
		# the format in use, given again: a format changes nothing else
		_sn_n=$TMPD/id-ns.${1##*/}
		sz_identify id-ns "$1" "$_sn_n" Namespace || return 1
		_sn_flbas=$(sz_le "$_sn_n" 26 1)
		_sn_dps=$(sz_le "$_sn_n" 29 1)
		SZ_ARGS="--lbaf=$(((_sn_flbas & 15) + (_sn_flbas >> 5 & 3) * 16)) --ms=$((_sn_flbas >> 4 & 1)) --pi=$((_sn_dps & 7)) --pil=$((_sn_dps >> 3 & 1))" ;;
	esac
	return 0
}

# sz_plan_ata DEV WANT: sz_plan for a SCSI disk, which must be an ATA drive
sz_plan_ata() {
	local _sa_s _sa_sec _sa_sup _sa_en _sa_lock _sa_frz _sa_enh _sa_l
	_sa_s=$(sysdir "$1")
	read_attr "$_sa_s/device/vendor"
	trim
	if [ "$V" != ATA ]; then
		SZ_NO="a SCSI disk (vendor ${V:-unknown}) that is no ATA drive: no erase command known for it (a SAS drive: sg_sanitize, from sg3_utils)"
		return 1
	fi
	case $2 in '' | ata) ;; *) SZ_NO="--method $2 asked, and an ATA drive supports ATA security erase only"; return 1 ;; esac
	if ! command -v "$HDPARM" >/dev/null 2>&1; then
		SZ_NO="hdparm ($HDPARM) is not installed: it asks the drive what it supports and erases it"
		return 1
	fi
	# the Security section of hdparm -I, a state a line ("not frozen")
	_sa_sec=$("$HDPARM" -I "$1" 2>/dev/null </dev/null | awk '
		/^Security:/ { s = 1; next }
		s && /^[^ \t]/ { exit }
		s { gsub(/[ \t]+/, " "); sub(/^ /, ""); sub(/ $/, ""); print }')
	_sa_sup='' _sa_en='' _sa_lock='' _sa_frz='' _sa_enh=''
	while IFS= read -r _sa_l; do
		case $_sa_l in
		supported) _sa_sup=1 ;;
		enabled) _sa_en=1 ;;
		locked) _sa_lock=1 ;;
		frozen) _sa_frz=1 ;;
		'supported: enhanced erase') _sa_enh=1 ;;
		esac
	done <<EOF
$_sa_sec
EOF
	if [ -z "$_sa_sup" ]; then
		SZ_CAN="no ATA security feature set"
		SZ_NO="the drive supports no erase command (hdparm -I shows no supported ATA security)"
		return 1
	fi
	SZ_CAN="ATA security erase${_sa_enh:+ (enhanced too)}"
	if [ -n "$_sa_frz" ]; then
		SZ_NO="its security is frozen (the firmware took no security command since power-on, most BIOSes freeze it): suspend and resume the machine (systemctl suspend), or unplug and replug the drive, then try again; 'hdparm -I $1' shows 'not frozen' then"
		return 1
	fi
	if [ -n "$_sa_lock" ]; then
		SZ_NO="it is locked by a password: unlock it first (hdparm --security-unlock PASSWORD $1)"
		return 1
	fi
	if [ -n "$_sa_en" ]; then
		SZ_NO="its security is enabled (a user password is set): disable it first (hdparm --security-disable PASSWORD $1)"
		return 1
	fi
	SZ_M=ata
	[ -n "$_sa_enh" ] && SZ_M=ata-enhanced
	return 0
}

# sz_erase DEV METHOD ARGS: run the erase, its tool's output on stderr
# prefixed; false when it failed (SZ_ERR says how)
sz_erase() {
	local _se_ses _se_o _se_a _se_e
	SZ_ERR=''
	case $2 in
	format-*)
		_se_ses=1
		[ "$2" = format-crypto ] && _se_ses=2
		# shellcheck disable=SC2086 # the format arguments are words
		_se_o=$("$NVME_CLI" format "$1" --ses=$_se_ses $3 --force 2>&1 </dev/null) || {
			SZ_ERR="nvme format failed: $(printf '%s' "$_se_o" | tail -n 1)"
			return 1
		} ;;
	sanitize-*)
		_se_a=2
		[ "$2" = sanitize-crypto ] && _se_a=4
		_se_o=$("$NVME_CLI" sanitize "$1" --sanact=$_se_a 2>&1 </dev/null) || {
			SZ_ERR="nvme sanitize failed: $(printf '%s' "$_se_o" | tail -n 1)"
			return 1
		}
		sz_sanitize_wait "$1" || return 1 ;;
	ata*)
		_se_e=--security-erase
		[ "$2" = ata-enhanced ] && _se_e=--security-erase-enhanced
		# from the password on, an interrupt waits for the erase: a drive
		# left with the password set is locked at its next power-up
		trap '' INT TERM
		_se_o=$("$HDPARM" --user-master u --security-set-pass "$SZ_ATA_PASS" "$1" 2>&1 </dev/null) || {
			trap 'exit 130' INT TERM
			SZ_ERR="hdparm --security-set-pass failed: $(printf '%s' "$_se_o" | tail -n 1)"
			return 1
		}
		_se_o=$("$HDPARM" --user-master u "$_se_e" "$SZ_ATA_PASS" "$1" 2>&1 </dev/null) || {
			trap 'exit 130' INT TERM
			SZ_ERR="hdparm $_se_e failed: $(printf '%s' "$_se_o" | tail -n 1); the drive keeps the password '$SZ_ATA_PASS' set for the erase: 'hdparm --user-master u --security-disable $SZ_ATA_PASS $1' removes it"
			return 1
		}
		trap 'exit 130' INT TERM ;;
	esac
	return 0
}

# sz_sanitize_wait DEV: wait for the sanitize DEV's drive runs to end,
# saying how far it is every minute; false when it failed
sz_sanitize_wait() {
	local _sw_f _sw_t0 _sw_said _sw_st _sw_now
	_sw_f=$TMPD/sanitize-log.${1##*/}
	_sw_t0=$(date +%s) _sw_said=$_sw_t0
	while :; do
		if ! "$NVME_CLI" sanitize-log "$1" -b >"$_sw_f" 2>/dev/null </dev/null || [ "$(wc -c <"$_sw_f")" -lt 4 ]; then
			SZ_ERR="the Sanitize Status log cannot be read (nvme sanitize-log): whether the sanitize finished is unknown"
			return 1
		fi
		_sw_st=$(($(sz_le "$_sw_f" 2 2) & 7))
		case $_sw_st in
		1 | 4) return 0 ;;
		2) ;;
		3) SZ_ERR="the drive reports the sanitize failed (Sanitize Status log); it stays in sanitize failure mode until a sanitize completes: 'nvme sanitize $1 --sanact=N' with the action that failed (2 block erase, 4 crypto erase) starts one"; return 1 ;;
		*) SZ_ERR="the drive reports no sanitize (Sanitize Status log status $_sw_st)"; return 1 ;;
		esac
		_sw_now=$(date +%s)
		if [ $((_sw_now - _sw_said)) -ge 60 ]; then
			say "  ${1#/dev/}: sanitize $(($(sz_le "$_sw_f" 0 2) * 100 / 65536))% done after $(((_sw_now - _sw_t0) / 60)) min (the drive goes on after an interruption or a power loss)"
			_sw_said=$_sw_now
		fi
		sleep 2
	done
}

# sz_mib DEV START: what the MiB at sector START of DEV reads as: zeros,
# ones (0xff), or data
sz_mib() {
	local _sm
	_sm=$(dd if="$1" bs=512 skip="$2" count=2048 2>/dev/null | od -A n -t x1 -v |
		awk '{ for (i = 1; i <= NF; i++) c[$i]++ } END { n = 0; for (k in c) { n++; b = k } print (n == 1 ? b : "mixed") }')
	case $_sm in
	00) echo zeros ;;
	ff) echo "ones (0xff)" ;;
	*) echo "not zeros" ;;
	esac
}

# sz_openers DEV: prints the processes that hold DEV or one of its
# partitions open ("pid 123 (qemu-system-x86)"), and is false when none
# does: a device open elsewhere (a virtual machine's disk, a copy running)
# shows in no holder or mount.  One ls for every process's descriptors.
sz_openers() {
	local _so_s _so_n _so_p _so
	_so_s=$(sysdir "$1") || return 1
	_so_n=${_so_s##*/}
	# shellcheck disable=SC2012 # ls -l shows where each descriptor leads; /proc's names are numbers
	_so_p=$(ls -l /proc/[0-9]*/fd/ 2>/dev/null | awk -v n="$_so_n" -v me="$$" '
		/^\/proc\/[0-9]+\/fd\/?:$/ { split($0, a, "/"); pid = a[3]; next }
		pid != me && / -> \/dev\// {
			t = $NF; sub(/^\/dev\//, "", t)
			if ((t == n || (index(t, n) == 1 && substr(t, length(n) + 1) ~ /^p?[0-9]+$/)) && !seen[pid]++) print pid
		}')
	[ -n "$_so_p" ] || return 1
	for _so in $_so_p; do
		read_attr "/proc/$_so/comm"
		printf 'pid %s (%s) ' "$_so" "$V"
	done
	echo
}

# sz_confirm NAME: the name typed on the terminal must be NAME
# (SSDSTRIPE_TTY names a file to read the answer from instead: tests)
sz_confirm() {
	local _sc_t _sc_a
	_sc_t=${SSDSTRIPE_TTY:-}
	if [ -z "$_sc_t" ]; then
		if true 2>/dev/null </dev/tty; then
			_sc_t=/dev/tty
		elif [ -t 0 ]; then
			_sc_t=/dev/stdin
		else
			die 3 "sanitize refused: no terminal to type the array's name on (neither /dev/tty nor standard input); '$PROG sanitize --yes $1' confirms on the command line.  Nothing was erased"
		fi
	fi
	printf '%s' "Every member listed above will be erased for good.  Type the array's name ($1) to go on: " >&2
	_sc_a=''
	IFS= read -r _sc_a <"$_sc_t" || :
	[ "$_sc_a" = "$1" ] ||
		die 3 "sanitize refused: '$_sc_a' is not $1.  Nothing was erased"
}

# sz_recheck NAME UUID PLAN: right before the first erase, each member of
# PLAN ("K DEV ..." lines) is still member K of array UUID, not active, not
# in use and not open; else nothing is erased
sz_recheck() {
	local _rc_k _rc_d _rc_why
	_rc_why=$(active_name_of_uuid "$2")
	[ -z "$_rc_why" ] ||
		die 3 "sanitize refused: array $1 became active (/dev/mapper/$_rc_why) since the list above.  Nothing was erased"
	while read -r _rc_k _rc_d _; do
		[ -n "$_rc_k" ] || continue
		if ! read_label "$_rc_d" || [ "$L_UUID" != "$2" ] || [ "$L_INDEX" != "$_rc_k" ]; then
			die 3 "sanitize refused: $_rc_d is no longer member $_rc_k of $1 (a device renamed since the list above?).  Nothing was erased"
		fi
		if _rc_why=$(in_use "$_rc_d") || _rc_why=$(sz_openers "$_rc_d"); then
			die 3 "sanitize refused: member $_rc_k, $_rc_d, is in use since the list above (${_rc_why% }).  Nothing was erased"
		fi
	done <<EOF
$3
EOF
}

# sz_recheck_one NAME UUID K DEV IDENT: right before member K's own erase
# (another may have taken hours): DEV is still member K of array UUID, the
# same drive as when the plan was listed (IDENT, its identity line then),
# the array not active, DEV not in use nor open; else, saying why, false
# and DEV is not erased
sz_recheck_one() {
	local _r1_why
	_r1_why=$(active_name_of_uuid "$2")
	if [ -n "$_r1_why" ]; then
		warn "member $3, $4: not erased: array $1 became active (/dev/mapper/$_r1_why) since the erase began"
		return 1
	fi
	if ! read_label "$4" || [ "$L_UUID" != "$2" ] || [ "$L_INDEX" != "$3" ]; then
		warn "member $3, $4: not erased: it is no longer member $3 of $1 (a device renamed since the list above?)"
		return 1
	fi
	ident_of "$4" || ident_none
	if [ "$(ident_line)" != "$5" ]; then
		warn "member $3, $4: not erased: it is not the drive it was when the list above was made (now $(ident_words D; echo "$IW"))"
		return 1
	fi
	if _r1_why=$(in_use "$4") || _r1_why=$(sz_openers "$4"); then
		warn "member $3, $4: not erased: it is in use since the list above (${_r1_why% })"
		return 1
	fi
	return 0
}

opt_sanitize() {
	case $1 in
	--yes) _sz_yes=1 ;;
	--force) _sz_force=1 ;;
	--method) _sz_method=$2 ;;
	'') _sz_args="$_sz_args $2" ;;
	esac
}
cmd_sanitize() {
	local _sz_name _sz_u _sz_act _sz_c _sz_w _sz_no _sz_plan _sz_l _sz_d _sz_k _sz_why _sz_m _sz_rc _sz_n _sz_a _sz_ser _sz_mw _sz_sz _sz_first _sz_last _sz_read
	_sz_yes='' _sz_force='' _sz_method='' _sz_args=''
	opts opt_sanitize '--yes|-y --force|-f --method=' "$@"
	case $_sz_method in
	'' | format | sanitize | ata) ;;
	*) usage_die "unknown method '$_sz_method' (format, sanitize or ata)" ;;
	esac
	# the operands as given: a * in one is no glob
	set -f
	# shellcheck disable=SC2086 # the operands
	set -- $_sz_args
	set +f
	[ $# -ge 1 ] || usage_die "sanitize needs an array name"
	[ $# = 1 ] || usage_die "sanitize takes one array name"
	_sz_name=$1
	valid_name "$_sz_name" || usage_die "invalid array name '$_sz_name'"
	tmpdir
	find_blkid
	# the members of an active array are held: no scan would see them
	if is_array "$_sz_name"; then
		die 3 "sanitize refused: array $_sz_name is active (/dev/mapper/$_sz_name): stop it first ('$PROG stop $_sz_name').  Nothing was erased"
	fi
	# udev probes a device for a moment after each change (a stop, a dm
	# device removed): let it finish, or its open would refuse a member
	command -v udevadm >/dev/null 2>&1 && udevadm settle --timeout=10 >/dev/null 2>&1
	# shellcheck disable=SC2046 # a list of device paths
	collect $(candidates)
	_sz_u=$(label_awk -v n="$_sz_name" '$NAME == n && $UUID != "" {print $UUID}' \
		"$TMPD/labels" "$TMPD/shadowed" | sort -u)
	[ -n "$_sz_u" ] || die 4 "no member of array $_sz_name found (no label names it)"
	[ "$(echo "$_sz_u" | wc -l)" = 1 ] ||
		die 3 "two different arrays are called $_sz_name ($(echo "$_sz_u" | tr '\n' ' ')): sanitize refused.  Nothing was erased"
	_sz_act=$(active_name_of_uuid "$_sz_u")
	[ -z "$_sz_act" ] ||
		die 3 "sanitize refused: array $_sz_name is active as /dev/mapper/$_sz_act: stop it first.  Nothing was erased"
	if has_shadowed "$_sz_u"; then
		refuse_shadowed "$_sz_u"
		die 3 "sanitize of $_sz_name refused: a member was re-used since the array was made.  Nothing was erased"
	fi
	check_set "$_sz_u" 2>"$TMPD/why"
	_sz_c=$?
	while IFS= read -r _sz_w; do
		warn "$_sz_w; not erased"
	done <"$TMPD/losers.$_sz_u"
	case $_sz_c in
	0) ;;
	4)
		if [ -z "$_sz_force" ]; then
			# what keeps each out; not how to write a label back (the
			# data is not wanted, and may be erased already)
			missing_members "$_sz_name" "$_sz_u" "" 2>&1 | grep -v "' writes it back and nothing else$" >&2
			die 3 "sanitize of $_sz_name refused: $(missing_words "$_sz_u") missing (--force erases the members present).  Nothing was erased"
		fi
		warn "array $_sz_name: $(missing_words "$_sz_u") missing: not erased (--force)" ;;
	*)
		cat "$TMPD/why" >&2
		die 3 "sanitize of $_sz_name refused.  Nothing was erased" ;;
	esac
	# every member checked and planned before any is written
	_sz_no='' _sz_plan=''
	while IFS= read -r _sz_l; do
		label_rec "$_sz_l"
		_sz_d=$L_DEV _sz_k=$L_INDEX
		if _sz_why=$(in_use "$_sz_d"); then
			warn "member $_sz_k, $_sz_d: in use ($_sz_why)"
			_sz_no=1
			continue
		fi
		if _sz_why=$(sz_openers "$_sz_d"); then
			warn "member $_sz_k, $_sz_d: in use: open by ${_sz_why% } (end it first)"
			_sz_no=1
			continue
		fi
		if sz_plan "$_sz_d" "$_sz_method"; then
			_sz_plan="$_sz_plan$_sz_k $_sz_d $SZ_M $SZ_ARGS$NL"
		else
			ident_words D
			warn "member $_sz_k, $_sz_d ($IW): cannot be erased: $SZ_NO"
			_sz_no=1
		fi
	done <"$TMPD/set"
	[ -z "$_sz_no" ] || die 3 "sanitize of $_sz_name refused: every member must be erasable.  Nothing was erased"
	say "array $_sz_name ($_sz_u): erasing with each drive's own command:"
	while read -r _sz_k _sz_d _sz_m _; do
		[ -n "$_sz_k" ] || continue
		ident_of "$_sz_d" || ident_none
		# the drive as listed: each member is checked against it again
		# right before its own erase
		ident_line >"$TMPD/sz-ident.$_sz_k"
		ident_words D
		say "  member $_sz_k: $_sz_d ($IW): $(sz_method_words "$_sz_m")"
	done <<EOF
$_sz_plan
EOF
	[ -n "$_sz_yes" ] || sz_confirm "$_sz_name"
	# the answer may have taken a while: udev may have assembled the
	# array since, a process opened a member, a name moved to another
	# disk.  Checked again, every member, before the first erase.
	sz_recheck "$_sz_name" "$_sz_u" "$_sz_plan"
	_sz_rc=0 _sz_n=0
	while read -r _sz_k _sz_d _sz_m _sz_a; do
		[ -n "$_sz_k" ] || continue
		if ! sz_recheck_one "$_sz_name" "$_sz_u" "$_sz_k" "$_sz_d" "$(cat "$TMPD/sz-ident.$_sz_k")"; then
			_sz_rc=1
			continue
		fi
		ident_of "$_sz_d" || ident_none
		_sz_ser=$D_SERIAL
		_sz_mw=$(sz_method_words "$_sz_m")
		say "member $_sz_k: erasing $_sz_d: ${_sz_mw%% (*}"
		if ! sz_erase "$_sz_d" "$_sz_m" "$_sz_a"; then
			warn "member $_sz_k, $_sz_d: $SZ_ERR"
			history_add sanitize-failed "$_sz_name" "$_sz_u" "$_sz_k" "$_sz_ser" "${_sz_d#/dev/}: ${_sz_mw%% (*}: $SZ_ERR (${HIST_CMD:-})"
			_sz_rc=1
			continue
		fi
		# read it back from the drive, not from the page cache
		command -v blockdev >/dev/null 2>&1 && blockdev --flushbufs "$_sz_d" 2>/dev/null
		if label_magic "$_sz_d"; then
			SZ_ERR="its label is still there after the erase: the drive did not erase (yet)"
			warn "member $_sz_k, $_sz_d: $SZ_ERR"
			history_add sanitize-failed "$_sz_name" "$_sz_u" "$_sz_k" "$_sz_ser" "${_sz_d#/dev/}: ${_sz_mw%% (*}: $SZ_ERR (${HIST_CMD:-})"
			_sz_rc=1
			continue
		fi
		_sz_sz=$(devsize "$_sz_d")
		_sz_first=$(sz_mib "$_sz_d" 0)
		_sz_last=$(sz_mib "$_sz_d" $((_sz_sz - 2048)))
		if [ "$_sz_first" = "$_sz_last" ]; then
			_sz_read="first and last MiB read as $_sz_first"
		else
			_sz_read="first MiB reads as $_sz_first, last MiB as $_sz_last"
		fi
		say "member $_sz_k: $_sz_d erased: label gone, $_sz_read"
		_sz_n=$((_sz_n + 1))
		history_add sanitized "$_sz_name" "$_sz_u" "$_sz_k" "$_sz_ser" "${_sz_d#/dev/}: ${_sz_mw%% (*}; label gone, $_sz_read (${HIST_CMD:-})"
	done <<EOF
$_sz_plan
EOF
	if [ "$_sz_rc" = 0 ]; then
		say "array $_sz_name: $(plural "$_sz_n" member) erased${MISSING:+ ($(missing_words "$_sz_u") missing, not erased)}"
	else
		warn "array $_sz_name: $(plural "$_sz_n" member) erased, not every one (see above); the array's data is lost all the same once one member is erased: '$PROG sanitize --force $_sz_name' erases the rest"
	fi
	return "$_sz_rc"
}
