# SPDX-License-Identifier: GPL-2.0
# Sourced by memtide's shell tests in the busybox guest (test_tool, test_hibernate*) and by
# the systemd guest's (selftests/systemd/lib.sh): TAP helpers, memtide's JSON read, and the
# boot number vm-run gives each boot of a run. Installed beside them (/opt/memtide/bin).
n=0 failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# check NAME CONDITION-EXIT-STATUS [what went wrong]
check() { if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1"; [ -n "${3:-}" ] && echo "$3" | sed 's/^/# /'; fi; }
done_testing() { echo "1..$n"; [ $failed = 0 ]; }
# json_value FILE KEY: a number (or "string") from memtide's JSON output, which is one line
# into a file (busybox has no JSON tool: each field on a line of its own first)
json_value() {
	tr ',{}[]' '\n\n\n\n\n' <"$1" | sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\"]*\)\"\{0,1\} *$/\1/p" | head -n 1
}

# vm_boot: N in the Nth boot of a vm-run run (its scratch disk's serial is mt-boot-N, read
# again from the device after a resume); empty outside vm-run
vm_boot() { sed -n 's/^mt-boot-\([0-9]*\)$/\1/p' /sys/block/vdb/serial 2>/dev/null; }
# require_hibernation: skip the whole test unless vm-run can resume this guest from an image
require_hibernation() {
	if [ -z "$(vm_boot)" ] || [ -z "$MEMTIDE_NONCE" ]; then
		echo "1..0 # SKIP needs vm-run's hibernation support (scratch disk serial, MEMTIDE_NONCE)"
		exit 0
	fi
}
