#!/usr/bin/env bash
# Host half of the harness (the guest half is ./init): boot a test kernel under QEMU TCG,
# run one script inside as root and exit with that script's status.
#
# Settings come from the environment (make vm-run passes them through):
#   SCRIPT      the script to run (required); run with busybox sh in its own directory
#   VM_FILES    more files copied beside it (same basenames)
#   KERNEL      memtide | vanilla, either optionally -perf or -debug (default memtide);
#               -perf: the same tree without the debug checks, for make bench;
#               -debug: with KASAN, KFENCE and more, for make check-debug;
#               or debian: Debian's own build of the base (make kernel-debian), the stock
#               kernel of the tool's test
#   VM_MEM      guest memory, e.g. 1G or 768M            (default 1G)
#   VM_SMP      vCPUs, 1-8                               (default 2)
#   SWAP_MB     size of the swap disk /dev/vda           (default 2048)
#   DISK_BPS    throttle of the swap disk in bytes/s, 0 = none (default 0)
#   DISK_IOPS   request cap of the swap disk (QEMU iops-total), 0 = none (default 0)
#   DISK_LATENCY_MS  milliseconds each read and write of the swap disk waits before it is
#               served, 0 = none (default 0). QEMU's throttle models no latency: with one,
#               the swap disk is served by nbdkit's delay filter on the host, over a Unix
#               socket, as a network volume is (see below for why not dm-delay)
#   MGLRU       0 | 1 to turn MGLRU off or on, empty = kernel default (on)
#   VM_SYSCTL   sysctls set at boot: space-separated KEY=VALUE, e.g.
#               "vm.swapout_second_chance=1000" (the kernel's sysctl.KEY=VALUE parameter;
#               one it cannot set is logged, and fails console-clean in summarize.sh)
#   VM_CMDLINE  more kernel parameters for both boots: space-separated KEY or KEY=VALUE, e.g.
#               "hibernate=nocompress" (bench scenarios set them per variant)
#   VM_PREALLOC 1: QEMU allocates and touches all guest memory before the guest starts
#               (-mem-prealloc), so that the host's first touch of a page is not paid inside
#               the guest's steps. It is dear where the host is itself a VM whose memory is
#               backed lazily and handed back when free (free page reporting): there each
#               boot's first touch of fresh memory stalls the guest (docs/benchmarks.md).
#               Default 0: memory is allocated as the guest touches it.
#   VM_BLOCKSTATS 1: at the end of each boot, QEMU's own count of the swap disk's requests
#               (query-blockstats, by ./qmp-blockstats.py over a QMP socket; QEMU waits for
#               it with -no-shutdown) goes to the log as "memtide-host: boot N blockstats
#               swap rd_ops=N rd_bytes=N wr_ops=N wr_bytes=N": the requests of a hibernation's
#               image write and of its read at resume, which no counter in the guest shows.
#               Needs python3. Default 0 (make bench sets 1)
#   VM_SLOW_MB  MiB of VM_MEM that form a second, slower memory node: a CPU-less NUMA node
#               whose ACPI HMAT latency and bandwidth (QEMU -numa hmat-lb) are twice and half
#               those of node 0, which 6.12's memory tiers then put in a lower tier, a
#               demotion target (a CXL memory expander, say). 0 = one node (default 0)
#   VM_TIMEOUT  seconds before the guest is killed, per boot (default 900)
#   VM_LOG      where to keep the console log            (default: a temporary file)
#   ROOTFS      a root file system image (selftests/vm/mkrootfs.sh prints one): boot it with
#               systemd as PID 1, on a copy-on-write overlay, in place of the scratch disk
#               vdb; the script then runs in a service (./rootfs-payload.sh). Default: none,
#               the busybox guest of ./init
# Exit status: the script's, or 124 if the guest timed out, 125 if it never reported one
# (kernel panic, guest set-up failure, QEMU error). `vm-run.sh --check` only validates.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}

die() { echo "vm-run: $*" >&2; exit 2; }

