#!/bin/sh
# DESCRIPTION: the module loads by modprobe and by autoload, stays while an array exists, and unloads clean
# KERNELS: all
# DEBUG: yes
# QUICK: yes
# TARGET: any
# RUN: always
#
# Module loads by modprobe and by dmsetup autoload, "dmsetup targets" lists
# it, unloading is refused while an array exists and clean after removal.
. /tests/integration/lib/common.sh

d0=$(disk 0); d1=$(disk 1)
table=$(stripe_table "$TARGET" 2048 8 "$d0" 0 "$d1" 0)

if [ "$TARGET" = striped ]; then
	dmsetup targets | grep -q '^striped ' || fail "striped not listed by dmsetup targets"
	mk_array t001 "$table"
	rm_array t001
	skip "striped is built into dm-mod: no module load/unload to test"
fi

mod=dm_ssdstripe
loaded() { grep -q "^$mod " /proc/modules; }

rmmod "$mod" 2>/dev/null
loaded && fail "module still loaded before the test"

# 1. explicit modprobe (resolves dm-mod etc. by depmod dependencies)
modprobe dm-ssdstripe || fail "modprobe dm-ssdstripe failed"
loaded || fail "module not in /proc/modules after modprobe"
dmsetup targets | grep -q '^ssdstripe ' || fail "dmsetup targets does not list ssdstripe"
log "$(dmsetup targets | grep '^ssdstripe ')"
modprobe -r dm-ssdstripe || fail "modprobe -r failed with no array"
loaded && fail "module still loaded after modprobe -r"

# 2. autoload by dmsetup create (kernel request_module("dm-ssdstripe"))
mk_array t001 "$table"
loaded || fail "dmsetup create did not autoload the module"
dmsetup table t001 | grep -q " ssdstripe " || fail "table does not show ssdstripe"

# 3. unload refused while in use
if rmmod "$mod" 2>/dev/null; then
	fail "rmmod succeeded while an array exists"
fi
loaded || fail "module gone while array exists"
refs=$(awk -v m="$mod" '$1 == m {print $3}' /proc/modules)
[ "${refs:-0}" -ge 1 ] || fail "module refcount $refs with a live array"

# 4. clean after removal
rm_array t001
rmmod "$mod" || fail "rmmod refused after the array was removed"
loaded && fail "module still loaded after rmmod"
dmsetup ls | grep -qv 'No devices found' && fail "devices left behind"
dmesg | grep -qi 'ssdstripe.*leak' && fail "leak reported in dmesg"
pass
