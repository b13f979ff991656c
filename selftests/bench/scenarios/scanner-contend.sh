# Scenario "scanner-contend" (issue 35 item 5): what memtide's reclaim-side patches cost when
# many cgroups reclaim at once, where a shared lock or cacheline in the reclaim path would
# show. scan_pressure updates a per-node and a per-memcg average at the end of every
# direct-reclaim run (do_try_to_free_pages()): one atomic64 cmpxchg each, no lock, no irq-off
# section; the root memcg's average is updated by every reclaimer, the one shared word.
# A 1 GiB guest, 2 vCPUs; eight cgroups limited to 32 MiB each, in each one process that
# maps 64 MiB of incompressible anonymous memory and touches all of it again twice, all eight
# at once: every page fault past the limit runs direct reclaim in its cgroup, on both CPUs.
# The swap disk is uncapped, so the CPU sets the time and a per-reclaim cost is not hidden
# behind the disk. Time: from the start of the fills to the end of the last second pass.
#
# - vanilla: mainline 6.12
# - memtide: the memtide kernel, every patch (scan_pressure, the MGLRU anon-only merge, which
#   only proactive reclaim runs; the second chance off, its default)
# - vanilla-again: vanilla once more, the noise floor (A/A)
TITLE="eight 32 MiB cgroups each cycling 64 MiB of anonymous memory at once, swap uncapped (the CPU floor)"
VM_MEM=1G
SWAP_MB=1024
DISK_BPS=0
DISK_IOPS=0
GUEST=scanner-contend-guest.sh
EXTRA=("fill_us:fill s" "touch_us:two passes s" "direct_steal_pages:limit reclaim freed (pages)")
# label kernel guest-arguments (cgroups, limit, each process's memory)
VARIANTS=(
	"vanilla vanilla-perf 8 32M 64M"
	"memtide memtide-perf 8 32M 64M"
	"vanilla-again vanilla-perf 8 32M 64M"
)
