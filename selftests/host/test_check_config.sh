#!/usr/bin/env bash
# kernel-tree/tools/check-config.sh must name every fragment option the final .config lost.
. "$(dirname "$0")/lib.sh"
cc=$ROOT/kernel-tree/tools/check-config.sh
plan 5

cat >"$TMP/frag" <<'F'
# comment
CONFIG_BLOCK=y
CONFIG_SWAP=y
# CONFIG_SLUB_TINY is not set
CONFIG_LOCALVERSION="-memtide"
F
printf 'CONFIG_BLOCK=y\nCONFIG_SWAP=y\n# CONFIG_SLUB_TINY is not set\nCONFIG_LOCALVERSION="-memtide"\nCONFIG_X=y\n' >"$TMP/good"
check "a .config with every option passes" "$cc" "$TMP/frag" "$TMP/good"

printf 'CONFIG_BLOCK=y\n# CONFIG_SWAP is not set\nCONFIG_LOCALVERSION="-memtide"\n' >"$TMP/lost"
"$cc" "$TMP/frag" "$TMP/lost" 2>"$TMP/err"
st=$?
check "a lost option fails" [ $st -eq 1 ]
check "the lost option is named" grep -q "asks for 'CONFIG_SWAP=y' but the final .config has '# CONFIG_SWAP is not set'" "$TMP/err"
check "an option missing from .config counts as not set (SLUB_TINY absent is fine)" \
	[ "$(wc -l <"$TMP/err")" -eq 1 ]

printf 'CONFIG_BLOCK=y\nCONFIG_SWAP=y\nCONFIG_SLUB_TINY=y\nCONFIG_LOCALVERSION="-memtide"\n' >"$TMP/tiny"
check "an option that should be off but is on fails" bash -c "! '$cc' '$TMP/frag' '$TMP/tiny' 2>/dev/null"
done_testing
