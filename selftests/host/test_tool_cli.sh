#!/usr/bin/env bash
# The memtide tool's command line on the host (no cgroup is touched: a fake tree through
# MEMTIDE_CGROUP_ROOT): --help, --version, usage errors, make install with DESTDIR and
# PREFIX, the man page and the bash completion.
. "$(dirname "$0")/lib.sh"
# the tree's lines are ASCII in the C locale (box drawing in a UTF-8 one)
export LC_ALL=C
out=$ROOT/build/tools
plan 23
build_tool

"$mt" --help >"$TMP/help" 2>&1
check "--help: exit 0, one synopsis line per command" \
	test "$(grep -c '^ memtide \(reclaim\|release\|status\|features\|hibernate\|resume\|idle\)' "$TMP/help")" = 7
check "--help names every long option" bash -c "for o in swappiness timeout depth prepare-only dry-run force interval count json quiet help version; do
	grep -q -- \"--\$o\" '$TMP/help' || exit 1; done"
check "--version: exit 0, 'memtide X.Y'" bash -c "'$mt' --version | grep -qx 'memtide [0-9][0-9.]*'"
expect_error "no command: exit 2" 2 "^memtide: no command given$" bash -c "'$mt' 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"
expect_error "--depth on reclaim: exit 2" 2 "^memtide: --depth is for status only$" \
	bash -c "'$mt' reclaim /x --depth 1 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"
expect_error "features with an argument: exit 2" 2 "^memtide: features takes no arguments$" \
	bash -c "'$mt' features x 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"
expect_error "--depth x: exit 2" 2 "^memtide: invalid depth 'x'$" \
	bash -c "'$mt' status --depth x 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"

expect_error "a timeout that would wrap the deadline: exit 2" 2 "^memtide: invalid duration '18446744073709'$" \
	bash -c "'$mt' reclaim /x --timeout 18446744073709 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"
expect_error "resume --json: exit 2 (no JSON form)" 2 "^memtide: --json is not for resume" \
	bash -c "'$mt' resume --json 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"

# status against a fake tree, with a recorded last result
mkdir -p "$TMP/cg/a.slice/b.service" "$TMP/state"
printf 'anon 1048576\nfile 2097152\nshmem 0\n' >"$TMP/cg/memory.stat"
printf 'anon 1048576\nfile 0\nshmem 0\nscan_pressure 250\n' >"$TMP/cg/a.slice/memory.stat"
echo 1048576 >"$TMP/cg/a.slice/memory.current"
echo 4096 >"$TMP/cg/a.slice/memory.swap.current"
printf 'some avg10=1.50 avg60=0.00 avg300=0.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' \
	>"$TMP/cg/a.slice/memory.pressure"
echo "reclaim done 734003200 $(date +%s) /a.slice" >"$TMP/state/last"
export MEMTIDE_CGROUP_ROOT=$TMP/cg MEMTIDE_STATE_DIR=$TMP/state
"$mt" status --depth 1 >"$TMP/status" 2>&1
check "status: the root, a.slice, not b.service (no memory.stat), depth 1" \
	test "$(awk 'NR > 1 { print $1 }' "$TMP/status" | tr '\n' ' ')" = "/ \`-a.slice "
check "status: current, swap, pressure, scan pressure and the last result of a.slice" \
	grep -q "^\`-a.slice  *1.0 MiB  *4.0 KiB  *1.0 MiB  *0 B  *1.50%  *250 reclaim 700.0 MiB, [0-9]*s ago$" "$TMP/status"
check "status: '-' for the scan pressure of a cgroup without it (a stock kernel)" \
	grep -q "^/  .*  *-  *-$" "$TMP/status"
