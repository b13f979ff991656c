#!/bin/sh
# Guest half of scenario "hibernate" (the seed's): an idle process in spot.slice holds 85% of
# the guest's memory; the guest prepares (or not), hibernates, resumes, and the process
# touches all its memory again. $1 is the variant:
#   plain        hibernate as is: the kernel shrinks memory itself to fit the image
#   image0       the same with /sys/power/image_size = 0 (the kernel shrinks all it can)
#   rootreclaim  idle-time `memory.reclaim` of the root cgroup (mainline's best effort)
#   memtide      `memtide hibernate`: shrink the slice, hibernate, release after resume
#   floor        as plain, but the process holds 16 MiB: the time hibernation and resume take
#                with next to nothing to save, below which no preparation can go
#   lrugen       issue 31's experiment: the working set stays, the rest goes to swap, with
#                MGLRU's debugfs interface (lrugen_mark before the working set's warm passes,
#                lrugen_evict_cold as the preparation); `memtide release spot.slice max`
#                after resume
# More words may follow: lzo or lz4, the compressor the kernel writes the image with
# (hibernate.compressor; resume reads the image with the one named in its header),
# mode=MODE, the order sweep's slice (workload-guest.sh: address, rounds, scattered; three
# processes and a tmpfs file in place of the one process, touched the same way after resume),
# and hot=PERCENT, the working set (scenario hibernate-hot, hot-guest.sh): the process loops
# over PERCENT% of its pages while active, idles before the preparation, and is active again
# from the moment it resumes, while the release and the touch go on.
# The host times hibernation and resume from vm-run's stamps ("memtide-stamp NAME" lines, see
# hibernate.sh); this prints the guest's own figures as one "bench-result" line.
set -e
variant=$1
shift
compressor= mode= hot=
for w in "$@"; do
	case $w in
	mode=*) mode=${w#mode=} ;;
	hot=*) hot=${w#hot=} ;;
	*) compressor=$w ;;
	esac
done
CG=/sys/fs/cgroup/spot.slice
uptime_us() { awk '{ printf "%d", $1 * 1e6 }' /proc/uptime; }
# lrugen_mark NAME, lrugen_evict_cold NAME: what NAME (a child of the root cgroup) has not
# used since the mark goes to swap, the rest stays, with MGLRU's debugfs interface
# (/sys/kernel/debug/lru_gen, node 0). The mark ages once: a new, empty youngest generation.
# The eviction ages again (the walk moves every page found young since into that generation,
# and adds one more), then evicts every generation older than it, anon first (swappiness
# 200). A tool would mark when a slice goes idle and evict before hibernation. Without the
# mark, every page is in one generation (new anon pages go to the youngest, and nothing ages
# MGLRU without pressure) and none could be kept apart. Not an interface a tool can build on
# (debugfs): the experiment of what a working-set-keeping preparation would give (issue 31).
# lrugen_seq NAME: sets the positional parameters to NAME's memcg ID and youngest generation
# (max_seq), or stops the run
lg=/sys/kernel/debug/lru_gen
lrugen_seq() {
	[ -e $lg ] || mount -t debugfs none /sys/kernel/debug
	seq=$(awk -v path="/$1" '$1 == "memcg" { id = ($3 == path) ? $2 : "" }
		id != "" && $1 ~ /^[0-9]+$/ && NF >= 4 { max = $1 } END { if (max != "") print id, max }' $lg)
	[ -n "$seq" ] || { echo "hibernate-guest: no MGLRU generations for $1 in $lg" >&2; exit 2; }
}
lrugen_mark() {
	lrugen_seq "$1"
	set -- $seq
	echo "+ $1 0 $2 1 1" >$lg
}
lrugen_evict_cold() {
	lrugen_seq "$1"
	set -- $seq
	echo "+ $1 0 $2 1 1" >$lg
	echo "- $1 0 $(($2 - 1)) 200" >$lg
}

mkdir -p $CG
total_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
case $variant in
floor) size_kb=$((16 * 1024)) ;;
*) size_kb=$((total_kb * 85 / 100)) ;;
esac
size=$((size_kb / 1024))M
if [ -n "$mode" ]; then
	. ./workload-guest.sh
	workload_start $CG "$mode" $size_kb
else
	sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog ${hot:+--hot=$hot} $size" >hog.out &
	hog=$!
	until grep -q ready hog.out 2>/dev/null; do sleep 0.2; done
fi
if [ -n "$hot" ]; then
	. ./hot-guest.sh
	[ $variant != lrugen ] || lrugen_mark spot.slice
	hot_warm $hog
fi
sleep 2	# idle

# the policy memtide reads: spot.slice is shrunk before hibernation, released after
mkdir -p units/spot.slice.d
printf '[X-Memtide]\nShrink=hibernate\nReleasePriority=10\n' >units/spot.slice.d/memtide.conf
export MEMTIDE_UNIT_PATH=$PWD/units MEMTIDE_STATE_DIR=$PWD/state

