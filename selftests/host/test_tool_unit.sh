#!/usr/bin/env bash
# The memtide tool's unit tests (cgroup-tools/tests, cmocka): parsing, target resolution in
# a fake cgroup tree, the kernel's read-back and feature list, JSON and exit codes. TAP from
# cmocka; a build failure is one failing result.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
out=$ROOT/build/tools
mkdir -p "$out"
if ! make -s -C "$ROOT/cgroup-tools" OUT="$out" all build-tests >"$out/build.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 tool-build"
	tail -n 20 "$out/build.log" | sed 's/^/# /'
	exit 1
fi
make -s -C "$ROOT/cgroup-tools" OUT="$out" test
