#!/usr/bin/env bash
# The systemd-sleep hook (cgroup-tools/systemd/memtide.sleep.in) with stand-ins for memtide,
# systemd-run and logger: what it runs for each sleep kind, its fallback when the resume unit
# cannot be started, and that it never fails the sleep. The real thing runs in the systemd
# guest (selftests/systemd/test_sleep_hook.sh).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 6
bin=$TMP/bin
mkdir -p "$bin"
sed "s|@bindir@|$bin|g" "$ROOT/cgroup-tools/systemd/memtide.sleep.in" >"$TMP/hook"
# stand-ins: each records its arguments; FAIL_<name>=1 makes it fail
for t in memtide systemd-run; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n[ -z "$FAIL_%s" ] || exit 1\n' \
		"$t" "$TMP" "$(echo "$t" | tr -- - _)" >"$bin/$t"
done
printf '#!/bin/sh\ncat >>"%s/logged"\n' "$TMP" >"$bin/logger"
chmod +x "$bin"/*
hook() { rm -f "$TMP/calls" "$TMP/logged"; touch "$TMP/calls" "$TMP/logged"; env PATH="$bin:$PATH" "$@" sh "$TMP/hook" "${ARGS[@]}"; }

ARGS=(pre hibernate)
hook
check "pre hibernate: memtide hibernate --prepare-only, bounded" \
	grep -qx "memtide hibernate --prepare-only --timeout 2min" "$TMP/calls"
ARGS=(post hibernate)
hook
check "post hibernate: memtide resume in its own unit (systemd-run)" bash -c "
	grep -q '^systemd-run .*--unit=memtide-resume .*$bin/memtide resume\$' '$TMP/calls' &&
	! grep -q '^memtide ' '$TMP/calls'"
hook FAIL_systemd_run=1
check "post hibernate, systemd-run fails: logged, and memtide resume runs in the hook" bash -c "
	grep -qx 'memtide resume' '$TMP/calls' && grep -q 'cannot start memtide-resume.service' '$TMP/logged'"
ARGS=(pre suspend)
hook
check "pre suspend: nothing" test ! -s "$TMP/calls"
ARGS=(pre hibernate)
hook FAIL_memtide=1
st=$?
check "memtide failing does not fail the sleep (exit $st)" test $st -eq 0
ARGS=(post hybrid-sleep)
hook FAIL_systemd_run=1 FAIL_memtide=1
st=$?
check "post hybrid-sleep, everything failing: exit 0" test $st -eq 0
done_testing
