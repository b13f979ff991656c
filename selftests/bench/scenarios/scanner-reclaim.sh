# Scenario "scanner-reclaim" (issue 5): scenario "reclaim" (`echo max > memory.reclaim` on an
# idle cgroup holding 700 MiB of anonymous memory) with vm.swapout_second_chance off and on,
# on the "cloud volume" disk model (100 MB/s and 3000 requests/s), where the size of swap-out
# requests counts.
# shellcheck source=reclaim.sh
. "$(dirname "${BASH_SOURCE[0]}")/reclaim.sh"
TITLE="memory.reclaim of a 700 MiB idle cgroup, second chance off and on (100 MB/s, 3000 req/s)"
DISK_IOPS=3000
VARIANTS=(
	"off memtide-perf max 0"
	"on memtide-perf max 1000"
	"off-again memtide-perf max 0"
)
