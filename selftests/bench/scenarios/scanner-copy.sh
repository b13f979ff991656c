# Scenario "scanner-copy" (issue 5): the 2.5 VM series' own benchmark, scaled to the guest.
# 400 MB of incompressible data are copied from the scratch ext4 into a ramfs, then a shell
# in a cgroup limited to 128 MiB copies them from the ramfs onto a fresh ext2 file system
# (the seed's) ten times and syncs, on the "cloud volume" disk model, so that both the bytes
# and the requests of writeback are capped. The seed saw this phase take 0.66x of the time
# with its series, mostly from skip-writepage. Time: the ten copies and the sync.
# "moved" is the 4000 MB written (the physical limit); "populate" is the ext4 -> ramfs copy.
#
# - off: vm.swapout_second_chance = 0 (6.12's behaviour)
# - on: vm.swapout_second_chance = 1000 (the second chance at any pressure)
# - off-again: off once more, the noise floor (A/A)
TITLE="The seed's copy benchmark: 10 x 400 MB from ramfs onto ext2 in a 128 MiB cgroup"
VM_MEM=1G
SWAP_MB=4608 # the ext2 target here, not swap: it holds the ten copies
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=3000
GUEST=scanner-copy-guest.sh
EXTRA=("populate_us:ext4 -> ramfs s")
# label kernel guest-arguments
VARIANTS=(
	"off memtide-perf 0"
	"on memtide-perf 1000"
	"off-again memtide-perf 0"
)
