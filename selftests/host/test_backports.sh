#!/usr/bin/env bash
# The queue's backports are backports (issue 35 item 2): a patch that takes a mainline commit
# says so with "commit <40 hex digits> upstream." as the first line of its message, keeps the
# original author in From: (not the queue's maintainers) with the author's Signed-off-by, and
# comes before the first patch of our own, under the series' backport banner. A message that
# calls itself a backport without that line, as the proactive-statistics and swappiness=max
# patches once did, fails. PATCHES (a directory) stands in for kernel-tree/patches.
. "$(dirname "$0")/lib.sh"
plan 4
patches=${PATCHES:-$ROOT/kernel-tree/patches}
series=${SERIES:-$ROOT/kernel-tree/series}
ours='Seed e8e2f6bd maintainers'

# the message of patch F: from the first blank line after the header to the "---"
message() { awk 'body && /^---$/ { exit } body { print } /^$/ && !body { body = 1 }' "$1"; }
# its From: name, header continuation lines joined
author() { awk '/^From: / { s = substr($0, 7); getline n; if (n ~ /^ /) s = s n; print s; exit }' "$1"; }

backports=() unmarked=() bad_author=() order_bad=()
for f in "$patches"/*.patch; do
	msg=$(message "$f")
	if head -n 1 <<<"$msg" | grep -qE '^commit [0-9a-f]{40} upstream\.$'; then
		backports+=("${f##*/}")
		a=$(author "$f")
		name=${a%% <*}
		case $a in *"$ours"*) bad_author+=("${f##*/}: From: $a") ;; esac
		grep -qF "Signed-off-by: $name <" <<<"$msg" || bad_author+=("${f##*/}: no Signed-off-by of $name")
	elif grep -qiE '(^|[^-])backport(ed)? of ' <<<"$msg"; then
		unmarked+=("${f##*/}")
	fi
done
check "the queue has backports (the check reads them)" [ ${#backports[@]} -ge 1 ]
if [ ${#unmarked[@]} -eq 0 ]; then ok "every patch that calls itself a backport names its upstream commit"
else fail "every patch that calls itself a backport names its upstream commit" "${unmarked[@]}"; fi
if [ ${#bad_author[@]} -eq 0 ]; then ok "backports keep their author and the author's Signed-off-by"
else fail "backports keep their author and the author's Signed-off-by" "${bad_author[@]}"; fi

# in the series, every backport comes before the first patch of ours
seen_ours=0
while read -r p; do
	case $p in '' | \#*) continue ;; esac
	is_backport=0
	for b in "${backports[@]}"; do [ "$b" = "$p" ] && is_backport=1; done
	if [ $is_backport = 1 ]; then
		[ $seen_ours = 0 ] || order_bad+=("$p comes after a patch of ours")
	else
		seen_ours=1
	fi
done <"$series"
if [ ${#order_bad[@]} -eq 0 ]; then ok "backports come first in the series"
else fail "backports come first in the series" "${order_bad[@]}"; fi
done_testing
