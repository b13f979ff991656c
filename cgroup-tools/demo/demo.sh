#!/bin/sh
# make demo, run inside the guest by vm-run: one cgroup holding an idle process's memory,
# shrunk with memory.reclaim. Prints memory.current / memory.swap.current before and after.
# (The hibernation flow of later releases builds on this.)
set -e
CG=/sys/fs/cgroup/demo
SIZE=${DEMO_SIZE:-512M}

uptime_s() { cut -d' ' -f1 /proc/uptime; }
show() { printf '%-28s memory.current %6d MiB   memory.swap.current %6d MiB\n' "$1" \
	$(($(cat $CG/memory.current) >> 20)) $(($(cat $CG/memory.swap.current) >> 20)); }

mkdir -p $CG
sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog $SIZE" >hog.out &
hog=$!
until grep -q ready hog.out 2>/dev/null; do sleep 0.2; done

echo "demo: cgroup $CG holds an idle process with $SIZE of incompressible memory"
show "before memory.reclaim:"
t0=$(uptime_s)
echo "$SIZE" >$CG/memory.reclaim || echo "demo: memory.reclaim stopped short (EAGAIN)"
t1=$(uptime_s)
show "after memory.reclaim:"
echo "demo: echo $SIZE > memory.reclaim took $(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}') s"

kill -USR1 $hog
until grep -q touched hog.out; do sleep 0.2; done
show "after touching it again:"
sed -n 's/^memhog: /demo: demand paging /p' hog.out | tail -n 1
kill $hog
