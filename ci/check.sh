#!/usr/bin/env bash
# make check [--full]: build the memtide kernel and guest, run the host tests and the guest
# suite (memtide's tests + upstream's cgroup selftests, gated by selftests/upstream-expected.txt),
# the suite on a slow swap disk, the systemd guest (a Debian root file system made by
# debootstrap and cached in build/rootfs: the tool as installed, its units, sleep hook and
# idle daemon, CRIU with the action script), then boot Debian's own build of the base and run
# the tool on it (its stock fallbacks), and end with the line "N passed, N failed, N skipped"
# (selftests/vm/summarize.sh). That is what users run (issue 34); docs/development.md has
# its time.
# --full adds the slow suites: every patch built on its own, the vanilla kernel (our tinyconfig
# without the series) with its upstream run and the tool on it, the suite with MGLRU off, the
# suite with every behaviour switch of the series on (vm.swapout_second_chance=1000), the
# stress guest, and the debug suites below.
# --debug runs only the debug suites (make check-debug): the vanilla and memtide trees built
# with configs/debug.config (KASAN, KFENCE, DEBUG_LIST, ... over make check's DEBUG_VM and
# lockdep); the whole guest suite (its hibernate and resume included) on the memtide one,
# then upstream's suite on the vanilla one, so that what a stock debug kernel already reports
# in this guest is on record. Any report on a console fails the run.
# Logs of every step are in build/check/. RESUME=1 (make check-full RESUME=1) keeps the suites
# that passed on this same clean tree, under the same settings, in an earlier run that was
# interrupted (ci/resume.sh).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
out=$ROOT/build/check
case ${RESUME:-} in '' | 0 | 1) ;; *) echo "check: RESUME '$RESUME' must be 0 or 1" >&2; exit 2 ;; esac
# shellcheck source=resume.sh
. ci/resume.sh
resume_begin
if [ "${RESUME:-}" = 1 ] && [ -n "$resume_start" ]; then
	echo "==> RESUME=1: suites that passed on this tree before are kept (build/check/kept/)" >&2
else
	[ "${RESUME:-}" = 1 ] && echo "==> RESUME=1, but the tree is not its commit's: nothing is kept" >&2
	rm -rf "$out"
fi
mkdir -p "$out"
base=1 full=0 debug=0
case ${1:-} in
'') ;;
--full) full=1 debug=1 ;;
--debug) base=0 debug=1 ;;
*) echo "usage: $0 [--full | --debug]" >&2; exit 2 ;;
esac
start=$(date +%s)
exec 3>&2 # progress lines, while step output goes to the logs

n=0 steps_s=0
echo "# memtide-suite: host steps" >"$out/steps.log"
# step NAME CMD...: run one build step, its output in build/check/NAME.log, as a TAP result
step() {
	local name=$1 t0=$(date +%s) ok=0 dt
	shift
	n=$((n + 1))
	echo "==> $name" >&2
	"$@" >"$out/$name.log" 2>&1 && ok=1
	dt=$(($(date +%s) - t0))
	steps_s=$((steps_s + dt))
	if [ $ok = 1 ]; then
		echo "ok $n $name" >>"$out/steps.log"
		echo "    ok ($dt s)" >&2
		return 0
	fi
	echo "not ok $n $name" >>"$out/steps.log"
	echo "    FAILED after $dt s; last lines of build/check/$name.log:" >&2
	tail -n 30 "$out/$name.log" | sed 's/^/    | /' >&2
	return 1
}

# the upstream gate (summarize.sh -e) and the record of which ungated tests fail on vanilla
gate=(-e selftests/upstream-expected.txt -f selftests/upstream-flaky.txt)
# passed_log LOG: the log of a suite that passed (summarize.sh: its tests, a finished guest,
# a clean console)
passed_log() {
	selftests/vm/summarize.sh "${gate[@]}" "$@" >/dev/null 2>&1
}

# kept_suite NAME LOG: status 0 if RESUME=1 keeps the earlier pass of suite NAME (its log
# LOG), and says so; else NAME is to run again, and its old stamp goes (ci/resume.sh)
kept_suite() {
	local when
	if [ -s "$2" ] && when=$(kept "$1"); then
		echo "    $1: kept, passed on this tree on $when" >&3
		kept_names+=("$1")
		return 0
	fi
	forget "$1"
	return 1
}

# guest_suite SCRIPT LOG [settings...]: the guest half of the suite under vm-run.sh
guest_suite() {
	local script=$1 log=$2 name
	shift 2
	name=$(basename "$log" .log)
	kept_suite "$name" "$log" && return 0
	env SCRIPT="$script" VM_MEM=2G VM_SMP=2 VM_LOG="$log" "$@" \
		selftests/vm/vm-run.sh
	passed_log "$name=$log" && keep "$name"
}

