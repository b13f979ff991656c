#!/usr/bin/env bash
# measured.sh RESULTS: the day(s) the runs of RESULTS were measured, for a section's "Measured"
# line: "2026-12-01", or "2026-12-01 to 2026-12-02" when the runs span midnight. It is read off
# the runs, not the clock, so that a section regenerated later (no new runs) keeps its runs'
# date. A run records at= (when it ended, epoch seconds) and bench_id= (when its invocation
# started); a run older than at= ended when its console log (beside RESULTS) last changed, and
# one older than both is dated by RESULTS' own last change.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 RESULTS" >&2; exit 2; }
[ -f "$1" ] || { echo "measured.sh: no results file '$1'" >&2; exit 2; }
dir=$(dirname "$1")
first= last=
while read -r label run at id; do
	end=$at
	[ "$end" != - ] || end=$(stat -c %Y "$dir/console-$label-$run.log" 2>/dev/null) || end=$id
	[ "$end" != - ] || continue
	begin=$id
	[ "$begin" != - ] || begin=$end
	if [ -z "$first" ] || [ "$begin" -lt "$first" ]; then first=$begin; fi
	if [ -z "$last" ] || [ "$end" -gt "$last" ]; then last=$end; fi
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
