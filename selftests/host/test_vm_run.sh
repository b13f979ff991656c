#!/usr/bin/env bash
# The guest runner end to end (needs the memtide kernel and guest image built): exit status,
# files beside the script, the guest's set-up, MGLRU switching, a hung and a panicked guest,
# a hibernation resumed in a second boot.
. "$(dirname "$0")/lib.sh"
run=$ROOT/selftests/vm/vm-run.sh
plan 25
vm() { env VM_MEM=512M SWAP_MB=64 "$@" "$run" >"$TMP/out" 2>"$TMP/err"; }

printf 'exit 7\n' >"$TMP/exit7.sh"
vm SCRIPT="$TMP/exit7.sh"
check "the script's exit status is vm-run's" [ $? -eq 7 ]

echo "payload-data" >"$TMP/data.txt"
cat >"$TMP/env.sh" <<'S'
set -e
grep -q payload-data data.txt                    # VM_FILES beside the script
[ "$(id -u)" = 0 ]                               # as root
grep -q '^/dev/vda ' /proc/swaps                 # swap on
grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts  # cgroup2 mounted
grep -q memory /sys/fs/cgroup/cgroup.subtree_control
grep -q '^/dev/vdb / ext4 ' /proc/mounts        # / on the ext4 disk
pwd | grep -q '^/scratch/'
echo "mglru=$(cat /sys/kernel/mm/lru_gen/enabled)"
S
vm SCRIPT="$TMP/env.sh" VM_FILES="$TMP/data.txt"
st=$?
check "files, root, swap, cgroup2, ext4 working directory" [ $st -eq 0 ]
check "the script's output is streamed" grep -q "^mglru=0x" "$TMP/out"
check "MGLRU is on by default" grep -q "^mglru=0x0*[1-7]$" "$TMP/out"

vm SCRIPT="$TMP/env.sh" VM_FILES="$TMP/data.txt" MGLRU=0
check "MGLRU=0 turns MGLRU off (classic LRU)" grep -q "^mglru=0x0000$" "$TMP/out"

printf 'echo "swappiness=$(cat /proc/sys/vm/swappiness)"\n' >"$TMP/sysctl.sh"
vm SCRIPT="$TMP/sysctl.sh" VM_SYSCTL="vm.swappiness=37"
check "VM_SYSCTL sets a sysctl at boot" grep -q "^swappiness=37$" "$TMP/out"

printf 'cat /proc/cmdline\n' >"$TMP/cmdline.sh"
vm SCRIPT="$TMP/cmdline.sh" VM_CMDLINE="memtide.check=1 hibernate=nocompress"
check "VM_CMDLINE adds kernel parameters" grep -q " memtide.check=1 hibernate=nocompress\( \|$\)" "$TMP/out"

