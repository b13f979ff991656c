# bash completion for memtide(8)
# The cgroups below the mount ($MEMTIDE_CGROUP_ROOT, as for memtide, else /sys/fs/cgroup)
# and the loaded units, when systemd answers, that begin with $cur: the user's manager's
# after --user ($user set), as memtide asks it then.
_memtide_targets()
{
	local root=${MEMTIDE_CGROUP_ROOT:-/sys/fs/cgroup}
	compgen -d -- "$root/${cur#/}" 2>/dev/null | sed "s|^$root||"
	command -v systemctl >/dev/null &&
		systemctl ${user:+--user} list-units --no-legend --plain --type=slice,service,scope \
			2>/dev/null | awk '{ print $1 }' | grep -- "^$cur"
}

_memtide()
{
	local cur prev words cword
	# "pid:N" is one word here, not three (':' is in COMP_WORDBREAKS)
	_init_completion -n : || return
	local commands="reclaim release status features hibernate resume idle criu-action help"
	local common="--quiet --help --version" cmd="" dry_run="" user="" i

	# the command is the first word that is neither an option nor an option's value:
	# options may come before it (memtide --json status)
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--swappiness | -s | --timeout | -t | --depth | -d | --output | -o | --interval | -i | --count | -c) ((i++)) ;;
		--dry-run | -n) dry_run=1 ;;
		--user) user=1 ;;
		-*) ;;
		*) [[ $cmd ]] || cmd=${words[i]} ;;
		esac
	done
	case $prev in
	--swappiness | -s) COMPREPLY=($(compgen -W "0 60 100 200 max" -- "$cur")); return ;;
	--timeout | -t) COMPREPLY=($(compgen -W "10s 30s 1m 5m" -- "$cur")); return ;;
	--depth | -d) COMPREPLY=($(compgen -W "0 1 2 3" -- "$cur")); return ;;
	--output | -o)
		# a comma-separated list: complete its last name, keep what comes before
		local before=""
		[[ $cur == *,* ]] && before=${cur%,*},
		COMPREPLY=($(compgen -P "$before" -W "CGROUP CURRENT SWAP ANON FILE SHMEM PSI10 SCAN LAST" \
			-- "${cur##*,}"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--interval | -i) COMPREPLY=($(compgen -W "5s 10s 30s 1m" -- "$cur")); return ;;
	--count | -c) return ;;
	esac
	# --json is an error where a command prints lines only (memtide(8), --json)
	# memtide help COMMAND: one command, and nothing after it
	if [[ $cmd == help ]]; then
		local n=0
		for ((i = 1; i < cword; i++)); do [[ ${words[i]} == -* ]] || ((n++)); done
		((n == 1)) && COMPREPLY=($(compgen -W "${commands% help}" -- "$cur"))
		return
	fi
	local opts
	case $cmd in
	"") COMPREPLY=($(compgen -W "$commands --json --user $common" -- "$cur")); return ;;
	# --user: for the commands that name units
	reclaim) opts="--json $common --swappiness --timeout --dry-run --force --user" ;;
	release) opts="--json $common --timeout --dry-run --user" ;;
	status) opts="--json $common --depth --output --bytes --noheadings --user" ;;
	features) opts="--json $common" ;;
	criu-action) opts=$common ;;
	resume) opts="$common --timeout" ;;
	hibernate) opts="$common --prepare-only --dry-run --timeout${dry_run:+ --json}" ;;
	idle) opts="$common --interval --count" ;;
	*) return ;;
	esac
	if [[ $cur == -* || $cmd != @(reclaim|release|status) ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	elif [[ $cur == pid:* ]]; then
		local pids
		pids=$(cd /proc && compgen -G "[0-9]*")
		COMPREPLY=($(compgen -P pid: -W "$pids" -- "${cur#pid:}"))
	else
		COMPREPLY=($(_memtide_targets) $(compgen -W "pid: max" -- "$cur"))
		# "pid:" is completed as it is, for a number to follow
		[[ ${#COMPREPLY[@]} -eq 1 && $COMPREPLY == pid: ]] && compopt -o nospace
	fi
	__ltrim_colon_completions "$cur"
}
complete -F _memtide memtide
