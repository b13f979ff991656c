#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hibernation while memory.release maps (issue 30, item 3): many processes and a tmpfs of many
# files, all in swap; the hibernation starts once the release has begun to free slots, i.e.
# while its second phase maps a round into the processes and moves shmem into the page
# cache. The freezer must stop the mapping between VMAs and between shmem inodes (-EINTR),
# not wait for the round's end, and what was read but not mapped must stay in the swap cache
# for a second release. TAP.
#
#   /sys/fs/cgroup/hibmap.slice/   PROCS memhogs of EACH anon, PROCS of EACH in tmpfs files
#
# The freezer's timeout is cut to FREEZE_MS for the hibernation: a phase 2 that mapped its
# whole round before it stopped takes longer than that here, and the hibernation would fail
# (echo disk: EBUSY), as it would on a real machine with a round of many processes and a
# large tmpfs under the default 20 s. It needs vm-run's hibernation support (a resume is a
# later boot of the same run, the scratch disk's serial tells which).
CG=/sys/fs/cgroup/hibmap.slice
TMP=/tmp/memtide-hibmap
PROCS=${PROCS:-16}
EACH=${EACH:-6M}
FREEZE_MS=${FREEZE_MS:-1000}
MiB=1048576
. "$(dirname "$0")/lib.sh"
# rb FILE KEY: a key of a write's result read-back (timed_write's rb_KEY=VALUE)
rb() { sed -n "s/.* rb_$2=\([0-9]*\).*/\1/p" "$1"; }

echo "TAP version 13"
require_hibernation
boot0=$(vm_boot)

hogs=
timeout0=$(cat /sys/power/pm_freeze_timeout)
cleanup() {
	echo "$timeout0" >/sys/power/pm_freeze_timeout
	[ -n "$hogs" ] && kill $hogs 2>/dev/null
	wait 2>/dev/null
	rmdir $CG 2>/dev/null
	umount $TMP 2>/dev/null
}
trap cleanup EXIT
mkdir -p $CG $TMP
mount -t tmpfs -o size=512M tmpfs $TMP
i=0
while [ $i -lt "$PROCS" ]; do
	sh -c "echo \$\$ >$CG/cgroup.procs && exec /opt/memtide/bin/memhog $EACH" >anon$i.out &
	hogs="$hogs $!"
	sh -c "echo \$\$ >$CG/cgroup.procs && exec /opt/memtide/bin/memhog --file=$TMP/f$i $EACH" \
		>shm$i.out &
	hogs="$hogs $!"
	i=$((i + 1))
done
for f in anon*.out shm*.out; do
	until grep -q ready "$f" 2>/dev/null; do sleep 0.1; done
done
echo "max swappiness=max" >$CG/memory.reclaim 2>/dev/null
swapped=$(cat $CG/memory.swap.current)
shmem_swapped=$(awk '$1 == "shmem" { print $2 }' $CG/memory.stat)
[ "$swapped" -ge $((PROCS * 2 * 5 * MiB)) ] && [ "$shmem_swapped" -lt $MiB ]
check "$((PROCS * 2)) processes, half of them with tmpfs files, in swap ($((swapped / MiB)) MiB; $((shmem_swapped / 1024)) KiB of shmem resident)" $?

# the release in the background; hibernate once it frees slots: it is mapping
echo "$FREEZE_MS" >/sys/power/pm_freeze_timeout
/opt/memtide/bin/timed_write $CG/memory.release max >release.out 2>&1 &
writer=$!
while [ "$(cat $CG/memory.swap.current)" -gt $((swapped - MiB)) ] && kill -0 $writer 2>/dev/null; do
	sleep 0.01
done
at_freeze=$(cat $CG/memory.swap.current)
echo "memtide-hibernating $MEMTIDE_NONCE"
echo disk >/sys/power/state
rc=$?
boot=$(vm_boot)
wait $writer
echo "$timeout0" >/sys/power/pm_freeze_timeout
[ $rc = 0 ] && [ "$boot" = $((boot0 + 1)) ]
check "hibernated while the release mapped, with a ${FREEZE_MS} ms freezer timeout, and resumed (boot $boot0 -> $boot, echo disk: $rc)" $? \
	"$(cat release.out)"

# it had mapped some before the freezer came, and stopped long before the rest
released=$(rb release.out released) read=$(rb release.out read)
grep -q "rc=EINTR" release.out && [ "$at_freeze" -lt "$swapped" ] &&
	[ "${released:-0}" -gt 0 ] && [ "${released:-0}" -lt $((swapped / 2)) ]
check "the freezer stopped the mapping: -EINTR, $((${read:-0} / MiB)) MiB read, $((${released:-0} / MiB)) MiB released of $((swapped / MiB)) MiB" $? \
	"$(cat release.out)"

# a second release brings back exactly the rest, reading none of what the first had read
/opt/memtide/bin/timed_write $CG/memory.release max >release2.out 2>&1
read2=$(rb release2.out read)
grep -q "rc=0 " release2.out && [ "$(cat $CG/memory.swap.current)" -lt $MiB ] &&
	[ "${read2:-0}" -le $((swapped - ${read:-0} + MiB)) ]
check "a second release brings the rest back, reading $((${read2:-0} / MiB)) MiB ($(($(cat $CG/memory.swap.current) / 1024)) KiB left in swap)" $? \
	"$(cat release2.out)"

corrupt=0
for h in $hogs; do kill -USR2 "$h"; done
for f in anon*.out shm*.out; do
	until grep -q corrupt_pages "$f"; do sleep 0.2; done
	grep -q "corrupt_pages=0$" "$f" || corrupt=$((corrupt + 1))
done
[ $corrupt = 0 ]
check "every process's memory is intact ($corrupt corrupt)" $?
done_testing
