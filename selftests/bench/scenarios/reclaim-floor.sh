# Scenario "reclaim-floor" (issue 3): scenario "reclaim" with the swap disk uncapped, so the
# time is what reclaim costs the (emulated) CPU: the floor under the disk limit of "reclaim".
# Under TCG it is close to the 100 MB/s disk time, so reclaim cannot get near that limit here.
# vanilla-again is the A/A pair: without a disk cap the CPU, and so the host, sets the time.
# memtide-bytes is here for issue 35 item 6: mainline asks reclaim for a quarter of what
# remains at a time; memtide caps that at 64 MiB (8 MiB until 2026-12-06), so that a signal or
# the freezer waits for one batch at most. A per-batch cost would show here (the disk hides
# it in "reclaim"). vanilla-8m writes the same 700M on mainline as 88 writes of at most 8M
# (timed_write's BATCH): what 8 MiB batches cost on one kernel, apart from everything else
# memtide changes; the reason the cap is no longer 8 MiB.
# shellcheck source=reclaim.sh
. "$(dirname "${BASH_SOURCE[0]}")/reclaim.sh"
TITLE="memory.reclaim of a 700 MiB idle cgroup, swap disk uncapped (the CPU floor)"
DISK_BPS=0
VARIANTS=(
	"vanilla vanilla-perf 700M"
	"vanilla-8m vanilla-perf 700M/8M"
	"memtide-bytes memtide-perf 700M"
	"memtide-max memtide-perf max"
	"vanilla-again vanilla-perf 700M"
)
