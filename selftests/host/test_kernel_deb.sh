#!/usr/bin/env bash
# make kernel-deb's configuration step (the build itself takes hours and is not run here):
# Debian's config, named -memtide, without Debian's certificates or debug info.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 3
cfg=$ROOT/build/obj/deb/.config
if ! "$ROOT/kernel-tree/tools/kernel-deb.sh" --config-only >"$TMP/log" 2>&1; then
	fail "kernel-deb.sh --config-only writes the config" "$(tail -n 5 "$TMP/log")"
	done_testing
fi
ok "kernel-deb.sh --config-only writes the config"
check "it is Debian's (MEMCG, SWAP, HIBERNATION, modules) named -memtide" \
	bash -c "grep -qx 'CONFIG_LOCALVERSION=\"-memtide\"' '$cfg' && grep -qx CONFIG_MEMCG=y '$cfg' &&
		grep -qx CONFIG_HIBERNATION=y '$cfg' && grep -qx CONFIG_MODULES=y '$cfg'"
check "without Debian's certificates or debug info" \
	bash -c "grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS=\"\"' '$cfg' && grep -qx CONFIG_DEBUG_INFO_NONE=y '$cfg'"
done_testing