# VM_SLOW_MB: a second memory node of that size, which the kernel puts in a lower memory tier
# (from QEMU's HMAT): node 0 keeps the CPUs and the rest of VM_MEM
cat >"$TMP/tiers.sh" <<'S'
for t in /sys/devices/virtual/memory_tiering/memory_tier*; do echo "tier ${t##*memory_tier} $(cat "$t/nodelist")"; done
awk '/MemTotal/ { print "node" $2 " " int($4 / 1024) }' /sys/devices/system/node/node*/meminfo
S
vm SCRIPT="$TMP/tiers.sh" VM_SLOW_MB=128 VM_LOG="$TMP/tiers.log"
check "VM_SLOW_MB=128: node 1 of 128 MiB in a lower memory tier than node 0" bash -c "
	t0=\$(awk '\$1 == \"tier\" && \$3 == \"0\" { print \$2 }' '$TMP/out')
	t1=\$(awk '\$1 == \"tier\" && \$3 == \"1\" { print \$2 }' '$TMP/out')
	[ -n \"\$t0\" ] && [ -n \"\$t1\" ] && [ \"\$t1\" -gt \"\$t0\" ] &&
	awk '\$1 == \"node1\" && \$2 >= 120 && \$2 <= 128 { ok = 1 } END { exit !ok }' '$TMP/out' &&
	grep -qx 'memtide-host: memory node 1 of 128 MiB, slower (HMAT)' '$TMP/tiers.log'"

# VM_PREALLOC=1: QEMU holds all of the guest's 512 MiB before the guest runs; without it an
# idle guest holds far less. (The host's view: QEMU's resident memory while the guest waits.)
printf 'echo guest-up; sleep 5\n' >"$TMP/idle.sh"
# descendant_qemu PID: the QEMU that PID started (not another one on the host)
descendant_qemu() {
	local c
	for c in $(pgrep -P "$1"); do
		[ "$(cat "/proc/$c/comm" 2>/dev/null)" = qemu-system-x86 ] && { echo "$c"; return 0; }
		descendant_qemu "$c" && return 0
	done
	return 1
}
# qemu_rss_mib PID: once the guest of the vm started as PID is up, its QEMU's resident MiB
qemu_rss_mib() {
	local q rss=0 i
	for i in $(seq 1 600); do
		grep -q '^guest-up' "$TMP/out" 2>/dev/null && break
		sleep 0.1
	done
	q=$(descendant_qemu "$1") && rss=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$q/status")
	echo "$rss"
}
vm SCRIPT="$TMP/idle.sh" VM_PREALLOC=1 VM_LOG="$TMP/pre.log" & rss=$(qemu_rss_mib $!); wait
check "VM_PREALLOC=1: QEMU holds all guest memory ($rss MiB of 512), the log says so" bash -c "
	[ $rss -ge 512 ] && grep -qx 'memtide-host: guest memory preallocated' '$TMP/pre.log'"
vm SCRIPT="$TMP/idle.sh" VM_LOG="$TMP/nopre.log" & rss=$(qemu_rss_mib $!); wait
check "without it, an idle guest does not ($rss MiB of 512), nor does the log" bash -c "
	[ $rss -gt 0 ] && [ $rss -lt 400 ] && ! grep -q 'preallocated' '$TMP/nopre.log'"

# VM_BLOCKSTATS=1: QEMU's own count of the swap disk's requests at the end of the boot, in
# the log; it agrees with the guest's count of the same boot (the firmware's probe of the
# disk aside: a few sectors), and the guest still powers off as usual
cat >"$TMP/reads.sh" <<'S'
dd if=/dev/vda of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
set -- $(cat /sys/block/vda/stat)
echo "guest-reads $1 $(($3 * 512))"
S
vm SCRIPT="$TMP/reads.sh" VM_LOG="$TMP/bs.log" VM_BLOCKSTATS=1
st=$?
read -r g_ios g_bytes < <(sed -n 's/^guest-reads //p' "$TMP/out")
read -r q_ios q_bytes < <(sed -n 's/^memtide-host: boot 1 blockstats swap rd_ops=\([0-9]*\) rd_bytes=\([0-9]*\) .*/\1 \2/p' "$TMP/bs.log")
check "VM_BLOCKSTATS=1: QEMU counted ${q_ios:-no} reads, ${q_bytes:-no} bytes; the guest ${g_ios:-no}, ${g_bytes:-no}" bash -c "
	[ $st = 0 ] && [ ${g_ios:-0} -ge 16 ] && [ ${q_ios:-0} -ge ${g_ios:-1} ] && [ \$((${q_ios:-0} - ${g_ios:-0})) -le 8 ] &&
	[ \$((${q_bytes:-0} - ${g_bytes:-0})) -ge 0 ] && [ \$((${q_bytes:-0} - ${g_bytes:-0})) -le 65536 ] &&
	! grep -q 'blockstats failed' '$TMP/bs.log'"
check "... and without it, no count" bash -c "! grep -q blockstats '$TMP/nopre.log'"

printf 'sleep 600\n' >"$TMP/hang.sh"
vm SCRIPT="$TMP/hang.sh" VM_TIMEOUT=20
st=$?
check "a hung guest is killed: exit 124" [ $st -eq 124 ]
check "... with the last console lines" grep -q "^vm-run: the guest timed out after 20s; last console lines:" "$TMP/err"

printf 'echo c >/proc/sysrq-trigger\nsleep 60\n' >"$TMP/panic.sh"
vm SCRIPT="$TMP/panic.sh" VM_TIMEOUT=120
st=$?
check "a panicked guest ends at once: exit 125" [ $st -eq 125 ]
check "... saying so, with the last console lines" grep -q "^vm-run: the guest kernel panicked; last console lines:" "$TMP/err"

# hibernation: the marker, then the image; vm-run boots again and the script goes on. The
# kernel's console messages land between any two characters of the guest's lines, in the
# middle of the marker's or a stamp's (bench runs lost their resume so), or before its newline:
# here they always do.
cat >"$TMP/hibernate.sh" <<'S'
echo "before: $(cat /sys/block/vdb/serial)"
echo resumed-state >state.txt
printf 'memtide-stamp hiber[    5.1] random: crng init done\n[    5.2] x\nnate-start\n'
printf 'memtide-hibernat[    6.946256] PM: hibernation: hibernation entry\ning %s\n' "$MEMTIDE_NONCE"
echo disk >/sys/power/state || exit 3
printf 'memtide-stamp resumed[    3.1] virtio_blk virtio1: [vdb] 1 512-byte logical blocks\n\n'
echo "after: $(cat /sys/block/vdb/serial) $(cat state.txt)"
[ "$(cat /sys/block/vdb/serial)" = mt-boot-2 ] || exit 4
exit 0
S
vm SCRIPT="$TMP/hibernate.sh" VM_LOG="$TMP/hib.log" VM_TIMEOUT=300 SWAP_MB=512 VM_BLOCKSTATS=1
st=$?
check "a hibernated guest resumes in a second boot and finishes: exit $st" [ $st -eq 0 ]
check "... the script saw boot 1, then boot 2 with its state" bash -c "
	grep -q '^before: mt-boot-1$' '$TMP/out' && grep -q '^after: mt-boot-2 resumed-state$' '$TMP/out'"
check "... the log has the host's stamps of both boots" bash -c "
	[ \$(grep -c '^memtide-host: boot [12] at [0-9]*$' '$TMP/hib.log') = 2 ] &&
	[ \$(grep -c '^memtide-host: boot [12] exit at [0-9]*$' '$TMP/hib.log') = 2 ]"

check "... QEMU counted the image written in boot 1 and read in boot 2" bash -c "
	grep -Eq '^memtide-host: boot 1 blockstats swap rd_ops=[0-9]+ rd_bytes=[0-9]+ wr_ops=[1-9][0-9]* wr_bytes=[1-9][0-9]*\$' '$TMP/hib.log' &&
	grep -Eq '^memtide-host: boot 2 blockstats swap rd_ops=[1-9][0-9]* rd_bytes=[1-9][0-9]* ' '$TMP/hib.log'"

# memtide-stamp NAME: the host's time of the line, in order with the boots
check "... the guest's stamps carry the host's time, in order with the boots" bash -c "
	grep -o '^memtide-host: \(boot [12]\|boot [12] exit\|stamp [a-z-]*\) at' '$TMP/hib.log' | tr '\n' ' ' |
		grep -qx 'memtide-host: boot 1 at memtide-host: stamp kernel-booted at memtide-host: stamp hibernate-start at memtide-host: boot 1 exit at memtide-host: boot 2 at memtide-host: stamp resumed at memtide-host: boot 2 exit at '"

# the systemd guest: ROOTFS boots a root file system with systemd as PID 1
rootfs=$(ls "$ROOT"/build/rootfs/debian-*.img 2>/dev/null | head -n 1)
if [ -n "$rootfs" ]; then
	cat >"$TMP/sd.sh" <<'S'
echo "pid1=$(cat /proc/1/comm) unit=$(cat /proc/self/cgroup)"
grep -q '^/dev/vda ' /proc/swaps && systemctl is-system-running --wait
S
	vm SCRIPT="$TMP/sd.sh" ROOTFS="$rootfs" VM_MEM=1G VM_TIMEOUT=300
	st=$?
	check "ROOTFS: systemd is PID 1, the script runs in memtide-payload.service, the system is running (exit $st)" \
		bash -c "[ $st -eq 0 ] && grep -q '^pid1=systemd unit=0::/system.slice/memtide-payload.service$' '$TMP/out'"
else
	# make check-full builds it (1.5 minutes and a download): make check does not
	skip "ROOTFS: no root file system image in build/rootfs yet (selftests/vm/mkrootfs.sh)"
fi

# without the marker a guest that stops is not booted again
printf 'poweroff -f\n' >"$TMP/off.sh"
vm SCRIPT="$TMP/off.sh" VM_LOG="$TMP/off.log"
st=$?
check "a guest that powers off without the marker: one boot, exit 125" bash -c "
	[ $st -eq 125 ] && [ \$(grep -c '^memtide-host: boot [0-9]* at' '$TMP/off.log') = 1 ]"
# DISK_LATENCY_MS: every request of the swap disk waits that long (nbdkit's delay filter): 50
# direct 4 KiB reads one after another cannot take less than 50 x 20 ms (a lower bound, which
# no slow host breaks); without it they take a fraction of that
cat >"$TMP/latency.sh" <<'S'
t0=$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/vda of=/dev/null bs=4k count=50 iflag=direct 2>/dev/null
echo "dd_ms=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%d", (b - a) * 1000 }')"
S
vm SCRIPT="$TMP/latency.sh" DISK_LATENCY_MS=20
check "DISK_LATENCY_MS=20: 50 reads one at a time take at least 1 s" \
	bash -c "[ \$(sed -n 's/^dd_ms=//p' '$TMP/out') -ge 1000 ]"
vm SCRIPT="$TMP/latency.sh"
check "without it, well under that (the delay is the model's, not the guest's)" \
	bash -c "[ \$(sed -n 's/^dd_ms=//p' '$TMP/out') -lt 500 ]"
done_testing