SCRIPT=${SCRIPT:-}
VM_FILES=${VM_FILES:-}
KERNEL=${KERNEL:-memtide}
VM_MEM=${VM_MEM:-1G}
VM_SMP=${VM_SMP:-2}
SWAP_MB=${SWAP_MB:-2048}
DISK_BPS=${DISK_BPS:-0}
DISK_IOPS=${DISK_IOPS:-0}
DISK_LATENCY_MS=${DISK_LATENCY_MS:-0}
MGLRU=${MGLRU:-}
VM_SYSCTL=${VM_SYSCTL:-}
VM_CMDLINE=${VM_CMDLINE:-}
VM_PREALLOC=${VM_PREALLOC:-0}
VM_BLOCKSTATS=${VM_BLOCKSTATS:-0}
VM_SLOW_MB=${VM_SLOW_MB:-0}
VM_TIMEOUT=${VM_TIMEOUT:-900}
ROOTFS=${ROOTFS:-}

is_uint() { [[ $1 =~ ^[0-9]+$ ]]; }
# mem_mb SIZE: QEMU -m syntax (plain number = MiB, or a M/G suffix) to MiB, empty if invalid
mem_mb() {
	[[ $1 =~ ^([0-9]+)([MmGg]?)$ ]] || return 0
	case ${BASH_REMATCH[2]} in [Gg]) echo $((BASH_REMATCH[1] * 1024)) ;; *) echo "${BASH_REMATCH[1]}" ;; esac
}

[ -n "$SCRIPT" ] || die "SCRIPT is not set (make vm-run SCRIPT=path/to/script.sh)"
[ -f "$SCRIPT" ] && [ -r "$SCRIPT" ] || die "SCRIPT $SCRIPT: no such readable file"
case $KERNEL in memtide | vanilla | memtide-perf | vanilla-perf | memtide-debug | vanilla-debug | debian) ;;
*) die "unknown KERNEL '$KERNEL' (memtide or vanilla, either with -perf or -debug, or debian)" ;;
esac
mb=$(mem_mb "$VM_MEM")
[ -n "$mb" ] || die "VM_MEM '$VM_MEM' is not a size QEMU takes (e.g. 1G, 768M)"
[ "$mb" -ge 256 ] && [ "$mb" -le 16384 ] || die "VM_MEM '$VM_MEM' is out of range (256M to 16G)"
is_uint "$VM_SMP" && [ "$VM_SMP" -ge 1 ] && [ "$VM_SMP" -le 8 ] || die "VM_SMP '$VM_SMP' must be 1 to 8"
is_uint "$SWAP_MB" && [ "$SWAP_MB" -ge 16 ] || die "SWAP_MB '$SWAP_MB' must be a number of MiB, at least 16"
is_uint "$DISK_BPS" || die "DISK_BPS '$DISK_BPS' must be bytes per second (0 = unthrottled)"
is_uint "$DISK_IOPS" || die "DISK_IOPS '$DISK_IOPS' must be requests per second (0 = uncapped)"
is_uint "$DISK_LATENCY_MS" && [ "$DISK_LATENCY_MS" -le 1000 ] ||
	die "DISK_LATENCY_MS '$DISK_LATENCY_MS' must be milliseconds, 0 to 1000 (0 = none)"
[ "$DISK_LATENCY_MS" = 0 ] || command -v nbdkit >/dev/null || die "DISK_LATENCY_MS needs nbdkit (apt-get install nbdkit)"
case $MGLRU in '' | 0 | 1) ;; *) die "MGLRU '$MGLRU' must be 0 or 1" ;; esac
# the whole string first: its words are split unquoted below, and a * or ? would expand to
# file names of the current directory before a word's check saw it
[[ $VM_SYSCTL =~ ^[A-Za-z0-9_.=\ -]*$ ]] ||
	die "VM_SYSCTL '$VM_SYSCTL' must be KEY=VALUE words (e.g. vm.swappiness=60)"
for kv in $VM_SYSCTL; do
	[[ $kv =~ ^[a-z][a-z0-9_.]*=[A-Za-z0-9_-]+$ ]] || die "VM_SYSCTL '$kv' must be KEY=VALUE (e.g. vm.swappiness=60)"
done
[[ $VM_CMDLINE =~ ^[A-Za-z0-9_.,:=\ -]*$ ]] ||
	die "VM_CMDLINE '$VM_CMDLINE' must be KEY or KEY=VALUE words (e.g. hibernate=nocompress)"
