#!/usr/bin/env bash
# measured-line.sh: the one place that knows the format of a section's "Measured" line,
#   Measured DAY[ to DAY] on MACHINE[, host CPU steal ...]: `make bench SCENARIO=NAME RUNS=N`.
# so that the writer (bench.sh) and its two readers (bench.sh's machine of earlier runs,
# assemble.sh's header) cannot drift apart.
#
#   measured-line.sh print DAYS MACHINE STEAL NAME RUNS
#       the line (DAYS from measured.sh, STEAL from steal.sh, possibly empty)
#   measured-line.sh parse [FILE]
#       for each such line of FILE (default: stdin), "LAST_DAY|MACHINE": the last day of its
#       range, and its machine, empty for a section written before each section named one
#       ("Measured DAY: `make ...`")
set -euo pipefail
usage() { echo "usage: $0 print DAYS MACHINE STEAL NAME RUNS | parse [FILE]" >&2; exit 2; }
case ${1:-} in
print)
	[ $# -eq 6 ] || usage
	# shellcheck disable=SC2016 # the backquotes are markdown
	printf 'Measured %s on %s%s: `make bench SCENARIO=%s RUNS=%s`.\n' "$2" "$3" "$4" "$5" "$6"
	;;
parse)
	[ $# -le 2 ] || usage
	awk '/^Measured [0-9]+-[0-9]+-[0-9]+/ {
		line = $0; sub(/: `.*/, "", line); sub(/, host CPU steal .*/, "", line)
		n = split(line, w, " "); day = w[2]; if (n >= 4 && w[3] == "to") day = w[4]
		machine = index(line, " on ") ? substr(line, index(line, " on ") + 4) : ""
		print day "|" machine
	}' "${2:--}"
	;;
*) usage ;;
esac
