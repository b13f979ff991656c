#!/usr/bin/env bash
# guest-suite.sh's framing with each program's time, and selftests/vm/durations.sh over it;
# the upstream part's CPU pinning of test_hugetlb_memcg.
. "$(dirname "$0")/lib.sh"
suite=$ROOT/selftests/vm/guest-suite.sh
dur=$ROOT/selftests/vm/durations.sh
plan 11

# a stand-in for the guest image's /opt/memtide (MEMTIDE_OPT)
opt=$TMP/opt
mkdir -p "$opt/bin" "$opt/systemd"
printf '#!/bin/sh\nsleep 1\necho 1..1\necho ok 1 fake\nexit 3\n' >"$opt/bin/test_tool"
chmod +x "$opt/bin/test_tool"
for t in test_sleep_hook test_units test_criu; do
	printf 'echo 1..1\necho ok 1 %s\n' "$t" >"$opt/systemd/$t.sh"
done

MEMTIDE_OPT=$opt sh "$suite" tool >"$TMP/tool.log" 2>&1
check "a program's output is framed: header, its TAP, its time, its exit status" \
	[ "$(sed 's/time: .*/time: T/' "$TMP/tool.log" | tr '\n' '|')" = \
	"# memtide-suite: memtide test_tool|1..1|ok 1 fake|# memtide-suite-time: T|# memtide-suite-exit: 3|" ]
t=$(sed -n 's/^# memtide-suite-time: //p' "$TMP/tool.log")
check "the time of a program that sleeps 1 s is 1 s or more, in seconds (got '$t')" \
	awk -v t="$t" 'BEGIN { exit !(t ~ /^[0-9]+\.[0-9]$/ && t >= 1.0 && t < 60) }'

MEMTIDE_OPT=$opt sh "$suite" systemd >"$TMP/systemd.log" 2>&1
check "systemd mode: the .sh tests named without .sh, the sleep hook's hibernation last" \
	[ "$(sed -n 's/^# memtide-suite: //p' "$TMP/systemd.log" | tr '\n' '|')" = \
	"systemd test_criu|systemd test_units|systemd test_sleep_hook|" ]
"$ROOT/selftests/vm/summarize.sh" "$TMP/systemd.log" >"$TMP/sum" 2>&1
check "summarize.sh reads the framing with time lines as before" \
	[ "$(tail -n 1 "$TMP/sum")" = "3 passed, 0 failed, 0 skipped" ]

# upstream mode: test_hugetlb_memcg (and what it forks) on CPU 0 alone, the others unpinned
mkdir -p "$opt/upstream"
for t in test_hugetlb_memcg test_other; do
	printf '#!/bin/sh\necho "cpus $(sh -c "grep Cpus_allowed_list /proc/self/status" | cut -f2)"\n' \
		>"$opt/upstream/$t"
	chmod +x "$opt/upstream/$t"
done
echo always >"$TMP/thp"
MEMTIDE_OPT=$opt MEMTIDE_THP=$TMP/thp sh "$suite" upstream >"$TMP/upstream.log" 2>&1
all=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
check "upstream mode: test_hugetlb_memcg's children on CPU 0 only, test_other on $all" \
	[ "$(grep -A1 '^# memtide-suite: upstream' "$TMP/upstream.log" | grep -v '^--' | tr '\n' '|')" = \
	"# memtide-suite: upstream test_hugetlb_memcg|cpus 0|# memtide-suite: upstream test_other|cpus $all|" ]
check "upstream mode: THP set to madvise" [ "$(cat "$TMP/thp")" = madvise ]

cat >"$TMP/a.log" <<'L'
# memtide-suite: memtide test_fast
ok 1 x
# memtide-suite-time: 2.5[   12.345678] random: crng init done
# memtide-suite-exit: 0
# memtide-suite: upstream test_slow
ok 1 y
# memtide-suite-time: 300.0
# memtide-suite-exit: 0
# memtide-suite: memtide test_hung
ok 1 z
L
printf '# memtide-suite: host test_x\n# memtide-suite-time: 40.0\n# memtide-suite-exit: 0\n' >"$TMP/b.log"
"$dur" g="$TMP/a.log" "$TMP/b.log" >"$TMP/out" 2>"$TMP/err"
st=$?
check "exit status 0, nothing on stderr" eval '[ $st -eq 0 ] && [ ! -s "$TMP/err" ]'
check "slowest first, a labelled log's programs prefixed with its label (a kernel message after a time)" \
	[ "$(head -n 3 "$TMP/out" | tr -s ' ' | tr '\n' '|')" = \
	" 300.0 s g/upstream/test_slow| 40.0 s host/test_x| 2.5 s g/memtide/test_fast|" ]
check "the sum of the programs' times, then a program that never finished" \
	[ "$(tail -n 2 "$TMP/out" | tr -s ' ' | tr '\n' '|')" = \
	" 342.5 s in all (3 programs)| ? s g/memtide/test_hung (did not finish)|" ]
expect_error "an unreadable log: exit 2, one line, nothing on stdout" 2 \
	"^durations: cannot read $TMP/none$" "$dur" "$TMP/a.log" "$TMP/none"
expect_error "no log: usage, exit 2" 2 "^usage: " "$dur"
done_testing
