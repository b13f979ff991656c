#!/usr/bin/env bash
# The zsh completion (cgroup-tools/completion/_memtide), driven as a user drives it: an
# interactive zsh on a pty (zsh/zpty) with compinit, a command line typed and TAB pressed.
# What the completion system was asked to offer is caught by a compadd wrapper (compadd -O
# gives the matches for the word under the cursor). The cgroups come from a fake tree
# ($MEMTIDE_CGROUP_ROOT); the units from a systemctl stand-in that lists sys.service, or
# with --user usr.service.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 14
if ! command -v zsh >/dev/null; then
	for _ in $(seq 14); do skip "zsh is not installed (apt-get install zsh)"; done
	done_testing
fi
mkdir -p "$TMP/cg/box.slice/inner.service" "$TMP/cg/web.slice" "$TMP/bin" "$TMP/home"
cat >"$TMP/bin/systemctl" <<'EOF'
#!/bin/sh
case " $* " in *" --user "*) echo "usr.service loaded active running User" ;;
*) echo "sys.service loaded active running System" ;; esac
EOF
chmod +x "$TMP/bin/systemctl"
cat >"$TMP/drive.zsh" <<'EOF'
# drive.zsh FUNCDIR OUT LINE: type LINE and TAB in an interactive zsh; the matches offered
# are appended to OUT, one a line
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PROMPT=; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z "compadd() { local -a __h; builtin compadd -O __h \"\$@\"; print -rl -- \$__h >>$2; builtin compadd \"\$@\"; }"
# the shell has done all the above once it prints this (the echo of the line has "READ""Y")
zpty -w z 'print READ""Y'
zpty -r z line '*READY[^"]*'
zpty -w -n z "$3"$'\t'
# until the shell has been quiet for half a second (at most 10 s)
local line quiet=0 n=0
while (( quiet < 5 && n < 100 )); do
	if zpty -r -t z line; then quiet=0; else (( quiet++ )); sleep 0.1; fi
	(( n++ ))
done
zpty -d z
EOF

# offers NAME WANT NOT LINE: completing LINE offers every word of WANT and none of NOT
offers() {
	local name=$1 want=$2 not=$3 line=$4 got w bad=""
	rm -f "$TMP/got"
	env HOME="$TMP/home" PATH="$TMP/bin:$PATH" MEMTIDE_CGROUP_ROOT="$TMP/cg" \
		timeout 30 zsh -f "$TMP/drive.zsh" "$ROOT/cgroup-tools/completion" "$TMP/got" "$line" \
		>/dev/null 2>&1
	got=$(cat "$TMP/got" 2>/dev/null)
	for w in $want; do grep -qxF -- "$w" <<<"$got" || bad+=" missing $w;"; done
	for w in $not; do grep -qxF -- "$w" <<<"$got" && bad+=" offers $w;"; done
	if [ -z "$bad" ]; then ok "$name"; else fail "$name" "$bad got: $(tr '\n' ' ' <<<"$got")"; fi
}

offers "the commands" "reclaim release status features hibernate resume idle criu-action help" \
	"/box.slice" "memtide "
offers "after a global option with a value, still the commands" "reclaim status" "30s" \
	"memtide --timeout 30s "
offers "reclaim: cgroups, pid: and max" "/box.slice /box.slice/inner.service /web.slice pid: max" \
	"reclaim" "memtide reclaim "
offers "reclaim: the system manager's units" "sys.service" "usr.service" "memtide reclaim "
offers "after --user, the user's units" "usr.service" "sys.service" "memtide --user release "
offers "reclaim's options, not status's" "--swappiness --timeout --dry-run --force --json" \
	"--output --interval" "memtide reclaim --"
offers "status: its table options" "--output --bytes --noheadings --depth --json" "--dry-run" \
	"memtide status --"
offers "--output: the column names" "CGROUP CURRENT SHMEM LAST" "/box.slice" \
	"memtide status --output "
offers "--output a,b: the names for the word after the comma" "SWAP SHMEM SCAN" "CGROUP CURRENT" \
	"memtide status --output CGROUP,S"
offers "-j takes no value: the targets after it, not pretty" "/box.slice pid:" "pretty" \
	"memtide status -j "
offers "--json=: pretty, in the same word" "pretty" "/box.slice" "memtide status --json="
offers "idle: no --json (an error there)" "--interval --count --quiet" "--json" "memtide idle --"
offers "hibernate: --json only with --dry-run" "--dry-run --prepare-only" "--json" \
	"memtide hibernate --"
offers "hibernate --dry-run: --json" "--json" "" "memtide hibernate --dry-run --"
done_testing
