# shellcheck shell=sh
# Helpers of the tool tests (after lib/common.sh): labels, writes and
# refusals of the ssdstripe tool.

# wipe_labels DEV...: zero the label area (first 2 MiB) of each device, so
# labels left by an earlier test are not found by a scan
wipe_labels() {
	for _w in "$@"; do
		dd if=/dev/zero of="$_w" bs=1M count=2 conv=notrunc,fsync 2>/dev/null ||
			fail "cannot wipe $_w"
	done
}
# writes_done DEV...: sum of completed writes (stat field 5) of the devices
writes_done() {
	for _w in "$@"; do disk_stat "$_w" 5; done | awk '{s += $1} END {print s + 0}'
}
# refused CODE PATTERN CMD...: CMD must exit with CODE and say PATTERN
# (an extended regular expression) on stderr
refused() {
	_rc_want=$1 _rc_pat=$2
	shift 2
	"$@" >/tmp/refused.out 2>/tmp/refused.err
	_rc=$?
	log "$* -> $_rc: $(head -n 3 /tmp/refused.err | tr '\n' ' ')"
	[ "$_rc" = "$_rc_want" ] || fail "'$*' exited $_rc, not $_rc_want: $(cat /tmp/refused.err)"
	grep -qE -e "$_rc_pat" /tmp/refused.err || fail "'$*' did not say /$_rc_pat/: $(cat /tmp/refused.err)"
}
# golden_run CMD...: run CMD (its output stays in /tmp/refused.out and
# /tmp/refused.err, as refused leaves them) and put into the golden output
# the command (a word with a blank or quote in single quotes), what it said
# on stderr and its exit status
golden_run() {
	"$@" >/tmp/refused.out 2>/tmp/refused.err
	_rc=$?
	log "$* -> $_rc: $(head -n 3 /tmp/refused.err | tr '\n' ' ')"
	_gr='$'
	for _gr_a in "$@"; do
		case $_gr_a in
		'' | *[[:space:]\'\"]*) _gr="$_gr '$_gr_a'" ;;
		*) _gr="$_gr $_gr_a" ;;
		esac
	done
	golden "$_gr"
	golden </tmp/refused.err
	golden "exit $_rc"
}
# golden_labels DEV...: the uuids of the labels on DEV... read <NAME uuid>
# and <NAME member K uuid> in the golden output (golden_sub)
golden_labels() {
	for _gl in "$@"; do
		_gl_ex=$(ssdstripe examine "$_gl") || fail "examine $_gl: $_gl_ex"
		_gl_name=$(echo "$_gl_ex" | sed -n 's/^  name=//p')
		_gl_k=$(echo "$_gl_ex" | sed -n 's/^  index=//p')
		golden_sub "$(echo "$_gl_ex" | sed -n 's/^  array_uuid=//p')" "<$_gl_name uuid>"
		golden_sub "$(echo "$_gl_ex" | sed -n 's/^  member_uuid=//p')" "<$_gl_name member $_gl_k uuid>"
	done
}
# array_members NAME: member major:minor list of an active array, in table order
array_members() {
	dmsetup table "$1" | awk '{for (i = 6; i < 6 + 2 * $4; i += 2) printf "%s ", $i; print ""}'
}
# hook_at POINT SECONDS CMD...: the tool's test hook (tool/crit.h): when
# the next ssdstripe command reaches POINT it writes a line to a FIFO and
# sleeps SECONDS; CMD runs then, here, in the background.  The tool runs
# nothing itself: at POINT it may be in a critical section, where it runs
# no program.  hook_off clears the variables for the commands after.
hook_at() {
	_hk_p=$1 _hk_s=$2
	shift 2
	rm -f /tmp/ssdstripe-hook.fifo
	mkfifo /tmp/ssdstripe-hook.fifo || fail "cannot make the hook's FIFO"
	( read -r _hk_l </tmp/ssdstripe-hook.fifo && [ "$_hk_l" = "$_hk_p" ] && "$@" ) &
	HOOK_PID=$!
	SSDSTRIPE_TEST_HOOK=$_hk_p SSDSTRIPE_TEST_HOOK_FIFO=/tmp/ssdstripe-hook.fifo SSDSTRIPE_TEST_HOOK_SLEEP=$_hk_s
	export SSDSTRIPE_TEST_HOOK SSDSTRIPE_TEST_HOOK_FIFO SSDSTRIPE_TEST_HOOK_SLEEP
}
hook_off() {
	unset SSDSTRIPE_TEST_HOOK SSDSTRIPE_TEST_HOOK_FIFO SSDSTRIPE_TEST_HOOK_SLEEP
	kill "$HOOK_PID" 2>/dev/null
	wait "$HOOK_PID" 2>/dev/null
	rm -f /tmp/ssdstripe-hook.fifo
}

# relabel DEV SED [damage]: rewrite DEV's label text through SED with a
# good checksum, or with the old one when damage is asked for
relabel() {
	_t=$(dd if="$1" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\000')
	_old=$(printf '%s\n' "$_t" | sed -n 's/^checksum=//p')
	_t=$(printf '%s\n' "$_t" | sed '/^checksum=/d' | sed "$2")
	_new=sha256:$(printf '%s\n' "$_t" | sha256sum | cut -d' ' -f1)
	[ -n "${3:-}" ] && _new=$_old
	printf '%s\nchecksum=%s\n' "$_t" "$_new" >/tmp/label
	dd if=/tmp/label of="$1" bs=4096 seek=1 count=1 conv=notrunc,sync,fsync 2>/dev/null
}
