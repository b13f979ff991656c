#!/usr/bin/env bash
# durations.sh LOG|LABEL=LOG...: how long each test program of framed TAP logs ran
# (guest-suite.sh and ci/check.sh print "# memtide-suite-time: SECONDS" before each exit
# marker), slowest first, one "SECONDS s  [LABEL/]GROUP/PROGRAM" line each, then the sum,
# then the programs that have no time (they did not finish: a crash, a timeout).
# make check writes it to build/check/durations.txt: where the suite's time goes.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 LOG|LABEL=LOG..." >&2; exit 2; }
# shellcheck source=log-args.sh
. "$(dirname "$0")/log-args.sh"
log_args durations "$@"
awk '
function pending() { if (name != "") print "- " name; name = "" }
FNR == 1 { pending() }
/^# memtide-suite: / { pending(); name = (label == "" ? "" : label "/") $3 "/" $4; next }
# (a kernel message may follow the number on the raw console: its value is still read)
/^# memtide-suite-time: [0-9]/ && name != "" { printf "%.1f %s\n", $3 + 0, name; name = "" }
END { pending() }
' "${awk_args[@]}" | sort -k1,1 -rn | awk '
$1 == "-" { unfinished = unfinished sprintf("       ? s  %s (did not finish)\n", $2); next }
{ printf "%8.1f s  %s\n", $1, $2; sum += $1; n++ }
END { printf "%8.1f s  in all (%d programs)\n%s", sum, n, unfinished }'
