#!/usr/bin/env bash
# ci/resume.sh (make check-full RESUME=1): a suite's pass is kept for the same clean tree and
# the same settings only.
. "$(dirname "$0")/lib.sh"
plan 11
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

# ci/check.sh's bad RESUME: one line, exit 2, the logs of the last run left alone
: >"$repo/build/check/last-run.log"
expect_error "RESUME neither 0 nor 1" 2 "^check: RESUME 'yes' must be 0 or 1$" \
	env RESUME=yes "$repo/ci/check.sh" --full
check "a bad RESUME leaves build/check/ as it was" [ -e "$repo/build/check/last-run.log" ]
done_testing
