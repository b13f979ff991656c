#!/usr/bin/env bash
# The systemd-sleep hook (cgroup-tools/systemd/memtide.sleep.in) with stand-ins for memtide,
# systemd-run and logger: what it runs for each sleep kind, its fallback when the resume unit
# cannot be started, that it never fails the sleep, and that it shrinks nothing until the
# administrator turns it on (SLEEP_HOOK=yes in /etc/default/memtide, here $TMP/etc/default/
# memtide, as a shell would read it), saying so in one line; after resume it releases
# whatever was prepared, on or off. The real thing runs in the systemd guest
# (selftests/systemd/test_sleep_hook.sh).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 14
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
check "/etc/default/memtide as shipped: one line logged that the hook is off" bash -c "
	test \$(wc -l <'$TMP/logged') -eq 1 && grep -q 'SLEEP_HOOK' '$TMP/logged'"
# after resume, on or off: a `memtide hibernate --prepare-only` run by hand, or a switch
# turned off between pre and post, must not leave the slices in swap
ARGS=(post hibernate)
hook
check "/etc/default/memtide as shipped: post hibernate runs memtide resume" \
	grep -q "^systemd-run .*$bin/memtide resume\$" "$TMP/calls"
rm "$TMP/etc/default/memtide"
hook
check "no /etc/default/memtide: post hibernate runs memtide resume" \
	grep -q "^systemd-run .*$bin/memtide resume\$" "$TMP/calls"
cp "$ROOT/cgroup-tools/systemd/memtide.default" "$TMP/etc/default/memtide"
# turned on as memtide(8) says: its line changed in place
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
# what a shell reads in an /etc/default file (memtide's C reads it the same way:
# cgroup-tools/tests/test_hibernate.c)
ARGS=(pre hibernate)
on=0
for line in 'SLEEP_HOOK="yes"' "SLEEP_HOOK='yes'" 'export SLEEP_HOOK=yes' \
	'SLEEP_HOOK=yes # on' '  SLEEP_HOOK=yes' 'export  SLEEP_HOOK="yes"	# on'; do
	printf '# memtide\nSLEEP_HOOK=no\n%s\n' "$line" >"$TMP/etc/default/memtide"
	hook
	grep -qx "memtide hibernate --prepare-only --timeout 2min" "$TMP/calls" && on=$((on + 1))
done
check "quoted, exported, commented SLEEP_HOOK=yes: on ($on of 6)" test $on -eq 6
off=0
for line in 'SLEEP_HOOK=no' '#SLEEP_HOOK=yes' 'SLEEP_HOOK=yesno' 'SLEEP_HOOK="yes' \
	'SLEEP_HOOK=yes#c' 'SLEEP_HOOK = yes' 'XSLEEP_HOOK=yes'; do
	printf 'SLEEP_HOOK=no\n%s\n' "$line" >"$TMP/etc/default/memtide"
	hook
	test -s "$TMP/calls" || off=$((off + 1))
done
check "anything else: off ($off of 7)" test $off -eq 7
printf 'SLEEP_HOOK=yes\n' >"$TMP/etc/default/memtide"
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
