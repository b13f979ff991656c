# Scenario "reclaim" (issue 3): how fast memory.reclaim empties an idle cgroup onto a slow
# swap disk, and what memtide's "max", batching and read-back cost against mainline.
# A 1 GiB guest; one idle process holds 700 MiB of incompressible anonymous memory in a
# cgroup; the swap disk is capped at 100 MB/s ("seed" disk model). Variants:
#
# - vanilla: mainline 6.12, `echo 700M > memory.reclaim` (the most it can be asked for)
# - memtide-bytes: memtide, the same 700M; differs from vanilla in its batches (a quarter of
#   what remains, as mainline, but at most 64 MiB) and the read-back accounting
# - memtide-max: memtide, `echo max`, as memtide's tool asks
# - vanilla-again: vanilla once more, the A/A pair that shows the noise between two
#   identical variants
#
# Scenario "reclaim-floor" runs the same without the disk cap: under TCG reclaim itself costs
# about as much CPU time as the disk takes, and that floor, not the disk, is the limit here.
# Time: from write to return (timed_write in the guest). The physical limit is swapped
# bytes / disk bandwidth. "read-back" is the cost of the pread() of the result.
TITLE="memory.reclaim of a 700 MiB idle cgroup to a 100 MB/s swap disk"
VM_MEM=1G
SWAP_MB=1536
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=0
GUEST=reclaim-guest.sh
# label kernel guest-arguments
VARIANTS=(
	"vanilla vanilla-perf 700M"
	"memtide-bytes memtide-perf 700M"
	"memtide-max memtide-perf max"
	"vanilla-again vanilla-perf 700M"
)
