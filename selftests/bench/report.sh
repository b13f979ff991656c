#!/usr/bin/env bash
# report.sh SCENARIO_FILE RESULTS: one scenario's section of docs/benchmarks.md (markdown).
# RESULTS has one line per run: "VARIANT RUN KEY=VALUE ...", with at least elapsed_us (the
# timed operation) and swapped (bytes it moved; the physical limit is swapped / DISK_BPS),
# or moved where the timed step moves other than what was swapped; fixed_us, where given, is
# the part of the step no disk speed shortens (a boot, measured on its own), added to the limit;
# rb_* keys are the kernel's own read-back of the operation, where it has one; write_ios and
# write_bytes (or read_ios and read_bytes) give the average disk request.
# A failed run (stats.awk's run_failed: an rc= other than 0, none, or bench.sh's rc=no-result
# for a run that hung or gave no result) is left out of every figure and counted in the main
# table's last column; a variant whose runs all failed keeps its row, with that count alone.
# The first variant of the scenario is the baseline of the "vs baseline" column. Its A/A pair
# is the variant named after it with "-again" (the same kernel and settings once more, where
# the scenario has one). The noise floor, below which a ratio reads "no difference", is the
# larger of the baseline's own spread ((max - min) / median) and the A/A pair's gap
# (stats.awk's noise_floor()); the A/A row's own ratio is that gap, marked "A/A", not a verdict.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 SCENARIO_FILE RESULTS" >&2; exit 2; }
# shellcheck source=scenarios/reclaim.sh
. "$1"
results=$2
order=$(for v in "${VARIANTS[@]}"; do set -- $v; printf '%s ' "$1"; done)
# the A/A pair of the baseline (the first variant), if the scenario runs one
aa=$(for v in "${VARIANTS[@]}"; do set -- $v; printf '%s\n' "$1"; done | grep -x -- "${order%% *}-again" || true)
name=$(basename "$1" .sh)

cat <<EOF
## $name: $TITLE

$(sed -n '/^#/!q; /^# shellcheck /d; s/^# \{0,1\}//p' "$1")

Disk model: $([ "$DISK_BPS" -gt 0 ] && echo "$((DISK_BPS / 1000000)) MB/s" || echo "uncapped (no physical limit)")$([ "${DISK_IOPS:-0}" -gt 0 ] && echo ", $DISK_IOPS requests/s") (QEMU throttling)$([ "${DISK_LATENCY_MS:-0}" -gt 0 ] && echo ", ${DISK_LATENCY_MS} ms added to each request (nbdkit delay filter)"), guest $VM_MEM, ${VM_SMP:-2} vCPU,$([ "${MGLRU:-}" = 0 ] && echo " MGLRU off (classic LRU),") $(wc -l <"$results") runs.
Raw results: docs/bench-data/$name/ (results, machine, series); per-run consoles in build/bench/$name/.

| variant | time s, median (min-max) | moved MiB | MB/s | limit s | time / limit | vs baseline | disk req KiB | read-back µs (% of time) | runs with rc != 0 |
|---|---|---|---|---|---|---|---|---|---|
EOF

