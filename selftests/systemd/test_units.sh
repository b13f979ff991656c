#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memtide with systemd as PID 1: unit names resolve over the bus, [X-Memtide] drop-ins are
# read from systemd's own directories (and left alone by systemd), memtide-reclaim@.service
# works inside its sandbox. TAP.
#
#   mt-spot.slice (cgroup /mt.slice/mt-spot.slice)  memhog mt-spot-hog, ReleasePriority=10
#   mt-ui.slice                                      memhog mt-ui-hog, ReleasePriority=900
#   mt-keep.slice                                    memhog mt-keep-hog, Shrink=never
#   mt-bad.slice    a drop-in with an error in [X-Memtide]: ignored whole, with a warning
#   /sys/fs/cgroup/mt-decoy/mt-spot-hog.service     a cgroup of the same name as the unit
. "$(dirname "$0")/lib.sh"
require_systemd
D=/etc/systemd/system
cleanup() {
	stop_units
	rm -rf $D/mt-spot.slice.d $D/mt-ui.slice.d $D/mt-keep.slice.d $D/mt-bad.slice.d
	rmdir $CG/mt-decoy/mt-spot-hog.service $CG/mt-decoy 2>/dev/null
	systemctl daemon-reload
}
trap cleanup EXIT

mkdir -p $D/mt-spot.slice.d $D/mt-ui.slice.d $D/mt-keep.slice.d $D/mt-bad.slice.d
printf '[X-Memtide]\nShrink=hibernate\nReleasePriority=10\n' >$D/mt-spot.slice.d/memtide.conf
printf '[X-Memtide]\nReleasePriority=900\n' >$D/mt-ui.slice.d/memtide.conf
printf '[X-Memtide]\nShrink=never\n' >$D/mt-keep.slice.d/memtide.conf
printf '[Unit]\nDescription=bad policy\n\n[X-Memtide]\nReleasePriority=10\nShrink=sometimes\n' \
	>$D/mt-bad.slice.d/memtide.conf
systemctl daemon-reload
hog mt-spot-hog mt-spot 64M && hog mt-ui-hog mt-ui 32M && hog mt-keep-hog mt-keep 16M &&
	hog mt-bad-hog mt-bad 16M
check "four memhogs started as units in their slices" $?

# --- systemd reads the drop-ins and ignores their X- section without a word ---
# (systemd names the file in any complaint about it, "Unknown section" and the like)
systemctl show -P DropInPaths mt-spot.slice | grep -q "$D/mt-spot.slice.d/memtide.conf" &&
	[ "$(systemctl show -P Description mt-bad.slice)" = "bad policy" ] &&
	! journalctl -b -q --no-pager -o cat | grep -q "slice.d/memtide.conf"
check "systemd loads the drop-ins and says nothing about [X-Memtide]" $? \
	"$(systemctl show -P DropInPaths mt-spot.slice; journalctl -b -q --no-pager | grep slice.d/memtide.conf)"

# --- unit names over the bus: a decoy cgroup of the same name makes a tree search ambiguous ---
mkdir -p $CG/mt-decoy/mt-spot-hog.service
want=$(systemctl show -P ControlGroup mt-spot-hog.service)
before=$(cat "$CG$want/memory.current")
memtide reclaim --json mt-spot-hog.service 16M >out 2>err; rc=$?
after=$(cat "$CG$want/memory.current")
[ $rc = 0 ] && [ "$(json_value out cgroup)" = "$want" ] && [ "$want" = /mt.slice/mt-spot.slice/mt-spot-hog.service ] &&
	[ $((before - after)) -ge $((12 * MiB)) ]
check "reclaim mt-spot-hog.service acts on $want, found over the bus ($(((before - after) / MiB)) MiB)" $? \
	"rc=$rc $(cat out err)"
memtide status mt-spot.slice >out 2>err &&
	grep -q "^/mt.slice/mt-spot.slice " out
check "status takes a slice name whose cgroup is nested by its dashes" $? "$(cat out err)"
memtide reclaim mt-nosuch.service 1M >out 2>err; rc=$?
[ $rc = 1 ] && [ "$(wc -l <err)" = 1 ] && grep -q "mt-nosuch.service" err && ! [ -s out ]
check "a unit that is not loaded: exit 1, one line naming it" $? "rc=$rc $(cat out err)"

