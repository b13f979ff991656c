#!/usr/bin/env bash
# kernel-deb.sh: linux-image and linux-headers packages of the memtide kernel for real
# machines: the pinned Debian base plus kernel-tree/series, built with Debian's own amd64
# config (linux-config-6.12) by the kernel's `make bindeb-pkg`. The packages go to
# build/kernel-deb/; install them with `apt install ./linux-image-*.deb` and boot the
# "-memtide" entry. Debug info is left out (no -dbg package: it would take hours more and
# gigabytes); modules are signed with a key made for the build, as any self-built kernel.
# A full build takes hours on 2 cores, so `make check` never runs it.
# `kernel-deb.sh --config-only` stops after writing the config (build/obj/deb/.config).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$KT/tools/prepare-base.sh"
"$KT/tools/apply-series.sh"
obj=$OBJ_ROOT/deb
out=$BUILD/kernel-deb
version=$(base_field version)
kmake() { make -s -C "$SRC" O="$obj" CC="$KCC" -j"$JOBS" "$@"; }
distro_config "$obj"
"$SRC/scripts/config" --file "$obj/.config" --set-str LOCALVERSION "-memtide" \
	--disable DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT --disable DEBUG_INFO_DWARF4 \
	--disable DEBUG_INFO_DWARF5 --enable DEBUG_INFO_NONE
kmake olddefconfig >/dev/null
grep -q '^CONFIG_MEMCG=y' "$obj/.config" && grep -q '^CONFIG_SWAP=y' "$obj/.config" ||
	die "Debian's config lost MEMCG or SWAP"
[ "${1:-}" = --config-only ] && { note "config written: $obj/.config"; exit 0; }

note "building linux-image and linux-headers (Debian $version + memtide series); this takes hours"
# bindeb-pkg writes the packages next to the object directory
rm -f "$OBJ_ROOT"/linux-*.deb
kmake bindeb-pkg KDEB_PKGVERSION="${version%%-*}-memtide1"
mkdir -p "$out"
mv "$OBJ_ROOT"/linux-*.deb "$out/"
rm -f "$OBJ_ROOT"/linux-*.buildinfo "$OBJ_ROOT"/linux-*.changes
ls "$out"/*.deb
