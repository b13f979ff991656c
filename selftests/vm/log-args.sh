# shellcheck shell=bash
# log-args.sh, sourced by summarize.sh and durations.sh: their LOG|LABEL=LOG arguments.
# log_args PROGRAM ARG...: fills the array awk_args with awk's operands, "label=LABEL" (empty
# for a plain LOG) before each log, so that awk knows whose log it reads; a log that cannot
# be read ends PROGRAM with one line and exit status 2.
log_args() {
	local program=$1 a f
	shift
	awk_args=()
	for a in "$@"; do
		case $a in
		*=*) f=${a#*=}; awk_args+=("label=${a%%=*}") ;;
		*) f=$a; awk_args+=("label=") ;;
		esac
		[ -r "$f" ] || { echo "$program: cannot read $f" >&2; exit 2; }
		awk_args+=("$f")
	done
}