for kv in $VM_CMDLINE; do
	[[ $kv =~ ^[a-z][a-z0-9_.-]*(=[A-Za-z0-9_.,:-]+)?$ ]] ||
		die "VM_CMDLINE '$kv' must be KEY or KEY=VALUE (e.g. hibernate=nocompress)"
done
case $VM_PREALLOC in 0 | 1) ;; *) die "VM_PREALLOC '$VM_PREALLOC' must be 0 or 1" ;; esac
case $VM_BLOCKSTATS in 0 | 1) ;; *) die "VM_BLOCKSTATS '$VM_BLOCKSTATS' must be 0 or 1" ;; esac
[ "$VM_BLOCKSTATS" = 0 ] || command -v python3 >/dev/null || die "VM_BLOCKSTATS=1 needs python3"
is_uint "$VM_SLOW_MB" && { [ "$VM_SLOW_MB" = 0 ] || { [ "$VM_SLOW_MB" -ge 64 ] && [ "$VM_SLOW_MB" -le $((mb - 256)) ]; }; } ||
	die "VM_SLOW_MB '$VM_SLOW_MB' must be 0 or 64 to $((mb - 256)) MiB (node 0 keeps at least 256 MiB of VM_MEM)"
is_uint "$VM_TIMEOUT" && [ "$VM_TIMEOUT" -ge 1 ] || die "VM_TIMEOUT '$VM_TIMEOUT' must be seconds"
if [ -n "$ROOTFS" ]; then
	[ -f "$ROOTFS" ] && [ -r "$ROOTFS" ] || die "ROOTFS $ROOTFS: no such readable image"
fi
declare -A seen=(["$(basename "$SCRIPT")"]=1)
for f in $VM_FILES; do
	[ -f "$f" ] && [ -r "$f" ] || die "VM_FILES: $f: no such readable file"
	b=$(basename "$f")
	[ -z "${seen[$b]:-}" ] || die "VM_FILES: two files named $b"
	seen[$b]=1
done
[ "${1:-}" = --check ] && exit 0

kernel=$BUILD/obj/$KERNEL/arch/x86/boot/bzImage
# a -perf or -debug kernel boots its tree's ordinary guest image: same tests, same headers
tree=${KERNEL%-perf}
tree=${tree%-debug}
initramfs=$BUILD/vm/initramfs-$tree.cpio
case $KERNEL in *-perf) how=" PERF=1" ;; *-debug) how=" DEBUG=1" ;; *) how= ;; esac
[ -f "$kernel" ] || die "no $KERNEL kernel at $kernel (make kernel$(case $tree in vanilla | debian) echo "-$tree" ;; esac)$how)"
[ -f "$initramfs" ] || die "no guest image at $initramfs (make initramfs KERNEL=$tree)"

mkdir -p "$BUILD/vm"
run=$(mktemp -d "$BUILD/vm/run.XXXXXX")
trap 'rm -rf "$run"' EXIT
log=${VM_LOG:-$run/console.log}

# The payload is a second cpio archive appended to the guest image: the kernel unpacks both.
mkdir -p "$run/root/payload"
cp "$SCRIPT" "$run/root/payload/"
for f in $VM_FILES; do cp "$f" "$run/root/payload/"; done
(cd "$run/root" && find payload | cpio -o -H newc --quiet) >"$run/payload.cpio" || die "cannot pack the payload"
cat "$initramfs" "$run/payload.cpio" >"$run/initrd.cpio"

truncate -s "${SWAP_MB}M" "$run/swap.img"
if [ -n "$ROOTFS" ]; then
	# writes go to the overlay, which lives as long as the run: a resume finds the disk as
	# the hibernated system left it, and the cached image stays as built
	qemu-img create -q -f qcow2 -F raw -b "$(realpath "$ROOTFS")" "$run/scratch.img" ||
		die "cannot make an overlay of $ROOTFS"
	scratch_fmt=qcow2
else
	truncate -s 4G "$run/scratch.img"
	mkfs.ext4 -q -F "$run/scratch.img" || die "cannot make the scratch filesystem"
	scratch_fmt=raw
