#!/usr/bin/env bash
# build.sh memtide|vanilla[-perf|-debug] [make targets...]: configure and build one kernel
# flavour.
#   memtide  build/linux (base + series, plus any commits made with make kernel-edit)
#   vanilla  build/linux-vanilla, a worktree of the same repository at the base tag
#   *-perf   the same trees for benchmarks: configs/perf.config merged over vm.config
#   *-debug  the same trees for make check-debug: configs/debug.config (KASAN, KFENCE, ...)
# Objects go to build/obj/FLAVOUR; the config is tinyconfig + the fragments, redone only when
# a fragment changes, and checked option by option (later fragment lines win).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-memtide}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(bzImage)
frags=("$KT/configs/vm.config")
case "$flavour" in
*-perf) frags+=("$KT/configs/perf.config") ;;
*-debug) frags+=("$KT/configs/debug.config") ;;
esac

"$KT/tools/prepare-base.sh"
case "$flavour" in
memtide | memtide-perf | memtide-debug)
	"$KT/tools/apply-series.sh"
	src=$SRC
	;;
vanilla | vanilla-perf | vanilla-debug)
	if [ ! -e "$VANILLA_SRC/.git" ]; then
		kgit worktree prune
		kgit worktree add -q --detach "$VANILLA_SRC" base
	fi
	src=$VANILLA_SRC
	;;
*) die "unknown kernel flavour '$flavour' (memtide or vanilla, either with -perf or -debug)" ;;
esac

obj=$OBJ_ROOT/$flavour
mkdir -p "$obj"
# uname -r tells the flavours apart: 6.12.117-memtide, 6.12.117-vanilla
kmake() { make -s -C "$src" O="$obj" CC="$KCC" -j"$JOBS" LOCALVERSION="-$flavour" "$@"; }

stamp=$obj/.memtide-config
want=$(cat "${frags[@]}" "$src/kernel/configs/tiny.config" "$src/arch/x86/configs/tiny.config" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || [ ! -f "$obj/.config" ]; then
	note "configuring $flavour: tinyconfig + $(for f in "${frags[@]}"; do basename "$f"; done | paste -sd+)"
	rm -f "$stamp"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# what the fragments ask for together: the last line naming an option wins
	awk '/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o) }
	     /^# CONFIG_[A-Za-z0-9_]+ is not set/ { o = $2 }
	     o != "" { if (!(o in last)) order[++n] = o; last[o] = $0; o = "" }
	     END { for (i = 1; i <= n; i++) print last[order[i]] }' "${frags[@]}" >"$obj/.memtide-fragment"
	"$KT/tools/check-config.sh" "$obj/.memtide-fragment" "$obj/.config" ||
		die "the $flavour .config lost options of its fragments (above); add the missing dependency to the fragment"
	echo "$want" >"$stamp"
fi

note "building $flavour: ${targets[*]}"
kmake "${targets[@]}"
