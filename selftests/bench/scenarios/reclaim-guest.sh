#!/bin/sh
# Guest half of scenarios "reclaim" and "scanner-reclaim": $1 is what to write to
# memory.reclaim (700M or max; AMOUNT/BATCH, 700M/8M: AMOUNT in writes of at most BATCH, as a
# program can batch on a stock kernel), $2 (memtide kernels only, optional) the value of
# vm.swapout_second_chance. Prints one "bench-result" line of KEY=VALUE pairs for the host.
set -e
amount=${1%/*} batch=
case $1 in */*) batch=${1#*/} ;; esac
[ -z "${2:-}" ] || echo "$2" >/proc/sys/vm/swapout_second_chance
cg=/sys/fs/cgroup/bench
mkdir "$cg"
sh -c "echo \$\$ >$cg/cgroup.procs && exec memhog 700M" >hog.out &
while ! grep -q ready hog.out 2>/dev/null; do sleep 0.2; done
held=$(cat "$cg/memory.current")
# /sys/block/vda/stat: field 5 = write requests, 7 = sectors written
set -- $(cat /sys/block/vda/stat)
w_ios0=$5 w_sec0=$7
out=$(timed_write "$cg/memory.reclaim" "$amount" $batch)
set -- $(cat /sys/block/vda/stat)
w_ios=$(($5 - w_ios0)) w_sec=$(($7 - w_sec0))
echo "bench-result held=$held swapped=$(cat "$cg/memory.swap.current")" \
	"left=$(cat "$cg/memory.current") write_ios=$w_ios write_bytes=$((w_sec * 512))" \
	"${out#timed_write: }"