fi

throttle=
[ "$DISK_BPS" -gt 0 ] && throttle=",throttling.bps-total=$DISK_BPS"
[ "$DISK_IOPS" -gt 0 ] && throttle="$throttle,throttling.iops-total=$DISK_IOPS"
# The swap drive: the file itself, or with a latency the same file through nbdkit's delay
# filter. Not dm-delay in the guest: 6.12's rounds each delay up to whole jiffies (1 ms is
# 0-4 ms at HZ=250) and, for delays under 50 ms, flushes from a kthread that polls with
# cond_resched() while bios wait, a busy vCPU under TCG that would slow exactly the
# CPU-bound methods being compared. nbdkit sleeps each request on the host, requests run
# side by side (QEMU keeps up to 16 in flight on one connection), and QEMU's throttle still
# caps bandwidth and request rate in front of it. The server lives as long as the run, so a
# resume reads the image through it too.
swap_drive="file=$run/swap.img,if=none,id=swap,format=raw,cache=none,aio=threads$throttle"
if [ "$DISK_LATENCY_MS" -gt 0 ]; then
	# a socket's path may not be longer than 107 bytes, and $run is under the clone
	nbd_dir=$(mktemp -d /tmp/memtide-nbd.XXXXXX)
	nbdkit --exit-with-parent -f -U "$nbd_dir/sock" -P "$nbd_dir/pid" --filter=delay file \
		"$run/swap.img" cache=none rdelay="${DISK_LATENCY_MS}ms" wdelay="${DISK_LATENCY_MS}ms" \
		2>"$run/nbdkit.err" &
	nbd_pid=$!
	# (wait: gone when vm-run is, not a moment later)
	trap 'kill "$nbd_pid" 2>/dev/null; wait "$nbd_pid" 2>/dev/null; rm -rf "$run" "${qmp_dir:-}" "$nbd_dir"' EXIT
	for _ in $(seq 100); do [ -S "$nbd_dir/sock" ] && break; sleep 0.05; done
	[ -S "$nbd_dir/sock" ] || die "nbdkit did not start: $(head -n 1 "$run/nbdkit.err")"
	swap_drive="driver=raw,file.driver=nbd,file.server.type=unix,file.server.path=$nbd_dir/sock,if=none,id=swap,cache.direct=off$throttle"
fi
nonce=$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
# resume=: hibernation writes its image where resume= points, and a boot with an image there
# resumes from it (a boot without one goes on as usual)
append="console=ttyS0 panic=-1 loglevel=5 resume=/dev/vda memtide.nonce=$nonce memtide.script=$(basename "$SCRIPT")"
[ -n "$MGLRU" ] && append="$append memtide.mglru=$MGLRU"
for kv in $VM_SYSCTL; do append="$append sysctl.$kv"; done
[ -z "$VM_CMDLINE" ] || append="$append $VM_CMDLINE"
# KASAN under TCG: early boot (ACPI's tables, each allocation's stack saved) keeps a CPU busy
# for about 26 s without a reschedule. The stock debug kernel's soft-lockup detector (after
# 20 s by default) reported it, and so did RCU's stall detector (21 s) on memtide's, the other
# CPU in stop_machine (2026-12-01). Emulation is several times slower than the hardware those
# defaults were set for: report after 120 s (watchdog_thresh=60 is the most it takes).
# The same slowness runs ACPI's _PRT method (the PCI interrupt routing, an AML loop) past
# ACPICA's 30 s loop limit on a slower host: "AE_AML_LOOP_TIMEOUT", then "virtio-pci: can't
# derive routing for PCI INT A", and with no MSI in the tiny config the disks never
# interrupt: the memtide debug kernel hung at boot until the 900 s timeout (2026-12-02).
# pci=noacpi takes the routing from the BIOS's $PIR table and skips the loop: the script
# then starts 28 s after QEMU does.
case $KERNEL in
*-debug) append="$append watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120 pci=noacpi" ;;
esac
# systemd's status lines would interleave with the script's output on the console
[ -n "$ROOTFS" ] && append="$append memtide.root=systemd systemd.show_status=0"

