# SPDX-License-Identifier: GPL-2.0-only
#
# dm-ssdstripe: out-of-tree build glue.  Kbuild names the objects; the
# targets below are for people and CI.
#
#   make [KDIR=...]     build dm-ssdstripe/dm-ssdstripe.ko
#                       (KDIR=$(scripts/find-kdir sid) builds in the sid build root)
#                       and the tool, tool/ssdstripe
#   make tool           just the tool (a C program: tool/Makefile)
#   make demo           boot 4 emulated NVMe SSDs in QEMU and show it working
#   make check          every test: lint, KUnit (UML), QEMU integration suite
#   make lint           checkpatch --strict, W=1 and sparse (C=2) builds
#   make bench          ssdstripe vs striped vs md raid0 in one guest run
#   make check-debug    integration suite on the KASAN/lockdep/kmemleak kernel
#                       (ALL=1: the tests whose header says DEBUG: no too,
#                       5 hours or more)
#   make fuzz           long table/message fuzz run (FUZZ_COUNT, FUZZ_SEED)
#   make soak           10-minute soak on the debug kernel (SOAK_SECS)
#   make debug-kernel   just build (or find) the debug kernel
#   make check-boot     the packages installed, removed and upgraded with apt, and
#                       root on an array booted by their initramfs-tools and dracut images
#   make man            man pages ssdstripe(8), ssdstripe.conf(5), dm-ssdstripe(4)
#                       from Documentation/*.rst (rst2man) into build/man/
#   make install        module (KDIR's kernel, lib/modules/<kver>/updates), tool
#                       (SBINDIR; the programs it runs at boot listed in TOOLLIBDIR),
#                       initramfs-tools hook, dracut module, systemd unit, udev
#                       rules, docs,
#                       man pages, bash completion;
#                       DESTDIR and PREFIX (default /usr) are respected
#   make install-tools  the same without the module (with DKMS: make install-dkms)
#   make install-dkms   the module's source and dkms.conf in
#                       /usr/src/dm-ssdstripe-VERSION, for "dkms install"
#   make dkms.conf      dkms.conf from dkms.conf.in and VERSION
#   make deb            the Debian packages (dpkg-buildpackage -us -uc) in
#                       build/deb/ (DEBDIR, new or make deb's own): the source
#                       package, dm-ssdstripe-dkms, ssdstripe,
#                       ssdstripe-initramfs, ssdstripe-dracut
#   make uninstall
#   make clean

ifeq ($(KBUILD_MODULES),)

KDIR ?= $(shell $(CURDIR)/scripts/find-kdir)
comma := ,
# the one version of the module, the tool and the packages
VERSION := $(shell cat $(CURDIR)/VERSION)

.PHONY: all module tool clean demo check lint kunit integration bench \
	check-debug debug-kernel fuzz soak check-boot man dkms.conf \
	install install-module install-tools install-dkms uninstall deb

FUZZ_KERNEL ?= 6.12
FUZZ_COUNT ?= 5000
FUZZ_SEED ?=
SOAK_KERNEL ?= debug
SOAK_SECS ?= 600

all: module tool

# Headers in the sid build root (scripts/find-kdir sid) only build in there.
KMAKE = $(if $(shell $(CURDIR)/scripts/sid-root owns $(KDIR) 2>/dev/null && echo y),$(CURDIR)/scripts/sid-root make,$(MAKE))

module:
	$(KMAKE) -C $(KDIR) M=$(CURDIR) modules

tool:
	$(MAKE) -C $(CURDIR)/tool

