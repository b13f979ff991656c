# SPDX-License-Identifier: GPL-2.0
# Sourced by the systemd guest's tests (vm-run.sh ROOTFS=, selftests/vm/guest-systemd.sh):
# idle workloads started as systemd units.
# the TAP helpers (ok, check, done_testing) and json_value: memtide's guest tests' own
. /opt/memtide/bin/lib.sh
CG=/sys/fs/cgroup
MiB=1048576
units=

# The tests need systemd as PID 1 and a system bus: anything else is a failure, not a skip.
require_systemd() {
	echo "TAP version 13"
	if [ "$(cat /proc/1/comm)" != systemd ] || ! busctl status >/dev/null 2>&1; then
		echo "not ok 1 - systemd is PID 1 with a system bus (PID 1 is $(cat /proc/1/comm))"
		echo "1..1"
		exit 1
	fi
}

# hog UNIT SLICE SIZE: memhog of SIZE as UNIT.service in SLICE.slice; waits until it is ready
hog() {
	rm -f "$PWD/$1.out"
	systemd-run --quiet --unit="$1" --slice="$2" -p StandardOutput=file:"$PWD/$1.out" \
		/opt/memtide/bin/memhog "$3" || return 1
	# the slice too: a stopped unit leaves its slice behind, in the next test's plan
	units="$units $1.service $2.slice"
	until grep -q ready "$PWD/$1.out" 2>/dev/null; do sleep 0.2; done
}
# verify UNIT: memhog checks its pages against what it wrote; 0 if none is corrupt
verify() {
	systemctl kill -s USR2 --kill-who=main "$1.service"
	until grep -q corrupt_pages "$PWD/$1.out"; do sleep 0.2; done
	grep -q "corrupt_pages=0$" "$PWD/$1.out"
}
# cgpath UNIT: the unit's cgroup directory, as systemd reports it
cgpath() { echo "$CG$(systemctl show -P ControlGroup "$1")"; }
# wait_until SECONDS CMD...: poll CMD every 0.5 s; 0 once it succeeds, 1 at the deadline
wait_until() {
	t=$(($1 * 2))
	shift
	while [ $t -gt 0 ]; do
		"$@" && return 0
		sleep 0.5
		t=$((t - 1))
	done
	return 1
}
stop_units() { [ -n "$units" ] && systemctl stop $units 2>/dev/null; units=; }
