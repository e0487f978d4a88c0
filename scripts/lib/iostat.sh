# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe iostat: a live per-member view, as 'zpool iostat -v -l' and
# 'iostat -x' give one: rates, latency percentiles from the kernel's
# histogram, queue depth, errors, state.  The command is the C program's
# (tool/iostat.c, the report in tool/iorep.c); its help stays here with
# the others'.

# ---- iostat ------------------------------------------------------------
help_iostat() {
	cat <<EOF
usage: $PROG iostat [-w] [--json] [NAME...] [INTERVAL [COUNT]]

A report per INTERVAL seconds (COUNT of them; without COUNT until
interrupted; without INTERVAL one report of the next second) for each
array named (all active arrays when none is), a row per member and one
for all of them:
  r/s w/s        reads and writes sent to the member per second
  rMB/s wMB/s    megabytes (10^6 bytes) read and written per second
  mean p50 p99   completion latency in microseconds of the reads and
                 writes completed in the interval, estimated from the
                 member's latency histogram (power-of-two buckets; within
                 a bucket linearly, as Prometheus's histogram_quantile;
                 >1048576 when it fell in the last, unbounded one)
  qd             requests in flight at the end of the interval (inflight)
  err retry      errors and retried completions in the interval
  state          the member's state, the array's on its own line
A member far slower than its peers stands out in p50 and p99 first: that
is what the health rule 'slow' judges (ssdstripe status).  The 'all' row
adds the members' requests (an array request split over members counts
once per member) and merges their histograms.
-w prints each member's histogram for the interval instead: completions
per latency bucket, as 'zpool iostat -w'.
--json prints one object per interval, on one line.
Each report reads each member file once and runs no other program: 5
reports at 1 s took 0.16 s of CPU in the test rig's emulated guest.
Reads only.
Exit: 0, 2 usage, 4 no such array.
EOF
}
