#!/usr/bin/env bash
# The bash completion (cgroup-tools/completion/memtide.bash), driven as bash drives it:
# COMP_WORDS split at COMP_WORDBREAKS (so "pid:4" is "pid" ":" "4"), COMP_CWORD, and
# _memtide called, with bash-completion's helpers loaded. The cgroups it offers come from a
# fake tree ($MEMTIDE_CGROUP_ROOT); the units from a systemctl stand-in that lists sys.service,
# or with --user usr.service.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
plan 19
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	for _ in $(seq 19); do skip "bash-completion is not installed ($bc)"; done
	done_testing
fi
mkdir -p "$TMP/cg/box.slice" "$TMP/cg/web.slice" "$TMP/bin"
cat >"$TMP/bin/systemctl" <<'EOF'
#!/bin/sh
case " $* " in *" --user "*) echo "usr.service loaded active running User" ;;
*) echo "sys.service loaded active running System" ;; esac
EOF
chmod +x "$TMP/bin/systemctl"

# complete WORD...: the candidates, one a line, for the command line "WORD..." with the
# cursor at the end of the last word ("" for a new word)
complete_words() {
	env PATH="$TMP/bin:$PATH" MEMTIDE_CGROUP_ROOT="$TMP/cg" bash -c '
		. "$1"; . "$2"; shift 2
		COMP_WORDBREAKS=$'"'"' \t\n"\x27><=;|&(:'"'"'
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE=$(printf "%s" "$@"); COMP_POINT=${#COMP_LINE}
		_memtide 2>/dev/null; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$bc" "$ROOT/cgroup-tools/completion/memtide.bash" "$@"
}
# offers NAME WANT NOT WORD...: the candidates include every word of WANT and none of NOT
offers() {
	local name=$1 want=$2 not=$3 got w bad=""
	shift 3
	got=$(complete_words "$@")
	for w in $want; do grep -qxF -- "$w" <<<"$got" || bad+=" missing $w;"; done
	for w in $not; do grep -qxF -- "$w" <<<"$got" && bad+=" offers $w;"; done
	if [ -z "$bad" ]; then ok "$name"; else fail "$name" "$bad got: $(tr '\n' ' ' <<<"$got")"; fi
}

offers "after a global option, the commands, not cgroups" "reclaim status" "/box.slice" \
	memtide --json ""
offers "the command after a global option counts: reclaim's options" "--swappiness --timeout" "" \
	memtide --timeout 30s reclaim --
offers "after the command, cgroups and pid:" "/box.slice /web.slice pid:" "reclaim" \
	memtide --quiet reclaim ""
offers "idle: no --json (an error there)" "--interval --count --quiet" "--json" memtide idle --
offers "resume: no --json" "--timeout --quiet" "--json" memtide resume --
offers "criu-action: no --json" "--quiet --help" "--json" memtide criu-action --
offers "hibernate: --json only with --dry-run" "--dry-run --prepare-only" "--json" \
	memtide hibernate --
offers "hibernate --dry-run: --json" "--json" "" memtide hibernate --dry-run --
# "pid:" is three words to bash; the candidates replace the word after the colon
offers "pid: offers process ids, not cgroups" "1" "/box.slice pid: max" \
	memtide reclaim pid : ""
offers "pid:1 completes to process ids beginning with 1" "1" "/box.slice max" \
	memtide release pid : 1
offers "help: the commands" "reclaim release idle criu-action" "help --json /box.slice" \
	memtide help ""
offers "help re: reclaim, release, resume" "reclaim release resume" "status" memtide help re
offers "help COMMAND: nothing after it" "" "reclaim release /box.slice" memtide help reclaim ""
offers "--user with the commands that name units" "--user" "" memtide status --
offers "--user before the command" "--user" "" memtide --
offers "after --user, the user's units, not the system's" "usr.service /box.slice" "sys.service" \
	memtide --user reclaim ""
offers "status: its table options" "--output --bytes --noheadings" "--dry-run" memtide status --
offers "--output: the column names" "CGROUP CURRENT SHMEM" "/box.slice" memtide status -o ""
offers "--output a,b: the next name, after what comes before" "CGROUP,SWAP CGROUP,SHMEM" \
	"SWAP CGROUP,CURRENT" memtide status --output CGROUP,S
done_testing
