#!/usr/bin/env bash
# sweep.sh: the order sweep's table, from results files shaped as bench.sh writes them; and
# the sweep scenarios' host_result.
. "$(dirname "$0")/lib.sh"
plan 9
sweep=$ROOT/selftests/bench/sweep.sh
scen=$ROOT/selftests/bench/scenarios
out=$TMP/bench
check "no sweep scenario has results: nothing" bash -c "[ -z \"\$('$sweep' '$scen' '$out')\" ]"
mkdir -p "$out/release-scattered" "$out/release-address"
# 500 MiB at 125 MiB/s: a limit of 4 s
cat >"$out/release-scattered/results" <<'R'
stock-tool 1 swapped=524288000 read_ios=128000 read_bytes=524288000 rc=0 elapsed_us=50000000 steal_pct=0
demand 1 swapped=524288000 read_ios=64000 read_bytes=524288000 rc=0 elapsed_us=60000000 steal_pct=0
memtide 1 swapped=524288000 read_ios=1000 read_bytes=524288000 rc=0 elapsed_us=5000000 steal_pct=0
stock-tool-again 1 swapped=524288000 read_ios=128000 read_bytes=524288000 rc=0 elapsed_us=52000000 steal_pct=0
memtide 2 swapped=524288000 read_ios=1000 read_bytes=524288000 rc=corrupt elapsed_us=1 steal_pct=0
R
cat >"$out/release-address/results" <<'R'
stock-tool 1 swapped=524288000 read_ios=500 read_bytes=524288000 rc=0 elapsed_us=6000000 steal_pct=0
memtide 1 swapped=524288000 read_ios=1000 read_bytes=524288000 rc=0 elapsed_us=5000000 steal_pct=0
R
"$sweep" "$scen" "$out" >"$TMP/sweep.md"
check "columns in the sweep's order, only those with results" \
	grep -qx '| method | release-address | release-scattered |' "$TMP/sweep.md"
check "a cell: median, average request, time / limit, ratio to the stock tool" \
	grep -q '^| memtide | 5.00 s, 512 KiB, 1.25x, 0.83x | 5.00 s, 512 KiB, 1.25x, 0.10x |$' "$TMP/sweep.md"
check "a failed run (rc=corrupt, 1 µs) is not in the median" \
	bash -c "! grep -q ' 2.50 s' '$TMP/sweep.md'"
check "the A/A pair is not a method of its own" bash -c "! grep -q '^| stock-tool-again' '$TMP/sweep.md'"
check "a method missing from a mode reads -" grep -q '^| demand | - | 60.00 s, 8 KiB, 15.00x, 1.20x |$' "$TMP/sweep.md"
mkdir -p "$out/release-scattered-uncapped"
echo "memtide 1 swapped=524288000 read_ios=1000 read_bytes=524288000 rc=0 elapsed_us=3000000" >"$out/release-scattered-uncapped/results"
check "the uncapped column has no limit" \
	bash -c "'$sweep' '$scen' '$out' | grep -q '^| memtide | .* | 3.00 s, 512 KiB, -, - |\$'"
# host_result: the request bound of 30763 requests at 3000/s, whole (awk printed 1.02543e+07,
# and the run recorded req_bound_us=1), and the latency check
printf 'memtide-host: swap disk latency 1 ms (nbdkit delay filter)\nbench-result read_ios=30763 rc=0\n' >"$TMP/console.log"
check "host_result: the request bound in whole microseconds" \
	bash -c ". '$scen/release-scattered.sh' && [ \"\$(host_result '$TMP/console.log')\" = req_bound_us=10254333 ]"
check "host_result: a run without the latency gets an rc" \
	bash -c "sed -i '1d' '$TMP/console.log' && . '$scen/release-scattered.sh' && [ \"\$(host_result '$TMP/console.log')\" = 'req_bound_us=10254333 rc=disk-latency-0-not-1' ]"
done_testing
