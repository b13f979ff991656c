#!/bin/sh
# Guest half of scenario "scanner-contend": $1 cgroups, each with memory.max $2 and one memhog
# of $3, all started at once; each memhog fills, then touches all of its memory twice, the
# passes again all at once. Runs on mainline kernels too (reads no memtide file).
# Prints one "bench-result" line of KEY=VALUE pairs for the host.
set -e
n=$1 limit=$2 size=$3
uptime_us() { awk '{ printf "%d", $1 * 1e6 }' /proc/uptime; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
page=$(getconf PAGESIZE 2>/dev/null || echo 4096)
ids=$(seq "$n")
# all_have COUNT WORD: each of hog1.out..hogN.out has at least COUNT lines with WORD
all_have() {
	for i in $ids; do
		[ "$(grep -c "$2" hog$i.out 2>/dev/null)" -ge "$1" ] || return 1
	done
}

for i in $ids; do
	mkdir /sys/fs/cgroup/c$i
	echo "$limit" >/sys/fs/cgroup/c$i/memory.max
done
out0=$(vmstat pswpout) in0=$(vmstat pswpin)
t0=$(uptime_us)
pids=
for i in $ids; do
	sh -c "echo \$\$ >/sys/fs/cgroup/c$i/cgroup.procs && exec memhog $size" >hog$i.out &
	pids="$pids $!"
done
until all_have 1 ready; do sleep 0.05; done
t1=$(uptime_us)
for pass in 1 2; do
	for pid in $pids; do kill -USR1 "$pid"; done
	until all_have $pass touched; do sleep 0.05; done
done
t2=$(uptime_us)
for pid in $pids; do kill -USR2 "$pid"; done
until all_have 1 corrupt_pages; do sleep 0.05; done
rc=0
for i in $ids; do
	grep -q 'corrupt_pages=0$' hog$i.out || rc=memory-corrupted
done
pout=$(($(vmstat pswpout) - out0)) pin=$(($(vmstat pswpin) - in0))
# limit reclaim counts its pgsteal in the memcg only, not in /proc/vmstat (evict_folios(),
# shrink_inactive_list(): !cgroup_reclaim(sc)): the cgroups' own counts, summed
steal=$(cat /sys/fs/cgroup/c*/memory.stat | awk '$1 == "pgsteal_direct" { s += $2 } END { print s + 0 }')
# a run that swapped nothing measured nothing (a limit that held everything): failed
[ "$pout" -gt 0 ] || rc=nothing-swapped
echo "bench-result rc=$rc elapsed_us=$((t2 - t0)) fill_us=$((t1 - t0)) touch_us=$((t2 - t1))" \
	"moved=$(((pout + pin) * page)) swapped=$((pout * page)) swapped_in=$((pin * page))" \
	"direct_steal_pages=$steal"
