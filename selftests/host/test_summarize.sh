#!/usr/bin/env bash
# selftests/vm/summarize.sh: counts, the upstream gate, crashes and kernel warnings; and
# make gate-record (ci/gate-record.sh), which records that gate.
. "$(dirname "$0")/lib.sh"
sum=$ROOT/selftests/vm/summarize.sh
plan 28

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
# test_known_bad has no record of failing on vanilla: the summary must not claim it did
check "an ungated upstream failure with no record is a skip of unknown cause" \
	grep -q "^SKIP g/upstream/test_memcontrol/test_known_bad  (ungated: failure of unknown cause)$" "$TMP/out"
check "a gated upstream test that did not run fails" \
	grep -q "^FAIL g/upstream/test_memcontrol/test_never_ran  (expected to pass, did not run)" "$TMP/out"

# "fails on vanilla too" only where a record shows vanilla failing: an upstream-flaky.txt
# entry marked vanilla-failed=yes, or make gate-record's "never passed (failed)" line
cat >"$TMP/flaky.log" <<'L'
# memtide-suite: upstream test_memcontrol
ok 1 test_gated
not ok 2 test_vanilla_failed
not ok 3 test_vanilla_unseen
not ok 4 test_never_passed
not ok 5 test_vanilla_skipped
# memtide-suite-exit: 1
memtide-exit 1a 0
L
cat >"$TMP/flaky.txt" <<'L'
# BINARY TEST vanilla-failed=yes|no # evidence
test_memcontrol test_vanilla_failed vanilla-failed=yes # failed 1 of 6 on vanilla
test_memcontrol test_vanilla_unseen vanilla-failed=no # failed on memtide only; vanilla not measured
L
printf 'test_memcontrol test_gated\n#\n# never passed (failed): test_memcontrol test_never_passed\n# never passed (skipped): test_memcontrol test_vanilla_skipped\n' >"$TMP/expected-flaky"
"$sum" -e "$TMP/expected-flaky" -f "$TMP/flaky.txt" f="$TMP/flaky.log" >"$TMP/out" 2>&1
check "a flaky entry with vanilla-failed=yes: fails on vanilla too, a skip" \
	grep -q "^SKIP f/upstream/test_memcontrol/test_vanilla_failed  (fails on vanilla too, not gated)$" "$TMP/out"
check "a flaky entry with vanilla-failed=no: a skip of unknown cause" \
	grep -q "^SKIP f/upstream/test_memcontrol/test_vanilla_unseen  (ungated: failure of unknown cause)$" "$TMP/out"
check "gate-record's 'never passed (failed)': fails on vanilla too" \
	grep -q "^SKIP f/upstream/test_memcontrol/test_never_passed  (fails on vanilla too, not gated)$" "$TMP/out"
check "gate-record's 'never passed (skipped)' is no vanilla failure: unknown cause" \
	grep -q "^SKIP f/upstream/test_memcontrol/test_vanilla_skipped  (ungated: failure of unknown cause)$" "$TMP/out"
check "ungated failures are skips, not failures: '3 passed, 0 failed, 4 skipped'" \
	[ "$(tail -n 1 "$TMP/out")" = "3 passed, 0 failed, 4 skipped" ]
# an entry flaky on the debug kernels only (on=debug) stays gated elsewhere: its failure in
# make check's guest fails, in a debug kernel's log it is a skip
printf 'test_memcontrol test_debug_only vanilla-failed=yes on=debug # failed once on vanilla-debug\n' \
	>"$TMP/flaky-debug.txt"
printf 'test_memcontrol test_debug_only\n' >"$TMP/expected-debug"
printf '# memtide-suite: upstream test_memcontrol\nnot ok 1 test_debug_only\n# memtide-suite-exit: 1\nmemtide-exit 1a 0\n' \
	>"$TMP/debug-only.log"
"$sum" -e "$TMP/expected-debug" -f "$TMP/flaky-debug.txt" guest="$TMP/debug-only.log" \
	vanilla-debug="$TMP/debug-only.log" >"$TMP/out" 2>&1
check "an on=debug entry: gated in make check's guest, ungated in a debug kernel's log" \
	bash -c "grep -q '^FAIL guest/upstream/test_memcontrol/test_debug_only\$' '$TMP/out' &&
		grep -q '^SKIP vanilla-debug/upstream/test_memcontrol/test_debug_only  (fails on vanilla too, not gated)\$' '$TMP/out'"
# a gate file that cannot be read would silently ungate everything
check "an unreadable -e or -f file is an error" \
	bash -c "! '$sum' -e '$TMP/nope' f='$TMP/flaky.log' >/dev/null 2>&1 && ! '$sum' -f '$TMP/nope' f='$TMP/flaky.log' >/dev/null 2>&1"

# A program that exits with kselftest's skip code (4) but printed no result ran nothing we can
# see: a failure (a "1..0 # SKIP reason" line is a result, the test_zswap case above)
printf '# memtide-suite: upstream test_kmem\n# memtide-suite-exit: 4\n' >"$TMP/skip4.log"
"$sum" "$TMP/skip4.log" >"$TMP/out"
st=$?
check "exit 4 without a result line is a failure, saying so" \
	bash -c "[ $st -eq 1 ] && grep -q '^FAIL upstream/test_kmem  (exit status 4, the skip code, without a result line)$' '$TMP/out'"

