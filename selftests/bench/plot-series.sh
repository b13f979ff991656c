#!/usr/bin/env bash
# plot-series.sh SCENARIO_FILE DIR OUT.png [NAME]: the curves of a scenario whose guest half
# samples a value over time ("bench-series NAME T_US VALUE" lines, which bench.sh keeps per run
# in DIR/series-VARIANT-RUN): one line per variant, from its median run by elapsed_us (so that
# the curve shown is a typical one, not the best; failed runs are left out; responsive_us for
# the hot series), over seconds.
# NAME (default resident) is which series:
#   resident  the slice's memory.current after resume, in MiB: demand paging against release
#   hot       the hot loop's slowest pass of each 100 ms after resume (hot-guest.sh), in ms on
#             a log scale, from the second QEMU start (the run's resume_us added): when the
#             program answers again
# Needs gnuplot (gnuplot-nox).
set -euo pipefail
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 SCENARIO_FILE DIR OUT.png [resident|hot]" >&2; exit 2; }
# shellcheck source=scenarios/hibernate.sh
. "$1"
dir=$2 out=$3 series=${4:-resident}
case $series in
resident) by=elapsed_us shift= xlabel="seconds after resume" div=1048576 ylabel="MiB resident (the workload's memory.current)" yscale="set yrange [0:*]" key="bottom right" ;;
hot) by=responsive_us shift=resume_us xlabel="seconds after the second QEMU start (the resume included)" div=1000 ylabel="ms, slowest pass of the hot set in each 100 ms" yscale="set logscale y" key="top right" ;;
*) echo "plot-series: unknown series '$series' (resident, hot)" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stats=$(cat "$(dirname "$0")/stats.awk")

plots=()
for v in "${VARIANTS[@]}"; do
	set -- $v
	label=$1
	# the median run of the variant by the series' time (full speed, or responsive for the
	# hot loop), among those with a series
	run=$(awk -v v="$label" -v dir="$dir" -v by="$by" "$stats"'
		$1 == v && !run_failed() { for (f = 3; f <= NF; f++) if (index($f, by "=") == 1) {
			if (system("test -s " dir "/series-" v "-" $2) == 0) { sub(/^[^=]*=/, "", $f); print $f, $2 } } }' \
		"$dir/results" | sort -n | awk '{ r[NR] = $2 } END { if (NR) print r[int((NR + 1) / 2)] }')
	[ -n "$run" ] || continue
	# the hot passes are timed from the resumed stamp: the run's resume goes before them,
	# so that the curves show when each variant answers counted as responsive_us counts
	off=0
	[ -z "$shift" ] || off=$(awk -v v="$label" -v r="$run" -v k="$shift" '$1 == v && $2 == r {
		for (f = 3; f <= NF; f++) if (index($f, k "=") == 1) { sub(/^[^=]*=/, "", $f); print $f } }' "$dir/results")
	# seconds and the series' unit; a console line cut by a kernel message is skipped
	tr -d '\r' <"$dir/series-$label-$run" |
		awk -v name="$series" -v div="$div" -v off="${off:-0}" '$2 == name && NF == 4 && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ {
			printf "%.3f %.3f\n", ($3 + off) / 1e6, $4 / div }' >"$tmp/$label"
	[ -s "$tmp/$label" ] && plots+=("\"$tmp/$label\" using 1:2 with lines lw 2 title \"$label (run $run)\"")
done
[ ${#plots[@]} -gt 0 ] || { echo "plot-series: no $series series in $dir" >&2; exit 1; }

gnuplot <<EOF
set terminal pngcairo size 720,420 font ",10"
set output "$out"
set title "$TITLE"
set xlabel "$xlabel"
set ylabel "$ylabel"
$yscale
set grid
set key $key
plot $(IFS=,; echo "${plots[*]}")
EOF
