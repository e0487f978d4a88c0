# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh disable=SC3043
#
# ssdstripe library: the on-disk label (Documentation/ssdstripe-label.rst).
# The program's label.c is its one reader and writer; the sh part says
# only which version it is ('ssdstripe --version').

LABEL_VERSION=2			# what this tool writes (tool/label.h)