# Hibernation: a script about to hibernate the guest prints "memtide-hibernating
# $MEMTIDE_NONCE". When QEMU then exits without the script's exit status, the guest is
# booted again from the same disks and resumes from the image (up to 4 times; the guest
# suite hibernates three times). The scratch
# disk's serial (/sys/block/vdb/serial) is mt-boot-N in the Nth boot, so the guest can tell a
# real resume from a hibernation that failed and carried on; the host stamps each boot in
# the log with its own clock ("memtide-host: boot N at MS" and "... exit at MS"), since the
# guest's clocks jump across a resume.
# Timestamps a guest asks for: after a line "memtide-stamp NAME" the host adds
# "memtide-host: stamp NAME at MS" with its own clock (benchmarks time hibernation with them).
# NAME is letters, digits and dashes.
# The kernel writes its console messages into the serial line between any two characters of
# a line of the guest's ("memtide-hibernat[    6.94] PM: hibernation: hibernation entry",
# then "ing NONCE" on the next line: a bench run lost its resume so), so the guest's lines
# are put back together from their pieces: text before a kernel message waits for the rest
# of its line. A stamp takes the host's time of its line's first piece, when the guest wrote
# it. The guest's lines, whole, go to $run/guest.log, where the markers are looked for; the
# log keeps the console as it came.
guest_line() { # LINE MS
	printf '%s\n' "$1" >>"$run/guest.log"
	case $1 in
	"memtide-stamp "*)
		local name=${1#memtide-stamp }
		echo "memtide-host: stamp ${name%%[!a-z0-9-]*} at $2"
		;;
	esac
}
stamp() {
	local line piece pending= since=
	while IFS= read -r line; do
		printf '%s\n' "$line"
		if [[ $line =~ \[\ *[0-9]+\.[0-9]+\]\  ]]; then
			piece=${line%%"${BASH_REMATCH[0]}"*} # before the first kernel message
			[ -n "$piece" ] || continue          # a kernel line of its own
			[ -n "$since" ] || since=$(date +%s%3N)
			pending+=$piece
			continue
		fi
		guest_line "$pending$line" "${since:-$(date +%s%3N)}"
		pending= since=
	done
	[ -z "$since" ] || guest_line "$pending" "$since"
}
prealloc=()
: >"$log"
# in the log, for whoever times the runs (bench: a variant's disk model must be the one asked)
[ "$DISK_LATENCY_MS" = 0 ] || echo "memtide-host: swap disk latency ${DISK_LATENCY_MS} ms (nbdkit delay filter)" >>"$log"
if [ "$VM_PREALLOC" = 1 ]; then
	prealloc=(-mem-prealloc)
	# in the log, for whoever times the runs (bench: a variant that asked must have it)
	echo "memtide-host: guest memory preallocated" >>"$log"
fi
numa=()
if [ "$VM_SLOW_MB" -gt 0 ]; then
	# the two nodes' memory adds up to -m; the CPUs are node 0's. 6.12 moves a node to a
	# lower tier only from HMAT figures measured against node 0's (hmat_set_default_dram_perf)
	backend=memory-backend-ram
	[ "$VM_PREALLOC" = 1 ] && backend_opts=,prealloc=on || backend_opts=
	numa=(-machine hmat=on
		-object "$backend,id=m0,size=$((mb - VM_SLOW_MB))M$backend_opts"
		-object "$backend,id=m1,size=${VM_SLOW_MB}M$backend_opts"
		-numa "node,nodeid=0,cpus=0-$((VM_SMP - 1)),memdev=m0"
		-numa node,nodeid=1,memdev=m1,initiator=0
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-latency,latency=5
		-numa hmat-lb,initiator=0,target=0,hierarchy=memory,data-type=access-bandwidth,bandwidth=200M
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-latency,latency=10
		-numa hmat-lb,initiator=0,target=1,hierarchy=memory,data-type=access-bandwidth,bandwidth=100M)
	echo "memtide-host: memory node 1 of ${VM_SLOW_MB} MiB, slower (HMAT)" >>"$log"
