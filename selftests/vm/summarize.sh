#!/usr/bin/env bash
# summarize.sh [-e EXPECTED] [-f FLAKY] LOG|LABEL=LOG...: one line per test from framed TAP
# logs (guest-suite.sh, host tests), and the last line
#   N passed, N failed, N skipped
# Exit status 1 if anything failed.
# - A LABEL names a guest console log: its results are prefixed with the label, the log must
#   show no kernel warning, BUG, lockdep splat or panic (OOM reports are fine), and the guest
#   must have finished its script ("memtide-exit NONCE 0", guest/finished): a guest that
#   timed out or panicked fails, whatever the tests before that said.
# - A binary whose run has no end marker ("# memtide-suite-exit:") did not finish: it fails.
#   One that exits with kselftest's skip code (4) without a result line (ok, not ok, or
#   "1..0 # SKIP") fails too: nothing shows that it skipped for a reason.
# - Upstream's tests (group "upstream") are gated by EXPECTED, the tests that pass on
#   vanilla ("BINARY TEST" per line): a listed one must run and pass; one not listed that
#   fails is counted as skipped, never as passed. Its reason says "fails on vanilla too" only
#   where a record shows vanilla failing it: FLAKY's entry says vanilla-failed=yes
#   (selftests/upstream-flaky.txt), or EXPECTED has make gate-record's line "# never passed
#   (failed): BINARY TEST". Any other is "ungated: failure of unknown cause". Without -e
#   every failure counts (make gate-record reads the raw results that way).
# - A FLAKY entry with "on=debug" after its vanilla-failed field is flaky on the debug
#   kernels only (KASAN slows what it waits for): it stays gated, except in the logs whose
#   LABEL ends in "debug" (make check-debug's).
set -euo pipefail
expected='' flaky=''
while [ $# -gt 0 ]; do
	case $1 in
	-e) expected=${2:-} ;;
	-f) flaky=${2:-} ;;
	*) break ;;
	esac
	# an unreadable gate file would leave every upstream test ungated, silently
	[ -r "${2:-}" ] || { echo "summarize: cannot read $1 file '${2:-}'" >&2; exit 2; }
	shift 2
done
[ $# -ge 1 ] || { echo "usage: $0 [-e EXPECTED] [-f FLAKY] LOG|LABEL=LOG..." >&2; exit 2; }

# shellcheck source=log-args.sh
. "$(dirname "$0")/log-args.sh"
log_args summarize "$@"

awk -v expected="$expected" -v flaky="$flaky" '
BEGIN {
	while (expected != "" && (getline line < expected) > 0) {
		if (line !~ /^#/ && line != "") gate[line] = 1
		# gate-record: every recorded run on vanilla that did not pass it failed it
		if (sub(/^# never passed \(failed\): /, "", line)) vanilla_failed[line] = 1
	}
	# "BINARY TEST vanilla-failed=yes|no [on=debug] # evidence"
	while (flaky != "" && (getline line < flaky) > 0) {
		if (line ~ /^#/) continue
		sub(/ *#.*/, "", line)
		nf = split(line, f, " ")
		if (nf >= 3 && f[3] == "vanilla-failed=yes") vanilla_failed[f[1] " " f[2]] = 1
		if (nf >= 4 && f[4] == "on=debug") debug_only[f[1] " " f[2]] = 1
	}
}
function result(status, name, why) {
	printf "%-4s %s%s\n", status, (label == "" ? "" : label "/") name, why == "" ? "" : "  (" why ")"
	count[status]++
}
# the binary of the last "# memtide-suite:" header never reached its exit marker
function unfinished(    l) {
	if (bin == "") return
	l = label; label = binlabel
	result("FAIL", group "/" bin, label == "" ? "did not finish: no exit marker" : \
		"did not finish: the guest stopped during it")
	label = l; bin = ""
}
function record(status, test,    key) {
	key = bin " " test
	results++
	if (group == "upstream") seen[label, key] = 1
	if (expected != "" && group == "upstream" && status == "FAIL" &&
	    (!(key in gate) || ((key in debug_only) && label ~ /debug$/)))
		result("SKIP", group "/" bin "/" test, key in vanilla_failed ? \
			"fails on vanilla too, not gated" : "ungated: failure of unknown cause")
	else
		result(status, group "/" bin "/" test, "")
}
FNR == 1 { unfinished(); if (label != "") { labels[label] = 1; trouble[label] = 0 } }
label != "" && /^memtide-exit [0-9a-f]+ [0-9]+/ { guest_exit[label] = $3 }
label != "" && /(WARNING: CPU|\] WARNING: |KASAN: |BUG: |Oops|Kernel panic|possible circular locking|possible recursive locking|blocked for more than|detected stall|UBSAN:|general protection fault|kernel BUG at|Failed to set sysctl parameter)/ {
	if (trouble[label]++ < 10) print "     " label ": " $0
}
/^# memtide-suite: / {
	unfinished()
	group = $3; bin = $4; binlabel = label; results = 0; binfailed = 0
	if (group == "upstream") upstream_ran[label] = 1
	next
}
/^# memtide-suite-exit: / {
	if ($3 == 124) result("FAIL", group "/" bin, "timed out")
	else if ($3 != 0 && $3 != 4 && !binfailed) result("FAIL", group "/" bin, "exit status " $3)
	else if ($3 == 0 && results == 0) result("FAIL", group "/" bin, "no TAP results")
	else if ($3 == 4 && results == 0) result("FAIL", group "/" bin, "exit status 4, the skip code, without a result line")
	bin = ""
	next
}
bin != "" && /^1\.\.0 # SKIP/ {
	sub(/^1\.\.0 # SKIP */, "")
	result("SKIP", group "/" bin, $0)
	results++
	next
}
bin != "" && /^(not )?ok [0-9]+ / {
	status = /^not ok/ ? "FAIL" : "PASS"
	line = $0
	sub(/^(not )?ok [0-9]+ (- )?/, "", line)
	if (line ~ /# [Ss][Kk][Ii][Pp]/) {
		status = "SKIP"
		sub(/ *# [Ss][Kk][Ii][Pp] */, " ", line)
	}
	gsub(/^ +| +$/, "", line)
	if (status == "FAIL") binfailed = 1
	record(status, line)
	next
}
END {
	unfinished()
	for (label in upstream_ran)
		for (k in gate)
			if (!((label, k) in seen)) {
				split(k, p, " ")
				result("FAIL", "upstream/" p[1] "/" p[2], "expected to pass, did not run")
			}
	for (label in labels) {
		if (!(label in guest_exit))
			result("FAIL", "guest/finished", "no memtide-exit line: the guest timed out, panicked or was killed")
		else if (guest_exit[label] != 0)
			result("FAIL", "guest/finished", "its script exited " guest_exit[label])
		else
			result("PASS", "guest/finished", "")
		if (trouble[label])
			result("FAIL", "kernel/console-clean", trouble[label] " warning line(s) above")
		else
			result("PASS", "kernel/console-clean", "")
	}
	printf "%d passed, %d failed, %d skipped\n", count["PASS"], count["FAIL"], count["SKIP"]
	exit count["FAIL"] > 0
}
' "${awk_args[@]}"
