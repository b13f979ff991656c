#!/usr/bin/env bash
# make CFLAGS=...: a user's CFLAGS replace only the optimisation and debug flags; what the
# tool needs (-std, -D_GNU_SOURCE, the libraries' pkg-config flags, the warnings) is always
# added. Builds with CFLAGS=-O0 into a temporary directory and runs the result.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 4
out=$TMP/o0
make -n -C "$ROOT/cgroup-tools" OUT="$out" CFLAGS=-O0 "$out/memtide" >"$TMP/cmd" 2>&1
cc=$(grep -- "-o $out/memtide " "$TMP/cmd")
check "make CFLAGS=-O0 keeps -std=gnu11, -D_GNU_SOURCE, -Wall and json-c's flags" bash -c "
	grep -q -- '-std=gnu11' <<<'$cc' && grep -q -- '-D_GNU_SOURCE' <<<'$cc' &&
	grep -q -- '-Wall' <<<'$cc' && grep -q -- '$(pkg-config --cflags json-c)' <<<'$cc'"
# the user's flags come after the required ones, so that -O0 wins over any default
check "the user's -O0 is on the command line, after the required flags, and -O2 is not" \
	bash -c "grep -q -- '-std=gnu11.* -O0' <<<'$cc' && ! grep -q -- '-O2' <<<'$cc'"
[ -n "$cc" ] || echo "# make -n: $(head -c 400 "$TMP/cmd")"
if make -s -C "$ROOT/cgroup-tools" OUT="$out" CFLAGS=-O0 "$out/memtide" >"$TMP/build.log" 2>&1; then
	ok "make CFLAGS=-O0 builds"
else
	fail "make CFLAGS=-O0 builds" "$(grep -m 5 -E 'error|warning' "$TMP/build.log")"
fi
check "the -O0 build runs (memtide --version)" \
	bash -c "'$out/memtide' --version | grep -qx 'memtide [0-9.]*'"
done_testing
