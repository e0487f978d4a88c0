# SPDX-License-Identifier: GPL-2.0-only
#
# dm-ssdstripe: out-of-tree build glue.  Kbuild names the objects; the
# targets below are for people and CI.
#
#   make [KDIR=...]     build dm-ssdstripe/dm-ssdstripe.ko
#   make demo           boot 4 emulated NVMe SSDs in QEMU and show it working
#   make check          every test: lint, KUnit (UML), QEMU integration suite
#   make lint           checkpatch --strict, W=1 and sparse (C=2) builds
#   make bench          ssdstripe vs striped vs md raid0 in one guest run
#   make clean

ifeq ($(KBUILD_MODULES),)

KDIR ?= $(shell $(CURDIR)/scripts/find-kdir)

.PHONY: all module clean demo check lint kunit integration bench

all: module

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

demo:
	sh $(CURDIR)/qemu/demo.sh

check:
	bash $(CURDIR)/scripts/check

lint:
	bash $(CURDIR)/scripts/lint

kunit:
	sh $(CURDIR)/scripts/kunit.sh

integration:
	bash $(CURDIR)/scripts/check-integration.sh

bench:
	bash $(CURDIR)/scripts/bench

else
include $(src)/Kbuild
endif
