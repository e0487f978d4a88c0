/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ssdstripe: the ARRAY lines of the active arrays (config --scan and
 * detail --scan print the same), to add to the configuration file, as
 * 'mdadm --detail --scan' prints its own.
 */
#ifndef SSDSTRIPE_SCANLINES_H
#define SSDSTRIPE_SCANLINES_H

/*
 * scan_lines: "ARRAY uuid=UUID  # NAME" on stdout for each active array
 * made by this tool; one made with dmsetup (no labels, no uuid of ours)
 * is said on stderr instead
 */
void scan_lines(void);

#endif
