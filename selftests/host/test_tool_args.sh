#!/usr/bin/env bash
# The memtide tool's arguments on the host, against a fake cgroup tree: where a size may
# stand, how large it may be and how its suffix is read, getopt's messages, option
# combinations, --interval's floor and --quiet. Every bad input is a usage error (exit 2,
# one line besides util-linux's "Try" hint, nothing on stdout) that writes nothing: no
# memory.reclaim, no power state, no state directory.
. "$(dirname "$0")/lib.sh"
plan 34
build_tool

cg=$TMP/cg
for d in "" a.slice; do
	mkdir -p "$cg/$d"
	echo "anon 0" >"$cg/$d/memory.stat"
	: >"$cg/$d/memory.reclaim"
done
echo 1048576 >"$cg/a.slice/memory.current"
printf 'memory.reclaim amount=bytes,max swappiness=0-200,max result=reclaimed\n' >"$TMP/features"
: >"$TMP/power-state"
export MEMTIDE_CGROUP_ROOT=$cg MEMTIDE_STATE_DIR=$TMP/state MEMTIDE_FEATURES_FILE=$TMP/features \
	MEMTIDE_POWER_STATE=$TMP/power-state MEMTIDE_UNIT_PATH=$TMP/units

# untouched: no memory.reclaim written, no hibernation, no state recorded
untouched() {
	[ -z "$(find "$cg" -name memory.reclaim -size +0)" ] && [ ! -s "$TMP/power-state" ] &&
		[ ! -e "$TMP/state" ]
}
# memtide with its stderr less the "Try 'memtide --help'" hint (bounded: a busy loop fails)
mt_hintless() {
	local status
	timeout 10 "$mt" "$@" 2>"$TMP/err.all"
	status=$?
	grep -v "^Try 'memtide --help' for more information\.$" "$TMP/err.all" >&2
	return "$status"
}
# usage_error NAME PATTERN ARG...: exit 2, one line matching PATTERN, and nothing written
usage_error() {
	local name=$1 pattern=$2
	shift 2
	expect_error "$name: exit 2" 2 "$pattern" mt_hintless "$@"
	check "$name: nothing written" untouched
}
# reclaimed ARG...: memtide reclaim ARG... exits 0; prints what a.slice's memory.reclaim got
reclaimed() {
	: >"$cg/a.slice/memory.reclaim"
	"$mt" reclaim "$@" >/dev/null 2>"$TMP/err" && cat "$cg/a.slice/memory.reclaim"
	: >"$cg/a.slice/memory.reclaim"
	rm -rf "$TMP/state"
}

# where a size may stand: last, once; a path starting with "./" is a path
check "reclaim ./a.slice max: a path, not a size" test "$(reclaimed ./a.slice max)" = max
check "reclaim ./a.slice 1M: the size after it" test "$(reclaimed ./a.slice 1M)" = 1048576
usage_error "reclaim 1M a.slice" "^memtide: the size must be the last argument: '1M'$" \
	reclaim 1M a.slice
usage_error "reclaim a.slice 1M 2M" "^memtide: more than one size: '1M' and '2M'$" \
	reclaim a.slice 1M 2M
usage_error "release .5G a.slice" "^memtide: the size must be the last argument: '.5G'$" \
	release .5G a.slice

# no size is no default: a forgotten one was max, the whole cgroup
usage_error "reclaim a.slice (no size)" "^memtide: reclaim needs a SIZE or max after the targets$" \
	reclaim a.slice
# the root swaps out every process: only with --force (one line, no hint)
usage_error "reclaim / max (the root)" "^memtide: /: the root cgroup: .*; add --force to do it$" \
	reclaim / max
check "reclaim --dry-run a.slice max: what it would write, and nothing written" bash -c "
	[ \"\$('$mt' reclaim --dry-run a.slice max)\" = '/a.slice: would reclaim max: \"max\" to memory.reclaim; current 1.0 MiB, swap -' ] &&
	[ -z \"\$(find '$cg' -name memory.reclaim -size +0)\" ] && [ ! -e '$TMP/state' ]"

# getopt speaks as "memtide", not as the path it was run by
usage_error "an unknown option" "^memtide: unrecognized option '--bogus'$" status --bogus
usage_error "an option without its argument" "^memtide: option requires an argument -- 'd'$" \
	status -d

# the largest size: UINT64_MAX is the "max" sentinel, so it and beyond are refused
usage_error "reclaim a.slice 18446744073709551615 (max's own value)" \
	"^memtide: invalid size '18446744073709551615' \(too large; max asks for all\)$" \
	reclaim a.slice 18446744073709551615
usage_error "reclaim a.slice 16E (beyond 64 bits)" \
	"^memtide: invalid size '16E' \(too large; max asks for all\)$" reclaim a.slice 16E
check "18446744073709551614 is a size" \
	test "$(reclaimed a.slice 18446744073709551614)" = 18446744073709551614

# suffixes: case does not matter, and all are powers of two
check "1gb, 1GB, 1Gb, 1GiB, 1gib, 1g: 2^30 each" bash -c "
	for s in 1gb 1GB 1Gb 1GiB 1gib 1g 1G; do
		[ \"\$('$mt' reclaim a.slice \$s >/dev/null && cat '$cg/a.slice/memory.reclaim')\" = 1073741824 ] || exit 1
	done"
: >"$cg/a.slice/memory.reclaim"
rm -rf "$TMP/state"
check "1kb is 1024, 100b is 100" test "$(reclaimed a.slice 1kb) $(reclaimed a.slice 100b)" = "1024 100"
usage_error "1ib (no multiple)" "^memtide: invalid size '1ib'$" reclaim a.slice 1ib

# --interval has a floor: a shorter one would spin on the cgroup tree
usage_error "idle --interval 1us" "^memtide: invalid interval '1us' \(at least 100ms\)$" \
	idle --interval 1us
usage_error "idle -i 99ms" "^memtide: invalid interval '99ms' \(at least 100ms\)$" idle -i 99ms

# hibernate: --prepare-only and --dry-run do different things; both at once is a mistake
usage_error "hibernate --prepare-only --dry-run" \
	"^memtide: --prepare-only and --dry-run exclude each other$" \
	hibernate --prepare-only --dry-run

# --quiet: errors only, for every command
check "features --quiet: nothing printed, exit 0" bash -c "
	out=\$('$mt' features --quiet 2>&1) && [ -z \"\$out\" ]"
check "features --quiet --json: the JSON asked for" bash -c "
	'$mt' features --quiet --json | python3 -c 'import json, sys; json.load(sys.stdin)[\"features\"]'"
done_testing
