# SPDX-License-Identifier: GPL-2.0
# Sourced by test_criu.sh and the "criu" benchmark (selftests/bench/scenarios/criu-guest.sh):
# one checkpoint and restore of an idle process with 60% of its memory in swap.
#
# criu_round LABEL SIZE_MIB WITH_MEMTIDE: memhog of SIZE_MIB in /sys/fs/cgroup/mt-criu,
# memory.reclaim of 60% of it (not memory.max, which would leave a release no room), then
# `criu dump` to a tmpfs, with `memtide criu-action` as the action script if WITH_MEMTIDE
# is 1, and `criu restore -d`. The action script is wrapped so that the end of pre-dump is
# marked: every page read from swap after the mark was read by the dump itself, while the
# task was frozen. Sets:
#   pid        the restored memhog (its output in hog-LABEL.out)
#   swapped    bytes in swap before the dump
#   dumpin     pages read from swap after pre-dump (by the frozen dump)
#   dump_rc restore_rc   criu's exit statuses; logs in dump-LABEL.log, restore-LABEL.log
#   gone       1 if the task was gone after the dump (so that a live pid means restored)
#   frozen_us  CRIU's "Frozen time" (--display-stats); dump_us  the dump's wall time
CRIU_IMG=/run/mt-criu-img
CRIU_CG=/sys/fs/cgroup/mt-criu

criu_action_wrapper() {
	cat >"$PWD/criu-action.sh" <<'SH'
#!/bin/sh
[ "$WITH_MEMTIDE" = 1 ] && memtide criu-action
[ "$CRTOOLS_SCRIPT_ACTION" = pre-dump ] && sed -n 's/^pswpin //p' /proc/vmstat >"$MARK"
exit 0
SH
	chmod +x "$PWD/criu-action.sh"
}

criu_round() {
	label=$1 size=$2 with=$3
	criu_action_wrapper
	umount $CRIU_IMG 2>/dev/null
	mkdir -p $CRIU_IMG $CRIU_CG
	mount -t tmpfs -o size=$((size * 2))M tmpfs $CRIU_IMG || return 1
	rm -f "hog-$label.out" "mark-$label"
	setsid sh -c "echo \$\$ >$CRIU_CG/cgroup.procs && exec /opt/memtide/bin/memhog ${size}M" \
		</dev/null >"hog-$label.out" 2>&1 &
	until grep -q ready "hog-$label.out" 2>/dev/null; do sleep 0.2; done
	pid=$(cat $CRIU_CG/cgroup.procs)
	echo $((size * 6 / 10))M >$CRIU_CG/memory.reclaim
	swapped=$(cat $CRIU_CG/memory.swap.current)
	sync
	echo 3 >/proc/sys/vm/drop_caches
	t0=$(date +%s%N)
	WITH_MEMTIDE=$with MARK=$PWD/mark-$label criu dump -t "$pid" -D $CRIU_IMG \
		-o "$PWD/dump-$label.log" -v4 --action-script "$PWD/criu-action.sh" --display-stats \
		>"stats-$label.out" 2>&1
	dump_rc=$?
	dump_us=$((($(date +%s%N) - t0) / 1000))
	# a dump ends the task; one still running was not dumped, and must not pass for restored
	gone=1
	kill -0 "$pid" 2>/dev/null && gone=0
	dumpin=$(($(sed -n 's/^pswpin //p' /proc/vmstat) - $(cat "mark-$label" 2>/dev/null || echo 0)))
	frozen_us=$(sed -n 's/^Frozen time: *\([0-9]*\) us.*/\1/p' "stats-$label.out")
	# the dumped task is gone: restore it detached, in this service's cgroup
	criu restore -D $CRIU_IMG -d -o "$PWD/restore-$label.log" -v4 --manage-cgroups=ignore \
		>"restore-$label.out" 2>&1
	restore_rc=$?
	umount $CRIU_IMG 2>/dev/null
	return 0
}

# criu_verify LABEL: the restored memhog checks its pages; 0 if none is corrupt
criu_verify() {
	kill -USR2 "$pid" || return 1
	until grep -q corrupt_pages "hog-$1.out"; do sleep 0.2; done
	grep -q "corrupt_pages=0$" "hog-$1.out"
}
criu_kill() {
	[ -n "$pid" ] || return 0
	kill -9 "$pid" 2>/dev/null
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	pid=
}
