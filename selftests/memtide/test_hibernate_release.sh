#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hibernation while memory.release is reading (issue 9): the flow of a spot VM that is told
# to hibernate again while `memtide resume` still brings its slice back. The freezer must
# stop the release (-EINTR, at its next 8 MiB batch) rather than wait for it, the hibernation
# must succeed, and no page may be lost or left both in memory and in swap. TAP.
#
#   /sys/fs/cgroup/hibrel.slice/   memhog SIZE, all of it swapped out, then released
#
# Without the freezer check in the release's read loop, the write would run to its end
# (rc=0, nothing remaining): the third check fails. It needs vm-run's hibernation support
# (a resume is a later boot of the same run, the scratch disk's serial tells which).
CG=/sys/fs/cgroup/hibrel.slice
SIZE=${SIZE:-512M}
MiB=1048576
. "$(dirname "$0")/lib.sh"
pswpin() { awk '$1 == "pswpin" { print $2 }' /proc/vmstat; }
# rb KEY: a key of the interrupted write's result read-back (timed_write's rb_KEY=VALUE)
rb() { sed -n "s/.* rb_$1=\([0-9]*\).*/\1/p" release.out; }

echo "TAP version 13"
require_hibernation
boot0=$(vm_boot)

hog=
cleanup() {
	[ -n "$hog" ] && kill $hog 2>/dev/null
	wait 2>/dev/null
	rmdir $CG 2>/dev/null
}
trap cleanup EXIT
mkdir -p $CG
sh -c "echo \$\$ >$CG/cgroup.procs && exec /opt/memtide/bin/memhog $SIZE" >hog.out &
hog=$!
until grep -q ready hog.out 2>/dev/null; do sleep 0.1; done
echo "$SIZE swappiness=max" >$CG/memory.reclaim 2>/dev/null
swapped=$(cat $CG/memory.swap.current)
[ "$swapped" -ge $((400 * MiB)) ]
check "the slice is in swap ($((swapped / MiB)) MiB)" $?

# the release in the background; hibernate once it has read 4 MiB
in0=$(pswpin)
/opt/memtide/bin/timed_write $CG/memory.release max >release.out 2>&1 &
writer=$!
while [ $(($(pswpin) - in0)) -lt 1024 ] && kill -0 $writer 2>/dev/null; do sleep 0.01; done
echo "memtide-hibernating $MEMTIDE_NONCE"
echo disk >/sys/power/state
rc=$?
boot=$(vm_boot)
wait $writer
[ $rc = 0 ] && [ "$boot" = $((boot0 + 1)) ]
check "hibernated during the release and resumed (boot $boot0 -> $boot, echo disk: $rc)" $?

# it read before the freezer came; what it had not mapped stays in the swap cache (skipped)
remaining=$(rb remaining) released=$(rb released) read=$(rb read)
grep -q "rc=EINTR" release.out && [ "${remaining:-0}" -ge $((64 * MiB)) ] &&
	[ "${read:-0}" -gt 0 ] && [ "${released:-0}" -le "${read:-0}" ]
check "the freezer stopped the release: -EINTR, $((${read:-0} / MiB)) MiB read, $((${released:-0} / MiB)) MiB released, $((${remaining:-0} / MiB)) MiB left" $? \
	"$(cat release.out)"

# a second release brings back exactly the rest, what the first left in the swap cache
# included
/opt/memtide/bin/timed_write $CG/memory.release max >release2.out 2>&1
grep -q "rc=0 " release2.out && [ "$(cat $CG/memory.swap.current)" -lt $MiB ]
check "a second release brings the rest back ($(($(cat $CG/memory.swap.current) / 1024)) KiB in swap)" $? \
	"$(cat release2.out)"

kill -USR2 $hog
until grep -q corrupt_pages hog.out; do sleep 0.2; done
grep -q "corrupt_pages=0$" hog.out
check "the slice's memory is intact" $? "$(tail -n 1 hog.out)"
done_testing