# make gate-record must record upstream's tests in the context make check runs them in: after
# the same programs in the same boot. Its guest runs here on the host: ci/gate-record.sh in a
# copy of the repository, make stood in for, and a vm-run.sh that runs the guest script as
# the guest's /init does, against a fake image (MEMTIDE_OPT) with one test of each group.
g=$TMP/gate
mkdir -p "$g/repo/ci" "$g/repo/selftests/vm" "$g/bin" "$g/opt/bin" "$g/opt/upstream"
cp "$ROOT/ci/gate-record.sh" "$g/repo/ci/"
cp "$ROOT"/selftests/vm/guest-*.sh "$ROOT/selftests/vm/summarize.sh" "$ROOT/selftests/vm/log-args.sh" \
	"$g/repo/selftests/vm/"
cp "$ROOT/selftests/vm/guest-suite.sh" "$g/opt/bin/"
printf '#!/bin/sh\necho 1..1\necho "ok 1 alpha"\n' >"$g/opt/bin/test_alpha"
printf '#!/bin/sh\necho 1..3\necho "ok 1 test_up_one"\necho "ok 2 test_up_flaky"\necho "ok 3 test_up_debug"\n' >"$g/opt/upstream/test_up"
printf '%s\n' "test_up test_up_flaky vanilla-failed=yes # passed in the record, failed later" \
	"test_up test_up_debug vanilla-failed=yes on=debug # failed on a debug kernel only" \
	"test_up test_up_gone vanilla-failed=yes on=debug # no longer in upstream's suite" \
	>"$g/repo/selftests/upstream-flaky.txt"
printf '#!/bin/sh\n' >"$g/bin/make"
cat >"$g/repo/selftests/vm/vm-run.sh" <<V
#!/bin/sh
p=\$(mktemp -d "$g/payload.XXXXXX") && cp "\$SCRIPT" \$VM_FILES "\$p/" && cd "\$p" &&
	MEMTIDE_OPT="$g/opt" MEMTIDE_THP="$g/thp" sh "./\$(basename "\$SCRIPT")" >"\$VM_LOG" 2>&1
# with $g/hang, the guest stops before its end (vm-run's timeout)
[ -e "$g/hang" ] || echo "memtide-exit 0a 0" >>"\$VM_LOG"
V
chmod +x "$g/bin/make" "$g"/repo/*/*.sh "$g"/repo/selftests/vm/*.sh "$g"/opt/bin/* "$g"/opt/upstream/*
# before_upstream LOG: the programs that ran before upstream's first one
before_upstream() { awk '/^# memtide-suite: / { if ($3 == "upstream") exit; print $3 "/" $4 }' "$1"; }
GATE_RUNS=1 PATH="$g/bin:$PATH" "$g/repo/ci/gate-record.sh" >/dev/null 2>&1
# make check's memtide suite: guest-suite.sh without an argument (ci/check.sh)
(cd "$g" && MEMTIDE_OPT="$g/opt" MEMTIDE_THP="$g/thp" sh "$ROOT/selftests/vm/guest-suite.sh") \
	>"$g/check.log" 2>/dev/null
# shellcheck disable=SC2016 # ci/check.sh's own "$out", not expanded
check "make check's memtide suite: ci/check.sh runs guest-suite.sh without an argument" \
	grep -q '^	guest_suite selftests/vm/guest-suite.sh "$out/guest.log" ' "$ROOT/ci/check.sh"
check "make gate-record runs upstream's tests after the programs make check runs before them" \
	bash -c "[ '$(before_upstream "$g/check.log")' = memtide/test_alpha ] &&
		[ '$(before_upstream "$g/repo/build/gate/vanilla-1.log" 2>/dev/null)' = memtide/test_alpha ]"
check "make gate-record gates what passed, not a flaky entry (its vanilla-failed field read)" \
	bash -c "grep -qx 'test_up test_up_one' '$g/repo/selftests/upstream-expected.txt' &&
		! grep -qx 'test_up test_up_flaky' '$g/repo/selftests/upstream-expected.txt'"
check "make gate-record gates an entry flaky on the debug kernels only (on=debug), and says so" \
	bash -c "grep -qx 'test_up test_up_debug' '$g/repo/selftests/upstream-expected.txt' &&
		grep -qx '# gated, but not on the debug kernels (upstream-flaky.txt, on=debug): test_up test_up_debug' \
			'$g/repo/selftests/upstream-expected.txt' &&
		! grep -q 'test_up_gone' '$g/repo/selftests/upstream-expected.txt'"
: >"$g/hang"
cp "$g/repo/selftests/upstream-expected.txt" "$g/expected.before"
GATE_RUNS=1 PATH="$g/bin:$PATH" "$g/repo/ci/gate-record.sh" >/dev/null 2>"$g/err"
st=$?
check "make gate-record with a guest that did not finish: fails, the gate as it was" \
	bash -c "[ $st -ne 0 ] && grep -q 'did not finish; nothing written' '$g/err' &&
		cmp -s '$g/expected.before' '$g/repo/selftests/upstream-expected.txt'"

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
