#!/usr/bin/env bash
# sweep.sh SCENARIO_DIR OUT_DIR: the order sweep in one table (markdown on stdout; nothing when none of its
# scenarios has results): for each method, in each workload mode (release-address,
# release-rounds, release-scattered) and in the CPU floor (release-scattered-uncapped), the
# median time, the average read request, the time over the disk's limit (bytes / bandwidth)
# and the ratio to the stock tool's median in the same scenario. Which bound a method hit
# reads off it: near its bytes limit, the bandwidth; near its request bound (requests / cap,
# each scenario's second table), the request rate; near its uncapped time, the emulated CPU;
# far from all three, the latency of requests it waits for one at a time.
# Failed runs (stats.awk's run_failed) are left out of the medians (each scenario's own table
# counts them).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SCENARIO_DIR OUT_DIR" >&2; exit 2; }
scenarios=$1 out=$2
cols=() files=() bps=()
for s in release-address release-rounds release-scattered release-scattered-uncapped; do
	[ -s "$out/$s/results" ] && [ -f "$scenarios/$s.sh" ] || continue
	cols+=("$s") files+=("$out/$s/results")
	# shellcheck source=scenarios/release-scattered.sh
	bps+=("$(. "$scenarios/$s.sh" && echo "$DISK_BPS")")
done
[ ${#cols[@]} -ge 1 ] || exit 0

printf '## release order sweep: each method in each workload mode\n\n'
printf 'Each column is one scenario (%s), its variants run side by side; its section names\n' "$(printf '`%s` ' "${cols[@]}" | sed 's/ $//; s/` `/`, `/g')"
printf 'its machine, date and command. Cells: median s, average read request KiB, time / limit (bytes over\n'
printf 'bandwidth; "-" uncapped), ratio to the stock tool (the memtide tool on the vanilla kernel).\n\n'
printf '| method |%s\n' "$(printf ' %s |' "${cols[@]}")"
printf '|---|%s\n' "$(printf -- '---|%.0s' "${cols[@]}")"
awk -v ncols="${#cols[@]}" -v bpslist="${bps[*]}" "$(cat "$(dirname "$0")/stats.awk")"'
BEGIN { split(bpslist, bps, " ") }
FNR == 1 { col++ }
{
	if (run_failed()) next
	v = $1; sub(/-again$/, "", v)
	if ($1 != v) next	# the A/A pair: noise, not a method
	if (!((v) in seen)) { seen[v]; order[++nv] = v }
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		vals[col, v, kv[1]] = vals[col, v, kv[1]] " " kv[2]
	}
}
END {
	for (k = 1; k <= nv; k++) {
		v = order[k]
		row = "| " v
		for (c = 1; c <= ncols; c++) {
			if (vals[c, v, "elapsed_us"] == "") { row = row " | -"; continue }
			t = median(vals[c, v, "elapsed_us"]) / 1e6
			ios = median(vals[c, v, "read_ios"])
			req = ios > 0 ? sprintf("%.0f KiB", median(vals[c, v, "read_bytes"]) / ios / 1024) : "-"
			lim = bps[c] > 0 ? sprintf("%.2fx", t / (median(vals[c, v, "swapped"]) / bps[c])) : "-"
			base = vals[c, "stock-tool", "elapsed_us"]
			rel = base == "" ? "-" : sprintf("%.2fx", t * 1e6 / median(base))
			row = row sprintf(" | %.2f s, %s, %s, %s", t, req, lim, rel)
		}
		print row " |"
	}
}' "${files[@]}"
