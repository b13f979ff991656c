#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What building plans costs systemd, dbus and memtide (CPU of each per plan, from
# /proc/PID/stat): 20 one-off plans (memtide hibernate --dry-run, which asks the manager about
# every unit) and an idle daemon's 20 rounds (memtide idle --interval 100ms --count 20, which
# keeps the answers: dropin_cache.h), with the system's units, then with 200 transient
# services more. A guest script for the systemd guest (docs/development.md), not a test:
#   make initramfs KERNEL=memtide
#   env SCRIPT=selftests/bench/plan-bus-cost-guest.sh VM_MEM=2G VM_SMP=2 KERNEL=memtide \
#       ROOTFS=$(selftests/vm/mkrootfs.sh) VM_LOG=bus.log selftests/vm/vm-run.sh
# Its "#" lines are the figures (docs/tool.md quotes them); under TCG every figure is several
# times what a host's CPU would spend.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# what this shell's waited-for children (memtide) used
kids() { awk '{print $16 + $17}' "/proc/$$/stat"; }
dbus=$(pidof dbus-daemon | cut -d' ' -f1)
hz=$(getconf CLK_TCK)
measure() {
	label=$1
	shift
	s0=$(ticks 1); d0=$(ticks "$dbus"); k0=$(kids); read -r t0 _ </proc/uptime
	"$@"
	s1=$(ticks 1); d1=$(ticks "$dbus"); k1=$(kids); read -r t1 _ </proc/uptime
	awk -v l="$label" -v n="${N:-20}" -v t0="$t0" -v t1="$t1" -v s="$((s1 - s0))" -v d="$((d1 - d0))" -v k="$((k1 - k0))" -v hz="$hz" \
		-v units="$(systemctl list-units --no-legend | wc -l)" \
		'BEGIN { printf "# %s: %d units loaded: %.1f ms a plan; systemd %.1f ms, dbus %.1f ms, memtide %.1f ms of CPU a plan\n", l, units, (t1 - t0) * 1000 / n, s * 1000 / hz / n, d * 1000 / hz / n, k * 1000 / hz / n }'
}
oneoff() { i=0; while [ $i -lt 20 ]; do memtide hibernate --dry-run >/tmp/plan.out 2>&1; i=$((i + 1)); done; }
idle() { memtide idle --interval 100ms --count 20 >/tmp/idle.out 2>&1; }
# the rounds after the first: 60 rounds less 20 (each run has one first round), over 40
idle_after_first() {
	memtide idle --interval 100ms --count 20 >/dev/null 2>&1
	a_s=$(($(ticks 1) - s0)) a_d=$(($(ticks "$dbus") - d0)) a_k=$(($(kids) - k0))
	memtide idle --interval 100ms --count 60 >/tmp/idle.out 2>&1
	# measure() takes s1 - s0, the two runs: less the first twice is the second less it
	s0=$((s0 + 2 * a_s)) d0=$((d0 + 2 * a_d)) k0=$((k0 + 2 * a_k))
}
sleep 5
measure "one-off plans, idle system" oneoff
measure "idle's rounds, idle system" idle
i=0
while [ $i -lt 200 ]; do
	systemd-run -q --unit="mt-load-$i" --slice=mtload.slice sleep 100000 || echo "# run $i failed"
	i=$((i + 1))
done
sleep 5
measure "one-off plans, 200 services more" oneoff
measure "idle's rounds, 200 services more" idle
measure "one-off plans, 200 services more, again" oneoff
measure "idle's rounds, 200 services more, again" idle
N=40
measure "idle's rounds after the first, 200 services more (60 rounds less 20; CPU only, wall includes 20 rounds)" idle_after_first
N=20
export MEMTIDE_UNIT_PATH=/etc/systemd/system:/run/systemd/system:/lib/systemd/system
measure "one-off plans, directory search only (MEMTIDE_UNIT_PATH)" oneoff
unset MEMTIDE_UNIT_PATH
echo "# UnitsLoadTimestampMonotonic $(systemctl show -P UnitsLoadTimestampMonotonic)"
systemctl daemon-reload
echo "# after daemon-reload $(systemctl show -P UnitsLoadTimestampMonotonic)"
head -3 /tmp/plan.out | sed 's/^/# plan: /'
tail -2 /tmp/idle.out | sed 's/^/# idle: /'
echo "# memtide-suite-exit: 0"
