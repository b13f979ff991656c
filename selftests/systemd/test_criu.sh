#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# CRIU (Debian 12's criu 3.17.1) with and without `memtide criu-action`: a process with 60% of
# its memory in swap is checkpointed to a tmpfs and restored, and the restored process checks
# its pages. With the action script the pages are back in RAM before CRIU freezes the task,
# so the frozen dump reads nothing from swap; without it, CRIU faults them in one by one
# while the task is frozen (criu-round.sh). How long it stays frozen is for the benchmark
# (make bench SCENARIO=criu), not for a test. TAP.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/criu-round.sh"
require_systemd
SIZE=${SIZE:-160}	# MiB
trap 'criu_kill; umount $CRIU_IMG 2>/dev/null; rmdir $CRIU_CG 2>/dev/null' EXIT

criu check >check.out 2>&1
check "criu check: the kernel has what CRIU needs" $? "$(tail -n 5 check.out)"

for variant in plain memtide; do
	with=0
	[ $variant = memtide ] && with=1
	criu_round $variant $SIZE $with
	[ "$swapped" -ge $((SIZE * MiB * 55 / 100)) ]
	check "$variant: $((swapped / MiB)) of $SIZE MiB in swap before the dump" $?
	[ "$dump_rc" = 0 ] && [ -s mark-$variant ] && [ "$gone" = 1 ]
	check "$variant: criu dump succeeded, ran the action script, ended the task (exit $dump_rc)" $? \
		"$(tail -n 5 stats-$variant.out; grep -i error dump-$variant.log | tail -n 5)"
	if [ $variant = memtide ]; then
		[ "$dumpin" -lt $((swapped / 4096 / 20)) ]
		check "memtide: the frozen dump read $dumpin pages from swap (< 5% of $((swapped / 4096)))" $?
		grep -q "/mt-criu: released" dump-$variant.log
		check "memtide: criu-action's report is in CRIU's log" $? \
			"$(grep -i "memtide\|action" dump-$variant.log | tail -n 5)"
	else
		[ "$dumpin" -ge $((swapped / 4096 / 2)) ]
		check "plain: the frozen dump read $dumpin pages from swap (>= half of $((swapped / 4096)))" $?
	fi
	[ "$restore_rc" = 0 ] && [ "$gone" = 1 ] && kill -0 "$pid" 2>/dev/null
	check "$variant: criu restore brought back pid $pid" $? \
		"$(tail -n 5 restore-$variant.out; grep -i error restore-$variant.log | tail -n 5)"
	[ "$gone" = 1 ] && criu_verify $variant
	check "$variant: the restored memhog finds its pages intact" $? "$(tail -n 2 hog-$variant.out)"
	echo "# $variant: frozen ${frozen_us} us, dump ${dump_us} us"
	criu_kill
done
done_testing
