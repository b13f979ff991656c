#!/usr/bin/env bash
# The patch-queue scripts on a scratch queue and a tiny git tree (no kernel needed):
# apply-series.sh applies, names a patch that does not apply and the hunk, refuses to throw
# away unexported commits; export.sh writes stable names and keeps the series' banners.
. "$(dirname "$0")/lib.sh"
tools=$ROOT/kernel-tree/tools
plan 13
export KT=$TMP/kt BUILD=$TMP/build
mkdir -p "$KT/patches" "$BUILD/linux"
g() { git -C "$BUILD/linux" -c user.name=t -c user.email=t@t "$@"; }
g init -q -b memtide
printf 'one\ntwo\nthree\n' >"$BUILD/linux/file.c"
g add file.c && g commit -qm base && g tag base

# Two commits, exported as a queue with a banner kept by hand.
sed -i 's/two/TWO/' "$BUILD/linux/file.c" && g commit -qam "mm: make two loud"
echo four >>"$BUILD/linux/file.c" && g commit -qam "mm: add four"
printf '# header line\n\n# --- topic A\nmm-make-two-loud.patch\n' >"$KT/series"
"$tools/export.sh" 2>/dev/null
check "export writes one patch per commit, named after the subject" \
	test -f "$KT/patches/mm-make-two-loud.patch" -a -f "$KT/patches/mm-add-four.patch"
check "export keeps the header and the banner above its patch" \
	grep -Pzq '# header line\n\n# --- topic A\nmm-make-two-loud.patch\nmm-add-four.patch\n' "$KT/series"
check "exported patches carry no commit hash (stable diffs)" grep -q '^From 0000000000000000000000000000000000000000' "$KT/patches/mm-add-four.patch"

# A new file that the tree's .gitignore hides (Debian's ends with "/*"): export refuses,
# naming it, instead of writing a patch without it.
mkdir -p "$BUILD/linux/kernel" && echo new >"$BUILD/linux/kernel/new.c"
printf '/*\n' >"$BUILD/linux/.git/info/exclude"
"$tools/export.sh" >/dev/null 2>"$TMP/err"
st=$?
check "export refuses while a new file is ignored by git" [ $st -ne 0 ]
check "... naming the file and the fix" grep -q "kernel/new.c.*git add -f" "$TMP/err"
rm -rf "$BUILD/linux/kernel" "$BUILD/linux/.git/info/exclude"

# A fresh apply from the queue reproduces the tree.
head=$(g rev-parse HEAD^{tree})
rm -f "$BUILD/linux/.git/memtide-applied"
"$tools/apply-series.sh" 2>/dev/null
check "apply-series rebuilds the same tree from the queue" [ "$(g rev-parse HEAD^{tree})" = "$head" ]
check "two commits on top of base" [ "$(g rev-list --count base..HEAD)" = 2 ]

# A developer commit not exported, then the series changes (say, git pull): refused.
echo five >>"$BUILD/linux/file.c" && g commit -qam "mm: add five"
echo "# a comment" >>"$KT/series"
"$tools/apply-series.sh" 2>"$TMP/err"
st=$?
check "a changed series never discards unexported commits" test $st -ne 0 -a "$(g log -1 --format=%s)" = "mm: add five"
check "... and says what to do" grep -q "make kernel-export" "$TMP/err"
KERNEL_RESET=1 "$tools/apply-series.sh" 2>/dev/null
check "KERNEL_RESET=1 re-applies the queue" [ "$(g log -1 --format=%s)" = "mm: add four" ]

# A patch that does not apply: named, with the file and hunk.
cat >"$KT/patches/bad.patch" <<'P'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@t>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] mm: change a line that is not there

---
 file.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/file.c b/file.c
--- a/file.c
+++ b/file.c
@@ -1,3 +1,3 @@
 one
-seven
+SEVEN
 three
-- 
2.39.5
P
echo bad.patch >>"$KT/series"
"$tools/apply-series.sh" >"$TMP/out" 2>"$TMP/err"
st=$?
check "a patch that does not apply fails" [ $st -ne 0 ]
check "... naming the patch" grep -q "patch bad.patch does not apply" "$TMP/err"
check "... and the file and hunk" grep -q "file.c" "$TMP/err"
done_testing