# median, min and max of a space-separated list (stats.awk), for the awk programs below
stats=$(cat "$(dirname "$0")/stats.awk")
awk -v order="$order" -v aa="$aa" -v bps="$DISK_BPS" "$stats"'
run_failed() { errs[$1]++; next }
{
	v = $1
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		vals[v, kv[1]] = vals[v, kv[1]] " " kv[2]
	}
}
END {
	n = split(order, names, " ")
	base = median(vals[names[1], "elapsed_us"])
	noise = noise_floor(vals[names[1], "elapsed_us"], aa == "" ? "" : vals[aa, "elapsed_us"])
	for (k = 1; k <= n; k++) {
		v = names[k]
		if (vals[v, "elapsed_us"] == "") {
			# no run measured: shown only if some failed, so that a hang is not a gap
			if (errs[v]) printf "| %s | - | - | - | - | - | - | - | - | %d |\n", v, errs[v]
			continue
		}
		t = median(vals[v, "elapsed_us"]) / 1e6
		# "moved": what the timed step itself moved, where a scenario says (else swapped)
		moved = median(vals[v, vals[v, "moved"] != "" ? "moved" : "swapped"])
		# no byte cap, no disk limit to compare with
		# (nor when the step moves next to nothing: the limit is then not the disk)
		limit = bps > 0 && moved >= 1048576 ? moved / bps : 0
		if (limit && vals[v, "fixed_us"] != "") limit += median(vals[v, "fixed_us"]) / 1e6
		rel = base ? t * 1e6 / base : 0
		if (k == 1) vs = "baseline (noise " sprintf("%.0f%%", noise * 100) ")"
		else if (!base) vs = "- (no baseline run)"
		else if (v == aa) vs = sprintf("%.2fx, A/A", rel)
		else if (rel - 1 < noise && 1 - rel < noise) vs = sprintf("%.2fx, no difference", rel)
		else vs = sprintf("%.2fx", rel)
		# the average request of the direction the scenario moves data in
		dir = vals[v, "write_ios"] != "" ? "write" : "read"
		# (a scenario that does not count requests shows none)
		wreq = median(vals[v, dir "_ios"]) > 0 ? sprintf("%.0f", median(vals[v, dir "_bytes"]) / median(vals[v, dir "_ios"]) / 1024) : "-"
		rb = vals[v, "readback_us"] == "" ? "-" : sprintf("%d (%.4f%%)", median(vals[v, "readback_us"]), median(vals[v, "readback_us"]) / (t * 1e6) * 100)
		printf "| %s | %.2f (%.2f-%.2f) | %.0f | %.1f | %s | %s | %s | %s | %s | %d |\n", \
			v, t, minof(vals[v, "elapsed_us"]) / 1e6, maxof(vals[v, "elapsed_us"]) / 1e6, \
			moved / 1048576, moved / t / 1e6, limit ? sprintf("%.2f", limit) : "-", \
			limit ? sprintf("%.2f", t / limit) : "-", vs, wreq, rb, errs[v] + 0
	}
}' "$results"

