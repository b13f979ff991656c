# Scenario "release" (issue 4): how fast an idle cgroup's swapped-out memory is back in RAM.
# A 1 GiB guest; one idle process holds 700 MiB of incompressible anonymous memory in a
# cgroup, all reclaimed to a swap disk capped at 100 MB/s ("seed" disk model). Time: from the
# start of the prefetch method until the process has touched every page again. Variants, all
# on the memtide kernel (the fault, swapoff and madvise paths are mainline's):
#
# - demand: no prefetch, the touch faults every page in (with the fault path's readahead)
# - swapoff: swapoff + swapon of the swap disk, then the touch
# - madvise: process_madvise(MADV_WILLNEED) over all the process's mappings, then the touch
# - release: `echo max > memory.release`, then the touch
# - stock-tool: `memtide release` on the vanilla kernel (its process_madvise(MADV_WILLNEED)
#   fallback), then the touch: what a user without memtide's kernel runs (issue 32)
# - demand-again: demand once more, the noise floor (A/A) of the baseline
# - release-interleaved: two such processes of 350 MiB in two cgroups, reclaimed 8 MiB at a
#   time alternately so that their swap slots interleave; release of one of them
# - demand-interleaved: the same layout, demand paging of that one
# The interleaved variants move half as much as the others: compare them with each other
# (and each with its own limit), not with the baseline column.
TITLE="Bringing back a 700 MiB idle cgroup from a 100 MB/s swap disk"
VM_MEM=1G
SWAP_MB=1536
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=0
GUEST=release-guest.sh
# label kernel guest-arguments
VARIANTS=(
	"demand memtide-perf demand alone"
	"swapoff memtide-perf swapoff alone"
	"madvise memtide-perf madvise alone"
	"release memtide-perf release alone"
	"stock-tool vanilla-perf tool alone"
	"demand-interleaved memtide-perf demand interleaved"
	"release-interleaved memtide-perf release interleaved"
	"demand-again memtide-perf demand alone"
)
