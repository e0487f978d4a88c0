# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: what every command needs: the configuration path,
# messages, the temporary directory, sizes, names and times.  Sourced by
# the ssdstripe entry script (scripts/ssdstripe) with the other files of
# this directory; POSIX sh, runs under busybox in an initramfs too.

CONF=${SSDSTRIPE_CONF:-/etc/ssdstripe.conf}
export PATH="${PATH:-/usr/sbin:/usr/bin:/sbin:/bin}:/usr/sbin:/usr/bin:/sbin:/bin"

# ---- commands ----------------------------------------------------------
# The commands, in the order 'help' and the man page list them: the one
# list.  The entry script runs only these (cmd_NAME) and prints each one's
# usage from its help_NAME; 'help' lists them with those usage lines; the
# bash completion reads them from 'help'; tests/command-list checks the
# man page's synopsis and command list against it.
COMMANDS='create assemble stop wipe sanitize list table examine status detail iostat clear replace scrub monitor config history'
is_command() {
	case $1 in '' | *[!a-z]*) return 1 ;; esac
	case " $COMMANDS " in *" $1 "*) return 0 ;; esac
	return 1
}
# usage_lines COMMAND: the usage lines of help_COMMAND, one per line
# ("ssdstripe create [--name NAME] ..."), a line indented under one that
# goes on with [ or -- joined to it
usage_lines() {
	"help_$1" | awk -v p="$PROG $1" '
		{ l = $0; sub(/^usage:/, "", l); sub(/^ +/, "", l) }
		l == p || index(l, p " ") == 1 { if (u != "") print u; u = l; next }
		u != "" && /^ +(\[|--)/ { u = u " " l; next }
		{ exit }
		END { if (u != "") print u }'
}

# ---- options -----------------------------------------------------------
# opts HANDLER SPEC ARG...: a command's line, parsed the one way every
# command takes it: options anywhere, -- ends them, - alone is an operand.
# SPEC lists the options as words: --name= takes a value (--name V or
# --name=V), --once is a flag; a word's aliases follow its name after |
# (--force|-f).  For each option HANDLER gets the word's first name and
# its value (a flag gets none); for each operand '' and the operand; in
# the order given.  -h and --help print help_$cmd and exit 0; any other
# word that starts with - is refused (exit 2), and so are an empty value
# and an empty operand (nothing is named '').  What the user gives is
# only ever compared with SPEC's words, never used as a pattern or code.
opts() {
	local _op_h _op_spec _op_a _op_k _op_eq _op_n _op_val _op_w _op_wv _op_r
	_op_h=$1 _op_spec=$2
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		--)
			shift
			for _op_a in "$@"; do
				[ -n "$_op_a" ] || usage_die "an empty argument ('') names nothing"
				"$_op_h" '' "$_op_a"
			done
			return 0 ;;
		-h | --help) "help_$cmd"; exit 0 ;;
		'') usage_die "an empty argument ('') names nothing" ;;
		-?*) ;;
		*) "$_op_h" '' "$1"; shift; continue ;;
		esac
		# --key=value; a short option is one word
		_op_k=$1 _op_eq=''
		case $1 in --?*=*) _op_k=${1%%=*} _op_eq=1 ;; esac
		_op_n='' _op_val=''
		for _op_w in $_op_spec; do
			_op_wv=''
			case $_op_w in *=) _op_w=${_op_w%=} _op_wv=1 ;; esac
			_op_r=$_op_w
			while :; do
				if [ "${_op_r%%|*}" = "$_op_k" ]; then
					_op_n=${_op_w%%|*} _op_val=$_op_wv
					break 2
				fi
				case $_op_r in *'|'*) _op_r=${_op_r#*|} ;; *) break ;; esac
			done
		done
		[ -n "$_op_n" ] || usage_die "unknown option $1"
		if [ -z "$_op_val" ]; then
			[ -z "$_op_eq" ] || usage_die "$_op_k takes no value"
			"$_op_h" "$_op_n"
			shift
		elif [ -n "$_op_eq" ]; then
			[ -n "${1#*=}" ] || usage_die "$_op_k needs a value"
			"$_op_h" "$_op_n" "${1#*=}"
			shift
		else
			if [ $# -lt 2 ] || [ -z "$2" ]; then usage_die "$_op_k needs a value"; fi
			"$_op_h" "$_op_n" "$2"
			shift 2
		fi
	done
}

# ---- messages ----------------------------------------------------------
say() { printf '%s\n' "$*"; }
warn() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { # die CODE MESSAGE
	local _dc
	_dc=$1
	shift
	warn "$*"
	exit "$_dc"
}
# refusal CODE MESSAGE: say one reason a command refuses and go on
# checking (every reason said before anything is written); REFUSE_RC is
# the highest CODE said since the command set it to 0
refusal() {
	warn "$2"
	[ "$1" -gt "$REFUSE_RC" ] && REFUSE_RC=$1
	return 0
}
REFUSE_RC=0
usage_die() { warn "$*"; warn "try '$PROG ${cmd:+$cmd }--help'"; exit 2; }
# plural N WORD: "1 member", "2 members"
plural() { if [ "$1" = 1 ]; then echo "$1 $2"; else echo "$1 ${2}s"; fi; }
# once KEY: true the first time KEY is asked in this run (a message said
# once, not on every pass of a wait loop); needs tmpdir
once() {
	[ -n "$TMPD" ] || return 0
	grep -qxF -e "$1" "$TMPD/once" 2>/dev/null && return 1
	printf '%s\n' "$1" >>"$TMPD/once"
}

TMPD=''
cleanup() { [ -n "$TMPD" ] && rm -rf "$TMPD"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
# Early in boot / is still read-only and /tmp may be on it: fall back to
# /run, which is a tmpfs from the initramfs on.  TMP_DEFAULT is where to
# go without TMPDIR.
TMP_DEFAULT=/tmp
tmpdir() {
	local _tp
	[ -n "$TMPD" ] && return 0
	for _tp in "${TMPDIR:-$TMP_DEFAULT}" /run /tmp /dev/shm; do
		TMPD=$(mktemp -d "$_tp/ssdstripe.XXXXXX" 2>/dev/null) && return 0
	done
	TMPD=''
	die 1 "cannot make a temporary directory (tried ${TMPDIR:-$TMP_DEFAULT}, /run, /tmp, /dev/shm)"
}

# ---- sizes -------------------------------------------------------------
human() { # sectors -> "1.5 GiB"
	awk -v s="$1" 'BEGIN {
		b = s * 512; split("B KiB MiB GiB TiB PiB", u, " "); i = 1
		while (b >= 1024 && i < 6) { b /= 1024; i++ }
		printf (i == 1 ? "%d %s" : "%.1f %s"), b, u[i]
	}'
}
