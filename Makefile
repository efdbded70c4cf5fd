# SPDX-License-Identifier: GPL-2.0
#
# Top-level build for the out-of-tree SMC-R module, its tools and tests.
#
#   make            build net/smc/smc.ko, smc_diag.ko and the tools: the
#                   production modules, without test hooks
#   make module-out    the test build of the modules for $(KVER), with
#                   CONFIG_SMC_TEST_HOOKS, in out/$(KVER)/net/smc: what
#                   the rig's hosts load
#   make module-debug  the same modules plus smc_kunit.ko for the rig's
#                   debug kernel, in out/debug/net/smc
#   make module-s390x  the modules cross-built for s390x
#   make tools-s390x   the tools and test programs for s390x
#   make rxe-s390x     rdma_rxe.ko for s390x with its ICRC fixed (all three
#                   land in out/s390x/overlay, see below)
#   make rxe-out    rdma_rxe.ko for $(KVER)'s amd64 hosts with the fixes
#                   the distro smc.ko's SMC-R needs, in out/$(KVER)/rxe
#   make check      run every test on the QEMU rig (see README.md)
#   make deb        Debian 13 packages smc-r-dkms and smc-r-tools in
#                   out/deb (make deb-test installs and tries them)
#   make intree     build the tree overlaid on linux-source-6.12 with
#                   SMC=m and =y (x86_64, s390), run kunit.py there and
#                   write a patch series, in out/intree (scripts/intree.sh)
#   make demo       boot two hosts and show an AF_SMC application
#   make bench      benchmark TCP, our SMC-R, the distro's SMC-R, rsocket
#                   and raw RDMA on the rig (QUICK=1: a few minutes)
#   make install    install the modules into /lib/modules/<rel>/updates
#
# KVER=6.12 (default) or 6.1 chooses the target kernel; scripts/setup.sh
# fetches it and builds the matching build chroot.  KDIR=<headers> builds
# natively against other kernel headers instead of in the chroot.

KVER ?= 6.12
SMC_CACHE ?= $(HOME)/.cache/smc-r
export KVER SMC_CACHE

ENVF := $(SMC_CACHE)/env-$(KVER).sh
W ?= 1
C ?= 1
# kbuild runs in the chroot's own make, outside this one's job server
JOBS ?= $(shell nproc)
# the rig's builds carry the test hooks and fault switches; plain "make"
# (and so "make install") builds the module a user runs, without them
TEST_HOOKS := CONFIG_SMC_TEST_HOOKS=y

.PHONY: intree deb deb-test all setup setup-s390x module module-out module-debug module-s390x rxe-s390x rxe-out rxe-debug tools tools-s390x check check-full demo soak install clean checkpatch bench

all: module tools

setup:
	scripts/setup.sh

$(ENVF):
	scripts/setup.sh

ifeq ($(KDIR),)
module: $(ENVF)
	. $(ENVF) && scripts/chroot-run.sh make -C $$SMC_KDIR M=/src/net/smc \
		W=$(W) -j$(JOBS) modules
else
module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/net/smc W=$(W) modules
endif

