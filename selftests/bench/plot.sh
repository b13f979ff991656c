#!/usr/bin/env bash
# plot.sh SCENARIO_FILE RESULTS OUT.png: one scenario's bar chart for docs/benchmarks.md:
# the median time of each variant with its min-max range, and its physical limit (median
# bytes moved / disk bandwidth, plus fixed_us where a scenario gives it) as a red line across
# the bar. Failed runs are left out (stats.awk's run_failed), as in the tables. Needs gnuplot
# (gnuplot-nox).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SCENARIO_FILE RESULTS OUT.png" >&2; exit 2; }
# shellcheck source=scenarios/reclaim.sh
. "$1"
results=$2 out=$3
data=$(mktemp)
trap 'rm -f "$data"' EXIT
stats=$(cat "$(dirname "$0")/stats.awk")

# "index label median min max limit" per variant, in the scenario's order
i=0
for v in "${VARIANTS[@]}"; do
	set -- $v
	awk -v v="$1" -v i="$i" -v bps="$DISK_BPS" "$stats"'
	$1 == v && !run_failed() {
		for (f = 3; f <= NF; f++) {
			split($f, kv, "=")
			if (kv[1] == "elapsed_us") t[++n] = kv[2] / 1e6
			if (kv[1] == "swapped" && sw == "") sw = kv[2]
			if (kv[1] == "moved" && mo == "") mo = kv[2]
			if (kv[1] == "fixed_us") fx[++nf] = kv[2] / 1e6
		}
	}
	END {
		if (!n) exit
		for (a = 2; a <= n; a++)
			for (c = a; c > 1 && t[c - 1] > t[c]; c--) { x = t[c]; t[c] = t[c - 1]; t[c - 1] = x }
		med = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
		# bytes the timed step moved ("moved" where the scenario gives it, as report.sh)
		bytes = mo != "" ? mo : sw
		# plus the part no disk speed shortens, where given (median, as report.sh)
		for (a = 2; a <= nf; a++)
			for (c = a; c > 1 && fx[c - 1] > fx[c]; c--) { x = fx[c]; fx[c] = fx[c - 1]; fx[c - 1] = x }
		fixed = !nf ? 0 : nf % 2 ? fx[(nf + 1) / 2] : (fx[nf / 2] + fx[nf / 2 + 1]) / 2
		# no byte cap, or next to nothing moved: no limit line (NaN is not drawn)
		printf "%d %s %.3f %.3f %.3f %s\n", i, v, med, t[1], t[n], (bps > 0 && bytes >= 1048576 ? sprintf("%.3f", bytes / bps + fixed) : "NaN")
	}' "$results" >>"$data"
	i=$((i + 1))
done
[ -s "$data" ] || { echo "plot: no results in $results" >&2; exit 1; }

gnuplot <<EOF
set terminal pngcairo size 720,420 font ",10"
set output "$out"
set title "$TITLE"
set ylabel "seconds (median, min-max)"
set yrange [0:*]
set xrange [-0.6:$i - 0.4]
set style fill solid 0.5 border -1
set boxwidth 0.6
set grid ytics
set key top right
set xtics rotate by -25
set bmargin 5
# each variant's own limit (variants may move different amounts): a line across its bar
plot "$data" using 1:3:xtic(2) with boxes lc rgb "#4477aa" title "median", \
     "" using 1:3:4:5 with yerrorbars lc rgb "black" pt 0 title "min-max", \
     "" using 1:6:(0.3) with xerrorbars lw 2 pt 0 lc rgb "#cc3311" title "physical limit"
EOF
