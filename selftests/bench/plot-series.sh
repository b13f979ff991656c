#!/usr/bin/env bash
# plot-series.sh SCENARIO_FILE DIR OUT.png: the curves of a scenario whose guest half samples
# a value over time ("bench-series NAME T_US VALUE" lines, which bench.sh keeps per run in
# DIR/series-VARIANT-RUN): one line per variant, from its median run by elapsed_us (so that
# the curve shown is a typical one, not the best; failed runs are left out), in MiB over
# seconds. The hibernate scenario samples its slice's memory.current after resume: demand
# paging against release. Needs gnuplot (gnuplot-nox).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SCENARIO_FILE DIR OUT.png" >&2; exit 2; }
# shellcheck source=scenarios/hibernate.sh
. "$1"
dir=$2 out=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stats=$(cat "$(dirname "$0")/stats.awk")

plots=()
for v in "${VARIANTS[@]}"; do
	set -- $v
	label=$1
	# the median run of the variant by elapsed_us, among those with a series
	run=$(awk -v v="$label" -v dir="$dir" "$stats"'
		$1 == v && !run_failed() { for (f = 3; f <= NF; f++) if ($f ~ /^elapsed_us=/) {
			if (system("test -s " dir "/series-" v "-" $2) == 0) { sub(/^elapsed_us=/, "", $f); print $f, $2 } } }' \
		"$dir/results" | sort -n | awk '{ r[NR] = $2 } END { if (NR) print r[int((NR + 1) / 2)] }')
	[ -n "$run" ] || continue
	# seconds and MiB; a console line cut by a kernel message is skipped
	tr -d '\r' <"$dir/series-$label-$run" |
		awk 'NF == 4 && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ { printf "%.3f %.1f\n", $3 / 1e6, $4 / 1048576 }' \
			>"$tmp/$label"
	[ -s "$tmp/$label" ] && plots+=("\"$tmp/$label\" using 1:2 with lines lw 2 title \"$label (run $run)\"")
done
[ ${#plots[@]} -gt 0 ] || { echo "plot-series: no series in $dir" >&2; exit 1; }

gnuplot <<EOF
set terminal pngcairo size 720,420 font ",10"
set output "$out"
set title "$TITLE"
set xlabel "seconds after resume"
set ylabel "MiB resident (the workload's memory.current)"
set yrange [0:*]
set grid
set key bottom right
plot $(IFS=,; echo "${plots[*]}")
EOF
