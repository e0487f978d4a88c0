# SPDX-License-Identifier: GPL-2.0-only
#
# Feature tests against the kernel being built for (probe-kernel beside
# this file): compat.h includes the generated compat-probed.h.  Included by
# the out-of-tree build (Kbuild here) and by the in-tree KUnit build
# (tests/kunit/Makefile.kunit, grafted with this folder's files), which set
# ssdstripe-src to the folder holding probe-kernel, probes/ and this file,
# dm-ssdstripe-y to the module's objects and, in the KUnit build only,
# ssdstripe-kunit-suites to the suites' objects.
# Run on every build; probe-kernel caches its answers and rewrites the
# header only when they change.

quiet_cmd_ssdstripe_probe = PROBE   $@
      cmd_ssdstripe_probe = $(BASH) $(ssdstripe-src)/probe-kernel \
	-p $(ssdstripe-src)/probes -o $@ -C $(abspath $(objtree)) \
	ARCH=$(ARCH) CC="$(CC)" $(if $(LLVM),LLVM=$(LLVM)) \
	$(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE))

# Every object includes compat.h (through ssdstripe.h): the module's parts
# and, in the KUnit build, the suites.
$(addprefix $(obj)/,$(dm-ssdstripe-y) $(ssdstripe-kunit-suites)): $(obj)/compat-probed.h
$(obj)/compat-probed.h: FORCE
	$(call cmd,ssdstripe_probe)

clean-files := compat-probed.h
