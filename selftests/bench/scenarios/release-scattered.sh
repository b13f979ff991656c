# Scenario "release-scattered" (issue 32, the order sweep): how fast a slice shaped like a
# real one is back from a cloud volume after its memory was first written in a scattered
# order. A 1 GiB guest; in the slice three processes and an unmapped tmpfs file (a
# container's /dev/shm) hold 45% of memory, incompressible, first written in a random page
# order, then all of it reclaimed (workload-guest.sh). Time: from the start of the method
# until every owner has touched all its pages again (each in a random order of its own).
# The disk: a cloud volume, 125 MiB/s, 3000 requests/s and 1 ms added per request (AWS's gp3
# baseline: 3000 IOPS and 125 MiB/s, its latency "single-digit milliseconds"; the latency is
# nbdkit's delay filter on the host, vm-run's DISK_LATENCY_MS: one 4 KiB read at a time takes
# 2.99 ms as the guest sees it, 0.44 ms with the same caps and no latency; docs/development.md).
# Variants:
# - stock-tool: the memtide tool on the vanilla kernel, `memtide release`: what a user without
#   memtide's kernel runs (process_madvise(MADV_WILLNEED) over the slice's processes; the
#   tmpfs file, mapped by no one, comes back when read). The baseline.
# - stock-tool-shm: the stock tool with what a user who knows where the slice's tmpfs is can
#   add: madvise(MADV_WILLNEED) over a mapping of each file in /dev/shm first (the slice's
#   file is the only one there; prefetch.c's tool-shm: 6.12 queues the reads of the file's
#   swapped pages), the strongest stock method for the file no process maps. The scenarios
#   that source this one (release-address, release-rounds, release-scattered-uncapped) run
#   it too: it belongs in every mode of the sweep.
# - stock-tool-again: stock-tool once more, the noise floor (A/A)
# - demand: the vanilla kernel, nothing before the touch (every page by a fault)
# - memtide: the memtide tool on the memtide kernel, `memtide release` (memory.release)
# Limits: the bytes in swap over the bandwidth (the "limit s" column), and the read requests
# each method issued over the request cap ("requests / cap s", second table): a method of
# small requests is bound by the request rate before the bandwidth.
TITLE="Bringing back a slice (3 processes + tmpfs, scattered first touch) from a 125 MiB/s, 3000 req/s volume, +1 ms per request"
VM_MEM=1G
SWAP_MB=1536
DISK_BPS=$((125 * 1024 * 1024))
DISK_IOPS=3000
DISK_LATENCY_MS=1
GUEST=release-order-guest.sh
GUEST_LIBS=(workload-guest.sh)
MODE=scattered
EXTRA=("method_us:method s" "read_ios:read requests" "req_bound_us:requests / cap s" "resident_before_bytes:resident before MiB" "left_in_swap_bytes:swap still charged after MiB")
# label kernel guest-arguments (order_variants: the same methods for each mode of the sweep)
order_variants() {
	VARIANTS=(
		"stock-tool vanilla-perf tool $1"
		"stock-tool-shm vanilla-perf tool-shm $1"
		"demand vanilla-perf demand $1"
		"memtide memtide-perf tool $1"
		"stock-tool-again vanilla-perf tool $1"
	)
}
order_variants $MODE
TARGETS=(
	"elapsed_us memtide 1.3 limit:swapped|memory.release within 1.3x its limit (swapped / bandwidth)"
	"elapsed_us memtide 0.3333 stock-tool|at least 3x faster than the stock tool's release"
	"elapsed_us memtide 0.3333 stock-tool-shm|at least 3x faster than the strongest stock method (the tool, the tmpfs file read ahead)"
)

# host_result CONSOLE_LOG: the request-rate bound of the run (its read requests over the
# disk's cap: what those requests take at 3000/s, whatever their size), and an rc if the run
# did not have the latency asked for
host_result() {
	local bound rc
	bound=$(awk -v iops="$DISK_IOPS" 'iops > 0 && /^bench-result / {
		for (i = 2; i <= NF; i++) if ($i ~ /^read_ios=/) { sub(/^read_ios=/, "", $i); printf "%.0f\n", $i / iops * 1e6 }
	}' "$1")
	rc=$("$(dirname "${BASH_SOURCE[0]}")/../latency-check.sh" "$1" "$DISK_LATENCY_MS")
	echo "${bound:+req_bound_us=$bound}${bound:+${rc:+ }}$rc"
}