# --- the policy as systemd's directories give it ---
memtide hibernate --dry-run >plan.out 2>plan.err; rc=$?
[ $rc = 0 ] &&
	[ "$(awk '/priority/ { print $1 }' plan.out | grep -E '^/mt.slice/mt-(ui|bad|spot).slice$' | tr '\n' ' ')" = "/mt.slice/mt-ui.slice /mt.slice/mt-bad.slice /mt.slice/mt-spot.slice " ] &&
	grep -q "kept by its \[X-Memtide\] policy: /mt.slice/mt-keep.slice" plan.out
check "hibernate --dry-run: ui (900) before bad (default 100) before spot (10), keep kept" $? \
	"rc=$rc $(cat plan.out plan.err)"
grep -q "$D/mt-bad.slice.d/memtide.conf:6: .*the file is ignored" plan.err &&
	[ "$(grep -c warning plan.err)" = 1 ]
check "the bad drop-in: one warning naming file and line 6" $? "$(cat plan.err)"

# --- a drop-in written since the last daemon-reload counts for neither systemd nor memtide ---
printf '[X-Memtide]\nShrink=never\n' >$D/mt-ui.slice.d/zz-late.conf
memtide hibernate --dry-run >plan.out 2>plan.err; rc=$?
[ $rc = 0 ] && awk '/priority/ { print $1 }' plan.out | grep -qx /mt.slice/mt-ui.slice &&
	! grep -q "kept by its \[X-Memtide\] policy: /mt.slice/mt-ui.slice" plan.out &&
	[ "$(systemctl show -P NeedDaemonReload mt-ui.slice)" = yes ] &&
	! systemctl show -P DropInPaths mt-ui.slice | grep -q zz-late.conf
check "a drop-in written without daemon-reload: ignored, as systemd ignores it" $? \
	"rc=$rc $(cat plan.out plan.err; systemctl show -p NeedDaemonReload -p DropInPaths mt-ui.slice)"
systemctl daemon-reload
memtide hibernate --dry-run >plan.out 2>plan.err; rc=$?
[ $rc = 0 ] && grep -q "kept by its \[X-Memtide\] policy: /mt.slice/mt-ui.slice" plan.out &&
	systemctl show -P DropInPaths mt-ui.slice | grep -q zz-late.conf
check "after daemon-reload it applies: mt-ui.slice kept" $? \
	"rc=$rc $(cat plan.out plan.err; systemctl show -p DropInPaths mt-ui.slice)"
rm $D/mt-ui.slice.d/zz-late.conf
systemctl daemon-reload

# --- memtide-reclaim@.service in its sandbox (ProtectSystem=strict, state in /run/memtide) ---
# the instance as systemd-escape writes it (mt\x2dui.slice): %I gives memtide mt-ui.slice
slice=$(cgpath mt-ui.slice)
unit=memtide-reclaim@$(systemd-escape mt-ui.slice).service
swap0=$(cat $slice/memory.swap.current)
systemctl start "$unit"; rc=$?
res=$(systemctl show -P Result "$unit")
swap1=$(cat $slice/memory.swap.current)
[ $rc = 0 ] && [ "$res" = success ] && [ $((swap1 - swap0)) -ge $((24 * MiB)) ]
check "$unit: $res, $(((swap1 - swap0) / MiB)) MiB to swap" $? \
	"rc=$rc $(journalctl -b -q --no-pager -u "$unit" | tail -n 5)"
memtide status --json mt-ui.slice >out 2>err
grep -q '"reclaim":{"status":"\(done\|partial\)"' out
check "status shows the service's reclaim as the last one" $? "$(cat out err)"

memtide release mt-ui.slice max >out 2>err; rc=$?
[ $rc = 0 ] && [ "$(cat $slice/memory.swap.current)" -lt $MiB ] && verify mt-ui-hog
check "release mt-ui.slice: back in memory, memhog finds its pages intact" $? "rc=$rc $(cat out err)"
done_testing
