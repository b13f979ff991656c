#!/usr/bin/env bash
# check-config.sh FRAGMENT DOTCONFIG: fail, naming each option, if any line of the config
# fragment did not survive into the final .config. Kconfig drops an option silently when a
# dependency is missing (SWAP, EXT4 and VIRTIO_BLK without BLOCK), so never trust a fragment.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 FRAGMENT DOTCONFIG" >&2; exit 2; }
frag=$1 dotconfig=$2
[ -r "$frag" ] || { echo "$0: cannot read $frag" >&2; exit 2; }
[ -r "$dotconfig" ] || { echo "$0: cannot read $dotconfig" >&2; exit 2; }

bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*) opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *} ;;
	*) continue ;;
	esac
	got=$(grep -E "^($opt=|# $opt is not set)" "$dotconfig" || true)
	# An option absent from .config (its menu invisible) counts as "not set".
	[ -n "$got" ] || got="# $opt is not set"
	if [ "$got" != "$line" ]; then
		echo "config: $frag asks for '$line' but the final .config has '$got'" >&2
		bad=1
	fi
done <"$frag"
exit $bad
