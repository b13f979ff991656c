#!/usr/bin/env bash
# selftests/vm/summarize.sh: counts, the upstream gate, crashes and kernel warnings.
. "$(dirname "$0")/lib.sh"
sum=$ROOT/selftests/vm/summarize.sh
plan 16

cat >"$TMP/guest.log" <<'L'
[    1.000] booting
# memtide-suite: memtide test_a
TAP version 13
1..3
ok 1 test_one
not ok 2 test_two
ok 3 # SKIP test_three
# memtide-suite-exit: 1
# memtide-suite: memtide test_crash
1..2
ok 1 test_first
# memtide-suite-exit: 139
# memtide-suite: upstream test_memcontrol
ok 1 test_gated
not ok 2 test_known_bad
not ok 3 test_gated_fail
# memtide-suite-exit: 1
# memtide-suite: upstream test_zswap
1..0 # SKIP zswap isn't configured
# memtide-suite-exit: 4
memtide-exit 1a2b3c 0
L
printf '# tests passing on vanilla\ntest_memcontrol test_gated\ntest_memcontrol test_gated_fail\ntest_memcontrol test_never_ran\n' >"$TMP/expected"

"$sum" -e "$TMP/expected" g="$TMP/guest.log" >"$TMP/out"
st=$?
check "exit status 1 when something failed" [ $st -eq 1 ]
check "last line counts pass, fail, skip" [ "$(tail -n 1 "$TMP/out")" = "5 passed, 4 failed, 3 skipped" ]
check "a TAP failure is a failure" grep -q "^FAIL g/memtide/test_a/test_two$" "$TMP/out"
check "a crashed binary is a failure" grep -q "^FAIL g/memtide/test_crash  (exit status 139)" "$TMP/out"
check "an ungated upstream failure is a skip with its reason" \
	grep -q "^SKIP g/upstream/test_memcontrol/test_known_bad  (fails on vanilla too" "$TMP/out"
check "a gated upstream test that did not run fails" \
	grep -q "^FAIL g/upstream/test_memcontrol/test_never_ran  (expected to pass, did not run)" "$TMP/out"

printf '# memtide-suite: memtide t\n1..1\nok 1 x\n[ 2.0] WARNING: CPU: 1 PID: 7 at mm/vmscan.c:1 f\n# memtide-suite-exit: 0\n' >"$TMP/warn.log"
"$sum" w="$TMP/warn.log" >"$TMP/out"
check "a kernel warning on the console fails the run" grep -q "^FAIL w/kernel/console-clean" "$TMP/out"
printf '# memtide-suite: memtide t\n1..1\nok 1 x\n[ 2.0] WARNING: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected\n# memtide-suite-exit: 0\n' >"$TMP/lockdep.log"
"$sum" l="$TMP/lockdep.log" >"$TMP/out"
check "a lockdep report (its own WARNING: header) fails the run too" grep -q "^FAIL l/kernel/console-clean" "$TMP/out"
# an RCU stall has no BUG: or WARNING: header (seen on the KASAN kernel's boot, 2026-12-01)
printf '# memtide-suite: memtide t\n1..1\nok 1 x\n[ 33.7] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n# memtide-suite-exit: 0\n' >"$TMP/rcu.log"
"$sum" r="$TMP/rcu.log" >"$TMP/out"
check "an RCU stall report fails the run" grep -q "^FAIL r/kernel/console-clean" "$TMP/out"
printf '# memtide-suite: memtide t\n1..1\nok 1 x\n[ 0.9] Failed to set sysctl parameter '"'"'vm.nope=1'"'"': parameter not found\n# memtide-suite-exit: 0\n' >"$TMP/sysctl.log"
"$sum" s="$TMP/sysctl.log" >"$TMP/out"
check "a boot sysctl the kernel could not set (VM_SYSCTL) fails the run" grep -q "^FAIL s/kernel/console-clean" "$TMP/out"

# a guest that stopped (vm-run's timeout) in the middle of a binary: that binary and the
# guest fail, whatever passed before
printf '# memtide-suite: memtide a\n1..1\nok 1 x\n# memtide-suite-exit: 0\n# memtide-suite: memtide b\n1..3\nok 1 y\nmemtide-host: boot 1 exit at 5\n' >"$TMP/cut.log"
"$sum" c="$TMP/cut.log" >"$TMP/out"
check "a binary without its exit marker did not finish: it fails" \
	grep -q "^FAIL c/memtide/b  (did not finish: the guest stopped during it)" "$TMP/out"
check "a guest log without memtide-exit fails guest/finished" \
	bash -c "grep -q '^FAIL c/guest/finished  (no memtide-exit line' '$TMP/out' && [ \"\$(tail -n 1 '$TMP/out')\" = '3 passed, 2 failed, 0 skipped' ]"
printf '# memtide-suite: memtide a\n1..1\nok 1 x\n# memtide-suite-exit: 0\nmemtide-exit 1a 3\n' >"$TMP/exit3.log"
"$sum" e="$TMP/exit3.log" >"$TMP/out"
check "a guest script that exited non-zero fails guest/finished" \
	grep -q "^FAIL e/guest/finished  (its script exited 3)" "$TMP/out"

# a host log (no label: no guest) is held to the same end marker, with its own reason;
# ci/check.sh closes its steps log with one (CI of 1f568c9 failed on that)
printf '# memtide-suite: host steps\nok 1 kernel-build\n' >"$TMP/steps.log"
"$sum" "$TMP/steps.log" >"$TMP/out"
check "an unlabelled log without its exit marker did not finish" \
	grep -q "^FAIL host/steps  (did not finish: no exit marker)" "$TMP/out"
echo "# memtide-suite-exit: 0" >>"$TMP/steps.log"
"$sum" "$TMP/steps.log" >"$TMP/out"
check "closed by its exit marker, it passes" \
	bash -c "[ \"\$(tail -n 1 '$TMP/out')\" = '1 passed, 0 failed, 0 skipped' ]"

printf '# memtide-suite: memtide t\n# memtide-suite-exit: 0\n' >"$TMP/empty.log"
"$sum" "$TMP/empty.log" >"$TMP/out"
check "a binary that reports nothing fails" grep -q "^FAIL memtide/t  (no TAP results)" "$TMP/out"
check "an unreadable log is an error" bash -c "! '$sum' '$TMP/nope' 2>/dev/null"
done_testing
