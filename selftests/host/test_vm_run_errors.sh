#!/usr/bin/env bash
# Bad settings for the guest runner: one line on stderr, exit status 2, nothing started.
. "$(dirname "$0")/lib.sh"
run=$ROOT/selftests/vm/vm-run.sh
plan 28
echo 'echo hi' >"$TMP/s.sh"
vm() { env -i PATH="$PATH" BUILD="$TMP/build" "$@" "$run"; }

expect_error "SCRIPT unset" 2 "^vm-run: SCRIPT is not set" vm
expect_error "SCRIPT missing" 2 "^vm-run: SCRIPT $TMP/nope.sh: no such readable file" vm SCRIPT="$TMP/nope.sh"
expect_error "unknown KERNEL" 2 "^vm-run: unknown KERNEL 'linus'" vm SCRIPT="$TMP/s.sh" KERNEL=linus
expect_error "VM_MEM QEMU rejects" 2 "^vm-run: VM_MEM '1T' is not a size" vm SCRIPT="$TMP/s.sh" VM_MEM=1T
expect_error "VM_MEM too small" 2 "^vm-run: VM_MEM '64M' is out of range" vm SCRIPT="$TMP/s.sh" VM_MEM=64M
expect_error "VM_SMP zero" 2 "^vm-run: VM_SMP '0' must be 1 to 8" vm SCRIPT="$TMP/s.sh" VM_SMP=0
expect_error "SWAP_MB not a number" 2 "^vm-run: SWAP_MB 'lots'" vm SCRIPT="$TMP/s.sh" SWAP_MB=lots
expect_error "DISK_BPS not a number" 2 "^vm-run: DISK_BPS '100MB/s'" vm SCRIPT="$TMP/s.sh" DISK_BPS=100MB/s
expect_error "DISK_IOPS not a number" 2 "^vm-run: DISK_IOPS '3k'" vm SCRIPT="$TMP/s.sh" DISK_IOPS=3k
expect_error "DISK_LATENCY_MS not a number" 2 "^vm-run: DISK_LATENCY_MS '0.5' must be milliseconds, 0 to 1000" vm SCRIPT="$TMP/s.sh" DISK_LATENCY_MS=0.5
expect_error "DISK_LATENCY_MS out of range" 2 "^vm-run: DISK_LATENCY_MS '1001' must be milliseconds, 0 to 1000" vm SCRIPT="$TMP/s.sh" DISK_LATENCY_MS=1001
expect_error "VM_SLOW_MB leaves node 0 too little" 2 "^vm-run: VM_SLOW_MB '900' must be 0 or 64 to 768 MiB \(node 0 keeps at least 256 MiB of VM_MEM\)$" vm SCRIPT="$TMP/s.sh" VM_SLOW_MB=900
expect_error "VM_SLOW_MB not a number" 2 "^vm-run: VM_SLOW_MB '1G' must be 0 or 64 to 768 MiB" vm SCRIPT="$TMP/s.sh" VM_SLOW_MB=1G
expect_error "no perf kernel built" 2 "^vm-run: no memtide-perf kernel at .*(make kernel PERF=1)" \
	vm SCRIPT="$TMP/s.sh" KERNEL=memtide-perf
expect_error "no debug kernel built" 2 "^vm-run: no vanilla-debug kernel at .*(make kernel-vanilla DEBUG=1)" \
	vm SCRIPT="$TMP/s.sh" KERNEL=vanilla-debug
expect_error "VM_CMDLINE with a character no kernel parameter needs" 2 \
	"^vm-run: VM_CMDLINE 'quiet;reboot' must be KEY or KEY=VALUE words \(e.g. hibernate=nocompress\)$" \
	vm SCRIPT="$TMP/s.sh" VM_CMDLINE="quiet;reboot"
expect_error "VM_CMDLINE word not KEY or KEY=VALUE" 2 \
	"^vm-run: VM_CMDLINE '=x' must be KEY or KEY=VALUE \(e.g. hibernate=nocompress\)$" \
	vm SCRIPT="$TMP/s.sh" VM_CMDLINE="quiet =x"
expect_error "VM_SYSCTL with a character no sysctl needs" 2 \
	"^vm-run: VM_SYSCTL 'vm.swappiness=37;reboot' must be KEY=VALUE words \(e.g. vm.swappiness=60\)$" \
	vm SCRIPT="$TMP/s.sh" VM_SYSCTL="vm.swappiness=37;reboot"
# a file of the current directory that a ? in the word would expand to, making it valid
cd "$TMP" && : >"vm.swappiness=60"
expect_error "VM_SYSCTL with a glob character, even one a file name matches" 2 \
	"^vm-run: VM_SYSCTL 'vm.swappiness=6\?' must be KEY=VALUE words \(e.g. vm.swappiness=60\)$" \
	vm SCRIPT="$TMP/s.sh" VM_SYSCTL="vm.swappiness=6?"
cd "$ROOT" || exit 1
expect_error "VM_SYSCTL word not KEY=VALUE" 2 \
	"^vm-run: VM_SYSCTL 'vm.swappiness=' must be KEY=VALUE \(e.g. vm.swappiness=60\)$" \
	vm SCRIPT="$TMP/s.sh" VM_SYSCTL="vm.vfs_cache_pressure=100 vm.swappiness="
expect_error "MGLRU not 0/1" 2 "^vm-run: MGLRU 'yes' must be 0 or 1" vm SCRIPT="$TMP/s.sh" MGLRU=yes
expect_error "VM_PREALLOC not 0/1" 2 "^vm-run: VM_PREALLOC 'on' must be 0 or 1$" vm SCRIPT="$TMP/s.sh" VM_PREALLOC=on
expect_error "VM_BLOCKSTATS not 0/1" 2 "^vm-run: VM_BLOCKSTATS 'yes' must be 0 or 1$" vm SCRIPT="$TMP/s.sh" VM_BLOCKSTATS=yes
expect_error "VM_FILES missing" 2 "^vm-run: VM_FILES: $TMP/gone: no such" vm SCRIPT="$TMP/s.sh" VM_FILES="$TMP/gone"
mkdir -p "$TMP/a"
echo x >"$TMP/a/s.sh"
expect_error "VM_FILES name clash with SCRIPT" 2 "^vm-run: VM_FILES: two files named s.sh" \
	vm SCRIPT="$TMP/s.sh" VM_FILES="$TMP/a/s.sh"
expect_error "ROOTFS missing" 2 "^vm-run: ROOTFS $TMP/none.img: no such readable image" \
	vm SCRIPT="$TMP/s.sh" ROOTFS="$TMP/none.img"
check "nothing was built or started for bad settings" [ ! -e "$TMP/build" ]

# Through make: our one line comes first and no kernel build starts.
(cd "$ROOT" && make vm-run SCRIPT="$TMP/nope.sh" >"$TMP/out" 2>"$TMP/err")
check "make vm-run with a missing SCRIPT stops at once with the one-line error" \
	bash -c "[ \"\$(head -n 1 '$TMP/err')\" = 'vm-run: SCRIPT $TMP/nope.sh: no such readable file' ] && [ \$(wc -l <'$TMP/err') -le 2 ] && ! grep -q '==> building' '$TMP/out' '$TMP/err'"
done_testing