t0=$(uptime_us)
case $variant in
plain | floor) ;;
image0) echo 0 >/sys/power/image_size ;;
rootreclaim)
	# mainline takes no "max": ask for what the slice holds; -EAGAIN when it finds less
	echo "$(cat $CG/memory.current)" >/sys/fs/cgroup/memory.reclaim 2>/dev/null || true
	;;
memtide) memtide hibernate --prepare-only --quiet ;;
lrugen) lrugen_evict_cold spot.slice ;;
*) echo "hibernate-guest: unknown variant $variant" >&2; exit 2 ;;
esac
# the preparation is done when what it wrote is on the disk: swap-out bypasses the page
# cache and a reclaim returns with writes still queued (at 100 MB/s, a queue of them is
# seconds' worth), which would otherwise count as hibernation's time and bytes
dev=/sys/block/$(awk 'NR == 2 { sub(".*/", "", $1); print $1 }' /proc/swaps)
stat=$dev/stat
until awk '{ exit $1 + $2 != 0 }' $dev/inflight; do sleep 0.05; done
prep_us=$(($(uptime_us) - t0))
swapped=$(cat $CG/memory.swap.current)

if [ -n "$compressor" ]; then
	param=/sys/module/hibernate/parameters/compressor
	echo "$compressor" >$param 2>/dev/null || true
	[ "$(cat $param)" = "$compressor" ] ||
		{ echo "hibernate-guest: the kernel did not take compressor $compressor" >&2; exit 2; }
fi
# the swap disk's counters before hibernation (/sys/block/DEV/stat fields 5 and 7: write
# requests, sectors): the host counts the disk's requests up to power-off (vm-run's
# VM_BLOCKSTATS), so what hibernation wrote is the difference
sync
set -- $(cat "$stat")
w_ios0=$5 w_sec0=$7
# the kernel's "Wrote N kbytes" (the image size) on the console
dmesg -n 7
echo "memtide-stamp hibernate-start"
echo "memtide-hibernating $MEMTIDE_NONCE"
echo disk >/sys/power/state
echo "memtide-stamp resumed"
# the program is active again as soon as it runs: its hot loop goes on beside what follows
[ -z "$hot" ] || hot_wake $hog
# the swap disk's read requests from here on (release or demand paging; the image was read
# before, by the boot kernel): /sys/block/DEV/stat fields 1 and 3, requests, sectors
set -- $(cat "$stat")
r_ios0=$1 r_sec0=$3
# resident memory of the slice from here to full speed, every 0.2 s: "bench-series resident
# MICROSECONDS BYTES" (the guest's clock runs on from here; bench.sh keeps the lines)
t_resumed=$(uptime_us)
(
	while [ ! -e series.done ]; do
		echo "bench-series resident $(($(uptime_us) - t_resumed)) $(cat $CG/memory.current)"
		sleep 0.2
	done
) &
sampler=$!
dmesg -n 5
boot=$(cat /sys/block/vdb/serial)
# what the process has in swap now must come back from the disk too
echo "swap_at_resume=$(cat $CG/memory.swap.current)"

# (lrugen: `memtide resume` releases what `memtide hibernate` prepared, here nothing: the
# slice is released by name)
case $variant in
memtide) memtide resume --quiet ;;
lrugen) memtide release spot.slice max >release.out 2>&1 || echo "hibernate-guest: memtide release exited $?: $(cat release.out)" >&2 ;;
esac
echo "memtide-stamp released"
if [ -n "$mode" ]; then
	workload_touch
else
	n=$(grep -c touched hog.out || true)
	kill -USR1 $hog
	until [ "$(grep -c touched hog.out)" -gt "$n" ]; do sleep 0.05; done
fi
echo "memtide-stamp full-speed"
set -- $(cat "$stat")
r_ios=$(($1 - r_ios0)) r_sec=$(($3 - r_sec0))
# (hot_figures: the passes' curve, and HOT_RESULT, " KEY=VALUE..." for the result line)
HOT_RESULT= HOT_RC=
[ -z "$hot" ] || hot_figures $hog
touch series.done
wait $sampler
rc=0
[ "$boot" = mt-boot-2 ] || rc=1
if [ -n "$mode" ]; then
	workload_check || rc=2
else
	kill -USR2 $hog
	until grep -q corrupt_pages hog.out; do sleep 0.1; done
	grep -q "corrupt_pages=0$" hog.out || rc=2
fi
[ "$rc" != 0 ] || [ -z "$HOT_RC" ] || rc=$HOT_RC
# what this kernel read since resume, to the end: the rest of what the host counts in this
# boot is the boot kernel's read of the image
set -- $(cat "$stat")
echo "bench-result prep_us=$prep_us swapped_before=$swapped size=$((size_kb * 1024)) read_ios=$r_ios read_bytes=$((r_sec * 512))" \
	"hib_wr_ios0=$w_ios0 hib_wr_bytes0=$((w_sec0 * 512)) resumed_rd_ios=$(($1 - r_ios0)) resumed_rd_bytes=$((($3 - r_sec0) * 512))$HOT_RESULT rc=$rc"
if [ -n "$mode" ]; then kill $WORKLOAD_PIDS; else kill $hog; fi
