# Scenario "release-scale" (issue 30): what a release of the same 512 MiB costs as the
# swap behind it grows. A 2 GiB guest, a sparse swap disk of 17.5 GiB, uncapped; a slice of
# three processes and a tmpfs file with 1, 4 or 16 GiB in swap (release-scale-guest.sh),
# then `echo 512M > memory.release`. Figures: the write's wall time, the writer's system CPU
# time per released GiB, and the slowest mmap + touch + munmap of a thread of one of the
# slice's processes during the write (memhog --probe, a loop every millisecond): how long the
# program could not answer. Uncapped, the time is bound by the emulated CPU; "release-scale-100"
# is the same at 100 MB/s.
TITLE="Releasing 512 MiB of a slice with 1, 4 and 16 GiB in swap, disk uncapped"
VM_MEM=2G
SWAP_MB=17920
DISK_BPS=0
DISK_IOPS=0
GUEST=release-scale-guest.sh
GUEST_LIBS=(workload-guest.sh)
EXTRA=("stime_us:writer system CPU s" "cpu_per_gib_us:system CPU per released GiB s" "probe_worst_us:slowest mmap/touch/munmap s" "probe_loops:probe loops")
# label kernel guest-arguments (swap-1g-again: the baseline once more, the noise floor)
VARIANTS=(
	"swap-1g memtide-perf 1"
	"swap-4g memtide-perf 4"
	"swap-16g memtide-perf 16"
	"swap-1g-again memtide-perf 1"
)
TARGETS=(
	"cpu_per_gib_us swap-16g 1.2 swap-1g|system CPU per released GiB at 16 GiB in swap within 1.2x of that at 1 GiB"
	"probe_worst_us swap-16g 1.0 limit:latency_budget_us|the slowest mmap/touch/munmap during the release under 100 ms, at 16 GiB in swap"
)
