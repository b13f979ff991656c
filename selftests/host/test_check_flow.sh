#!/usr/bin/env bash
# ci/check.sh's own flow, with make, the guest runner and the host tests stood in for: every
# suite of --full runs, the last line counts them, durations.txt is written, and RESUME=1
# runs again only what did not pass on this same tree.
. "$(dirname "$0")/lib.sh"
plan 15
repo=$TMP/repo
mkdir -p "$repo/ci" "$repo/selftests/vm" "$repo/selftests/host" "$TMP/bin"
cp "$ROOT/ci/check.sh" "$ROOT/ci/resume.sh" "$repo/ci/"
cp "$ROOT/selftests/vm/summarize.sh" "$ROOT/selftests/vm/durations.sh" \
	"$ROOT/selftests/vm/log-args.sh" "$repo/selftests/vm/"
cp "$ROOT/selftests/upstream-expected.txt" "$ROOT/selftests/upstream-flaky.txt" "$repo/selftests/"
echo build/ >"$repo/.gitignore"
# make: every build step succeeds at once
printf '#!/bin/sh\necho "make $*" >>"%s"\n' "$TMP/calls" >"$TMP/bin/make"
printf '#!/bin/sh\necho /nonexistent/rootfs.img\n' >"$repo/selftests/vm/mkrootfs.sh"
# vm-run: a guest whose one test passes, or fails under MGLRU=0 when $TMP/fail-classic exists
# (and commits a change then when $TMP/commit-during exists)
cat >"$repo/selftests/vm/vm-run.sh" <<V
#!/bin/sh
echo "vm-run \$(basename "\$VM_LOG")" >>"$TMP/calls"
status=ok
[ "\${MGLRU:-}" = 0 ] && [ -e "$TMP/fail-classic" ] && status="not ok"
# the developer commits while the MGLRU-off suite runs
if [ "\${MGLRU:-}" = 0 ] && [ -e "$TMP/commit-during" ]; then
	date +%s%N >>"$repo/file" && git -C "$repo" add -A &&
		git -C "$repo" -c user.name=t -c user.email=t@t.invalid commit -qm during
fi
printf '# memtide-suite: memtide test_fake\n%s 1 fake\n# memtide-suite-time: 2.5\n# memtide-suite-exit: 0\nmemtide-exit 0a1b 0\n' "\$status" >"\$VM_LOG"
V
printf '#!/bin/sh\necho 1..1\necho "ok 1 host fake"\n' >"$repo/selftests/host/test_fake.sh"
chmod +x "$TMP/bin/make" "$repo"/selftests/vm/*.sh "$repo/selftests/host/test_fake.sh"
g() { git -C "$repo" -c user.name=t -c user.email=t@t.invalid "$@"; }
g init -q && g add -A && g commit -qm flow
# flow [VAR=VALUE...]: ci/check.sh --full (MODE= for make check), RESUME and the rest only as
# given here
flow() {
	: >"$TMP/calls"
	env -u RESUME -u VM_CMDLINE -u VM_SYSCTL PATH="$TMP/bin:$PATH" "$@" "$repo/ci/check.sh" \
		${MODE---full} >"$TMP/out" 2>"$TMP/err"
}
boots() { grep -c '^vm-run ' "$TMP/calls"; }

flow
st=$?
check "check-full: exit 0, last line '... passed, 0 failed, 0 skipped'" \
	eval '[ $st -eq 0 ] && tail -n 1 "$TMP/out" | grep -qE "^[0-9]+ passed, 0 failed, 0 skipped$"'
check "check-full boots all 12 guest suites (got $(boots))" [ "$(boots)" -eq 12 ]
check "durations.txt: the programs' times and their sum (12 x 2.5 s in the guests)" \
	grep -qE '^ +(29|3[0-9])\.[0-9] s  in all \(14 programs\)$' "$repo/build/check/durations.txt"
check "the 5 slowest are shown before the summary" grep -q '^==> slowest tests' "$TMP/err"
passed=$(tail -n 1 "$TMP/out")

flow RESUME=1
check "RESUME=1 after a full run of this tree: no suite boots again (got $(boots))" [ "$(boots)" -eq 0 ]
check "the run with kept suites counts as the full one did" [ "$(tail -n 1 "$TMP/out")" = "$passed" ]
check "it names what it kept" grep -q '^==> kept from an earlier run of this tree (RESUME=1): host guest ' "$TMP/err"
check "the build steps run every time (they are incremental)" grep -q '^make -s kernel$' "$TMP/calls"

# another tree, where the MGLRU-off suite fails; then back to the first tree at once
: >"$TMP/fail-classic"
echo two >"$repo/file" && g add file && g commit -qm two
flow RESUME=1
check "another tree: every suite boots, the failing one fails the run" \
	eval '[ "$(boots)" -eq 12 ] && tail -n 1 "$TMP/out" | grep -qE "^[0-9]+ passed, 1 failed"'
rm "$TMP/fail-classic"
g rm -q file && g commit -qm "back to one"
flow RESUME=1
check "back on the first tree: the suite that failed on the other boots again, and passes" \
	eval 'grep -q "^vm-run guest-classic-lru.log$" "$TMP/calls" && [ "$(tail -n 1 "$TMP/out")" = "$passed" ]'
: >"$TMP/fail-classic"
echo three >"$repo/file" && g add file && g commit -qm three
flow RESUME=1
rm "$TMP/fail-classic"
flow RESUME=1
check "RESUME=1 after a failure: only the suite that failed boots (got $(boots))" \
	eval '[ "$(boots)" -eq 1 ] && grep -q "^vm-run guest-classic-lru.log$" "$TMP/calls"'

# a commit in the middle of a run: the passes after it are not stamped for the new tree
: >"$TMP/commit-during"
flow
rm "$TMP/commit-during"
flow RESUME=1
check "a commit during a run: the next run boots every suite again (got $(boots))" [ "$(boots)" -eq 12 ]

echo change >"$repo/selftests/host/test_new.sh"
flow RESUME=1
check "an untracked file: nothing is kept, every suite boots again" [ "$(boots)" -eq 12 ]
rm "$repo/selftests/host/test_new.sh"

# make check runs what users run (issue 34): the systemd guest and the tool on Debian's
# stock kernel, which it downloads; it builds no vanilla kernel (check-full does)
MODE='' flow
st=$?
check "make check: exit 0, last line '... passed, 0 failed, 0 skipped'" \
	eval '[ $st -eq 0 ] && tail -n 1 "$TMP/out" | grep -qE "^[0-9]+ passed, 0 failed, 0 skipped$"'
got=$(grep '^vm-run ' "$TMP/calls" | tr '\n' ' ')
check "make check boots memtide's suite, the slow disk, the lower memory tier, the systemd guest and the tool on Debian's kernel, and builds no vanilla (got $got)" \
	eval '[ "$got" = "vm-run guest.log vm-run guest-slow-disk.log vm-run guest-tiers.log vm-run guest-systemd.log vm-run guest-debian-tool.log " ] &&
		grep -q "^make -s kernel-debian$" "$TMP/calls" && ! grep -q "^make -s kernel-vanilla" "$TMP/calls"'
done_testing
