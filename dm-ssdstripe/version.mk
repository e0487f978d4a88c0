# SPDX-License-Identifier: GPL-2.0-only
# The version of the module, the tool and the packages, from one file:
# VERSION at the top of the tree (or beside these sources, where
# tests/kunit/run.sh grafts them into a kernel tree).
ssdstripe-version-file := $(firstword $(wildcard $(ssdstripe-src)/../VERSION \
					  $(ssdstripe-src)/VERSION))
ifeq ($(ssdstripe-version-file),)
$(error dm-ssdstripe: no VERSION file beside $(ssdstripe-src))
endif
ssdstripe-version := $(strip $(shell cat $(ssdstripe-version-file)))
ssdstripe-version-words := $(subst ., ,$(ssdstripe-version))
ifneq ($(words $(ssdstripe-version-words)),3)
$(error dm-ssdstripe: VERSION says '$(ssdstripe-version)', not MAJOR.MINOR.PATCH)
endif
ccflags-y += -DSSDSTRIPE_VERSION='"$(ssdstripe-version)"' \
	     -DSSDSTRIPE_VERSION_MAJOR=$(word 1,$(ssdstripe-version-words)) \
	     -DSSDSTRIPE_VERSION_MINOR=$(word 2,$(ssdstripe-version-words)) \
	     -DSSDSTRIPE_VERSION_PATCH=$(word 3,$(ssdstripe-version-words))

