#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# dracut initqueue/settled hook, sourced by dracut-initqueue on every pass
# until the root device is there: assemble the arrays chosen by
# ssdstripe.assemble= or /etc/ssdstripe.conf, once.  The tool waits
# (ssdstripe.timeout=, default 30 s) for missing members; after a failure
# the next pass tries again.
if [ ! -e /run/ssdstripe-assembled ]; then
	# stdout to the console too (the initqueue's stderr goes there)
	if /usr/sbin/ssdstripe assemble --boot >&2; then
		: >/run/ssdstripe-assembled
	fi
fi
