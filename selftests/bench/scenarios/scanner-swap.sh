# Scenario "scanner-swap" (issue 5): anonymous memory over a cgroup's limit, where 6.12 still
# writes a dirty folio to swap the first time reclaim meets it. A 1 GiB guest; a process in
# a cgroup limited to 192 MiB maps 384 MiB of incompressible anonymous memory (half of it
# goes to swap while it fills), then touches all of it again twice (each pass swaps the
# other half in and out); the swap disk is the "cloud volume" model, so batching can show.
# Time: from the start of the fill to the end of the second pass. "moved" is what went to
# and came from swap (pswpout + pswpin), the physical limit.
#
# - off: vm.swapout_second_chance = 0 (6.12's behaviour)
# - on: vm.swapout_second_chance = 1000 (the second chance at any pressure)
# - off-again: off once more, the noise floor (A/A)
TITLE="384 MiB of anonymous memory cycled through a 192 MiB cgroup (100 MB/s, 3000 req/s swap)"
VM_MEM=1G
SWAP_MB=1024
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=3000
GUEST=scanner-swap-guest.sh
EXTRA=("fill_us:fill s" "touch_us:two passes s")
# label kernel guest-arguments
VARIANTS=(
	"off memtide-perf 0"
	"on memtide-perf 1000"
	"off-again memtide-perf 0"
)
