# Shared paths and helpers for the kernel build scripts; sourced, not run.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KT=${KT:-$ROOT/kernel-tree}   # overridable so host tests can use a scratch queue
BUILD=${BUILD:-$ROOT/build}
SRC=$BUILD/linux                 # the edit tree: git repo, base tag + series as commits
VANILLA_SRC=$BUILD/linux-vanilla # git worktree of SRC checked out at the base tag
OBJ_ROOT=$BUILD/obj              # out-of-tree objects, one directory per kernel flavour
JOBS=${JOBS:-$(($(nproc) + 1))}
# ccache keys on paths; relative to the checkout, two clones share hits.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$ROOT}
KCC=gcc
command -v ccache >/dev/null && KCC="ccache gcc"

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
note() { echo "==> $*" >&2; }

# base_field NAME: one key of kernel-tree/BASE
base_field() { sed -n "s/^$1=//p" "$KT/BASE"; }

# series_patches: the patch file names of kernel-tree/series, in order
series_patches() { sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$KT/series"; }

# series_hash: one hash over the series and every patch it names (what the edit tree was made from)
series_hash() {
	{ cat "$KT/series"; series_patches | while read -r p; do cat "$KT/patches/$p" 2>/dev/null; done; } |
		sha256sum | cut -d' ' -f1
}

kgit() { git -C "$SRC" -c user.name="memtide build" -c user.email=build@memtide.invalid "$@"; }

# Debian's own amd64 config (package linux-config-6.12)
DISTRO_CONFIG=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz

# distro_config OBJDIR: Debian's config in OBJDIR/.config, without what only Debian's build
# has (its signing certificates) and without BTF; redone when the distro config is newer.
# Uses the caller's kmake.
distro_config() {
	[ -f "$DISTRO_CONFIG" ] || die "no $DISTRO_CONFIG (apt-get install linux-config-6.12)"
	mkdir -p "$1"
	if [ ! -f "$1/.config" ] || [ "$DISTRO_CONFIG" -nt "$1/.config" ]; then
		xzcat "$DISTRO_CONFIG" >"$1/.config"
		"$SRC/scripts/config" --file "$1/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --disable DEBUG_INFO_BTF
		kmake olddefconfig >/dev/null
	fi
}
