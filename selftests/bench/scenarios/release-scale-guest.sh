#!/bin/sh
# Guest half of the release-scale scenarios: $1 GiB of a slice in swap (three processes, one
# of them with memhog's --probe thread, and a tmpfs file, a quarter each), then one timed
# `echo 512M > memory.release`. Prints one "bench-result" line: the write's wall time and the
# writer's system CPU time (timed_write), that CPU time per released GiB, and the slowest
# mmap/touch/munmap of the probe thread during the write (memhog --probe), and how much of
# the slice was in memory, and checked intact, afterwards (checked_bytes).
set -e
gib=$1
. ./workload-guest.sh
cg=/sys/fs/cgroup/bench
mkdir $cg
# /dev/shm is a tmpfs of half the guest's memory: room for the slice's quarter in swap
mount -o remount,size=$((gib + 1))g /dev/shm
# the slice is written under a memory.max well below its size: it goes to swap as it is
# written, as a long-idle slice's memory went there over time
echo 512M >$cg/memory.max
quarter=$((gib * 1024 / 4))M
pids= outs=
for i in 1 2 3 shm; do
	case $i in
	1) set -- --probe ;;
	shm) set -- --file=/dev/shm/scale.shm ;;
	*) set -- ;;
	esac
	sh -c "echo \$\$ >$cg/cgroup.procs && exec memhog $* $quarter" >scale-$i.out &
	pid=$!
	workload_wait $pid scale-$i.out ready
	pids="$pids $pid" outs="$outs scale-$i.out"
done
set -- $pids
probe=$1
echo max >$cg/memory.max
workload_reclaim $cg
swapped=$(cat $cg/memory.swap.current)
swapdev=/dev/$(awk 'NR == 2 { sub(".*/", "", $1); print $1 }' /proc/swaps)
until awk '{ exit $1 + $2 != 0 }' /sys/block/${swapdev#/dev/}/inflight; do sleep 0.05; done

# the probe's figures start over at the write
kill -TTIN $probe
workload_wait $probe scale-1.out probe_worst_us
out=$(timed_write $cg/memory.release 512M)
kill -TTIN $probe
workload_wait $probe scale-1.out probe_worst_us 1
probe_line=$(grep probe_worst_us scale-1.out | tail -n 1)
worst=$(echo "$probe_line" | sed 's/.*probe_worst_us=\([0-9]*\).*/\1/')
loops=$(echo "$probe_line" | sed 's/.*probe_loops=\([0-9]*\).*/\1/')
val() { echo "$out" | sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
rc=$(val rc)
released=$(val rb_released)
stime=$(val stime_us)
per_gib=
[ "${released:-0}" -gt 0 ] && per_gib=$((stime * 1073741824 / released))
# the slice's data in memory after the release (memhog's resident check: a check of every
# page would first fault gigabytes in), so that no figure stands on corruption
checked=0
set -- $outs
for pid in $pids; do
	kill -TTOU $pid
	workload_wait $pid "$1" resident_pages
	line=$(grep resident_pages "$1")
	echo "$line" | grep -q 'corrupt_resident=0$' || rc=corrupt
	checked=$((checked + $(echo "$line" | sed 's/.*resident_pages=\([0-9]*\).*/\1/')))
	shift
done
echo "bench-result swapped=$swapped moved=$released elapsed_us=$(val elapsed_us)" \
	"stime_us=$stime cpu_per_gib_us=$per_gib probe_worst_us=$worst probe_loops=$loops" \
	"latency_budget_us=100000 rb_read=$(val rb_read) rb_skipped=$(val rb_skipped)" \
	"rb_remaining=$(val rb_remaining) checked_bytes=$((checked * 4096)) rc=$rc"
