#!/usr/bin/env bash
# Regenerate kernel-tree/patches/ and kernel-tree/series from the commits on top of the base
# tag in build/linux (the edit tree of make kernel-edit). Patch files are named after their
# subject, without a number, so names stay stable when the queue is reordered; banner comments
# in the series stay above the patch they preceded, new patches go where their commit is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no edit tree at build/linux (make kernel-edit)"
[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
	echo "WARNING: build/linux has uncommitted changes; only commits are exported" >&2
# Debian's top-level .gitignore ends with "/*" (its packaging repo holds only debian/), so
# every new file in the tree is ignored and `git add -A` / `commit -a` silently leave it out:
# the patch would lack it. Objects live in build/obj, so an ignored untracked file here is
# always such a new file.
ignored=$(kgit ls-files --others --ignored --exclude-standard)
[ -z "$ignored" ] ||
	die "build/linux has new files that Debian's .gitignore hides from git: $(echo $ignored); 'git add -f' each to its commit (git commit --fixup), then export again"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kgit format-patch -q --zero-commit --no-signature -o "$tmp" base..HEAD

# Old series: the leading comment block is the file header; every other run of comment or
# blank lines is the banner of the patch that follows it.
declare -A banner=()
header="" pending="" in_header=1
while IFS= read -r line || [ -n "$line" ]; do
	case "$line" in
	'' | \#*)
		if [ $in_header = 1 ] && [ -n "$line" ]; then header+="$line"$'\n'; else in_header=0; pending+="$line"$'\n'; fi
		;;
	*)
		in_header=0
		banner[$line]=$pending
		pending=""
		;;
	esac
done <"$KT/series"

rm -f "$KT"/patches/*.patch
{
	printf '%s' "$header"
	for f in "$tmp"/*.patch; do
		[ -e "$f" ] || continue
		name=${f##*/}
		name=${name#[0-9][0-9][0-9][0-9]-}
		cp "$f" "$KT/patches/$name"
		printf '%s%s\n' "${banner[$name]:-}" "$name"
	done
	printf '%s' "$pending"
} >"$KT/series.new"
mv "$KT/series.new" "$KT/series"

# The edit tree now is what the series describes: record it, so make kernel does not re-apply.
echo "$(series_hash) $(kgit rev-parse HEAD)" >"$SRC/.git/memtide-applied"
note "exported $(series_patches | wc -l) patch(es) to kernel-tree/patches"
