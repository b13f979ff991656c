#!/bin/sh
# Guest half of scenario "scanner-copy": $1 is the value of vm.swapout_second_chance.
# Prints one "bench-result" line of KEY=VALUE pairs for the host.
set -e
echo "$1" >/proc/sys/vm/swapout_second_chance
uptime_us() { awk '{ printf "%d", $1 * 1e6 }' /proc/uptime; }
vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
COPIES=10

# the throttled disk /dev/vda holds the seed's ext2 target here, not swap
swapoff /dev/vda
mke2fs /dev/vda >/dev/null
mkdir -p /mnt/target /mnt/ram
mount -t ext2 /dev/vda /mnt/target
mount -t ramfs ramfs /mnt/ram

# the source: 400 MB on the scratch ext4 (not throttled), out of the page cache
dd if=/dev/urandom of=source.data bs=1M count=400 2>/dev/null
sync
echo 3 >/proc/sys/vm/drop_caches

t0=$(uptime_us)
cp source.data /mnt/ram/
populate_us=$(($(uptime_us) - t0))

cg=/sys/fs/cgroup/bench
mkdir $cg
echo 128M >$cg/memory.max
# /sys/block/vda/stat: field 5 = write requests, 7 = sectors written
set -- $(cat /sys/block/vda/stat)
w_ios0=$5 w_sec0=$7
chances0=$(vmstat pgswapout_second_chance)
t0=$(uptime_us)
sh -c "echo \$\$ >$cg/cgroup.procs &&
	for i in \$(seq $COPIES); do cp /mnt/ram/source.data /mnt/target/copy\$i; done && sync"
elapsed_us=$(($(uptime_us) - t0))
set -- $(cat /sys/block/vda/stat)
w_ios=$(($5 - w_ios0)) w_sec=$(($7 - w_sec0))
echo "bench-result rc=0 elapsed_us=$elapsed_us populate_us=$populate_us" \
	"moved=$((COPIES * 400 * 1024 * 1024)) swapped=0 write_ios=$w_ios write_bytes=$((w_sec * 512))" \
	"second_chances=$(($(vmstat pgswapout_second_chance) - chances0))" \
	"scan_pressure=$(awk '$1 == "scan_pressure" { print $2 }' $cg/memory.stat)"
