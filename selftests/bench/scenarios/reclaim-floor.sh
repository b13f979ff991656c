# Scenario "reclaim-floor" (issue 3): scenario "reclaim" with the swap disk uncapped, so the
# time is what reclaim costs the (emulated) CPU: the floor under the disk limit of "reclaim".
# Under TCG it is close to the 100 MB/s disk time, so reclaim cannot get near that limit here.
# vanilla-again is the A/A pair: without a disk cap the CPU, and so the host, sets the time.
# shellcheck source=reclaim.sh
. "$(dirname "${BASH_SOURCE[0]}")/reclaim.sh"
TITLE="memory.reclaim of a 700 MiB idle cgroup, swap disk uncapped (the CPU floor)"
DISK_BPS=0
VARIANTS=(
	"vanilla vanilla-perf 700M"
	"memtide-max memtide-perf max"
	"vanilla-again vanilla-perf 700M"
)
