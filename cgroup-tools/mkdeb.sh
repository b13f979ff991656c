#!/usr/bin/env bash
# mkdeb.sh OUTDIR: build the Debian package of the tool (cgroup-tools/debian/) from a clean
# copy of cgroup-tools/, with dpkg-buildpackage; prints the .deb's path. make deb runs it.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
src=$(cd "$(dirname "$0")" && pwd)
out=$1
command -v dh >/dev/null || { echo "$0: debhelper is missing (apt-get install debhelper)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/memtide"
# the package is built from what git would ship: no build output of the working copy
tar -C "$src" --exclude=./build --exclude='*.o' -cf - . | tar -C "$out/memtide" -xf -
if ! (cd "$out/memtide" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1; then
	echo "$0: dpkg-buildpackage failed; last lines of $out/build.log:" >&2
	# a failed unit test (dh_auto_test) first: the log's last lines name only make's exit
	grep -E -A3 '^not ok ' "$out/build.log" | head -n 20 >&2
	tail -n 10 "$out/build.log" >&2
	exit 1
fi
ls "$out"/memtide_*.deb
