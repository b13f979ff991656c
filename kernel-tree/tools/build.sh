#!/usr/bin/env bash
# build.sh memtide|vanilla [make targets...]: configure and build one kernel flavour.
#   memtide  build/linux (base + series, plus any commits made with make kernel-edit)
#   vanilla  build/linux-vanilla, a worktree of the same repository at the base tag
# Objects go to build/obj/FLAVOUR; the config is tinyconfig + kernel-tree/configs/vm.config,
# redone only when the fragment changes, and checked option by option.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-memtide}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(bzImage)
frag=$KT/configs/vm.config

"$KT/tools/prepare-base.sh"
case "$flavour" in
memtide)
	"$KT/tools/apply-series.sh"
	src=$SRC
	;;
vanilla)
	if [ ! -e "$VANILLA_SRC/.git" ]; then
		kgit worktree prune
		kgit worktree add -q --detach "$VANILLA_SRC" base
	fi
	src=$VANILLA_SRC
	;;
*) die "unknown kernel flavour '$flavour' (memtide or vanilla)" ;;
esac

obj=$OBJ_ROOT/$flavour
mkdir -p "$obj"
# uname -r tells the flavours apart: 6.12.117-memtide, 6.12.117-vanilla
kmake() { make -s -C "$src" O="$obj" CC="$KCC" -j"$JOBS" LOCALVERSION="-$flavour" "$@"; }

stamp=$obj/.memtide-config
want=$(cat "$frag" "$src/kernel/configs/tiny.config" "$src/arch/x86/configs/tiny.config" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$obj/.config" ]; then
	note "configuring $flavour: tinyconfig + $(basename "$frag")"
	rm -f "$stamp"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
	kmake olddefconfig >/dev/null
	"$KT/tools/check-config.sh" "$frag" "$obj/.config" ||
		die "the $flavour .config lost options of $(basename "$frag") (above); add the missing dependency to the fragment"
	echo "$want" >"$stamp"
fi

note "building $flavour: ${targets[*]}"
kmake "${targets[@]}"
