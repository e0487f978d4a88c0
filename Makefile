# SPDX-License-Identifier: GPL-2.0-only
#
# dm-ssdstripe: out-of-tree build glue.  Kbuild names the objects; the
# targets below are for people and CI.
#
#   make [KDIR=...]     build dm-ssdstripe/dm-ssdstripe.ko
#                       (KDIR=$(scripts/find-kdir sid) builds in the sid build root)
#   make demo           boot 4 emulated NVMe SSDs in QEMU and show it working
#   make check          every test: lint, KUnit (UML), QEMU integration suite
#   make lint           checkpatch --strict, W=1 and sparse (C=2) builds
#   make bench          ssdstripe vs striped vs md raid0 in one guest run
#   make check-debug    integration suite on the KASAN/lockdep/kmemleak kernel
#   make fuzz           long table/message fuzz run (FUZZ_COUNT, FUZZ_SEED)
#   make soak           10-minute soak on the debug kernel (SOAK_SECS)
#   make debug-kernel   just build (or find) the debug kernel
#   make clean

ifeq ($(KBUILD_MODULES),)

KDIR ?= $(shell $(CURDIR)/scripts/find-kdir)
comma := ,

.PHONY: all module clean demo check lint kunit integration bench \
	check-debug debug-kernel fuzz soak

FUZZ_KERNEL ?= 6.12
FUZZ_COUNT ?= 5000
FUZZ_SEED ?=
SOAK_KERNEL ?= debug
SOAK_SECS ?= 600

all: module

# Headers in the sid build root (scripts/find-kdir sid) only build in there.
KMAKE = $(if $(shell $(CURDIR)/scripts/sid-root owns $(KDIR) 2>/dev/null && echo y),$(CURDIR)/scripts/sid-root make,$(MAKE))

module:
	$(KMAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(KMAKE) -C $(KDIR) M=$(CURDIR) clean

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

check-debug:
	SSDSTRIPE_CHECK_PARTS=int-debug bash $(CURDIR)/scripts/check

debug-kernel:
	bash $(CURDIR)/scripts/debug-kernel

fuzz:
	bash $(CURDIR)/qemu/run.sh --kernel $(FUZZ_KERNEL) --tests 050 \
		--test-timeout 86400 --timeout 90000 \
		--guest-env SSD_FUZZ_COUNT=$(FUZZ_COUNT)$(if $(FUZZ_SEED),$(comma)SSD_FUZZ_SEED=$(FUZZ_SEED))

soak:
	bash $(CURDIR)/qemu/run.sh --kernel $(SOAK_KERNEL) --tests 900 \
		--test-timeout $$(($(SOAK_SECS) + 1800)) --timeout $$(($(SOAK_SECS) + 3600)) \
		--guest-env SSD_SOAK_SECS=$(SOAK_SECS)

else
include $(src)/Kbuild
endif
