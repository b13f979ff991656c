#!/usr/bin/env bash
# The tool's parsers under libFuzzer (cgroup-tools/fuzz: sizes and durations, [X-Memtide]
# drop-ins, target arguments), each for FUZZ_SECONDS (default 20) from its corpus in the
# repository, with AddressSanitizer and UBSan; new inputs go to a temporary directory, so the
# repository's corpus changes only by hand. A finding fails the check and leaves its input in
# build/tools/fuzz/ (the harness prints how to replay it).
. "$(dirname "$0")/lib.sh"
out=$ROOT/build/tools
secs=${FUZZ_SECONDS:-20}
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "test_tool_fuzz: FUZZ_SECONDS '$secs' must be a positive number" >&2; exit 2; }
names=(parse policy target)
plan $((${#names[@]} + 1))
mkdir -p "$out"
if ! make -s -C "$ROOT/cgroup-tools" OUT="$out" fuzz >"$out/fuzz-build.log" 2>&1; then
	fail "the harnesses build (clang, libFuzzer)" "$(tail -n 5 "$out/fuzz-build.log" | tr '\n' '|')"
	done_testing
fi
ok "the harnesses build (clang, libFuzzer)"
for n in "${names[@]}"; do
	mkdir -p "$TMP/new-$n"
	(cd "$out/fuzz" && "./fuzz_$n" "$TMP/new-$n" "$ROOT/cgroup-tools/fuzz/corpus/$n" \
		-max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$out/fuzz/$n-") \
		>"$TMP/$n.log" 2>&1
	st=$?
	runs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$TMP/$n.log")
	# a run that did not get going (no corpus, no executions) proves nothing
	if [ $st -eq 0 ] && [ "${runs:-0}" -ge 1000 ]; then
		ok "fuzz_$n: ${runs} inputs in ${secs} s, no finding"
	else
		fail "fuzz_$n: exit $st after ${runs:-0} inputs" "$(grep -m 3 -E 'ERROR|SUMMARY|Test unit written' "$TMP/$n.log" | tr '\n' '|')"
	fi
done
done_testing
