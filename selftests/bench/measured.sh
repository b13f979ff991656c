#!/usr/bin/env bash
# measured.sh RESULTS: the day(s) the runs of RESULTS were measured, for a section's "Measured"
# line: "2026-12-01", or "2026-12-01 to 2026-12-02" when the runs span midnight. It is read off
# the runs, not the clock, so that a section regenerated later (no new runs) keeps its runs'
# date. A run is dated by its at= (when it ended, epoch seconds; runs last minutes), a run
# older than at= by its console log's last change (beside RESULTS), one without that by its
# bench_id= (when its invocation started), and results that record none of these by RESULTS'
# own last change.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 RESULTS" >&2; exit 2; }
[ -f "$1" ] || { echo "measured.sh: no results file '$1'" >&2; exit 2; }
dir=$(dirname "$1")
first= last=
while read -r label run at id; do
	t=$at
	[ "$t" != - ] || t=$(stat -c %Y "$dir/console-$label-$run.log" 2>/dev/null) || t=$id
	[ "$t" != - ] || continue
	if [ -z "$first" ] || [ "$t" -lt "$first" ]; then first=$t; fi
	if [ -z "$last" ] || [ "$t" -gt "$last" ]; then last=$t; fi
done < <(awk '{
	at = id = "-"
	for (i = 3; i <= NF; i++) {
		if ($i ~ /^at=[0-9]+$/) at = substr($i, 4)
		if ($i ~ /^bench_id=[0-9]+$/) id = substr($i, 10)
	}
	print $1, $2, at, id
}' "$1")
[ -n "$first" ] || { first=$(stat -c %Y "$1"); last=$first; }
first=$(date -u -d "@$first" +%Y-%m-%d)
last=$(date -u -d "@$last" +%Y-%m-%d)
if [ "$first" = "$last" ]; then echo "$first"; else echo "$first to $last"; fi
