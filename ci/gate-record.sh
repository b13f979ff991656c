#!/usr/bin/env bash
# make gate-record: run upstream's cgroup selftests GATE_RUNS times (default 3) on the vanilla
# kernel in the test guest and write selftests/upstream-expected.txt, the tests make check
# requires to pass on the memtide kernel: those that passed in every run. A test that passed
# in some runs only is flaky under TCG and listed as a comment, as are those that never
# passed (their causes are in docs/development.md). Commit the file: CI need not build vanilla.
# Each run is make check's suite up to upstream's tests (guest-gate.sh): upstream's tests run
# after memtide's in the same boot, in the context make check runs them in on memtide.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
runs=${GATE_RUNS:-3}
out=$ROOT/build/gate
mkdir -p "$out"

# --from-logs: rewrite the list from the logs of the last runs in build/gate/ without new runs
[ "${1:-}" = --from-logs ] || {
make -s kernel-vanilla
make -s initramfs KERNEL=vanilla
for i in $(seq "$runs"); do
	echo "==> upstream cgroup selftests on vanilla, run $i of $runs" >&2
	# VM_TIMEOUT: make check's limit for the same suite (ci/check.sh)
	SCRIPT=selftests/vm/guest-gate.sh VM_MEM=2G VM_SMP=2 KERNEL=vanilla VM_LOG="$out/vanilla-$i.log" \
		VM_TIMEOUT=1800 selftests/vm/vm-run.sh >/dev/null 2>&1 || true
done
}
# A run whose guest did not finish (memtide's tests on vanilla took too long, a panic) may
# lack upstream's tests: a gate written from it would leave them out without a word
for log in "$out"/vanilla-*.log; do
	grep -q '^memtide-exit [0-9a-f]* 0' "$log" ||
		{ echo "gate-record: $log: the guest did not finish; nothing written" >&2; exit 1; }
done
# Raw results (no gate), one summary per run
for log in "$out"/vanilla-*.log; do
	selftests/vm/summarize.sh "$log" >"${log%.log}.summary" || true
done

# "STATUS upstream/BIN/TEST" -> "BIN TEST", counted over the runs
cat "$out"/vanilla-*.summary | sed -n 's#^\(PASS\|FAIL\|SKIP\) upstream/\([^/ ]*\)/\([^ ]*\).*#\1 \2 \3#p' |
	sort | uniq -c >"$out/counts"
expected=selftests/upstream-expected.txt
# seen failing on vanilla after the recorded runs (with the evidence): never gated, but for
# those flaky on the debug kernels only ("on=debug"), which summarize.sh ungates there alone
flaky=selftests/upstream-flaky.txt
# ("BINARY TEST vanilla-failed=yes|no [on=debug] # evidence": the first two fields)
awk '!/^#/ && NF >= 2 { sub(/ *#.*/, ""); if ($4 != "on=debug") print $1, $2 }' "$flaky" >"$out/flaky"
awk '!/^#/ && NF >= 2 { sub(/ *#.*/, ""); if ($4 == "on=debug") print $1, $2 }' "$flaky" >"$out/flaky-debug"
{
	echo "# Upstream tools/testing/selftests/cgroup tests that passed in all $runs runs on the vanilla"
	echo "# kernel (kernel-tree/BASE, kernel-tree/configs/vm.config) in the test guest; written by"
	echo "# make gate-record. make check fails if one of them does not pass on the memtide kernel."
	echo "# Format: BINARY TEST"
	awk -v runs="$runs" 'NR == FNR { flaky[$0] = 1; next }
		$2 == "PASS" && $1 == runs && !(($3 " " $4) in flaky) { print $3, $4 }' \
		"$out/flaky" "$out/counts" | sort | tee "$out/gated"
	# an on=debug entry that did not pass every run here is not gated either: not said
	{ grep -Fxf "$out/gated" "$out/flaky-debug" || true; } |
		sed 's/^/# gated, but not on the debug kernels (upstream-flaky.txt, on=debug): /'
	echo "#"
	echo "# Not gated: flaky on vanilla (passed in some runs only) or never passing there."
	sed 's/^/# flaky (see upstream-flaky.txt): /' "$out/flaky"
	awk -v runs="$runs" '$2 == "PASS" && $1 < runs { printf "# flaky (passed %d of %d): %s %s\n", $1, runs, $3, $4 }' "$out/counts" | sort -k6
	awk '$2 == "PASS" { pass[$3 " " $4] = 1 } $2 != "PASS" { other[$3 " " $4] = $2 }
	     END { for (k in other) if (!(k in pass)) printf "# never passed (%s): %s\n", other[k] == "SKIP" ? "skipped" : "failed", k }' \
		"$out/counts" | sort
} >"$expected.new"
mv "$expected.new" "$expected"
echo "==> wrote $expected: $(grep -vc '^#' "$expected") gated tests" >&2