# host_tests: each selftests/host/test_*.sh, its TAP framed like the guest's programs (some
# boot the guest built above)
host_tests() {
	local t t0 st
	for t in selftests/host/test_*.sh; do
		echo "==> host test $(basename "$t")" >&3
		echo "# memtide-suite: host $(basename "$t" .sh)"
		t0=$(date +%s.%N)
		timeout 1800 "$t"
		st=$?
		# as guest-suite.sh frames its programs (durations.sh)
		awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "# memtide-suite-time: %.1f\n", t1 - t0 }'
		echo "# memtide-suite-exit: $st"
	done
}

logs=("$out/steps.log")
kept_names=()
kernel_ok=0 guest_ok=0 rootfs_ok=0 vanilla_ok=0
if [ $base = 1 ]; then
	step kernel-build make -s kernel && kernel_ok=1
	step kernel-distro-check make -s kernel-distro-check
	step checkpatch make -s checkpatch

	[ $kernel_ok = 1 ] && step guest-image make -s initramfs KERNEL=memtide && guest_ok=1

	# the systemd guest's root, made before the host tests so that test_vm_run boots it too
	step rootfs selftests/vm/mkrootfs.sh && rootfs_ok=1
	if ! kept_suite host "$out/host.log"; then
		host_tests >"$out/host.log" 2>"$out/host.stderr"
		passed_log "$out/host.log" && keep host
	fi
	logs+=("$out/host.log")
fi

if [ $guest_ok = 1 ]; then
	echo "==> guest suite (memtide kernel)" >&2
	# its first boot took 762 s on 2026-11-30: vm-run's 900 s default is too close (the same
	# suite runs again in check-full with MGLRU off and with the switches on: same limit)
	guest_suite selftests/vm/guest-suite.sh "$out/guest.log" KERNEL=memtide VM_TIMEOUT=1800 \
		>/dev/null 2>>"$out/guest.stderr"
	logs+=("memtide-kernel=$out/guest.log")
	# a swap disk throttled to 16 MB/s, where a 128M release round takes seconds: whether
	# release holds a process's mmap_lock while it waits for reads (about a minute)
	echo "==> guest on a slow swap disk (memtide kernel)" >&2
	printf '#!/bin/sh\nexec sh ./guest-suite.sh slow-disk\n' >"$out/slow-disk.sh"
	guest_suite "$out/slow-disk.sh" "$out/guest-slow-disk.log" KERNEL=memtide \
		VM_FILES=selftests/vm/guest-suite.sh DISK_BPS=16000000 VM_TIMEOUT=900 \
		>/dev/null 2>>"$out/guest.stderr"
	logs+=("slow-disk=$out/guest-slow-disk.log")
	# a second memory node in a lower tier (QEMU's HMAT says it is slower): what
	# memory.reclaim demotes, and says it did
	echo "==> guest with a lower memory tier (memtide kernel)" >&2
	printf '#!/bin/sh\nexec sh ./guest-suite.sh tiers\n' >"$out/tiers.sh"
	guest_suite "$out/tiers.sh" "$out/guest-tiers.log" KERNEL=memtide \
		VM_FILES=selftests/vm/guest-suite.sh VM_SLOW_MB=512 VM_TIMEOUT=900 \
		>/dev/null 2>>"$out/guest.stderr"
	logs+=("tiers=$out/guest-tiers.log")
	# what users run: the tool as installed under systemd 252, its units and sleep hook, the
	# idle daemon, a CRIU dump through the action script
	if [ $rootfs_ok = 1 ]; then
		echo "==> systemd guest (memtide kernel)" >&2
		guest_suite selftests/vm/guest-systemd.sh "$out/guest-systemd.log" KERNEL=memtide \
			ROOTFS="$(tail -n 1 "$out/rootfs.log")" >/dev/null 2>&1
		logs+=("systemd=$out/guest-systemd.log")
	fi
fi

# the tool on a stock kernel, degraded and saying so: Debian's own build of the base, the
# kernel its users run (downloaded: building vanilla would cost 11-15 minutes here)
if [ $base = 1 ]; then
	if step kernel-debian make -s kernel-debian &&
		step guest-image-debian make -s initramfs KERNEL=debian; then
		echo "==> memtide tool (Debian's stock kernel)" >&2
		guest_suite selftests/vm/guest-tool.sh "$out/guest-debian-tool.log" KERNEL=debian >/dev/null 2>&1
		logs+=("debian-tool=$out/guest-debian-tool.log")
	fi
fi

