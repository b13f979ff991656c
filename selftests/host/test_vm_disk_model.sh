#!/usr/bin/env bash
# make bench's two disk models reach QEMU: vm-run.sh turns DISK_BPS and DISK_IOPS into the
# swap drive's throttling (bps-total, iops-total: the "seed" disk and the "cloud volume"), and
# leaves the scratch disk, which no figure times, uncapped. QEMU is a stand-in (lib.sh
# fake_vm) that records its arguments.
. "$(dirname "$0")/lib.sh"
plan 4

fake_vm
echo 'echo hi' >"$TMP/s.sh"
# drives_of NAME SETTINGS...: vm-run.sh with SETTINGS; QEMU's -drive values in $TMP/drives.NAME
drives_of() {
	local name=$1
	shift
	env -i PATH="$vm_stand_in:$PATH" BUILD="$vm_build" QEMU_ARGS_LOG="$TMP/args.$name" \
		SCRIPT="$TMP/s.sh" KERNEL=memtide "$@" "$ROOT/selftests/vm/vm-run.sh" >"$TMP/vm.$name.log" 2>&1
	grep -A1 -x -- -drive "$TMP/args.$name" | grep -v -x -- '-drive\|--' >"$TMP/drives.$name"
}
drives_of seed DISK_BPS=100000000
check "seed: the swap drive is capped at 100 MB/s, no request cap" \
	bash -c "grep 'id=swap,' '$TMP/drives.seed' | grep -q ',throttling.bps-total=100000000\$'"
drives_of cloud DISK_BPS=100000000 DISK_IOPS=3000
check "cloud volume: 100 MB/s and 3000 requests/s on the swap drive" \
	bash -c "grep 'id=swap,' '$TMP/drives.cloud' | grep -q ',throttling.bps-total=100000000,throttling.iops-total=3000\$'"
drives_of uncapped DISK_BPS=0 DISK_IOPS=0
check "uncapped: no throttling on any drive" \
	bash -c "[ \$(wc -l <'$TMP/drives.uncapped') -ge 2 ] && ! grep -q throttling '$TMP/drives.uncapped'"
check "the scratch drive is never throttled" \
	bash -c "grep -q 'id=scratch,' '$TMP/drives.cloud' && ! grep 'id=scratch,' '$TMP/drives.cloud' | grep -q throttling"
done_testing
