# memtide: per-cgroup reclaim and release for Linux 6.12 (kernel patch queue + tools + tests).
# The two commands a new machine needs: `make demo` and `make check`. `make help` lists the rest.
SHELL   := /bin/bash
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

KERNEL  ?= memtide
BUILD   := $(CURDIR)/build
KT      := kernel-tree/tools
VM      := selftests/vm
src_of   = $(if $(filter vanilla,$(1)),$(BUILD)/linux-vanilla,$(BUILD)/linux)

# Settings of the guest runner and of the kernel build, passed to the scripts as they are.
export SCRIPT VM_FILES VM_MEM VM_SMP SWAP_MB DISK_BPS DISK_IOPS DISK_LATENCY_MS KERNEL MGLRU VM_SYSCTL VM_CMDLINE VM_PREALLOC VM_TIMEOUT \
	VM_LOG BASE KERNEL_RESET RUNS RESUME CASE KERNELS BOOTS

.PHONY: help deps kernel kernel-vanilla kernel-debian kernel-edit kernel-export checkpatch kernel-distro-check kernel-deb kernel-build-each bench \
	tests tool tool-test install deb initramfs guest vm-run demo check check-full check-debug gate-record repeat clean

help:
	@echo "Usage: make TARGET"
	@echo "  demo                 the seed's scenario in a guest: hibernate and resume with and without"
	@echo "                       memtide, side by side (installs what it needs)"
	@echo "  check                build everything and run the test suite; last line: N passed, N failed"
	@echo "  check-full           check, plus the slow suites (vanilla kernel, MGLRU off, switches on, ...)"
	@echo "                       [RESUME=1: keep what passed on this same clean tree and settings]"
	@echo "  check-debug          the guest suite on KASAN/KFENCE/lockdep kernels (part of check-full)"
	@echo "  kernel               build the memtide kernel (base + kernel-tree/series) into build/"
	@echo "  kernel-vanilla       build the same config without the series"
	@echo "  kernel-debian        download Debian's own build of the base (the stock kernel)"
	@echo "                       (PERF=1 for either: the benchmark flavour, no debug checks;"
	@echo "                       DEBUG=1: KASAN, KFENCE, list and hung-task checks)"
	@echo "  kernel-edit          prepare build/linux for editing: commit there, then"
	@echo "  kernel-export        regenerate kernel-tree/patches and series from those commits"
	@echo "  checkpatch           scripts/checkpatch.pl --strict over the queue"
	@echo "  kernel-distro-check  compile mm/ and kernel/cgroup/ with Debian's full config"
	@echo "  kernel-deb           linux-image/-headers packages with Debian's config, build/kernel-deb/"
	@echo "                       (for real machines; hours on 2 cores)"
	@echo "  kernel-build-each    build the kernel after each patch of the queue (slow; check-full)"
	@echo "  vm-run SCRIPT=f.sh   run a script in the guest [VM_FILES= VM_MEM=1G VM_SMP=2 SWAP_MB=2048"
	@echo "                       DISK_BPS=0 DISK_IOPS=0 DISK_LATENCY_MS=0 KERNEL=memtide|vanilla[-perf]|debian MGLRU=0|1"
	@echo "                       VM_SYSCTL=\"vm.KEY=VALUE ...\" VM_CMDLINE=\"KEY=VALUE ...\" VM_PREALLOC=0|1"
	@echo "                       VM_TIMEOUT=900]"
	@echo "  tool                 build the memtide tool into build/tools/ (tool-test: its unit tests)"
	@echo "  install              install the tool, its man page, completion, units and sleep hook"
	@echo "                       [PREFIX=/usr/local DESTDIR=]"
	@echo "  deb                  the same as a Debian package, build/deb/memtide_*.deb"
	@echo "  bench                run the benchmarks, write docs/benchmarks.md [SCENARIO=name RUNS=3 FRESH=1 REDERIVE=1]"
	@echo "  gate-record          record which upstream cgroup selftests pass on vanilla"
	@echo "  repeat CASE=name     boot kernels alternately, BOOTS times each, and count how each test"
	@echo "                       ended (fill-race: the hang of issue 35; gate: upstream's tests in"
	@echo "                       make check's context) [KERNELS=\"memtide vanilla\" BOOTS=10]"
	@echo "See docs/development.md."

deps:
	@ci/install-deps.sh