if [ $full = 1 ]; then
	# vanilla: the same tinyconfig as memtide's kernel without the series, for the upstream
	# gate's reference run and the tool on it
	step kernel-vanilla-build make -s kernel-vanilla &&
		step guest-image-vanilla make -s initramfs KERNEL=vanilla && vanilla_ok=1
	if [ $vanilla_ok = 1 ]; then
		echo "==> memtide tool (vanilla kernel)" >&2
		guest_suite selftests/vm/guest-tool.sh "$out/guest-vanilla-tool.log" KERNEL=vanilla >/dev/null 2>&1
		logs+=("vanilla-tool=$out/guest-vanilla-tool.log")
	fi
	# the guests of the kernels already built come first, every-patch builds (97 min on
	# 2026-12-01) after them: a run cut short by the end of a session has tested the most
	if [ $kernel_ok = 1 ]; then
		echo "==> guest suite (memtide kernel, MGLRU off)" >&2
		guest_suite selftests/vm/guest-suite.sh "$out/guest-classic-lru.log" KERNEL=memtide MGLRU=0 \
			VM_TIMEOUT=1800 >/dev/null 2>&1
		logs+=("classic-lru=$out/guest-classic-lru.log")
		# every behaviour switch of the series on, for the whole suite and the upstream gate
		echo "==> guest suite (memtide kernel, vm.swapout_second_chance=1000)" >&2
		guest_suite selftests/vm/guest-suite.sh "$out/guest-switches-on.log" KERNEL=memtide \
			VM_SYSCTL="vm.swapout_second_chance=1000" VM_TIMEOUT=1800 >/dev/null 2>&1
		logs+=("switches-on=$out/guest-switches-on.log")
		# a long stress with faults (70 rounds), after test_bad_input (see guest-suite.sh)
		echo "==> guest stress (memtide kernel)" >&2
		printf '#!/bin/sh\nexec sh ./guest-suite.sh stress\n' >"$out/stress.sh"
		guest_suite "$out/stress.sh" "$out/guest-stress.log" KERNEL=memtide \
			VM_FILES=selftests/vm/guest-suite.sh VM_TIMEOUT=3600 >/dev/null 2>&1
		logs+=("stress=$out/guest-stress.log")
	fi
	if [ $vanilla_ok = 1 ]; then
		echo "==> guest suite (vanilla kernel)" >&2
		guest_suite selftests/vm/guest-upstream.sh "$out/guest-vanilla.log" KERNEL=vanilla >/dev/null 2>&1
		logs+=("vanilla-kernel=$out/guest-vanilla.log")
	fi
	step kernel-build-each make -s kernel-build-each
fi

if [ $debug = 1 ]; then
	# KASAN's shadow and checks make TCG several times slower: a boot may take hours. The
	# memtide kernel's suite comes first: on the slower AMD host the two debug kernels and
	# their guests take about 3 h, a working session at most, and a run cut short there has
	# then tested memtide; the vanilla one only records what a stock debug kernel reports.
	if step kernel-debug-build make -s kernel DEBUG=1 &&
		step guest-image-debug make -s initramfs KERNEL=memtide; then
		echo "==> guest suite (memtide debug kernel)" >&2
		guest_suite selftests/vm/guest-suite.sh "$out/guest-debug.log" KERNEL=memtide-debug \
			VM_TIMEOUT=10800 >/dev/null 2>&1
		logs+=("debug=$out/guest-debug.log")
	fi
	if step kernel-vanilla-debug-build make -s kernel-vanilla DEBUG=1 &&
		step guest-image-vanilla-debug make -s initramfs KERNEL=vanilla; then
		echo "==> guest suite (vanilla debug kernel: what a stock debug kernel reports)" >&2
		guest_suite selftests/vm/guest-upstream.sh "$out/guest-vanilla-debug.log" \
			KERNEL=vanilla-debug VM_TIMEOUT=10800 >/dev/null 2>&1
		logs+=("vanilla-debug=$out/guest-vanilla-debug.log")
	fi
fi

# the steps ran to the end: close their log as every suite is closed (summarize.sh)
printf '# memtide-suite-time: %d\n# memtide-suite-exit: 0\n' "$steps_s" >>"$out/steps.log"
# where the time went, slowest first (build/check/durations.txt; the 5 slowest shown here)
selftests/vm/durations.sh "${logs[@]}" >"$out/durations.txt" &&
	{ echo "==> slowest tests (build/check/durations.txt)"; head -n 5 "$out/durations.txt"; } >&2
[ ${#kept_names[@]} -eq 0 ] ||
	echo "==> kept from an earlier run of this tree (RESUME=1): ${kept_names[*]}" >&2
echo "==> summary ($(($(date +%s) - start)) s in all; logs in build/check/)" >&2
selftests/vm/summarize.sh "${gate[@]}" "${logs[@]}" | tee "$out/summary.txt"
exit "${PIPESTATUS[0]}"
