# Scenario "scanner-swap-global" (issue 5): scenario "scanner-swap" without a cgroup limit, in
# a 512 MiB guest that memhog's 768 MiB overflows: the system's own reclaim does the work,
# and kswapd, the one reclaimer that gives the second chance, has its part of it. Whatever
# direct reclaim takes, it writes at once (see docs/vm-scanner.md); the result line counts
# the pages each stole.
# shellcheck source=scanner-swap.sh
. "$(dirname "${BASH_SOURCE[0]}")/scanner-swap.sh"
TITLE="768 MiB of anonymous memory cycled through a 512 MiB guest, no cgroup limit (100 MB/s, 3000 req/s swap)"
VM_MEM=512M
SWAP_MB=1536
VARIANTS=(
	"off memtide-perf 0 max 768M"
	"on memtide-perf 1000 max 768M"
	"off-again memtide-perf 0 max 768M"
)
EXTRA=("fill_us:fill s" "touch_us:two passes s" "second_chance_pages:second chances"
	"kswapd_steal_pages:kswapd freed" "direct_steal_pages:direct reclaim freed")
