#!/usr/bin/env bash
# Compile mm/ and kernel/cgroup/ of the memtide tree with Debian's full amd64 config, so code
# that only builds with the small test config (a missing #ifdef, an unused variable under
# CONFIG_X=n, a NUMA-only path) is caught without building a whole distribution kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

distro_config=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
[ -f "$distro_config" ] || die "no $distro_config (apt-get install linux-config-6.12)"
"$KT/tools/prepare-base.sh"
"$KT/tools/apply-series.sh"

obj=$OBJ_ROOT/distro
mkdir -p "$obj"
# Objects only: no module signing keys or BTF are needed for that.
kmake() { make -s -C "$SRC" O="$obj" CC="$KCC" -j"$JOBS" KCFLAGS=-Werror "$@"; }
if [ ! -f "$obj/.config" ] || [ "$distro_config" -nt "$obj/.config" ]; then
	xzcat "$distro_config" >"$obj/.config"
	"$SRC/scripts/config" --file "$obj/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --disable DEBUG_INFO_BTF
	kmake olddefconfig >/dev/null
fi
note "compiling mm/ and kernel/cgroup/ with Debian's config"
kmake mm/ kernel/cgroup/
