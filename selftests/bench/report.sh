#!/usr/bin/env bash
# report.sh SCENARIO_FILE RESULTS: one scenario's section of docs/benchmarks.md (markdown).
# RESULTS has one line per run: "VARIANT RUN KEY=VALUE ...", with at least elapsed_us (the
# timed operation) and swapped (bytes it moved; the physical limit is swapped / DISK_BPS);
# rb_* keys are the kernel's own read-back of the operation, where it has one; write_ios and
# write_bytes (or read_ios and read_bytes) give the average disk request.
# The first variant of the scenario is the baseline of the "vs baseline" column; the spread of
# its own runs ((max - min) / median) is the noise floor, below which a ratio reads
# "no difference".
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SCENARIO_FILE RESULTS" >&2; exit 2; }
# shellcheck source=scenarios/reclaim.sh
. "$1"
results=$2
order=$(for v in "${VARIANTS[@]}"; do set -- $v; printf '%s ' "$1"; done)
name=$(basename "$1" .sh)

cat <<EOF
## $name: $TITLE

$(sed -n '/^#/!q; s/^# \{0,1\}//p' "$1")

Disk model: $([ "$DISK_BPS" -gt 0 ] && echo "$((DISK_BPS / 1000000)) MB/s" || echo "uncapped (no physical limit)")$([ "${DISK_IOPS:-0}" -gt 0 ] && echo ", $DISK_IOPS requests/s") (QEMU throttling), guest $VM_MEM, ${VM_SMP:-2} vCPU, $(wc -l <"$results") runs.
Raw results: build/bench/$name/results; per-run consoles beside them.

| variant | time s, median (min-max) | moved MiB | MB/s | limit s | time / limit | vs baseline | disk req KiB | read-back µs (% of time) | runs with rc != 0 |
|---|---|---|---|---|---|---|---|---|---|
EOF

awk -v order="$order" -v bps="$DISK_BPS" '
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)	# insertion sort: a handful of runs
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function minof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]; return m }
function maxof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]; return m }
{
	v = $1
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		vals[v, kv[1]] = vals[v, kv[1]] " " kv[2]
	}
	if (index($0, " rc=0 ") == 0 && $0 !~ / rc=0$/)
		errs[v]++
}
END {
	n = split(order, names, " ")
	base = median(vals[names[1], "elapsed_us"])
	noise = base > 0 ? (maxof(vals[names[1], "elapsed_us"]) - minof(vals[names[1], "elapsed_us"])) / base : 0
	for (k = 1; k <= n; k++) {
		v = names[k]
		if (vals[v, "elapsed_us"] == "") continue
		t = median(vals[v, "elapsed_us"]) / 1e6
		moved = median(vals[v, "swapped"])
		# no byte cap, no disk limit to compare with
		limit = bps > 0 ? moved / bps : 0
		rel = t * 1e6 / base
		if (k == 1) vs = "baseline (noise " sprintf("%.0f%%", noise * 100) ")"
		else if (rel - 1 < noise && 1 - rel < noise) vs = sprintf("%.2fx, no difference", rel)
		else vs = sprintf("%.2fx", rel)
		# the average request of the direction the scenario moves data in
		dir = vals[v, "write_ios"] != "" ? "write" : "read"
		wreq = median(vals[v, dir "_ios"]) > 0 ? median(vals[v, dir "_bytes"]) / median(vals[v, dir "_ios"]) / 1024 : 0
		rb = vals[v, "readback_us"] == "" ? "-" : sprintf("%d (%.4f%%)", median(vals[v, "readback_us"]), median(vals[v, "readback_us"]) / (t * 1e6) * 100)
		printf "| %s | %.2f (%.2f-%.2f) | %.0f | %.1f | %s | %s | %s | %.0f | %s | %d |\n", \
			v, t, minof(vals[v, "elapsed_us"]) / 1e6, maxof(vals[v, "elapsed_us"]) / 1e6, \
			moved / 1048576, moved / t / 1e6, limit ? sprintf("%.2f", limit) : "-", \
			limit ? sprintf("%.2f", t / limit) : "-", vs, wreq, rb, errs[v] + 0
	}
}' "$results"
