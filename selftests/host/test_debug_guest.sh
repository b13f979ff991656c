#!/usr/bin/env bash
# What the debug guests of make check-debug need and no other guest gets, checked without a
# debug kernel: vm-run.sh's kernel parameters for a -debug kernel (QEMU is a stand-in that
# records its -append and reports the script's exit), and guest-suite.sh's per-program time
# limit on a kernel whose release ends in -debug (uname and timeout are stand-ins).
# Without these a KASAN guest on the slower host hung at boot, or had test_release killed
# (docs/reliability.md, fourth debug run); only such a guest shows it, so they are checked here.
. "$(dirname "$0")/lib.sh"
plan 6

# --- vm-run.sh: a fake build tree and a fake QEMU (lib.sh) ---
fake_vm
echo 'echo hi' >"$TMP/s.sh"
# append_of KERNEL: the kernel command line vm-run.sh gives KERNEL, in $TMP/append.KERNEL
append_of() {
	env -i PATH="$vm_stand_in:$PATH" BUILD="$vm_build" QEMU_APPEND_LOG="$TMP/append.$1" \
		SCRIPT="$TMP/s.sh" KERNEL="$1" "$ROOT/selftests/vm/vm-run.sh" >"$TMP/vm.$1.log" 2>&1
}
debug_words="watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120 pci=noacpi"
# has_words FILE WORD...: every WORD is a word of the command line in FILE
has_words() {
	local f=$1 w
	shift
	for w; do tr ' ' '\n' <"$f" | grep -qxF -- "$w" || return 1; done
}
for k in memtide-debug vanilla-debug; do
	append_of "$k"
	# shellcheck disable=SC2086 # the words are meant to split
	check "vm-run boots $k with $debug_words" has_words "$TMP/append.$k" $debug_words
done
append_of memtide
check "vm-run boots memtide without any of them" \
	eval '[ -s "$TMP/append.memtide" ] && ! grep -qE "watchdog_thresh|rcu_cpu_stall|pci=noacpi" "$TMP/append.memtide"'

# --- guest-suite.sh: its time limit per program, by the kernel's release ---
opt=$TMP/opt
mkdir -p "$opt/bin"
printf '#!/bin/sh\necho 1..1\necho ok 1 fake\n' >"$opt/bin/test_tool"
chmod +x "$opt/bin/test_tool"
# limit_under RELEASE: the limit guest-suite.sh gives timeout(1) on a kernel RELEASE
limit_under() {
	local bin=$TMP/suite-bin
	rm -rf "$bin" && mkdir -p "$bin"
	printf '#!/bin/sh\necho %s\n' "$1" >"$bin/uname"
	printf '#!/bin/sh\necho "timeout-limit $1"\nshift\nexec "$@"\n' >"$bin/timeout"
	chmod +x "$bin/uname" "$bin/timeout"
	PATH="$bin:$PATH" MEMTIDE_OPT=$opt sh "$ROOT/selftests/vm/guest-suite.sh" tool 2>&1 |
		sed -n 's/^timeout-limit //p'
}
l=$(limit_under 6.12.57-memtide-debug)
check "a program may run 2700 s on a -debug kernel (got '$l')" [ "$l" = 2700 ]
l=$(limit_under 6.12.57-memtide)
check "and 900 s on any other (got '$l')" [ "$l" = 900 ]
l=$(limit_under 6.12.57-vanilla-debug)
check "2700 s on the vanilla debug kernel too (got '$l')" [ "$l" = 2700 ]
done_testing
