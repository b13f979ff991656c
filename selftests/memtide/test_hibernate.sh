#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memtide hibernate in the guest, without systemd: shrink, a real hibernation and resume
# (vm-run boots the guest again from the image), release in priority order. TAP.
#
#   /sys/fs/cgroup/hib-spot.slice/     memhog SPOT, ReleasePriority=10
#   /sys/fs/cgroup/hib-ui.slice/       memhog UI, ReleasePriority=900: released first
#   /sys/fs/cgroup/hib-keep.slice/     memhog KEEP, Shrink=never: left alone
CG=/sys/fs/cgroup
SPOT=${SPOT:-192M} UI=${UI:-64M} KEEP=${KEEP:-32M}
MiB=1048576
. "$(dirname "$0")/lib.sh"

echo "TAP version 13"
require_hibernation
boot0=$(vm_boot)

pids=
hog() { # hog NAME SIZE: memhog of SIZE in hib-NAME.slice, its pid in $pid_NAME
	mkdir -p $CG/hib-$1.slice
	sh -c "echo \$\$ >$CG/hib-$1.slice/cgroup.procs && exec /opt/memtide/bin/memhog $2" >hib-$1.out &
	pids="$pids $!"
	eval "pid_$1=$!"
	until grep -q ready hib-$1.out 2>/dev/null; do sleep 0.1; done
}
cleanup() {
	kill $pids 2>/dev/null
	wait 2>/dev/null
	for s in hib-spot hib-ui hib-keep; do rmdir $CG/$s.slice 2>/dev/null; done
	rm -rf units state
}
trap cleanup EXIT
mkdir -p units/hib-spot.slice.d units/hib-ui.slice.d units/hib-keep.slice.d
printf '[X-Memtide]\nReleasePriority=10\n' >units/hib-spot.slice.d/memtide.conf
printf '[X-Memtide]\nReleasePriority=900\n' >units/hib-ui.slice.d/memtide.conf
printf '[X-Memtide]\nShrink=never\n' >units/hib-keep.slice.d/memtide.conf
export MEMTIDE_UNIT_PATH=$PWD/units MEMTIDE_STATE_DIR=$PWD/state
hog spot $SPOT
hog ui $UI
hog keep $KEEP

memtide hibernate --dry-run >plan.out 2>&1
[ "$(awk '/priority/ { print $1 }' plan.out | grep hib- | tr '\n' ' ')" = "/hib-ui.slice /hib-spot.slice " ] &&
	grep -q "kept by its \[X-Memtide\] policy: /hib-keep.slice" plan.out
check "the plan: ui before spot, keep kept" $? "$(cat plan.out)"

keep0=$(cat $CG/hib-keep.slice/memory.current)
echo "memtide-hibernating $MEMTIDE_NONCE"
memtide hibernate >hib.out 2>&1; rc=$?
cat hib.out | sed 's/^/# /'
boot=$(vm_boot)
[ $rc = 0 ] && [ "$boot" = $((boot0 + 1)) ]
check "hibernated and resumed in the next boot (boot $boot0 -> $boot), exit $rc" $?

grep -q "^/hib-spot.slice: reclaimed" hib.out && grep -q "^/hib-ui.slice: reclaimed" hib.out &&
	! grep -q "hib-keep" hib.out
check "prepare reclaimed spot and ui, not keep" $? "$(cat hib.out)"
[ "$(grep ': released' hib.out | grep -o '/hib-[a-z]*.slice' | tr '\n' ' ')" = "/hib-ui.slice /hib-spot.slice " ]
check "after resume, released ui first, then spot" $? "$(cat hib.out)"
for s in spot ui; do
	[ "$(cat $CG/hib-$s.slice/memory.swap.current)" -lt $MiB ]
	check "hib-$s.slice is back in memory ($(($(cat $CG/hib-$s.slice/memory.swap.current) / 1024)) KiB in swap)" $?
done
[ "$(cat $CG/hib-keep.slice/memory.current)" -ge $((keep0 * 9 / 10)) ]
check "hib-keep.slice kept its memory" $? "$keep0 -> $(cat $CG/hib-keep.slice/memory.current)"
# each memhog checks its pages against what it wrote
for s in spot ui keep; do
	eval "kill -USR2 \$pid_$s"
done
for s in spot ui keep; do
	until grep -q corrupt_pages hib-$s.out; do sleep 0.2; done
	grep -q "corrupt_pages=0$" hib-$s.out
	check "hib-$s.slice's memory is intact after the round trip" $? "$(tail -n 1 hib-$s.out)"
done
done_testing
