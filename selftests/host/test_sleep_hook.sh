#!/usr/bin/env bash
# The systemd-sleep hook (cgroup-tools/systemd/memtide.sleep.in) with stand-ins for memtide,
# systemd-run and logger: what it runs for each sleep kind, its fallback when the resume unit
# cannot be started, that it never fails the sleep, and that it does nothing until the
# administrator turns it on (SLEEP_HOOK=yes in /etc/default/memtide, here $TMP/etc/default/
# memtide). The real thing runs in the systemd guest (selftests/systemd/test_sleep_hook.sh).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 10
bin=$TMP/bin
mkdir -p "$bin"
sed -e "s|@bindir@|$bin|g" -e "s|@sysconfdir@|$TMP/etc|g" \
	"$ROOT/cgroup-tools/systemd/memtide.sleep.in" >"$TMP/hook"
mkdir -p "$TMP/etc/default"
# stand-ins: each records its arguments; FAIL_<name>=1 makes it fail
for t in memtide systemd-run; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n[ -z "$FAIL_%s" ] || exit 1\n' \
		"$t" "$TMP" "$(echo "$t" | tr -- - _)" >"$bin/$t"
done
printf '#!/bin/sh\ncat >>"%s/logged"\n' "$TMP" >"$bin/logger"
chmod +x "$bin"/*
hook() { rm -f "$TMP/calls" "$TMP/logged"; touch "$TMP/calls" "$TMP/logged"; env PATH="$bin:$PATH" "$@" sh "$TMP/hook" "${ARGS[@]}"; }

# installed: the file as shipped (SLEEP_HOOK=no), or none at all
ARGS=(pre hibernate)
hook
check "no /etc/default/memtide: pre hibernate does nothing" test ! -s "$TMP/calls"
cp "$ROOT/cgroup-tools/systemd/memtide.default" "$TMP/etc/default/memtide"
hook
check "/etc/default/memtide as shipped: pre hibernate does nothing" test ! -s "$TMP/calls"
ARGS=(post hibernate)
hook
check "/etc/default/memtide as shipped: post hibernate does nothing" test ! -s "$TMP/calls"
# turned on as memtide(1) says: its line changed in place
check "the shipped file has the line SLEEP_HOOK=no" grep -qx "SLEEP_HOOK=no" "$TMP/etc/default/memtide"
sed -i 's/^SLEEP_HOOK=no$/SLEEP_HOOK=yes/' "$TMP/etc/default/memtide"
ARGS=(pre hibernate)
hook
check "SLEEP_HOOK=yes: pre hibernate runs memtide hibernate --prepare-only, bounded" \
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
