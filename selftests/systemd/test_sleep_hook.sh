#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `memtide hibernate` under systemd, which asks logind as `systemctl hibernate` does, with
# memtide's sleep hook installed: systemd-sleep runs the hook, which
# shrinks the slices before the image is written; after the real resume (vm-run boots the
# guest again from the image) memtide-resume.service releases them, highest priority first.
# Runs last: a resumed system is not a fresh boot. TAP.
#
#   mt-spot.slice  memhog mt-spot-hog, ReleasePriority=10
#   mt-ui.slice    memhog mt-ui-hog, ReleasePriority=900: released first
#   mt-keep.slice  memhog mt-keep-hog, Shrink=never: left alone
. "$(dirname "$0")/lib.sh"
require_systemd
D=/etc/systemd/system
cleanup() {
	stop_units
	rm -rf $D/mt-spot.slice.d $D/mt-ui.slice.d $D/mt-keep.slice.d
	rm -f /etc/default/memtide
	systemctl daemon-reload
}
trap cleanup EXIT
# vm-run names the scratch disk (here the root file system) after the boot
[ "$(cat /sys/block/vdb/serial 2>/dev/null)" = mt-boot-1 ] && [ -n "$MEMTIDE_NONCE" ]
check "started in vm-run's first boot (serial $(cat /sys/block/vdb/serial 2>/dev/null))" $? ||
	{ done_testing; exit; }

for s in spot ui keep; do mkdir -p $D/mt-$s.slice.d; done
printf '[X-Memtide]\nReleasePriority=10\n' >$D/mt-spot.slice.d/memtide.conf
printf '[X-Memtide]\nReleasePriority=900\n' >$D/mt-ui.slice.d/memtide.conf
printf '[X-Memtide]\nShrink=never\n' >$D/mt-keep.slice.d/memtide.conf
systemctl daemon-reload
hog mt-spot-hog mt-spot 128M && hog mt-ui-hog mt-ui 48M && hog mt-keep-hog mt-keep 32M
check "memhogs started in their slices" $?
[ -x /usr/lib/systemd/system-sleep/memtide ]
check "the hook is installed in systemd's sleep directory" $?
# installed, it does nothing: the administrator turns it on (memtide(8), FILES)
mkdir -p /etc/default && echo SLEEP_HOOK=yes >/etc/default/memtide
keep0=$(cat "$(cgpath mt-keep.slice)/memory.current")

since=$(date '+%Y-%m-%d %H:%M:%S')
echo "memtide-hibernating $MEMTIDE_NONCE"
memtide hibernate >hibernate.out 2>&1; rc=$?
check "memtide hibernate: logind accepted it (exit $rc)" $rc "$(cat hibernate.out)"
# it returns at once; the guest goes down, and this loop goes on in the resumed system
wait_until 600 sh -c '[ "$(cat /sys/block/vdb/serial)" != mt-boot-1 ]'
boot=$(cat /sys/block/vdb/serial)
[ "$boot" = mt-boot-2 ]
check "resumed in a second boot ($boot)" $?

# The release runs in memtide-resume.service, after systemd-sleep's post hooks. Everything
# the pre hook shrank comes back (by default all but init.scope: the plan's default policy);
# spot, at the lowest priority, comes last.
released() { journalctl -b -q --no-pager -o cat --since "$since" -u memtide-resume.service | grep ': released'; }
wait_until 120 sh -c "journalctl -b -q --no-pager -o cat --since '$since' -u memtide-resume.service | grep -q '^/mt.slice/mt-spot.slice: released'"
check "memtide-resume.service released the slices" $? \
	"$(journalctl -b -q --no-pager --since "$since" -u memtide-resume.service | tail -n 10)"
journalctl -b -q --no-pager -o cat --since "$since" -t memtide >pre.out
grep -q "^/mt.slice/mt-spot.slice: reclaimed" pre.out && grep -q "^/mt.slice/mt-ui.slice: reclaimed" pre.out &&
	! grep -q mt-keep pre.out
check "the pre hook reclaimed spot and ui, not keep" $? "$(cat pre.out)"
[ "$(released | grep -oE '^/mt.slice/mt-(ui|spot|keep).slice' | tr '\n' ' ')" = "/mt.slice/mt-ui.slice /mt.slice/mt-spot.slice " ] &&
	released | tail -n 1 | grep -q "^/mt.slice/mt-spot.slice: released"
check "after resume, ui (900) released first, spot (10) last, keep not at all" $? "$(released)"
for s in spot ui; do
	sw=$(cat "$(cgpath mt-$s.slice)/memory.swap.current")
	[ "$sw" -lt $MiB ]
	check "mt-$s.slice is back in memory ($((sw / 1024)) KiB in swap)" $?
done
[ "$(cat "$(cgpath mt-keep.slice)/memory.current")" -ge $((keep0 * 9 / 10)) ]
check "mt-keep.slice kept its memory" $? "$keep0 -> $(cat "$(cgpath mt-keep.slice)/memory.current")"
for s in spot ui keep; do
	verify mt-$s-hog
	check "mt-$s-hog's memory is intact after the round trip" $? "$(tail -n 1 mt-$s-hog.out)"
done
done_testing