# PERF=1: the benchmark flavour of the same tree (configs/perf.config: no debug checks);
# DEBUG=1: the debug flavour (configs/debug.config: KASAN, KFENCE, ...)
FLAVOUR := $(if $(PERF),-perf,$(if $(DEBUG),-debug))
kernel: deps
	@$(KT)/build.sh memtide$(FLAVOUR) bzImage headers

kernel-vanilla: deps
	@$(KT)/build.sh vanilla$(FLAVOUR) bzImage headers

# Debian's own build of the base (linux-image-*-cloud-amd64-unsigned), downloaded: the stock
# kernel of make check's tool test (KERNEL=debian)
kernel-debian: deps
	@$(KT)/debian-kernel.sh

kernel-edit: deps
	@$(KT)/prepare-base.sh && $(KT)/apply-series.sh
	@echo "Edit tree: build/linux (branch memtide on tag 'base'). Commit changes there;"
	@echo "'make kernel' builds them, 'make kernel-export' writes kernel-tree/patches and series."

kernel-export:
	@$(KT)/export.sh

checkpatch: deps
	@$(KT)/checkpatch.sh

# Packages of the memtide kernel with Debian's full config, for real machines (hours; not in CI)
kernel-deb: deps
	@$(KT)/kernel-deb.sh

kernel-distro-check: deps
	@$(KT)/check-distro-config.sh

kernel-build-each: deps
	@$(KT)/build-each.sh

# Static guest programs: memtide's (built against the memtide tree's kselftest helpers, used
# on both kernels) and upstream's cgroup selftests from the $(KERNEL) tree (none for debian,
# whose source is not here: its guest runs only the tool's test).
tests:
	@$(KT)/build.sh memtide headers
	@$(MAKE) -s -C selftests memtide SRC=$(BUILD)/linux KHDR=$(BUILD)/obj/memtide/usr/include \
		OUT=$(BUILD)/tests/memtide
	@mkdir -p $(BUILD)/tests
	@$(if $(filter debian,$(KERNEL)),true,$(MAKE) -s -C selftests upstream SRC=$(call src_of,$(KERNEL)) \
		KHDR=$(BUILD)/obj/$(KERNEL)/usr/include OUT=$(BUILD)/tests/upstream-$(KERNEL) \
		>$(BUILD)/tests/upstream-$(KERNEL).log 2>&1 || \
		{ cat $(BUILD)/tests/upstream-$(KERNEL).log; exit 1; })

# The memtide tool (cgroup-tools/); dynamically linked: the guest image carries its libraries.
tool: deps
	@$(MAKE) -s -C cgroup-tools OUT=$(BUILD)/tools

tool-test: deps
	@$(MAKE) -s -C cgroup-tools OUT=$(BUILD)/tools test

install: tool
	@$(MAKE) -s -C cgroup-tools OUT=$(BUILD)/tools install

# The tool as a Debian package (cgroup-tools/debian/): build/deb/memtide_VERSION_ARCH.deb
deb: deps
	@cgroup-tools/mkdeb.sh $(BUILD)/deb

initramfs: tests tool
	@mkdir -p $(BUILD)/vm
	@$(VM)/mkinitramfs.sh $(KERNEL) $(BUILD)/vm/initramfs-$(KERNEL).cpio

# The kernel and guest image of $(KERNEL) (tests builds the memtide headers its programs use).
guest: $(if $(filter vanilla,$(KERNEL)),kernel-vanilla,$(if $(filter debian,$(KERNEL)),kernel-debian,kernel))
	@$(MAKE) initramfs

# Bad settings are refused before anything is built.
vm-run:
	@$(VM)/vm-run.sh --check
	@$(MAKE) -s guest
	@$(VM)/vm-run.sh

# The seed's scenario, once without and once with memtide, on the benchmark kernel (no debug
# checks: under TCG they would make every step CPU-bound)
demo: deps
	@$(KT)/build.sh memtide-perf bzImage
	@$(MAKE) -s initramfs KERNEL=memtide
	@cgroup-tools/demo/hibernate-demo.sh

check: deps
	@ci/check.sh

bench: deps
	@selftests/bench/bench.sh $(SCENARIO)

check-full: deps
	@ci/check.sh --full

check-debug: deps
	@ci/check.sh --debug

gate-record: deps
	@ci/gate-record.sh

# Bad settings are refused before anything is built.
repeat: deps
	@$(VM)/repeat.sh --check
	@$(VM)/repeat.sh

clean:
	rm -rf $(BUILD)/obj $(BUILD)/tests $(BUILD)/vm $(BUILD)/check