# the module's sources only: a stock build's generated smc.mod.c must not
# come along
SMC_SRC = $(filter-out %.mod.c,$(wildcard net/smc/*.[ch]))
# net/smc/Kbuild reaches these as ../../drivers/s390/pci: copied alongside
ZPCI_DIR := drivers/s390/pci
ZPCI_SRC = $(wildcard $(ZPCI_DIR)/*.[ch])

# $(call smc_src_copy,<dir>): the module's sources copied to <dir>/net/smc
# and the zPCI part to <dir>/drivers/s390/pci, over what a build there
# left (module-out, module-debug and module-s390x build such a copy)
define smc_src_copy
	mkdir -p $(1)/net/smc $(1)/$(ZPCI_DIR)
	cp -p net/smc/Kbuild $(SMC_SRC) $(1)/net/smc/
	cp -p $(ZPCI_SRC) $(1)/$(ZPCI_DIR)/
endef

# The test build for $(KVER), from a copy in out/$(KVER)/net/smc, so
# that the production build in net/smc stays: what the rig's stock
# hosts load, for 6.12 and for Debian 12's 6.1 (make KVER=6.1 module-out).
KVER_OUT := out/$(KVER)/net/smc
module-out: $(ENVF)
	rm -rf $(KVER_OUT)
	$(call smc_src_copy,out/$(KVER))
	. $(ENVF) && scripts/chroot-run.sh make -C $$SMC_KDIR \
		M=/src/$(KVER_OUT) W=$(W) C=$(C) -j$(JOBS) $(TEST_HOOKS) modules

# rdma_rxe.ko for $(KVER)'s amd64 hosts, built from exactly that kernel's
# rxe source (scripts/setup.sh, step 3d) with scripts/rig/rxe/rxe-$(KVER)-*
# applied in order; the rig's hosts load it from out/$(KVER)/rxe.  The
# stock rxe fails the distro smc.ko's SMC-R: on 6.1 always, on 6.12
# under load (Documentation/networking/smc-rig.rst).
RXE_OUT := out/$(KVER)/rxe
RXE_PATCHES = $(sort $(wildcard scripts/rig/rxe/rxe-$(KVER)-*.patch))

# $(call rxe_build,<env file>,<dir>,<patches>,<make args>): the env
# file's kernel's rxe source copied to <dir>, the patches applied in
# order, and built there in the chroot
define rxe_build
	. $(1) && [ -n "$$SMC_RXE_SRC" ] || \
		{ echo "no rxe source for this kernel (scripts/setup.sh)" >&2; exit 1; }
	rm -rf $(2) && mkdir -p $(dir $(2))
	. $(1) && cp -r $$SMC_RXE_SRC $(2) && rm -f $(2)/.done
	for p in $(3); do patch -s -p1 -d $(2) <$$p || exit 1; done
	. $(1) && scripts/chroot-run.sh make -s -C $$SMC_KDIR M=/src/$(2) \
		-j$(JOBS) $(4) modules
endef

rxe-out:
	@[ -n "$(RXE_PATCHES)" ] || \
		{ echo "no rxe patches for $(KVER) in scripts/rig/rxe" >&2; exit 1; }
	@. $(ENVF) 2>/dev/null && [ -e "$$SMC_RXE_SRC/.done" ] || \
		scripts/setup.sh >/dev/null
	$(call rxe_build,$(ENVF),$(RXE_OUT),$(RXE_PATCHES))

# Our module for the rig's debug kernel (scripts/debug-kernel.sh builds
# that kernel once): compiled from a copy in out/debug/net/smc, so the
# stock build in net/smc stays, and with smc_kunit.ko, the KUnit suites.
DEBUG_OUT := out/debug/net/smc
module-debug:
	$(call smc_src_copy,out/debug)
	. "$$(scripts/debug-kernel.sh)" && \
	CHROOT_BIND=$$SMC_DEBUG_DIR scripts/chroot-run.sh make -C $$SMC_KDIR \
		M=/src/$(DEBUG_OUT) W=$(W) CONFIG_SMC_KUNIT_TEST=m \
		-j$(JOBS) $(TEST_HOOKS) modules

# rdma_rxe.ko for the debug kernel with the rig's fixes, from the same
# 6.12 rxe source: a debug host whose peer is a stock host (rig.sh
# --kernel A=debug) must run the rxe its peer runs, or a busy link ends
# in "transport retry counter exceeded"
RXE_DEBUG_OUT := out/debug/rxe
rxe-debug:
	. $(SMC_CACHE)/env-6.12.sh && rm -rf $(RXE_DEBUG_OUT) && \
		mkdir -p out/debug && cp -r $$SMC_RXE_SRC $(RXE_DEBUG_OUT) && \
		rm -f $(RXE_DEBUG_OUT)/.done
	for p in $(sort $(wildcard scripts/rig/rxe/rxe-6.12-*.patch)); do \
		patch -s -p1 -d $(RXE_DEBUG_OUT) <$$p || exit 1; done
	. "$$(scripts/debug-kernel.sh)" && CHROOT_BIND=$$SMC_DEBUG_DIR \
		scripts/chroot-run.sh make -s -C $$SMC_KDIR M=/src/$(RXE_DEBUG_OUT) \
		-j$(JOBS) modules

# s390x, cross-built in the amd64 chroot (SMC_ARCH=s390x scripts/setup.sh
# fetches the s390x kernel, its headers and the cross compiler).  Sources
# are copied to out/s390x/src and built there; only the results land in
# out/s390x/overlay, at their paths in this tree, which an s390x rig host
# lays over the repository so that tests find its binaries where they
# look.  The tools link against the glibc of the s390x rig root.  C=1
# keeps sparse's endianness checks on: big-endian is where they matter.
# The set-up runs once however many of the three targets are asked for.
S390X_DIR := out/s390x$(if $(filter 6.12,$(KVER)),,-$(KVER))
S390X_SRC := $(S390X_DIR)/src
S390X_OVL := $(S390X_DIR)/overlay
S390X_TOOLS := scripts/rig tools/smc tools/bench tools/testing/selftests/net/smc
S390X_ENV = . $(SMC_CACHE)/env-$(KVER)-s390x.sh
setup-s390x:
	SMC_ARCH=s390x scripts/setup.sh >/dev/null

module-s390x: setup-s390x
	rm -rf $(S390X_SRC)/net $(S390X_SRC)/drivers && mkdir -p $(S390X_OVL)/net/smc
	$(call smc_src_copy,$(S390X_SRC))
	$(S390X_ENV) && scripts/chroot-run.sh make -C $$SMC_KDIR \
		M=/src/$(S390X_SRC)/net/smc ARCH=$$SMC_KARCH \
		CROSS_COMPILE=$$SMC_CROSS W=$(W) C=$(C) -j$(JOBS) $(TEST_HOOKS) modules
	cp $(S390X_SRC)/net/smc/*.ko $(S390X_OVL)/net/smc/

# rdma_rxe.ko for the s390x hosts, with the ICRC sent little-endian
# (scripts/rig/rxe/): stock rxe cannot talk across endianness.  The
# amd64 hosts' fixes for the kernel (rxe-$(KVER)-*) go in first.
rxe-s390x: setup-s390x
	$(call rxe_build,$(SMC_CACHE)/env-$(KVER)-s390x.sh,$(S390X_SRC)/rxe,\
		$(RXE_PATCHES) scripts/rig/rxe/rxe-icrc-le.patch,\
		ARCH=$$SMC_KARCH CROSS_COMPILE=$$SMC_CROSS)
	mkdir -p $(S390X_OVL)/scripts/rig/rxe
	cp $(S390X_SRC)/rxe/rdma_rxe.ko $(S390X_OVL)/scripts/rig/rxe/

tools-s390x: setup-s390x
	rm -rf $(S390X_SRC)/tools $(S390X_SRC)/include $(S390X_SRC)/scripts
	mkdir -p $(S390X_SRC)/scripts
	cp -r tools include $(S390X_SRC)/
	cp -r scripts/rig $(S390X_SRC)/scripts/
	$(S390X_ENV) && CHROOT_BIND=$$SMC_ROOTFS scripts/chroot-run.sh sh -c \
		'for d in $(S390X_TOOLS); do \
			make -s -B -C /src/$(S390X_SRC)/$$d \
				CC="$${0}gcc --sysroot=$$1" || exit 1; \
		done' $$SMC_CROSS $$SMC_ROOTFS
	cd $(S390X_SRC) && for d in $(S390X_TOOLS); do \
		for f in $$d/*; do \
			file -b "$$f" | grep -Eq '^ELF.*(executable|shared object)' || continue; \
			mkdir -p ../overlay/$$d && cp -p "$$f" ../overlay/$$d/; \
		done; \
	done

tools:
	$(MAKE) -C scripts/rig
	$(MAKE) -C tools/smc
	$(MAKE) -C tools/bench
	$(MAKE) -C tools/testing/selftests/net/smc

# check.sh sets up and builds itself, so that it can judge the build;
# check-full also runs on 6.1, s390x and the debug kernel what make
# check leaves out there for the CI budget (scripts/check.sh)
check:
	scripts/check.sh

check-full:
	CHECK_FULL=1 scripts/check.sh

demo:
	scripts/demo.sh

# Long runs that make check leaves out, on the rig with the test build
# of the module: tools/testing/selftests/net/smc/smcr_soak.sh, then
# failover.sh with SOAK_FLAPS link flaps instead of make check's 4; then
# failover.sh's quick set on the debug kernel (host A: KASAN, lockdep,
# kmemleak scans) with SOAK_DEBUG_FLAPS flaps instead of make check's 2.
# SOAK_TIMEOUT bounds each rig run in seconds.
SOAK_TIMEOUT ?= 3600
SOAK_FLAPS ?= 100
SOAK_DEBUG_FLAPS ?= 20
soak: module-out tools rxe-out module-debug rxe-debug
	t=$$(date -u +%Y%m%d-%H%M%S); \
	scripts/rig/rig.sh run --timeout $(SOAK_TIMEOUT) \
		--out out/soak-$$t -- \
		'export SMC_SELFTEST_EXPECT_ALL=1; \
		tools/testing/selftests/net/smc/smcr_soak.sh; rc=$$?; \
		SMC_FAILOVER_FLAPS=$(SOAK_FLAPS) \
		tools/testing/selftests/net/smc/failover.sh || rc=1; exit $$rc'; \
	rc=$$?; \
	scripts/rig/rig.sh run --kernel A=debug --timeout $(SOAK_TIMEOUT) \
		--out out/soak-$$t-debug -- \
		'SMC_SELFTEST_EXPECT_ALL=1 SMC_SELFTEST_QUICK=1 \
		SMC_FAILOVER_FLAPS=$(SOAK_DEBUG_FLAPS) \
		kselftest_override_timeout=$$(($(SOAK_TIMEOUT) - 300)) \
		make -s -C tools/testing/selftests/net/smc run_tests \
		TEST_PROGS=failover.sh' || rc=1; \
	exit $$rc

# The benchmark (Documentation/networking/smc-bench.rst): the module, the
# tools and the workload generator, then one rig run; results land in
# out/bench-<UTC time>/.  QUICK=1 is a smoke version of a few minutes,
# BENCH_SMOKE=1 the harness's own test that make check runs.
QUICK ?= 0
BENCH_SMOKE ?= 0
bench: module tools
	QUICK=$(QUICK) BENCH_SMOKE=$(BENCH_SMOKE) scripts/bench.sh

checkpatch: $(ENVF)
	scripts/checkpatch.sh

intree:
	scripts/intree.sh

# Debian 13 packages in out/deb, and their install test (scripts/deb.sh)
deb:
	scripts/deb.sh build

deb-test:
	scripts/deb.sh test

# Install into the running kernel's (or KREL's) module tree; the distro
# module stays in kernel/net/smc, ours in updates/ takes precedence.
KREL ?= $(shell uname -r)
install:
	install -D -m 0644 net/smc/smc.ko \
		$(INSTALL_MOD_PATH)/lib/modules/$(KREL)/updates/smc.ko
	install -D -m 0644 net/smc/smc_diag.ko \
		$(INSTALL_MOD_PATH)/lib/modules/$(KREL)/updates/smc_diag.ko
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KREL)

clean:
	-. $(ENVF) 2>/dev/null && scripts/chroot-run.sh make -C $$SMC_KDIR \
		M=/src/net/smc clean
	$(MAKE) -C scripts/rig clean
	$(MAKE) -C tools/smc clean
	$(MAKE) -C tools/testing/selftests/net/smc clean
	rm -rf out