clean:
	$(KMAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C $(CURDIR)/tool clean
	rm -rf $(MANBUILD)

# ---- man pages -----------------------------------------------------------
# Debian's docutils (python3-docutils); --strict: any docutils warning fails
RST2MAN ?= rst2man
MANBUILD = build/man
MANPAGES = $(MANBUILD)/ssdstripe.8 $(MANBUILD)/ssdstripe.conf.5 $(MANBUILD)/dm-ssdstripe.4

man: $(MANPAGES)

$(MANBUILD)/ssdstripe.8: Documentation/ssdstripe.rst
$(MANBUILD)/ssdstripe.conf.5: Documentation/ssdstripe.conf.rst
$(MANBUILD)/dm-ssdstripe.4: Documentation/dm-ssdstripe.rst
$(MANPAGES):
	@$(CURDIR)/scripts/need-debs rst2man:python3-docutils
	@mkdir -p $(@D)
	$(RST2MAN) --strict $< $@.tmp
	mv $@.tmp $@

# dkms.conf with this tree's version (dkms.conf.in says how to use it)
dkms.conf: dkms.conf.in VERSION
	sed 's/@VERSION@/$(VERSION)/' dkms.conf.in >$@.tmp
	mv $@.tmp $@

demo:
	sh $(CURDIR)/qemu/demo.sh

check:
	bash $(CURDIR)/tests/check

lint:
	bash $(CURDIR)/tests/lint

kunit:
	bash $(CURDIR)/tests/kunit/run.sh

integration:
	bash $(CURDIR)/tests/integration/check.sh

bench:
	bash $(CURDIR)/tests/bench/run

check-debug:
	SSDSTRIPE_CHECK_PARTS=int-debug $(if $(ALL),SSDSTRIPE_CHECK_DEBUG_ALL=1) \
		bash $(CURDIR)/tests/check

debug-kernel:
	bash $(CURDIR)/qemu/debug-kernel

fuzz:
	bash $(CURDIR)/qemu/run.sh --kernel $(FUZZ_KERNEL) --tests stress/001 \
		--test-timeout 86400 --timeout 90000 \
		--guest-env SSD_FUZZ_COUNT=$(FUZZ_COUNT)$(if $(FUZZ_SEED),$(comma)SSD_FUZZ_SEED=$(FUZZ_SEED))

check-boot:
	SSDSTRIPE_CHECK_PARTS=boot bash $(CURDIR)/tests/check

# ---- install -------------------------------------------------------------
PREFIX ?= /usr
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
DATADIR ?= $(PREFIX)/share
SYSCONFDIR ?= /etc
DOCDIR ?= $(DATADIR)/doc/dm-ssdstripe
INITRAMFSDIR ?= $(DATADIR)/initramfs-tools
DRACUTDIR ?= $(LIBDIR)/dracut/modules.d/90ssdstripe
UNITDIR ?= $(LIBDIR)/systemd/system
UDEVRULESDIR ?= $(LIBDIR)/udev/rules.d
# the list of programs the tool runs at boot, which the initramfs-tools
# hook and the dracut module read (scripts/initramfs-commands)
TOOLLIBDIR ?= $(LIBDIR)/ssdstripe
# kernel release of KDIR (its headers know it); lib/modules/<KVER>/updates
KVER ?= $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
INSTALL_MOD_DIR ?= updates
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
MANDIR ?= $(DATADIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
DOCS = README.md Documentation/dm-ssdstripe.rst Documentation/ssdstripe-boot.rst \
	Documentation/ssdstripe.rst Documentation/ssdstripe-fabric.rst
# kbuild runs depmod only where it finds System.map (Debian's headers have
# none); a DESTDIR without that kernel's modules.order is a staging tree
DEPMOD = if [ -z "$(DESTDIR)" ] || [ -e "$(DESTDIR)/lib/modules/$(KVER)/modules.order" ]; then \
	depmod $(if $(DESTDIR),-b $(DESTDIR)) $(KVER); fi

# install_libdir SRC,MODE,DEST: install SRC as DEST with its
# SSDSTRIPE_INSTALLED_LIBDIR= line saying where TOOLLIBDIR is (the
# initramfs hook and the dracut module read its initramfs-commands)
define install_libdir
	install -d $(dir $(DESTDIR)$(3))
	sed 's|^SSDSTRIPE_INSTALLED_LIBDIR=.*|SSDSTRIPE_INSTALLED_LIBDIR=$(TOOLLIBDIR)|' $(1) >$(DESTDIR)$(3).tmp
	grep -qx 'SSDSTRIPE_INSTALLED_LIBDIR=$(TOOLLIBDIR)' $(DESTDIR)$(3).tmp
	chmod $(2) $(DESTDIR)$(3).tmp
	mv -f $(DESTDIR)$(3).tmp $(DESTDIR)$(3)
endef

install: install-module install-tools

install-module: module
	@test -n "$(KVER)" || { echo "no kernel release in $(KDIR)" >&2; exit 1; }
	# distribution headers (Debian's) carry no signing key: do not sign
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)
	$(DEPMOD)

install-tools: man tool
	install -D -m 0755 tool/ssdstripe $(DESTDIR)$(SBINDIR)/ssdstripe
	install -D -m 0644 scripts/initramfs-commands $(DESTDIR)$(TOOLLIBDIR)/initramfs-commands
	install -D -m 0644 $(MANBUILD)/ssdstripe.8 $(DESTDIR)$(MANDIR)/man8/ssdstripe.8
	install -D -m 0644 $(MANBUILD)/ssdstripe.conf.5 $(DESTDIR)$(MANDIR)/man5/ssdstripe.conf.5
	install -D -m 0644 $(MANBUILD)/dm-ssdstripe.4 $(DESTDIR)$(MANDIR)/man4/dm-ssdstripe.4
	install -D -m 0644 scripts/completion/ssdstripe $(DESTDIR)$(BASHCOMPDIR)/ssdstripe
	$(call install_libdir,scripts/initramfs-tools/hooks/ssdstripe,0755,$(INITRAMFSDIR)/hooks/ssdstripe)
	install -D -m 0755 scripts/initramfs-tools/scripts/local-top/ssdstripe \
		$(DESTDIR)$(INITRAMFSDIR)/scripts/local-top/ssdstripe
	$(call install_libdir,scripts/dracut/90ssdstripe/module-setup.sh,0755,$(DRACUTDIR)/module-setup.sh)
	install -D -m 0755 scripts/dracut/90ssdstripe/ssdstripe-assemble.sh \
		$(DESTDIR)$(DRACUTDIR)/ssdstripe-assemble.sh
	install -d $(DESTDIR)$(UNITDIR)
	# the units name the guides where DOCDIR puts them
	for u in ssdstripe-assemble.service ssdstripe-assemble-fabric.service \
			ssdstripe-monitor.service ssdstripe-scrub.service ssdstripe-scrub.timer; do \
		sed 's|file:/usr/share/doc/dm-ssdstripe/|file:$(DOCDIR)/|' scripts/systemd/$$u \
			>$(DESTDIR)$(UNITDIR)/$$u.tmp && \
		chmod 0644 $(DESTDIR)$(UNITDIR)/$$u.tmp && \
		mv -f $(DESTDIR)$(UNITDIR)/$$u.tmp $(DESTDIR)$(UNITDIR)/$$u || exit 1; \
	done
	install -D -m 0644 scripts/udev/56-ssdstripe.rules \
		$(DESTDIR)$(UDEVRULESDIR)/56-ssdstripe.rules
	install -D -m 0644 scripts/udev/64-ssdstripe-incremental.rules \
		$(DESTDIR)$(UDEVRULESDIR)/64-ssdstripe-incremental.rules
	install -D -m 0644 scripts/ssdstripe.conf $(DESTDIR)$(DOCDIR)/ssdstripe.conf.example
	install -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	# never overwrite an administrator's configuration
	test -e $(DESTDIR)$(SYSCONFDIR)/ssdstripe.conf || \
		install -D -m 0644 scripts/ssdstripe.conf $(DESTDIR)$(SYSCONFDIR)/ssdstripe.conf

# the module's source as DKMS builds it (dkms.conf: kbuild in this folder,
# Kbuild reads VERSION and runs dm-ssdstripe/probe-kernel), then
# "dkms install dm-ssdstripe/$(VERSION)"; the Debian package carries the same
DKMSSRCDIR ?= /usr/src/dm-ssdstripe-$(VERSION)
DKMS_SOURCES = $(filter-out %.mod.c dm-ssdstripe/compat-probed.h, \
	$(wildcard dm-ssdstripe/*.c dm-ssdstripe/*.h)) \
	dm-ssdstripe/Kbuild dm-ssdstripe/Kconfig dm-ssdstripe/probe.mk dm-ssdstripe/version.mk
install-dkms: dkms.conf
	install -d $(DESTDIR)$(DKMSSRCDIR)/dm-ssdstripe/probes
	install -m 0644 Kbuild VERSION dkms.conf $(DESTDIR)$(DKMSSRCDIR)/
	install -m 0644 $(DKMS_SOURCES) $(DESTDIR)$(DKMSSRCDIR)/dm-ssdstripe/
	install -m 0755 dm-ssdstripe/probe-kernel $(DESTDIR)$(DKMSSRCDIR)/dm-ssdstripe/
	install -m 0644 dm-ssdstripe/probes/*.c $(DESTDIR)$(DKMSSRCDIR)/dm-ssdstripe/probes/

# ---- Debian packages -------------------------------------------------------
# debian/ (dpkg-buildpackage -us -uc) in a copy of this tree, once
# debian/changelog's version is VERSION's: the packages in DEBDIR
DEBDIR ?= build/deb
deb:
	DEBDIR=$(DEBDIR) bash $(CURDIR)/scripts/make-deb

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/ssdstripe \
		$(DESTDIR)$(MANDIR)/man8/ssdstripe.8 \
		$(DESTDIR)$(MANDIR)/man5/ssdstripe.conf.5 \
		$(DESTDIR)$(MANDIR)/man4/dm-ssdstripe.4 \
		$(DESTDIR)$(BASHCOMPDIR)/ssdstripe \
		$(DESTDIR)$(INITRAMFSDIR)/hooks/ssdstripe \
		$(DESTDIR)$(INITRAMFSDIR)/scripts/local-top/ssdstripe \
		$(DESTDIR)$(UNITDIR)/ssdstripe-assemble.service \
		$(DESTDIR)$(UNITDIR)/ssdstripe-assemble-fabric.service \
		$(DESTDIR)$(UDEVRULESDIR)/56-ssdstripe.rules \
		$(DESTDIR)$(UNITDIR)/ssdstripe-monitor.service \
		$(DESTDIR)$(UNITDIR)/ssdstripe-scrub.service \
		$(DESTDIR)$(UNITDIR)/ssdstripe-scrub.timer \
		$(DESTDIR)$(UDEVRULESDIR)/64-ssdstripe-incremental.rules
	rm -rf $(DESTDIR)$(DRACUTDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(TOOLLIBDIR)
	# the configuration goes only if nobody changed it
	if cmp -s scripts/ssdstripe.conf $(DESTDIR)$(SYSCONFDIR)/ssdstripe.conf; then \
		rm -f $(DESTDIR)$(SYSCONFDIR)/ssdstripe.conf; fi
	if [ -n "$(KVER)" ]; then \
		rm -f $(MODDIR)/dm-ssdstripe.ko* $(MODDIR)/dm-ssdstripe/dm-ssdstripe.ko*; \
		rmdir $(MODDIR)/dm-ssdstripe 2>/dev/null || true; \
		$(DEPMOD); \
	fi

soak:
	bash $(CURDIR)/qemu/run.sh --kernel $(SOAK_KERNEL) --tests soak \
		--test-timeout $$(($(SOAK_SECS) + 1800)) --timeout $$(($(SOAK_SECS) + 3600)) \
		--guest-env SSD_SOAK_SECS=$(SOAK_SECS)

else
include $(src)/Kbuild
endif
