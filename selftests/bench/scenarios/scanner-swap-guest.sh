#!/bin/sh
# Guest half of scenario "scanner-swap": $1 is the value of vm.swapout_second_chance, $2 the
# cgroup's memory.max (default 192M; "max": the system's own memory is the limit, so kswapd
# and direct reclaim do the work), $3 what memhog maps (default 384M).
# Prints one "bench-result" line of KEY=VALUE pairs for the host.
set -e
# named now: `set --` below reuses the positional parameters
switch=$1 limit=${2:-192M} size=${3:-384M}
echo "$switch" >/proc/sys/vm/swapout_second_chance
uptime_us() { awk '{ printf "%d", $1 * 1e6 }' /proc/uptime; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)

cg=/sys/fs/cgroup/bench
mkdir $cg
echo "$limit" >$cg/memory.max
# /sys/block/vda/stat: field 5 = write requests, 7 = sectors written
set -- $(cat /sys/block/vda/stat)
w_ios0=$5 w_sec0=$7
out0=$(vmstat pswpout) in0=$(vmstat pswpin) chances0=$(vmstat pgswapout_second_chance)
steal_kswapd0=$(vmstat pgsteal_kswapd) steal_direct0=$(vmstat pgsteal_direct)
t0=$(uptime_us)
sh -c "echo \$\$ >$cg/cgroup.procs && exec memhog $size" >hog.out &
hog=$!
until grep -q ready hog.out 2>/dev/null; do sleep 0.05; done
t1=$(uptime_us)
for pass in 1 2; do
	kill -USR1 $hog
	until [ "$(grep -c touched hog.out)" -ge $pass ]; do sleep 0.05; done
done
t2=$(uptime_us)
kill -USR2 $hog
until grep -q corrupt_pages hog.out; do sleep 0.05; done
grep -q 'corrupt_pages=0$' hog.out || { echo "scanner-swap: memory corrupted" >&2; exit 1; }
set -- $(cat /sys/block/vda/stat)
w_ios=$(($5 - w_ios0)) w_sec=$(($7 - w_sec0))
pout=$(($(vmstat pswpout) - out0)) pin=$(($(vmstat pswpin) - in0))
# a run that swapped nothing measured nothing (a size memhog did not get, say): failed
rc=0
[ "$pout" -gt 0 ] || rc=nothing-swapped
echo "bench-result rc=$rc elapsed_us=$((t2 - t0)) fill_us=$((t1 - t0)) touch_us=$((t2 - t1))" \
	"moved=$(((pout + pin) * page)) swapped=$((pout * page)) swapped_in=$((pin * page))" \
	"write_ios=$w_ios write_bytes=$((w_sec * 512))" \
	"second_chance_pages=$(($(vmstat pgswapout_second_chance) - chances0))" \
	"kswapd_steal_pages=$(($(vmstat pgsteal_kswapd) - steal_kswapd0))" \
	"direct_steal_pages=$(($(vmstat pgsteal_direct) - steal_direct0))" \
	"scan_pressure=$(awk '$1 == "scan_pressure" { print $2 }' $cg/memory.stat)"