# Further figures a scenario names in EXTRA ("key:heading"; keys ending in _us are shown in
# seconds, or in milliseconds where the heading ends in " ms", in _bytes in MiB, in _pages,
# _kib, _ios and _loops as they are): one more table, a column each,
# every cell "median (min-max)" and its ratio to the baseline variant's median ("no
# difference" within that figure's noise floor, as above).
extra_table() {
keys= heads= ms_keys=
for extra in "${EXTRA[@]}"; do
	keys="$keys ${extra%%:*}"
	heads="$heads | ${extra#*:}"
	[[ $extra != *" ms" ]] || ms_keys="$ms_keys ${extra%%:*}"
done
printf '\n| variant%s |\n|---%s|\n' "$heads" "$(printf '|---%.0s' "${EXTRA[@]}")"
awk -v order="$order" -v aa="$aa" -v keys="$keys" -v ms_keys="$ms_keys " "$stats"'
function show(x, key) {
	if (index(ms_keys, " " key " "))
		return sprintf("%.1f", x / 1e3)
	if (key ~ /_pages$|_kib$|_ios$|_loops$/)
		return sprintf("%.0f", x)
	return key ~ /_bytes$/ ? sprintf("%.0f", x / 1048576) : sprintf("%.2f", x / 1e6)
}
run_failed() { next }
{
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		vals[$1, kv[1]] = vals[$1, kv[1]] " " kv[2]
	}
}
END {
	n = split(order, names, " ")
	nk = split(keys, k, " ")
	for (v = 1; v <= n; v++) {
		row = "| " names[v]
		for (j = 1; j <= nk; j++) {
			l = vals[names[v], k[j]]
			if (l == "") { row = row " | -"; continue }
			m = median(l)
			b = vals[names[1], k[j]]
			base = median(b)
			rel = ""
			# no ratio to a time of next to nothing (a 10 ms "prep" of vanilla made the
			# 8.9 s of memtide read "887x"): under 50 ms the baseline did not do the step
			if (v > 1 && base > 0 && !(k[j] ~ /_us$/ && base < 50000)) {
				# within the noise floor: no difference; the gap to the A/A pair counts
				noise = noise_floor(b, aa == "" ? "" : vals[aa, k[j]])
				if (names[v] == aa)
					rel = sprintf(", %.2fx (A/A)", m / base)
				else
					rel = sprintf(", %.2fx%s", m / base, m / base - 1 < noise && 1 - m / base < noise ? " (no difference)" : "")
			}
			row = row sprintf(" | %s (%s-%s)%s", show(m, k[j]), show(minof(l), k[j]), show(maxof(l), k[j]), rel)
		}
		print row " |"
	}
}' "$results"
}
[ -n "${EXTRA+set}" ] && [ ${#EXTRA[@]} -gt 0 ] && extra_table

# The physical limit of each step a scenario names in LIMITS, each "KEY SPEC|heading" (SPEC
# as a TARGETS limit: bytes keys over DISK_BPS plus _us keys, a term KEY,KEY the key
# stats.awk's first_key chooses), for every variant: one more table, a cell
# "time / limit (ratio)" per step, from each variant's own medians. A step
# that moved under 1 MiB and names no time of its own has no disk limit ("-"), as in the
# main table.
limits_table() {
	if [ "$DISK_BPS" -eq 0 ]; then
		printf '\nNo limits per step: the disk is uncapped.\n'
		return
	fi
	printf '\nEach step against its physical limit (bytes / bandwidth, plus the boot where it is in\n'
	printf 'the step; medians of each variant'"'"'s own runs):\n\n'
	printf '%s\n' "${LIMITS[@]}" | awk -v order="$order" -v bps="$DISK_BPS" "$stats"'
	FNR == NR && run_failed() { next }
	FNR == NR {
		for (i = 3; i <= NF; i++) {
			split($i, kv, "=")
			vals[$1, kv[1]] = vals[$1, kv[1]] " " kv[2]
		}
		next
	}
	{
		n++
		split(substr($0, 1, index($0, "|") - 1), f, " ")
		key[n] = f[1]; spec[n] = f[2]
		head = head " | " substr($0, index($0, "|") + 1) " s / limit s"
		rule = rule "|---"
	}
	END {
		printf "| variant%s |\n|---%s|\n", head, rule
		nv = split(order, names, " ")
		for (v = 1; v <= nv; v++) {
			row = "| " names[v]
			for (j = 1; j <= n; j++) {
				if (vals[names[v], key[j]] == "") { row = row " | -"; continue }
				t = median(vals[names[v], key[j]]) / 1e6
				lim = limit_of(vals, names[v], spec[j], bps)
				bytes = lim * bps
				if (spec[j] !~ /_us/ && bytes < 1048576) { row = row sprintf(" | %.2f / -", t); continue }
				row = row sprintf(" | %.2f / %.2f (%.2fx)", t, lim, t / lim)
			}
			print row " |"
		}
	}' "$results" -
}
[ -n "${LIMITS+set}" ] && [ ${#LIMITS[@]} -gt 0 ] && limits_table

# The targets a scenario names in TARGETS, each "KEY VARIANT MAX REFERENCE|what it says":
# the median of KEY (a time, _us) for VARIANT divided by the same median for the REFERENCE
# variant, or, with REFERENCE "limit:TERM[+TERM...]" (a TERM is KEY or KEY,KEY...), by the
# physical limit: bytes keys over DISK_BPS plus _us keys (a boot), as in LIMITS; met when the
# ratio is at most MAX. A variant without results reads "not measured": a missed target is
# printed as missed, never left out.
[ -n "${TARGETS+set}" ] && [ ${#TARGETS[@]} -gt 0 ] || exit 0
printf '\nTargets (ratios of medians):\n\n| target | measured s | against s | ratio (at most) | verdict |\n|---|---|---|---|---|\n'
printf '%s\n' "${TARGETS[@]}" | awk -v bps="$DISK_BPS" "$stats"'
FNR == NR && run_failed() { next }
FNR == NR {
	for (i = 3; i <= NF; i++) {
		split($i, kv, "=")
		vals[$1, kv[1]] = vals[$1, kv[1]] " " kv[2]
	}
	next
}
{
	what = substr($0, index($0, "|") + 1)
	split(substr($0, 1, index($0, "|") - 1), f, " ")
	key = f[1]; v = f[2]; most = f[3]; ref = f[4]
	if (vals[v, key] == "") { printf "| %s | - | - | - (%s) | not measured |\n", what, most; next }
	t = median(vals[v, key]) / 1e6
	if (ref ~ /^limit:/ && bps == 0) { printf "| %s | %.2f | - | - (%s) | no limit: the disk is uncapped |\n", what, t, most; next }
	if (ref ~ /^limit:/) {
		against = limit_of(vals, v, substr(ref, 7), bps); refname = "limit"
	} else {
		if (vals[ref, key] == "") { printf "| %s | %.2f | - | - (%s) | not measured |\n", what, t, most; next }
		against = median(vals[ref, key]) / 1e6; refname = ref
	}
	r = t / against
	printf "| %s | %.2f | %.2f (%s) | %.3f (%s) | %s |\n", what, t, against, refname, r, most, \
		r <= most ? "met" : "**missed**"
}' "$results" -
