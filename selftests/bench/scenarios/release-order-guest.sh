#!/bin/sh
# Guest half of the order sweep's release scenarios (release-address, release-rounds,
# release-scattered): $1 is the method (prefetch.c: demand, tool), $2 the workload mode
# (workload-guest.sh: address, rounds, scattered). A slice of three processes and a tmpfs
# file, 45% of the guest's memory, goes to swap; then, timed on one clock, the method brings
# it back and every owner touches all its pages. Prints one "bench-result" line for the host.
set -e
method=$1 mode=$2
. ./workload-guest.sh
cg=/sys/fs/cgroup/bench
mkdir $cg
total_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
workload_start $cg "$mode" $((total_kb * 45 / 100))
workload_reclaim $cg
swapped=$(cat $cg/memory.swap.current)
# what is still resident counts in no method's favour: it is said, not hidden
resident=$(cat $cg/memory.current)
swapdev=/dev/$(awk 'NR == 2 { sub(".*/", "", $1); print $1 }' /proc/swaps)
stat=/sys/block/${swapdev#/dev/}/stat
# the reclaim's writes on the disk before the clock starts
until awk '{ exit $1 + $2 != 0 }' /sys/block/${swapdev#/dev/}/inflight; do sleep 0.05; done

# /sys/block/DEV/stat: field 1 = read requests, 3 = sectors read
set -- $(cat $stat)
r_ios0=$1 r_sec0=$3
# (prefetch takes a pid for its per-process methods, which this sweep does not use)
set -- $WORKLOAD_PIDS
out=$(prefetch "$method" "$1" $cg "$swapdev")
workload_touch
set -- $(cat $stat)
r_ios=$(($1 - r_ios0)) r_sec=$(($3 - r_sec0))
method_us=$(echo "$out" | sed -n 's/.*elapsed_us=\([0-9]*\).*/\1/p')
start_us=$(echo "$out" | sed -n 's/.*start_us=\([0-9]*\).*/\1/p')
rc=$(echo "$out" | sed -n 's/.* rc=\([^ ]*\).*/\1/p')
left=$(cat $cg/memory.swap.current)
workload_check || rc=corrupt
echo "bench-result swapped=$swapped resident_before_bytes=$resident method_us=$method_us" \
	"read_ios=$r_ios read_bytes=$((r_sec * 512)) left_in_swap_bytes=$left rc=$rc" \
	"elapsed_us=$((WORKLOAD_END_US - start_us))"
