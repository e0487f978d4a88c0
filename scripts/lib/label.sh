# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: the on-disk label (Documentation/ssdstripe-label.rst):
# reading and checking one.

MAGIC=SSDSTRIPE-LABEL
LABEL_VERSION=2			# what this tool writes (tool/label.h)
LABEL_READS='1 and 2'		# the versions it reads
LABEL_BLOCK=4096		# bytes; the label is the second 4 KiB block

# ---- label -------------------------------------------------------------
# label_text DEV: the label block without its NUL padding (empty if none)
label_text() {
	dd if="$1" bs=$LABEL_BLOCK skip=1 count=1 2>/dev/null | tr -d '\000'
}
sha256() { sha256sum | cut -d' ' -f1; }

# The label's fields, in the order of its text: KEY=value in the label,
# L_NAME-style variable in the tool.  read_label sets them (the tool's C
# part, tool/label.c, writes labels).  Version 2 added
# generation (GEN; 0 for a version 1 label) and, after the keys, one
# drive.K line per member K: the identity of its drive (ident.sh), which
# read_label gives as L_DRIVES, a "K=identity" line per member.
LABEL_KEYS='array_uuid:UUID name:NAME member_uuid:MEMBER index:INDEX count:COUNT
chunk_sectors:CHUNK data_offset:OFFSET data_sectors:DATA members:MEMBERS
created:CREATED generation:GEN state:STATE replacing:REPLACING
replaced_by:REPBY replaced_at:REPAT overprovision:OP'
# The keys a label carries only when they say something (replace): state
# (copying: an unfinished copy of the member, not assembled unless the
# newer labels record its drive: a switch cut short; replaced:
# a retired member, never assembled), replacing (the index of the member
# a replace is copying), replaced_by and replaced_at (on a retired one);
# overprovision (create --overprovision: the percentage of each member
# kept spare past its data, which data_sectors already leaves out; a tool
# that does not know the key assembles the array all the same).
# the fields' variables, empty until a label is read (read_label and
# label_rec set them by name, which shellcheck cannot follow)
# shellcheck disable=SC2034 # some are read only as fields of label records (awk)
L_UUID='' L_NAME='' L_MEMBER='' L_INDEX='' L_COUNT='' L_CHUNK='' L_OFFSET='' \
	L_DATA='' L_MEMBERS='' L_CREATED='' L_GEN='' L_STATE='' L_REPLACING='' \
	L_REPBY='' L_REPAT='' L_OP=''

# read_label DEV: sets L_* (and L_VERSION, L_DRIVES) from DEV's label.
# Returns 0 valid, 1 no label, 2 damaged (L_ERR says why), 3 unsupported
# version.
# shellcheck disable=SC2034 # L_ERR is the caller's (tests/label/run)
read_label() {
	local _rl_first _rl_body _rl_sum _rl_kv _rl_seen _rl_l _rl_k _rl_n _rl_i
	L_ERR='' L_TEXT='' L_VERSION='' L_DRIVES=''
	L_TEXT=$(label_text "$1") || return 1
	_rl_first=${L_TEXT%%"$NL"*}
	case $_rl_first in
	"$MAGIC 1" | "$MAGIC 2") L_VERSION=${_rl_first#"$MAGIC "} ;;
	"$MAGIC "*) L_ERR="label version ${_rl_first#"$MAGIC "} (this tool reads $LABEL_READS)"; return 3 ;;
	*) return 1 ;;
	esac
	_rl_body=$(printf '%s\n' "$L_TEXT" | sed '/^checksum=/,$d')
	_rl_sum=$(printf '%s\n' "$L_TEXT" | sed -n 's/^checksum=sha256://p')
	if [ -z "$_rl_sum" ] || [ "$(printf '%s\n' "$_rl_body" | sha256)" != "$_rl_sum" ]; then
		L_ERR="label checksum mismatch (damaged label)"
		return 2
	fi
	# every field in one pass, in the shell: a KEY's first line counts
	for _rl_kv in $LABEL_KEYS; do eval "L_${_rl_kv#*:}=''"; done
	_rl_seen=' '
	while IFS= read -r _rl_l; do
		_rl_k=${_rl_l%%=*}
		case $_rl_l in *=*) ;; *) continue ;; esac
		case $_rl_seen in *" $_rl_k "*) continue ;; esac
		case $_rl_k in
		drive.*)
			_rl_i=${_rl_k#drive.}
			case $_rl_i in '' | *[!0-9]* | 0?*) continue ;; esac
			L_DRIVES="$L_DRIVES$_rl_i=${_rl_l#*=}$NL"
			_rl_seen="$_rl_seen$_rl_k "
			continue ;;
		esac
		for _rl_kv in $LABEL_KEYS; do
			[ "${_rl_kv%%:*}" = "$_rl_k" ] || continue
			eval "L_${_rl_kv#*:}=\${_rl_l#*=}"
			_rl_seen="$_rl_seen$_rl_k "
			break
		done
	done <<EOF
$_rl_body
EOF
	# version 1 knew no generation and no drives
	[ "$L_VERSION" = 1 ] && L_GEN=0 L_DRIVES=''
	for _rl_n in "$L_INDEX" "$L_COUNT" "$L_CHUNK" "$L_OFFSET" "$L_DATA" "$L_GEN"; do
		case $_rl_n in
		'' | *[!0-9]*) L_ERR="label field missing or not a number"; return 2 ;;
		esac
	done
	# an optional number: absent, or a percentage create would write
	case $L_OP in '' | [1-9] | [1-4][0-9] | 50) ;; *) L_ERR="label field overprovision is not a percentage from 1 to 50"; return 2 ;; esac
	if [ -z "$L_UUID" ] || [ -z "$L_NAME" ] || [ -z "$L_MEMBER" ] || [ -z "$L_MEMBERS" ]; then
		L_ERR="label field missing"
		return 2
	fi
	return 0
}

# label_magic DEV: DEV's label block starts as ours (valid or not)
label_magic() { label_text "$1" | head -n 1 | grep -q "^$MAGIC "; }
