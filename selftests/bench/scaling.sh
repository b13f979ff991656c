#!/usr/bin/env bash
# scaling.sh OUT_DIR: how the hibernate scenario's cost grows with the guest's size, from
# the results of hibernate (1 GiB), hibernate-2g and hibernate-4g under OUT_DIR (markdown on
# stdout; nothing when no size has results, a heading and a note when one has). For each
# variant and size: the median full-speed time, what it moved, and seconds per GiB moved: a
# cost that grows linearly with the bytes keeps that last figure flat.
# Only the runs of the newest `make bench` invocation (bench_id=, its start) are compared:
# sizes measured in different invocations differ by the machine's drift as well (a 1 GiB
# rerun beside 2 and 4 GiB results of another day read -8.8 s/GiB). Sizes left out are named.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
out=$1
bench_id() { awk '{ id = 0; for (i = 3; i <= NF; i++) if ($i ~ /^bench_id=/) id = substr($i, 10); print id }' "$@"; }
all=()
for s in "1:hibernate" "2:hibernate-2g" "4:hibernate-4g"; do
	[ -s "$out/${s#*:}/results" ] && all+=("$s")
done
# no size measured here: assemble.sh keeps the section of the last run that had some
[ ${#all[@]} -ge 1 ] || exit 0
newest=$(for s in "${all[@]}"; do bench_id "$out/${s#*:}/results"; done | sort -n | tail -n 1)
sizes=() files=() apart=()
for s in "${all[@]}"; do
	f=$out/${s#*:}/results
	if bench_id "$f" | grep -qxF "$newest"; then
		sizes+=("${s%%:*}") files+=("$f")
	else
		apart+=("${s%%:*} GiB")
	fi
done
# the invocations differ: say what was left out, and how to measure it side by side
note() {
	[ ${#apart[@]} -gt 0 ] || return 0
	printf 'Not compared: %s, measured in another `make bench` invocation than the newest' \
		"$(echo "${apart[*]}" | sed 's/ GiB /, /g')"
	printf ' (run `make bench SCENARIO="hibernate hibernate-2g hibernate-4g"` to measure them together).\n\n'
}
# one size alone (a rerun of the 1 GiB scenario, say): an older table would compare it with
# nothing of its own invocation, so there is none, and the heading says why
if [ ${#sizes[@]} -lt 2 ]; then
	printf '## hibernate at %s GiB: cost against size\n\n' "${sizes[0]}"
	note
	printf 'No table: the cost against size needs two sizes or more measured in one invocation'
	# (the command, unless note() named it already)
	[ ${#apart[@]} -gt 0 ] || printf ' (`make bench SCENARIO="hibernate hibernate-2g hibernate-4g"`)'
	printf '.\n'
	exit 0
fi

printf '## hibernate at %s GiB: cost against size\n\n' "$(echo "${sizes[*]}" | sed 's/ /, /g')"
note
printf 'Full speed after resume (median s), what it moved (MiB) and seconds per GiB moved, per guest size.\n'
printf 'The marginal cost is the time each further GiB moved added from one size to the next (where at\n'
printf 'least 256 MiB more moved); the cost grows linearly with the bytes when the marginal costs agree\n'
printf 'within 1.2x (with three sizes).\n\n'
printf '| variant |%s marginal s/GiB | linear |\n' "$(for s in "${sizes[@]}"; do printf ' %s GiB: s, MiB, s/GiB |' "$s"; done)"
printf '|---|%s---|---|\n' "$(for s in "${sizes[@]}"; do printf -- '---|'; done)"
awk -v nsizes="${#sizes[@]}" -v newest="$newest" "$(cat "$(dirname "$0")/stats.awk")"'
FNR == 1 { size++ }
{
	id = 0
	for (i = 3; i <= NF; i++) if ($i ~ /^bench_id=/) id = substr($i, 10)
	if (id != newest) next
	if (!($1 in seen)) { seen[$1] = 1; order[++nv] = $1 }
	# a failed run is not measured (stats.awk): its variant keeps its row
	if (run_failed()) next
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "elapsed_us") t[$1, size] = t[$1, size] " " kv[2] / 1e6
		if (kv[1] == "moved") m[$1, size] = m[$1, size] " " kv[2]
	}
}
END {
	for (v = 1; v <= nv; v++) {
		row = "| " order[v]
		marg = ""; lo = hi = nm = 0; havep = 0
		for (s = 1; s <= nsizes; s++) {
			if (t[order[v], s] == "" || m[order[v], s] == "") { row = row " | -"; havep = 0; continue }
			tt = median(t[order[v], s]); mm = median(m[order[v], s])
			row = row sprintf(" | %.1f, %.0f, %s", tt, mm / 1048576, mm > 0 ? sprintf("%.1f", tt / (mm / 1073741824)) : "-")
			# the marginal cost from the size before, if both were measured and at least
			# 256 MiB more moved: the floor variant moves a few MiB more per size, and its
			# seconds over those are noise, not a cost per byte (2026-12-03: 145 s/GiB over 7 MiB)
			if (havep && mm - pm >= 268435456) {
				c = (tt - pt) / ((mm - pm) / 1073741824)
				marg = marg (marg == "" ? "" : ", ") sprintf("%.1f", c)
				if (!nm || c < lo) lo = c
				if (!nm || c > hi) hi = c
				nm++
			}
			pt = tt; pm = mm; havep = 1
		}
		lin = nm < 2 ? "-" : (lo > 0 && hi / lo <= 1.2 ? "yes" : "**no**")
		print row " | " (marg == "" ? "-" : marg) " | " lin " |"
	}
}' "${files[@]}"
# which runs the table compares (results older than bench_id have none to name)
[ "$newest" -gt 0 ] &&
	printf '\nCompared: the runs of one `make bench` invocation, started %s (the machine its size sections name).\n' \
		"$(date -u -d "@$newest" '+%Y-%m-%d %H:%M UTC')"
exit 0
