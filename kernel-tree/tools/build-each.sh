#!/usr/bin/env bash
# build-each.sh: prove that every patch of the queue builds on its own (bisectability).
# Applies kernel-tree/series one patch at a time in a scratch worktree at the base tag and
# builds after each, with the memtide config, objects in build/obj/each (incremental from one
# patch to the next; ccache makes a re-run cheap). The distro-config compile (make
# kernel-distro-check) covers the whole queue with -Werror; this covers each step of it.
# Slow (the queue touches widely included headers): part of make check-full, not make check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$KT/tools/prepare-base.sh"
mapfile -t patches < <(series_patches)
[ ${#patches[@]} -gt 0 ] || { note "build-each: the series is empty"; exit 0; }

tree=$BUILD/linux-each
obj=$OBJ_ROOT/each
if [ ! -e "$tree/.git" ]; then
	kgit worktree prune
	kgit worktree add -q --detach "$tree" base
fi
git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" checkout -q -f --detach base
mkdir -p "$obj"
kmake() { make -s -C "$tree" O="$obj" CC="$KCC" -j"$JOBS" LOCALVERSION=-each "$@"; }
kmake tinyconfig >/dev/null
"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$KT/configs/vm.config" >/dev/null
kmake olddefconfig >/dev/null

n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	git -C "$tree" -c user.name="memtide build" -c user.email=build@memtide.invalid \
		am -q --keep-cr "$KT/patches/$p" || die "patch $n ($p) does not apply"
	# a source tree already built here (same patches, same config) need not be built again
	tree_id=$(git -C "$tree" rev-parse 'HEAD^{tree}'):$(sha256sum <"$obj/.config" | cut -c1-16)
	if grep -qx "$tree_id" "$obj/.built-trees" 2>/dev/null; then
		note "build-each $n/${#patches[@]}: $p (this tree was built before)"
		continue
	fi
	note "build-each $n/${#patches[@]}: $p"
	kmake bzImage || die "the kernel does not build with patches 1..$n (last: $p)"
	echo "$tree_id" >>"$obj/.built-trees"
done
note "build-each: all ${#patches[@]} patch(es) build on their own"
