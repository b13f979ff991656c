#!/usr/bin/env bash
# selftests/vm/repeat.sh (make repeat) with make and the guest runner stood in for: boots
# alternate between the kernels, every kernel and guest image is built before the first boot,
# the counts say per kernel how each test ended (a hang is a failed guest/finished), and bad
# settings are refused before anything is built or booted.
. "$(dirname "$0")/lib.sh"
plan 13
repo=$TMP/repo
mkdir -p "$repo/selftests/vm" "$TMP/bin"
cp "$ROOT/selftests/vm/repeat.sh" "$ROOT/selftests/vm/summarize.sh" "$ROOT/selftests/vm/log-args.sh" \
	"$repo/selftests/vm/"
printf '#!/bin/sh\necho "make $*" >>"%s"\n' "$TMP/calls" >"$TMP/bin/make"
# vm-run: round 2 fails on the 2nd boot of memtide-perf; the 3rd boot of vanilla-perf hangs
# (no exit line: the host killed the guest)
cat >"$repo/selftests/vm/vm-run.sh" <<V
#!/bin/sh
n=\$(grep -c "vm-run \$KERNEL" "$TMP/calls")
echo "vm-run \$KERNEL \$(basename "\$VM_LOG") \$SCRIPT \$VM_MEM \$DISK_BPS \$DISK_IOPS" >>"$TMP/calls"
r2="ok 2 - round 2"
[ "\$KERNEL" = memtide-perf ] && [ "\$n" = 1 ] && r2="not ok 2 - round 2"
if [ "\$KERNEL" = vanilla-perf ] && [ "\$n" = 2 ]; then
	printf '# memtide-suite: repro fill-race\nok 1 - round 1\n' >"\$VM_LOG"
	exit 124
fi
printf '# memtide-suite: repro fill-race\nok 1 - round 1\n%s\n# memtide-suite-exit: 0\nmemtide-exit 0a1b 0\n' "\$r2" >"\$VM_LOG"
V
chmod +x "$TMP/bin/make" "$repo"/selftests/vm/*.sh

run() {
	: >"$TMP/calls"
	env PATH="$TMP/bin:$PATH" "$@" "$repo/selftests/vm/repeat.sh" >"$TMP/out" 2>"$TMP/err"
}

run CASE=fill-race BOOTS=3
rc=$?
check "a failed round makes the exit status 1" [ $rc = 1 ]
order=$(awk '/^vm-run/ { printf "%s ", $3 }' "$TMP/calls")
check "boots alternate between the kernels" \
	[ "$order" = "memtide-perf-1.log vanilla-perf-1.log memtide-perf-2.log vanilla-perf-2.log memtide-perf-3.log vanilla-perf-3.log " ]
first_boot=$(grep -n '^vm-run' "$TMP/calls" | head -1 | cut -d: -f1)
builds=$(head -n $((first_boot - 1)) "$TMP/calls" | tr '\n' '|')
check "each kernel and guest image is built before the first boot" \
	[ "$builds" = "make -s kernel PERF=1|make -s initramfs KERNEL=memtide|make -s kernel-vanilla PERF=1|make -s initramfs KERNEL=vanilla|" ]
check "the fill-race guest gets the reported case's machine" \
	grep -q "^vm-run memtide-perf memtide-perf-1.log selftests/vm/guest-fill-race.sh 1G 131072000 3000$" "$TMP/calls"
counts=$repo/build/repeat/fill-race/counts
if grep -qx "memtide-perf FAIL 1 repro/fill-race/round 2" "$counts" &&
	grep -qx "memtide-perf PASS 2 repro/fill-race/round 2" "$counts" &&
	grep -qx "vanilla-perf PASS 3 repro/fill-race/round 1" "$counts"; then
	ok "counts per kernel and test, names with spaces kept"
else
	fail "counts per kernel and test, names with spaces kept" "$(tr '\n' '|' <"$counts")"
fi
if grep -qx "vanilla-perf FAIL 1 guest/finished" "$counts" && grep -qx "vanilla-perf PASS 2 guest/finished" "$counts"; then
	ok "a hung boot counts as a failed guest/finished"
else
	fail "a hung boot counts as a failed guest/finished" "$(tr '\n' '|' <"$counts")"
fi
check "the table shows each test per kernel" \
	grep -qx "repro/fill-race/round 2 \[memtide-perf\]: FAIL=1 PASS=2" "$TMP/out"

# CONTINUE=1: two more boots of each after the three, numbered on; the counts over all five
run CASE=fill-race BOOTS=2 CONTINUE=1
order=$(awk '/^vm-run/ { printf "%s ", $3 }' "$TMP/calls")
check "CONTINUE=1 numbers its boots after those kept" \
	[ "$order" = "memtide-perf-4.log vanilla-perf-4.log memtide-perf-5.log vanilla-perf-5.log " ]
check "... and counts them all" grep -qx "vanilla-perf PASS 5 repro/fill-race/round 1" "$counts"
# a test changed since: refused, nothing booted, the boots kept
echo "# changed" >>"$repo/selftests/vm/summarize.sh"
run CASE=fill-race BOOTS=1 CONTINUE=1
rc=$?
check "CONTINUE=1 after the tests changed: exit 2, one line, nothing booted or removed" \
	[ $rc = 2 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && [ ! -s "$TMP/calls" ] &&
	[ -e "$repo/build/repeat/fill-race/vanilla-perf-5.summary" ]

run CASE=gate BOOTS=1 KERNELS="memtide vanilla"
check "gate: make check's suite on the test kernels" \
	grep -q "^vm-run vanilla vanilla-1.log selftests/vm/guest-gate.sh 2G " "$TMP/calls"
run CASE=memcg-reclaim BOOTS=1
check "memcg-reclaim: the traced upstream test on the test kernels, fresh boots" \
	bash -c "grep -q '^vm-run memtide memtide-1.log selftests/vm/guest-memcg-reclaim.sh 2G ' '$TMP/calls' &&
		grep -q '^vm-run vanilla vanilla-1.log selftests/vm/guest-memcg-reclaim.sh 2G ' '$TMP/calls'"
run CASE=freezer BOOTS=1
check "freezer: upstream's test_freezer on the test kernels, fresh boots" \
	bash -c "grep -q '^vm-run memtide memtide-1.log selftests/vm/guest-freezer.sh 2G ' '$TMP/calls' &&
		grep -q '^vm-run vanilla vanilla-1.log selftests/vm/guest-freezer.sh 2G ' '$TMP/calls'"

bad=0
for args in "CASE=" "CASE=nope" "CASE=gate BOOTS=0" "CASE=gate BOOTS=x" "CASE=gate KERNELS=linus"; do
	# shellcheck disable=SC2086
	run $args
	rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <"$TMP/err")" != 1 ] || [ -s "$TMP/calls" ]; then
		bad=1
		echo "# $args: exit $rc, calls $(wc -l <"$TMP/calls"), stderr: $(tr '\n' '|' <"$TMP/err")"
	fi
done
check "bad settings: exit 2, one line, nothing built or booted" [ $bad = 0 ]
done_testing