"$mt" status --json a.slice >"$TMP/status.json" 2>&1
check "status --json: valid JSON with the last reclaim" python3 -c "
import json, sys
rows = json.load(open('$TMP/status.json'))['cgroups']
assert rows[0]['cgroup'] == '/a.slice' and rows[0]['swap'] == 4096, rows
assert rows[0]['last']['reclaim']['bytes'] == 734003200, rows
assert rows[0]['pressure_some_avg10'] == 1.5, rows
assert rows[0]['scan_pressure'] == 250, rows"
check "status --quiet: nothing printed, exit 0" bash -c "
	out=\$('$mt' status --quiet a.slice 2>&1) && [ -z \"\$out\" ]"
unset MEMTIDE_CGROUP_ROOT MEMTIDE_STATE_DIR

# make install
make -s -C "$ROOT/cgroup-tools" OUT="$out" install DESTDIR="$TMP/dest" PREFIX=/usr >"$TMP/install.log" 2>&1
check "make install DESTDIR= PREFIX=/usr: binary, man page, bash and zsh completions, sleep hook" \
	test -x "$TMP/dest/usr/bin/memtide" -a -f "$TMP/dest/usr/share/man/man8/memtide.8" \
	-a -f "$TMP/dest/usr/share/bash-completion/completions/memtide" \
	-a -f "$TMP/dest/usr/share/zsh/vendor-completions/_memtide" \
	-a -x "$TMP/dest$(pkg-config --variable=systemdsleepdir systemd)/memtide"
check "the man page renders without warnings, with EXIT STATUS" bash -c "
	w=\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$ROOT/cgroup-tools/memtide.8' 2>&1 >'$TMP/man.txt')
	[ -z \"\$w\" ] && grep -q 'EXIT STATUS' '$TMP/man.txt'"
# one version everywhere: the binary's, the man page's footer, the Debian package's
v=$("$mt" --version | sed -n 's/^memtide //p')
check "one version: memtide --version ($v), the man page's .TH and debian/changelog" bash -c "
	[ -n '$v' ] && grep -q '^\.TH MEMTIDE 8 \"[0-9-]*\" \"memtide $v\"' '$ROOT/cgroup-tools/memtide.8' &&
	head -n 1 '$ROOT/cgroup-tools/debian/changelog' | grep -q '^memtide ($v)'"
check "the bash completion parses and registers" bash -c "
	_init_completion() { return 1; }; . '$ROOT/cgroup-tools/completion/memtide.bash' &&
	complete -p memtide | grep -q _memtide"
# complete WORD...: what the completion offers for the last word after memtide WORD...
complete_words() {
	# _memtide's words and cword are its locals: the stub fills them from W (test_completion.sh
	# drives it through bash-completion itself; here its helpers are stood in for)
	bash -c '_init_completion() { words=("${W[@]}"); cword=$((${#W[@]} - 1));
		cur=${words[cword]}; prev=${words[cword-1]}; }; __ltrim_colon_completions() { :; }
		. "$1/cgroup-tools/completion/memtide.bash"; shift
		W=(memtide "$@"); _memtide; echo "${COMPREPLY[*]}"' _ "$ROOT" "$@"
}
completes_new_options() {
	[ "$(complete_words reclaim --f)" = --force ] && [ "$(complete_words reclaim --d)" = --dry-run ] &&
		[ "$(complete_words release --d)" = --dry-run ] && [ -z "$(complete_words release --f)" ]
}
check "the completion offers --dry-run and --force to reclaim, --dry-run to release" \
	completes_new_options
# the units, installed where their ExecStart points, as systemd reads them
make -s -C "$ROOT/cgroup-tools" OUT="$out" install PREFIX="$TMP/p" UNITDIR="$TMP/p/units" \
	SLEEPDIR="$TMP/p/sleep" >"$TMP/install2.log" 2>&1
check "make install: memtide-idle.service, memtide-reclaim@.service and .timer" \
	test -f "$TMP/p/units/memtide-idle.service" -a -f "$TMP/p/units/memtide-reclaim@.service" \
	-a -f "$TMP/p/units/memtide-reclaim@.timer"
check "systemd-analyze verify: no complaint about the units; they and the hook call PREFIX/bin/memtide, reclaim@ with its unescaped instance (%I) and max" bash -c "
	out=\$(systemd-analyze verify --man=no '$TMP/p/units/memtide-idle.service' \
		'$TMP/p/units/memtide-reclaim@.service' '$TMP/p/units/memtide-reclaim@.timer' 2>&1)
	[ -z \"\$out\" ] && grep -q '^ExecStart=$TMP/p/bin/memtide idle$' '$TMP/p/units/memtide-idle.service' &&
	grep -q '^ExecStart=$TMP/p/bin/memtide reclaim %I max$' '$TMP/p/units/memtide-reclaim@.service' &&
	grep -q '^	$TMP/p/bin/memtide hibernate --prepare-only' '$TMP/p/sleep/memtide' && sh -n '$TMP/p/sleep/memtide'"
# the idle daemon is sandboxed as a system daemon should be (exposure 1.3 of 10 with the
# home read-only, 2026-12-07; 9.0 without the sandboxing): systemd-analyze fails above 2.0
check "systemd-analyze security: memtide-idle.service's exposure at most 2.0 of 10" bash -c "
	systemd-analyze security --offline=true --threshold=20 --no-pager \
		'$TMP/p/units/memtide-idle.service' >'$TMP/security.log' 2>&1 ||
	{ grep -E 'Overall|✗' '$TMP/security.log'; false; }"
# SYSCONFDIR: the hook, the man page and the binary name the same switch; the man page is
# 0644 under any umask
(umask 077 && make -s -C "$ROOT/cgroup-tools" OUT="$TMP/out3" install PREFIX="$TMP/p3" \
	SLEEPDIR="$TMP/p3/sleep" UNITDIR="$TMP/p3/units" SYSCONFDIR="$TMP/etc3") >"$TMP/install3.log" 2>&1
check "make install SYSCONFDIR=: hook, man page and binary read SYSCONFDIR/default/memtide; man page 0644" bash -c "
	grep -q '^switch=$TMP/etc3/default/memtide\$' '$TMP/p3/sleep/memtide' &&
	sed 's/\\\\-/-/g' '$TMP/p3/share/man/man8/memtide.8' | grep -q '$TMP/etc3/default/memtide' &&
	! grep -q '/etc/default/memtide' '$TMP/p3/share/man/man8/memtide.8' &&
	grep -qa '$TMP/etc3/default/memtide' '$TMP/p3/bin/memtide' &&
	test \$(stat -c %a '$TMP/p3/share/man/man8/memtide.8') = 644"
man_has_options() {
	local o
	for o in swappiness timeout depth prepare-only dry-run force interval count json quiet help version; do
		# roff writes every hyphen of an option as \-
		grep -qF -- "\\-\\-${o//-/\\-}" "$ROOT/cgroup-tools/memtide.8" || return 1
	done
}
check "every option in --help is in the man page" man_has_options
done_testing
