#!/usr/bin/env bash
# steal.sh RESULTS: the host CPU steal the runs of RESULTS saw (steal_pct=, bench.sh records it
# per run), as ", host CPU steal median X% (max Y%, N runs)" for a section's "Measured" line; nothing
# when no run recorded it. A high figure means another tenant of the host slowed the guests.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 RESULTS" >&2; exit 2; }
awk "$(cat "$(dirname "$0")/stats.awk")"'
{ for (i = 3; i <= NF; i++) if ($i ~ /^steal_pct=[0-9.]+$/) { l = l " " substr($i, 11); n++ } }
END { if (n) printf ", host CPU steal median %.1f%% (max %.1f%%, %d runs)", median(l), maxof(l), n }' "$1"
