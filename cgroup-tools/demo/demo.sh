#!/bin/sh
# make demo, run inside the guest by vm-run: one cgroup holding an idle process's memory,
# shrunk with memory.reclaim "max", brought back by demand paging, shrunk again and brought
# back with memory.release "max". Prints memory.current / memory.swap.current at each step,
# what the kernel reports for each write, and how long the process took to touch its memory.
# (The hibernation flow of later releases builds on this.)
set -e
CG=/sys/fs/cgroup/demo
SIZE=${DEMO_SIZE:-512M}

show() { printf '%-28s memory.current %6d MiB   memory.swap.current %6d MiB\n' "$1" \
	$(($(cat $CG/memory.current) >> 20)) $(($(cat $CG/memory.swap.current) >> 20)); }

mkdir -p $CG
sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog $SIZE" >hog.out &
hog=$!
until grep -q ready hog.out 2>/dev/null; do sleep 0.2; done

echo "demo: cgroup $CG holds an idle process with $SIZE of incompressible memory"
show "before memory.reclaim:"
# reclaim: shrink the cgroup with memory.reclaim "max" and print the kernel's read-back
reclaim() {
	# "max" and the read-back of the result on the same descriptor are memtide's
	# (docs/reclaim.md); timed_write writes, times the write and reads the result back
	out=$(timed_write $CG/memory.reclaim max)
	show "after memory.reclaim:"
	echo "$out" | awk '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "demo: echo max > memory.reclaim: %s, %.2f s; the kernel reports reclaimed %d MiB " \
		       "(anon %d MiB, file %d MiB), scanned %d MiB\n", v["rc"] == "0" ? "done" : v["rc"],
		       v["elapsed_us"] / 1e6, v["rb_reclaimed"] / 1048576, v["rb_anon"] / 1048576,
		       v["rb_file"] / 1048576, v["rb_scanned"] / 1048576
	}'
}

# touch: the process touches all its memory again; prints how long that took
touch_all() {
	n=$(grep -c touched hog.out || true)
	kill -USR1 $hog
	until [ "$(grep -c touched hog.out)" -gt "$n" ]; do sleep 0.1; done
	show "after touching it again:"
	sed -n "/touched/s/^memhog: /demo: $1: /p" hog.out | tail -n 1
}

reclaim
touch_all "demand paging, the process"

echo "demo: again, now with memory.release before the process touches its memory"
reclaim
# memory.release (docs/release.md) reads the cgroup's swap in offset order and maps it back
out=$(timed_write $CG/memory.release max)
show "after memory.release:"
echo "$out" | awk '{
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "demo: echo max > memory.release: %s, %.2f s; the kernel reports released %d MiB " \
	       "(anon %d MiB, shmem %d MiB), read %d MiB, %d MiB left in swap\n",
	       v["rc"] == "0" ? "done" : v["rc"], v["elapsed_us"] / 1e6, v["rb_released"] / 1048576,
	       v["rb_anon"] / 1048576, v["rb_shmem"] / 1048576, v["rb_read"] / 1048576,
	       v["rb_remaining"] / 1048576
}'
touch_all "after memory.release, the process"
kill $hog
