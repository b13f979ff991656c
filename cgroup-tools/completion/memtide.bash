# bash completion for memtide(1)
_memtide_targets()
{
	local root=/sys/fs/cgroup
	# cgroup paths below the mount, and loaded units when systemd answers
	compgen -d -- "$root/${cur#/}" 2>/dev/null | sed "s|^$root||"
	command -v systemctl >/dev/null &&
		systemctl list-units --no-legend --plain --type=slice,service,scope 2>/dev/null |
		awk '{ print $1 }' | grep -- "^$cur"
}

_memtide()
{
	local cur prev words cword
	_init_completion || return
	local commands="reclaim release status features hibernate resume idle criu-action"
	local common="--json --quiet --help --version"

	if [[ $cword -eq 1 ]]; then
		COMPREPLY=($(compgen -W "$commands $common" -- "$cur"))
		return
	fi
	case $prev in
	--swappiness | -s) COMPREPLY=($(compgen -W "0 60 100 200 max" -- "$cur")); return ;;
	--timeout | -t) COMPREPLY=($(compgen -W "10s 30s 1m 5m" -- "$cur")); return ;;
	--depth | -d) COMPREPLY=($(compgen -W "0 1 2 3" -- "$cur")); return ;;
	--interval | -i) COMPREPLY=($(compgen -W "5s 10s 30s 1m" -- "$cur")); return ;;
	--count | -c) return ;;
	esac
	local opts=$common
	case ${words[1]} in
	reclaim) opts+=" --swappiness --timeout --dry-run --force" ;;
	release) opts+=" --timeout --dry-run" ;;
	status) opts+=" --depth" ;;
	features | criu-action) COMPREPLY=($(compgen -W "$common" -- "$cur")); return ;;
	resume) COMPREPLY=($(compgen -W "$common --timeout" -- "$cur")); return ;;
	hibernate) COMPREPLY=($(compgen -W "$common --prepare-only --dry-run --timeout" -- "$cur")); return ;;
	idle) COMPREPLY=($(compgen -W "$common --interval --count" -- "$cur")); return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
	else
		COMPREPLY=($(_memtide_targets) $(compgen -W "pid: max" -- "$cur"))
	fi
}
complete -F _memtide memtide
