#!/bin/sh
# The guest of `make repeat CASE=fill-race` (selftests/vm/repeat.sh), issue 35 item 7: a hang
# seen on the memtide-perf kernel in a 1 GiB guest, swap disk at 125 MB/s and 3000 requests/s,
# when three processes in three cgroups fill 200 MiB of anonymous memory each at once with
# THP=always (2 of 5 boots: the third fill never finished, no oops, no lockup report).
#
# Each round starts the three fills at once, each in a cgroup of its own under the root, and
# waits for all of them to say "ready"; hang_watch (started beside them, killed when the round
# is done) dumps the blocked tasks, every CPU's backtrace and the memory state to the console
# if the round takes more than FILL_LIMIT seconds, so that a hang leaves a trace before the
# host's VM_TIMEOUT kills the guest. The hung-task, soft-lockup and RCU-stall detectors of the
# -perf kernels (kernel-tree/configs/perf.config) report on their own.
# TAP: one "ok"/"not ok" per round; a round hang_watch reported fails, and the next starts
# if the guest still can. Each round says how much went to swap while it ran: the report's
# three 200M fills swap nothing out in this guest (0 MiB in 3 boots of each -perf kernel;
# three of 320M swapped 32-52 MiB), so rounds 4 and 5 fill 400M each, 1200M in the 1 GiB
# guest, which must reclaim a quarter of it, with direct reclaimers in three cgroups at once.
# Settings (environment):
#   FILL_SIZES   each round's fill per process, memhog's SIZE (default "200M 200M 200M 400M 400M")
#   FILL_LIMIT   seconds a round may take before hang_watch reports (default 240)
opt=${MEMTIDE_OPT:-/opt/memtide}
sizes=${FILL_SIZES:-200M 200M 200M 400M 400M}
rounds=$(echo "$sizes" | wc -w)
limit=${FILL_LIMIT:-240}
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
cg=/sys/fs/cgroup

# framed as guest-suite.sh frames a binary, for summarize.sh
echo "# memtide-suite: repro fill-race"
echo "TAP version 13"
echo "1..$rounds"
echo always >/sys/kernel/mm/transparent_hugepage/enabled ||
	{ echo "Bail out! cannot set THP=always"; exit 1; }
echo "+memory" >$cg/cgroup.subtree_control 2>/dev/null
for i in 1 2 3; do
	mkdir -p $cg/fill$i || { echo "Bail out! cannot create $cg/fill$i"; exit 1; }
done

failed=0
r=1
for size in $sizes; do
	out0=$(vmstat pswpout)
	"$opt/bin/hang_watch" "$limit" &
	watch=$!
	read -r t0 _ </proc/uptime
	pids=
	for i in 1 2 3; do
		sh -c "echo \$\$ >$cg/fill$i/cgroup.procs && exec $opt/bin/memhog $size" >fill$i.out 2>&1 &
		pids="$pids $!"
	done
	# ready: every memhog said so; gone: one exited before (OOM kill, setup failure)
	state=wait
	while [ "$state" = wait ]; do
		state=ready
		i=0
		for pid in $pids; do
			i=$((i + 1))
			grep -q "memhog: ready" fill$i.out && continue
			kill -0 "$pid" 2>/dev/null || { state="gone $i"; break; }
			state=wait
		done
		# (hang_watch reports at the limit; a shell cannot tell its exit from a zombie's)
		read -r now _ </proc/uptime
		[ "$state" = wait ] && [ $((${now%.*} - ${t0%.*})) -gt "$limit" ] && state="over ${limit} s"
		[ "$state" = wait ] && sleep 0.2
	done
	read -r t1 _ </proc/uptime
	kill "$watch" 2>/dev/null
	wait "$watch"
	fired=$?
	took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	if [ "$state" = ready ] && [ $fired -ne 1 ]; then
		echo "ok $r - round $r"
		echo "# round $r: three fills of $size in ${took} s, $((($(vmstat pswpout) - out0) / 256)) MiB swapped out"
	else
		failed=$((failed + 1))
		echo "not ok $r - round $r"
		echo "# round $r: three fills of $size: $state after ${took} s (hang_watch exit $fired)"
		for i in 1 2 3; do sed "s/^/# fill$i: /" fill$i.out; done
	fi
	for pid in $pids; do kill "$pid" 2>/dev/null; done
	for pid in $pids; do wait "$pid" 2>/dev/null; done
	grep -H "" $cg/fill*/memory.events | sed 's/^/# /'
	r=$((r + 1))
done
rc=0
[ $failed -eq 0 ] || rc=1
echo "# memtide-suite-exit: $rc"
exit $rc
