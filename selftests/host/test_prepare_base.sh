#!/usr/bin/env bash
# prepare-base.sh refuses a tarball whose sha256 is not the pinned one (kernel-tree/BASE) with
# a clear message and no tree, and builds on it with a warning under BASE=any.
. "$(dirname "$0")/lib.sh"
prep=$ROOT/kernel-tree/tools/prepare-base.sh
plan 6
tarball=$(sed -n 's/^tarball=//p' "$ROOT/kernel-tree/BASE")
mkdir -p "$TMP/cache/linux-source-6.12" "$TMP/build"
echo "not a kernel" >"$TMP/cache/linux-source-6.12/Makefile"
tar -C "$TMP/cache" -cJf "$TMP/cache/$tarball" linux-source-6.12
export MEMTIDE_CACHE=$TMP/cache BUILD=$TMP/build

expect_error "a tarball with another checksum is refused in one line" 1 \
	"checksum mismatch for .*$tarball: sha256 [0-9a-f]{64}, kernel-tree/BASE pins [0-9a-f]{64} \(BASE=any builds on it anyway\)" \
	"$prep"
check "... and no tree is left behind" test ! -e "$TMP/build/linux"

BASE=any "$prep" >/dev/null 2>"$TMP/err"
st=$?
check "BASE=any builds on it anyway" test $st -eq 0 -a -f "$TMP/build/linux/Makefile"
check "... with a warning" grep -q "^WARNING: building on .*, not the pinned base" "$TMP/err"
check "... as a git tree whose base tag is the tarball" \
	git -C "$TMP/build/linux" diff --quiet base -- Makefile
expect_error "the tree made from another tarball is refused later without BASE=any" 1 \
	"build/linux was made from a tarball with sha256 [0-9a-f]{64}, not the pinned" "$prep"
done_testing
