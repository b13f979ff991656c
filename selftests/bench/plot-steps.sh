#!/usr/bin/env bash
# plot-steps.sh SCENARIO_FILE RESULTS OUT.png: the steps of a scenario side by side, one
# cluster of bars per variant (docs/bench-NAME-steps.png): the median of each time the
# scenario names in STEPS ("key:label", keys in µs), e.g. hibernate's prep, hibernation,
# resume and full speed. Failed runs are left out, as in the tables. Needs gnuplot (gnuplot-nox).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SCENARIO_FILE RESULTS OUT.png" >&2; exit 2; }
# shellcheck source=scenarios/hibernate.sh
. "$1"
results=$2 out=$3
[ -n "${STEPS+set}" ] && [ ${#STEPS[@]} -gt 0 ] || { echo "plot-steps: $1 names no STEPS" >&2; exit 1; }
stats=$(cat "$(dirname "$0")/stats.awk")
data=$(mktemp)
trap 'rm -f "$data"' EXIT

# "variant median(step 1) median(step 2) ..." per variant with results, in the scenario's order
keys=$(for s in "${STEPS[@]}"; do printf '%s ' "${s%%:*}"; done)
for v in "${VARIANTS[@]}"; do
	set -- $v
	awk -v v="$1" -v keys="$keys" "$stats"'
	$1 == v && !run_failed() {
		for (f = 3; f <= NF; f++) {
			split($f, kv, "=")
			vals[kv[1]] = vals[kv[1]] " " kv[2]
		}
		seen = 1
	}
	END {
		if (!seen) exit
		nk = split(keys, k, " ")
		row = v
		# a step a variant lacks is drawn as nothing (NaN), not as zero
		for (j = 1; j <= nk; j++)
			row = row " " (vals[k[j]] == "" ? "NaN" : sprintf("%.3f", median(vals[k[j]]) / 1e6))
		print row
	}' "$results" >>"$data"
done
[ -s "$data" ] || { echo "plot-steps: no results in $results" >&2; exit 1; }

# one column of bars per step
plot=
for i in "${!STEPS[@]}"; do
	plot="$plot${plot:+, }\"$data\" using $((i + 2)):xtic(1) title \"${STEPS[$i]#*:}\""
done
gnuplot <<EOF
set terminal pngcairo size 820,420 font ",10"
set output "$out"
set title "$TITLE: each step"
set ylabel "seconds (median)"
set yrange [0:*]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.6 border -1
set grid ytics
set key top left
set xtics rotate by -25
set bmargin 5
plot $plot
EOF
