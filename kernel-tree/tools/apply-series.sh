#!/usr/bin/env bash
# Bring the edit tree build/linux to "base + kernel-tree/series" as one commit per patch.
#
# The tree remembers which series it was made from (.git/memtide-applied: series hash and the
# commit git am ended on). If the series is unchanged nothing happens, so commits a developer
# added on top (make kernel-edit) are built as they are. If the series changed, the queue is
# re-applied from the base tag, unless the developer has commits or changes that were never
# exported: those are never thrown away silently.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

state=$SRC/.git/memtide-applied
want=$(series_hash)
if [ -f "$state" ]; then
	read -r have_hash have_head <"$state"
	[ "$have_hash" = "$want" ] && exit 0
	head=$(kgit rev-parse HEAD)
	if [ "${KERNEL_RESET:-}" != 1 ]; then
		[ "$head" = "$have_head" ] ||
			die "kernel-tree/series changed, but build/linux has commits that are not in kernel-tree/patches: run 'make kernel-export' first, or 'make kernel KERNEL_RESET=1' to discard them"
		[ -z "$(kgit status --porcelain --untracked-files=no)" ] ||
			die "kernel-tree/series changed, but build/linux has uncommitted changes: commit and export them, or 'make kernel KERNEL_RESET=1' to discard them"
	fi
fi

kgit am --abort >/dev/null 2>&1 || true
kgit checkout -q -f -B memtide base
n=0
while read -r p; do
	f=$KT/patches/$p
	[ -f "$f" ] || die "kernel-tree/series names $p, which is not in kernel-tree/patches/"
	if ! out=$(kgit am -q --keep-cr "$f" 2>&1); then
		# Name the patch and show the hunk that did not apply (git apply -v prints its context).
		why=$(kgit apply --check -v "$f" 2>&1 | grep -E -A12 '^error: (while searching|patch failed)' | head -20 || true)
		kgit am --abort >/dev/null 2>&1 || true
		rm -f "$state"
		printf '%s\n' "$out" >&2
		[ -n "$why" ] && printf '%s\n' "$why" >&2
		die "patch $p does not apply to the base (above: the file, line and hunk that failed)"
	fi
	n=$((n + 1))
done < <(series_patches)
echo "$want $(kgit rev-parse HEAD)" >"$state"
note "applied $n patch(es) from kernel-tree/series"
