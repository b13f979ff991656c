#!/usr/bin/env bash
# Compile mm/ and kernel/cgroup/ of the memtide tree with Debian's full amd64 config, so code
# that only builds with the small test config (a missing #ifdef, an unused variable under
# CONFIG_X=n, a NUMA-only path) is caught without building a whole distribution kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$KT/tools/prepare-base.sh"
"$KT/tools/apply-series.sh"

obj=$OBJ_ROOT/distro
# Objects only: no module signing keys or BTF are needed for that.
kmake() { make -s -C "$SRC" O="$obj" CC="$KCC" -j"$JOBS" KCFLAGS=-Werror "$@"; }
distro_config "$obj"
note "compiling mm/ and kernel/cgroup/ with Debian's config"
kmake mm/ kernel/cgroup/
