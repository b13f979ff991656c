#!/bin/sh
# Guest half of scenarios "release" and "release-cloud": $1 is the prefetch method (demand,
# swapoff, madvise, release; see prefetch.c), $2 the layout: "alone" (one 700 MiB process) or
# "interleaved" (two 350 MiB processes in two cgroups whose swap slots alternate in 8 MiB
# runs; only the first is brought back). Prints one "bench-result" line for the host.
set -e
method=$1 layout=$2

# hog NAME SIZE: a cgroup NAME with an idle memhog of SIZE; sets $pid
hog() {
	mkdir "/sys/fs/cgroup/$1"
	sh -c "echo \$\$ >/sys/fs/cgroup/$1/cgroup.procs && exec memhog $2" >"$1.out" &
	pid=$!
	while ! grep -q ready "$1.out" 2>/dev/null; do sleep 0.2; done
}

cg=/sys/fs/cgroup/bench
if [ "$layout" = interleaved ]; then
	hog bench 350M
	hog other 350M
	for i in $(seq 44); do
		echo 8M >$cg/memory.reclaim 2>/dev/null || true
		echo 8M >/sys/fs/cgroup/other/memory.reclaim 2>/dev/null || true
	done
	echo max >/sys/fs/cgroup/other/memory.reclaim
else
	hog bench 700M
fi
# the bench hog is the first one started: find its pid again
pid=$(cat $cg/cgroup.procs)
# "max" is memtide's; a stock kernel takes bytes, and may stop short of them with EAGAIN:
# memory.current three times, as workload-guest.sh does
if ! echo max >$cg/memory.reclaim 2>/dev/null; then
	for i in 1 2 3; do
		echo "$(cat $cg/memory.current)" >$cg/memory.reclaim 2>/dev/null || true
	done
fi
swapped=$(cat $cg/memory.swap.current)

# /sys/block/vda/stat: field 1 = read requests, 3 = sectors read
set -- $(cat /sys/block/vda/stat)
r_ios0=$1 r_sec0=$3
# the script's own clock as a cross-check of prefetch + memhog (10 ms resolution)
up0=$(cut -d' ' -f1 /proc/uptime)
out=$(prefetch "$method" "$pid" $cg /dev/vda)
kill -USR1 "$pid"
while ! grep -q touch_end_us bench.out; do sleep 0.05; done
up1=$(cut -d' ' -f1 /proc/uptime)
set -- $(cat /sys/block/vda/stat)
r_ios=$(($1 - r_ios0)) r_sec=$(($3 - r_sec0))
# "memhog: touched N MiB in S s"
touch_s=$(sed -n 's/.* in \([0-9.]*\) s$/\1/p' bench.out)
method_us=$(echo "$out" | sed -n 's/.*elapsed_us=\([0-9]*\).*/\1/p')
start_us=$(echo "$out" | sed -n 's/.*start_us=\([0-9]*\).*/\1/p')
rc=$(echo "$out" | sed -n 's/.* rc=\([^ ]*\).*/\1/p')
# from the start of the method to the end of the touch, on one clock: not method + touch,
# because waking memhog may itself wait behind the prefetch's queued reads (its stack is in
# swap), which memhog's own timing of the touch would not see
total_us=$(($(sed -n 's/^memhog: touch_end_us=//p' bench.out) - start_us))
wall_us=$(awk -v a="$up0" -v b="$up1" 'BEGIN { printf "%d", (b - a) * 1e6 }')
echo "bench-result swapped=$swapped method_us=$method_us touch_s=$touch_s wall_us=$wall_us" \
	"read_ios=$r_ios read_bytes=$((r_sec * 512)) left_in_swap=$(cat $cg/memory.swap.current)" \
	"rc=$rc elapsed_us=$total_us"
