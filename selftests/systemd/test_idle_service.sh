#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memtide-idle.service as installed: it shrinks a slice that has been idle for its
# IdleThreshold, leaves a busy one and one whose policy says hibernate only until a new
# drop-in and a daemon-reload say otherwise, and stops cleanly with systemctl stop; it is
# started once ready (Type=notify), in its sandbox. TAP.
#
#   mt-idle.slice  Shrink=idle, IdleThreshold=2s   memhog mt-idle-hog (idle)
#   mt-busy.slice  Shrink=idle, IdleThreshold=2s   memhog mt-busy-hog + a CPU loop
#   mt-nap.slice   Shrink=hibernate                memhog mt-nap-hog (idle);
#                  then zz-idle.conf: Shrink=idle
. "$(dirname "$0")/lib.sh"
require_systemd
D=/etc/systemd/system
cleanup() {
	systemctl stop memtide-idle.service 2>/dev/null
	stop_units
	rm -rf $D/mt-idle.slice.d $D/mt-busy.slice.d $D/mt-nap.slice.d $D/memtide-idle.service.d
	systemctl daemon-reload
}
trap cleanup EXIT
swap_of() { cat "$(cgpath "$1")/memory.swap.current"; }

for s in idle busy; do
	mkdir -p $D/mt-$s.slice.d
	printf '[X-Memtide]\nShrink=idle\nIdleThreshold=2s\n' >$D/mt-$s.slice.d/memtide.conf
done
mkdir -p $D/mt-nap.slice.d $D/memtide-idle.service.d
printf '[X-Memtide]\nShrink=hibernate\nIdleThreshold=2s\n' >$D/mt-nap.slice.d/memtide.conf
# a look every second instead of the default, so that the test takes seconds, not minutes
printf '[Service]\nExecStart=\nExecStart=/usr/bin/memtide idle --interval 1s\n' \
	>$D/memtide-idle.service.d/test.conf
systemctl daemon-reload
hog mt-idle-hog mt-idle 48M && hog mt-busy-hog mt-busy 48M && hog mt-nap-hog mt-nap 16M &&
	systemd-run --quiet --unit=mt-busy-loop --slice=mt-busy sh -c 'while :; do :; done'
check "memhogs and a CPU loop started in their slices" $?
units="$units mt-busy-loop.service"

# Type=notify: systemctl start returns once the daemon said READY=1, after its first look
systemctl start memtide-idle.service; rc=$?
status=$(systemctl show -P StatusText memtide-idle.service)
[ $rc = 0 ] && [ "$(systemctl show -P ActiveState memtide-idle.service)" = active ] &&
	echo "$status" | grep -q '^watching 2 cgroups with Shrink=idle'
check "started when ready (Type=notify), its status: $status" $? \
	"rc=$rc $(journalctl -b -q --no-pager -u memtide-idle.service | tail -n 5)"
journalctl -b -q --no-pager -u memtide-idle.service -o cat >idle.log
grep -q '^watching /mt.slice/mt-idle.slice (reclaimed after 2.0 s idle)$' idle.log &&
	grep -q '^watching /mt.slice/mt-busy.slice (reclaimed after 2.0 s idle)$' idle.log &&
	! grep -q mt-nap idle.log
check "it says which cgroups it watches: idle and busy, not nap" $? "$(cat idle.log)"
wait_until 60 sh -c "[ \$(cat $(cgpath mt-idle.slice)/memory.swap.current) -ge $((36 * MiB)) ]"
check "the idle slice is shrunk ($(($(swap_of mt-idle.slice) / MiB)) MiB in swap)" $? \
	"$(journalctl -b -q --no-pager -u memtide-idle.service | tail -n 5)"
journalctl -b -q --no-pager -u memtide-idle.service -o cat | grep -q "^idle [0-9].*: /mt.slice/mt-idle.slice: reclaimed"
check "memtide-idle.service logs what it reclaimed" $? \
	"$(journalctl -b -q --no-pager -u memtide-idle.service -o cat | tail -n 5)"
# a few more looks, so that the busy slice had the same chances
sleep 4
[ "$(swap_of mt-busy.slice)" -lt $((4 * MiB)) ]
check "the busy slice is left alone ($(($(swap_of mt-busy.slice) / 1024)) KiB in swap)" $?
[ "$(swap_of mt-nap.slice)" -lt $((2 * MiB)) ]
check "the hibernate-only slice is left alone ($(($(swap_of mt-nap.slice) / 1024)) KiB in swap)" $?

# A policy changed by a new drop-in counts once systemd has reloaded, as for systemd itself:
# the daemon keeps the manager's DropInPaths from one look to the next and asks again when
# UnitsLoadTimestampMonotonic moves (it must move on daemon-reload for this to pass)
loaded=$(systemctl show -P UnitsLoadTimestampMonotonic)
printf '[X-Memtide]\nShrink=idle\n' >$D/mt-nap.slice.d/zz-idle.conf
sleep 3
[ "$(systemctl show -P ActiveState memtide-idle.service)" = active ] &&
	! journalctl -b -q --no-pager -u memtide-idle.service -o cat | grep -q 'watching /mt.slice/mt-nap'
check "a drop-in written without daemon-reload is not applied (the daemon still running)" $? \
	"$(journalctl -b -q --no-pager -u memtide-idle.service -o cat | tail -n 5)"
systemctl daemon-reload
[ "$(systemctl show -P UnitsLoadTimestampMonotonic)" != "$loaded" ]
check "daemon-reload moves UnitsLoadTimestampMonotonic ($loaded, then $(systemctl show -P UnitsLoadTimestampMonotonic))" $?
wait_until 30 sh -c "[ \$(cat $(cgpath mt-nap.slice)/memory.swap.current) -ge $((12 * MiB)) ]"
check "after daemon-reload the slice it made Shrink=idle is shrunk ($(($(swap_of mt-nap.slice) / MiB)) MiB in swap)" $? \
	"$(journalctl -b -q --no-pager -u memtide-idle.service -o cat | tail -n 5)"

systemctl stop memtide-idle.service
[ "$(systemctl show -P Result memtide-idle.service)" = success ] &&
	[ "$(systemctl show -P ExecMainStatus memtide-idle.service)" = 0 ]
check "systemctl stop: the daemon ends with status 0" $? \
	"$(systemctl show -p Result -p ExecMainStatus -p ExecMainCode memtide-idle.service)"
verify mt-idle-hog
check "the shrunk memhog finds its pages intact" $? "$(tail -n 1 mt-idle-hog.out)"
done_testing
