#!/usr/bin/env bash
# ci/resume.sh (make check-full RESUME=1): a suite's pass is kept for the same clean tree (for a
# guest suite: the same files it reads) and the same settings only.
. "$(dirname "$0")/lib.sh"
plan 20
repo=$TMP/repo
mkdir -p "$repo/ci" "$repo/build/check"
cp "$ROOT/ci/check.sh" "$ROOT/ci/resume.sh" "$repo/ci/"
echo build/ >"$repo/.gitignore"
echo one >"$repo/file"
g() { git -C "$repo" -c user.name=t -c user.email=t@t.invalid "$@"; }
g init -q && g add -A && g commit -qm one

# the functions, as ci/check.sh sources them
ROOT=$repo out=$repo/build/check
. "$repo/ci/resume.sh"
unset RESUME VM_CMDLINE
resume_begin
keep guest
check "without RESUME=1 a pass is stamped but not kept" eval '[ -s "$out/kept/guest" ] && ! kept guest'
RESUME=1
when=$(kept guest)
check "RESUME=1, same tree: the pass is kept, with its date (got '$when')" \
	eval '[[ $when =~ ^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]\ [0-9:]{5}\ UTC$ ]]'
check "a suite that was not stamped is not kept" eval '! kept stress'
VM_CMDLINE=quiet resume_begin
check "other settings (VM_CMDLINE): not kept" eval '! kept guest'
resume_begin
forget guest
check "a suite that runs again loses its stamp" eval '! kept guest'
keep guest
echo changed >"$repo/file"
resume_begin
check "a changed file: nothing is kept" eval '! kept guest'
keep stress
check "a changed file: nothing is stamped" eval '[ ! -e "$out/kept/stress" ]'
g checkout -q file
resume_begin
: >"$repo/new-test.sh"
keep stress
check "a tree that changed during the run: its passes are not stamped" eval '[ ! -e "$out/kept/stress" ]'
g add new-test.sh && g commit -qm two
resume_begin
check "another commit's tree: the old pass is not kept" eval '! kept guest'

# a commit that changes only what no guest suite reads (docs/, selftests/bench/, selftests/host/)
# keeps the guest suites' passes, not the host tests', which read the whole tree
resume_begin
keep guest
keep host
mkdir -p "$repo/docs" "$repo/selftests/bench" "$repo/selftests/vm" "$repo/docs-old"
echo doc >"$repo/docs/a.md"
echo bench >"$repo/selftests/bench/b.sh"
g add -A && g commit -qm docs
resume_begin
check "a commit to docs/ and selftests/bench/ only: the guest suites' passes are kept" eval 'kept guest >/dev/null'
check "a commit to docs/ only: the host tests' pass is not kept" eval '! kept host'
keep guest
echo old >"$repo/docs-old/a.md"
g add -A && g commit -qm docs-old
resume_begin
check "a path that only begins like docs/ (docs-old/): the guest suites' passes are not kept" eval '! kept guest'
keep guest
# ci/resume.sh decides what is kept, not what runs
echo "# a comment" >>"$repo/ci/resume.sh"
g commit -qam resume
resume_begin
check "a commit to ci/resume.sh: the guest suites' passes are kept" eval 'kept guest >/dev/null'
echo "# a comment" >>"$repo/ci/check.sh"
g commit -qam check
resume_begin
check "a commit to ci/check.sh: the guest suites' passes are not kept" eval '! kept guest'
keep guest
echo t >"$repo/selftests/vm/t.sh"
g add -A && g commit -qm vm
resume_begin
check "a commit to selftests/vm/: the guest suites' passes are not kept" eval '! kept guest'
# a commit during the run: a guest suite's pass is stamped if the commit left alone what it
# reads, the host tests' pass is not
resume_begin
forget guest
forget host
echo doc2 >"$repo/docs/a.md"
g commit -qam "docs during the run"
keep guest
keep host
resume_begin
check "a commit to docs/ during the run: the guest suite's pass is stamped" eval 'kept guest >/dev/null'
check "a commit to docs/ during the run: the host tests' pass is not" eval '[ ! -e "$out/kept/host" ]'
forget guest
echo t2 >"$repo/selftests/vm/t.sh"
g commit -qam "vm during the run"
keep guest
check "a commit to selftests/vm/ during the run: the guest suite's pass is not stamped" eval '[ ! -e "$out/kept/guest" ]'

# ci/check.sh's bad RESUME: one line, exit 2, the logs of the last run left alone
: >"$repo/build/check/last-run.log"
expect_error "RESUME neither 0 nor 1" 2 "^check: RESUME 'yes' must be 0 or 1$" \
	env RESUME=yes "$repo/ci/check.sh" --full
check "a bad RESUME leaves build/check/ as it was" [ -e "$repo/build/check/last-run.log" ]
done_testing