fi
monitor=()
if [ "$VM_BLOCKSTATS" = 1 ]; then
	# a socket's path may not be longer than 107 bytes, and $run is under the clone
	qmp_dir=$(mktemp -d /tmp/memtide-qmp.XXXXXX)
	trap 'kill "${nbd_pid:-}" 2>/dev/null; wait ${nbd_pid:-} 2>/dev/null; rm -rf "$run" "$qmp_dir" "${nbd_dir:-}"' EXIT
	monitor=(-qmp "unix:$qmp_dir/sock,server=on,wait=off" -no-shutdown -pidfile "$qmp_dir/qemu.pid")
fi
# blockstats_start: the counter of this boot, in the background ($blockstats_pid); should it
# fail, it stops QEMU, which -no-shutdown would keep after the guest powered off
blockstats_start() {
	rm -f "$qmp_dir/sock" "$qmp_dir/qemu.pid" "$run/blockstats" "$run/blockstats.err"
	(
		"$ROOT/selftests/vm/qmp-blockstats.py" "$qmp_dir/sock" swap >"$run/blockstats" 2>"$run/blockstats.err" ||
			{ [ -s "$qmp_dir/qemu.pid" ] && kill "$(cat "$qmp_dir/qemu.pid")"; }
	) &
	blockstats_pid=$!
}
# blockstats_end: the counts of this boot into the log. The helper is done (it made QEMU
# quit), or soon is, or waits for a QEMU that has gone (it failed to start): then, after 2 s,
# it is stopped.
blockstats_end() {
	local i=0
	while [ $i -lt 40 ] && kill -0 "$blockstats_pid" 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
	pkill -P "$blockstats_pid" 2>/dev/null
	wait "$blockstats_pid"
	sed "s/^/memtide-host: boot $boot blockstats /" "$run/blockstats" >>"$log"
	sed "s/^/memtide-host: boot $boot blockstats failed: /" "$run/blockstats.err" >>"$log"
}
boot=0
while :; do
	boot=$((boot + 1))
	echo "memtide-host: boot $boot at $(date +%s%3N)" >>"$log"
	: >"$run/guest.log"
	[ "$VM_BLOCKSTATS" = 0 ] || blockstats_start
	timeout -k 10 "$VM_TIMEOUT" qemu-system-x86_64 \
		-accel tcg -cpu max -m "$mb" -smp "$VM_SMP" "${prealloc[@]}" "${numa[@]}" "${monitor[@]}" \
		-nodefaults -no-reboot -display none -monitor none -serial stdio \
		-kernel "$kernel" -initrd "$run/initrd.cpio" -append "$append" \
		-drive "$swap_drive" \
		-device virtio-blk-pci,drive=swap \
		-drive "file=$run/scratch.img,if=none,id=scratch,format=$scratch_fmt,cache=none,aio=threads" \
		-device "virtio-blk-pci,drive=scratch,serial=mt-boot-$boot" \
		</dev/null 2>"$run/qemu.err" | sed -u 's/\r$//' | stamp | tee -a "$log"
	qemu_rc=${PIPESTATUS[0]}
	echo "memtide-host: boot $boot exit at $(date +%s%3N)" >>"$log"
	[ "$VM_BLOCKSTATS" = 0 ] || blockstats_end
	[ "$qemu_rc" -eq 0 ] && [ "$boot" -lt 5 ] && ! grep -q "^memtide-exit $nonce " "$run/guest.log" &&
		grep -qx "memtide-hibernating $nonce" "$run/guest.log" || break
done

rc=$(sed -n "s/^memtide-exit $nonce \([0-9][0-9]*\).*/\1/p" "$run/guest.log" | tail -n 1)
[ -n "$rc" ] && exit "$rc"

if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
	why="the guest timed out after ${VM_TIMEOUT}s"
	code=124
elif grep -q "Kernel panic" "$log"; then
	why="the guest kernel panicked"
	code=125
elif [ -s "$run/qemu.err" ] && ! [ -s "$log" ]; then
	die "qemu failed: $(head -n 1 "$run/qemu.err")"
else
	why="the guest stopped without reporting the script's exit status (qemu status $qemu_rc)"
	code=125
fi
{
	echo "vm-run: $why; last console lines:"
	tail -n 25 "$log" | sed 's/^/  | /'
} >&2
exit $code
