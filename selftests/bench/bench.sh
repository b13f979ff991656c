#!/usr/bin/env bash
# make bench [SCENARIO=name] [RUNS=3]: run benchmark scenarios in QEMU guests and write
# docs/benchmarks.md.
#
# A scenario is selftests/bench/scenarios/NAME.sh (settings and VARIANTS, see reclaim.sh) plus
# the guest script it names. Every variant of a scenario runs once per round, rounds repeat
# RUNS times (A B C A B C ...), each run in a fresh guest, so that all variants share the same
# host conditions. Raw results go to build/bench/NAME/results, one line per run; a run already
# there is not repeated, so an interrupted `make bench` resumes where it stopped (FRESH=1 starts
# over; REDERIVE=1 works the host's figures of the runs there out again from their consoles).
# A run whose guest gave no result (it hung until VM_TIMEOUT, failed to resume, crashed) is a
# failed run, not the end of the invocation: its line says rc=no-result, the runs after it go
# on, and its section counts it with the failed runs, out of every median. It stays recorded
# like any other run, so the next invocation does not make it again behind the table's back:
# FRESH=1 starts the scenario over, or deleting its line from the results makes that one run
# again. Only a run whose guest never started (bad settings, QEMU failed to start: every run
# would fail alike) stops the invocation, with nothing recorded.
# Each scenario's raw results (results, machine, series-*) are also kept in the
# repository, docs/bench-data/NAME/, and come back from there when build/bench has none (a
# clone, another machine): the document can then be written again, under the report's current
# rules, from the very runs it shows, without a guest. Benchmarks boot the -perf kernels (no
# debug checks). Each scenario's section of docs/benchmarks.md comes with a bar chart,
# docs/bench-NAME.png (gnuplot), and,
# where the scenario names them, its steps side by side (bench-NAME-steps.png) and curves of
# resident memory (bench-NAME-resident.png).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=$ROOT/selftests/bench
# BENCH_OUT, BENCH_SCENARIOS, BENCH_DOCS and BENCH_VM_RUN: for the tests
OUT=${BENCH_OUT:-$ROOT/build/bench}
SCENARIOS=${BENCH_SCENARIOS:-$BENCH/scenarios}
DOCS=${BENCH_DOCS:-$ROOT/docs}
ARCHIVE=$DOCS/bench-data
VM_RUN=${BENCH_VM_RUN:-$ROOT/selftests/vm/vm-run.sh}
RUNS=${RUNS:-3}
cd "$ROOT"

die() { echo "bench: $*" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS '$RUNS' must be a positive number"
FRESH=${FRESH:-0}
[[ $FRESH =~ ^[01]$ ]] || die "FRESH '$FRESH' must be 0 or 1"
REDERIVE=${REDERIVE:-0}
[[ $REDERIVE =~ ^[01]$ ]] || die "REDERIVE '$REDERIVE' must be 0 or 1"

if [ $# -gt 0 ] && [ -n "$1" ]; then
	scenarios=("$@")
else
	mapfile -t scenarios < <(find "$SCENARIOS" -name '*.sh' ! -name '*-guest.sh' \
		-printf '%f\n' | sed 's/\.sh$//' | sort)
fi
for s in "${scenarios[@]}"; do
	[ -f "$SCENARIOS/$s.sh" ] || die "no scenario '$s' (selftests/bench/scenarios/$s.sh)"
done

# pending NAME: the kernels of the runs build/bench/NAME/results lacks, one line per run
pending() {
	local results=$OUT/$1/results
	# shellcheck source=scenarios/reclaim.sh
	(. "$SCENARIOS/$1.sh" && for run in $(seq 1 "$RUNS"); do
		for v in "${VARIANTS[@]}"; do
			set -- $v
			grep -qs "^$1 $run " "$results" || echo "$2"
		done
	done)
}

# runs_machine NAME: the machine the scenario's runs so far ran on: build/bench/NAME/machine
# (its first run writes it), or for runs older than that file the machine their last
# report.md named; nothing if neither says
runs_machine() {
	if [ -f "$OUT/$1/machine" ]; then
		cat "$OUT/$1/machine"
	elif [ -f "$OUT/$1/report.md" ]; then
		"$BENCH/measured-line.sh" parse "$OUT/$1/report.md" | tail -n 1 | cut -d'|' -f2-
	fi
}
# same_machine A B: the same host for comparing figures: CPUs, CPU model and QEMU, not the
# memory total (free -g rounds it, and a balloon moves it)
same_machine() { [ "$(sed 's/, [0-9]* GiB,/,/' <<<"$1")" = "$(sed 's/, [0-9]* GiB,/,/' <<<"$2")" ]; }

# A variant's VM_ENV: vm-run settings bench.sh does not set itself, as KEY=VALUE words
# (split unquoted: nothing a shell would expand); checked before anything is moved or built
for name in "${scenarios[@]}"; do
	(
		# shellcheck disable=SC2030 # this check's own copy, in its subshell
		declare -A VM_ENV=()
		# shellcheck source=scenarios/reclaim.sh
		. "$SCENARIOS/$name.sh"
		for label in "${!VM_ENV[@]}"; do
			[[ ${VM_ENV[$label]} =~ ^(VM_PREALLOC=[01]( |$))+$ ]] ||
				die "$name: VM_ENV[$label] '${VM_ENV[$label]}' must be VM_PREALLOC=0|1 (the one vm-run setting a variant may add)"
		done
	) || exit 2
done

# raw_files DIR: the raw results of one scenario in DIR, what docs/bench-data keeps
raw_files() { find "$1" -maxdepth 1 -type f \( -name results -o -name machine -o -name 'series-*' \) | sort; }

# FRESH=1: the chosen scenarios start over; their old runs go to build/bench/NAME.old (the
# archive in docs/bench-data is replaced when the new runs are reported). Otherwise a scenario
# without runs in build/bench gets back those of the archive.
mkdir -p "$OUT"
for name in "${scenarios[@]}"; do
	if [ "$FRESH" = 1 ]; then
		if [ -e "$OUT/$name" ]; then
			rm -rf "$OUT/$name.old" && mv "$OUT/$name" "$OUT/$name.old"
			echo "==> bench $name: FRESH=1, earlier runs moved to build/bench/$name.old" >&2
		fi
		mkdir -p "$OUT/$name" && : >"$OUT/$name/results"
	elif [ ! -s "$OUT/$name/results" ] && [ -s "$ARCHIVE/$name/results" ]; then
		mkdir -p "$OUT/$name"
		# -p: measured.sh dates results that record no time by the file's last change
		raw_files "$ARCHIVE/$name" | xargs -r cp -p -t "$OUT/$name"
		echo "==> bench $name: $(wc -l <"$OUT/$name/results") runs restored from docs/bench-data/$name" >&2
	fi
done

# host_figures LABEL CONSOLE: what the scenario's host_result reads off the console of a run
# of variant LABEL, told the variant's kernel parameters and vm-run settings it checks
# (run_scenario's CMDLINE and VM_ENV); nothing for a scenario without host_result
host_figures() {
	declare -F host_result >/dev/null || return 0
	# shellcheck disable=SC2031 # CMDLINE and VM_ENV: run_scenario's locals, it calls this
	VARIANT_CMDLINE="${CMDLINE[$1]:-}" VARIANT_ENV="${VM_ENV[$1]:-}" host_result "$2"
}
# rederive DIR: REDERIVE=1: the figures the host reads off each run's console (the scenario's
# host_result) worked out again from build/bench/NAME/console-LABEL-RUN.log, so that a change
# to how they are read reaches the runs made before it without a guest. A run's line is the
# guest's figures, steal_pct=, the host's figures, bench_id= and at= (run_scenario): the
# host's part is replaced as a whole, so a key the guest shares (rc) keeps the guest's value
# and an rc host_result no longer prints goes. Called by run_scenario (host_figures reads its
# CMDLINE and VM_ENV); the consoles were checked before anything was built (rederive_refused).
rederive() {
	local dir=$1 label run rest tmp mtime
	declare -F host_result >/dev/null || return 0
	tmp=$(mktemp)
	while read -r label run rest; do
		# a run that gave no result has no figures to work out
		if [[ " $rest " == *" rc=no-result "* ]]; then
			echo "$label $run $rest" >>"$tmp"
			continue
		fi
		host_figures "$label" "$dir/console-$label-$run.log" |
			awk -v line="$label $run $rest" '
			{ host = $0 }
			END {
				n = split(line, w, " ")
				for (i = 1; i <= n && w[i] !~ /^steal_pct=/; i++) out = out (i > 1 ? " " : "") w[i]
				out = out " " w[i] (host == "" ? "" : " " host)
				for (; i <= n && w[i] !~ /^bench_id=/; i++) ;
				for (; i <= n; i++) out = out " " w[i]
				print out
			}' >>"$tmp"
	done <"$dir/results"
	# the same file, rewritten in place: its mode stays, and its date, which stands for
	# results older than at= (measured.sh)
	mtime=$(stat -c %Y "$dir/results")
	cat "$tmp" >"$dir/results" && rm -f "$tmp" && touch -d "@$mtime" "$dir/results"
	echo "==> bench $(basename "$dir"): $(wc -l <"$dir/results") runs' host figures worked out again from their consoles" >&2
}
# rederive_refused NAME: why REDERIVE=1 cannot rework scenario NAME's runs (nothing if it can,
# or if the scenario reads nothing off the console): a run without its console, or a line
# without steal_pct= (older than the host's figures it would separate from the guest's)
rederive_refused() {
	local dir=$OUT/$1 label run rest
	[ -s "$dir/results" ] || return 0
	# shellcheck source=scenarios/reclaim.sh
	(. "$SCENARIOS/$1.sh" && declare -F host_result >/dev/null) || return 0
	while read -r label run rest; do
		[[ " $rest " != *" rc=no-result "* ]] || continue # nothing to rework (rederive)
		[ -f "$dir/console-$label-$run.log" ] ||
			{ echo "$1: REDERIVE=1 needs the console of $label run $run ($dir/console-$label-$run.log)"; return; }
		[[ " $rest " == *" steal_pct="* ]] ||
			{ echo "$1: REDERIVE=1: $label run $run has no steal_pct= (a run older than that cannot be reworked)"; return; }
	done <"$dir/results"
}

# Checked before any build: runs are added only on the machine of the runs so far, and
# REDERIVE=1 has what it needs for every chosen scenario before it changes any.
machine=$("$BENCH/machine.sh")
declare -A todo=() # the kernels of each scenario's missing runs (pending), read once
for name in "${scenarios[@]}"; do
	if [ "$REDERIVE" = 1 ]; then
		why=$(rederive_refused "$name")
		[ -z "$why" ] || die "$why"
	fi
	todo[$name]=$(pending "$name")
	# The runs of one results file are compared side by side: more are added only on the
	# machine the runs so far ran on.
	if [ -s "$OUT/$name/results" ] && [ -n "${todo[$name]}" ]; then
		was=$(runs_machine "$name")
		[ -n "$was" ] || die "$name: its runs so far name no machine (write it into build/bench/$name/machine, or start over: make bench SCENARIO=$name FRESH=1)"
		same_machine "$was" "$machine" ||
			die "$name: its runs so far ran on $was, this is $machine (start over: make bench SCENARIO=$name FRESH=1)"
	fi
done

# The kernels and guest images the chosen scenarios' missing runs need, built once: a
# scenario whose runs are all there is only reported again.
mapfile -t kernels < <(printf '%s\n' "${todo[@]}" | sed '/^$/d' | sort -u)
for k in "${kernels[@]}"; do
	case $k in
	memtide-perf) echo "==> bench: building the memtide-perf kernel" >&2; make -s kernel PERF=1 ;;
	vanilla-perf) echo "==> bench: building the vanilla-perf kernel" >&2; make -s kernel-vanilla PERF=1 ;;
	*) die "scenario kernel '$k': benchmarks run the -perf kernels" ;;
	esac
	make -s initramfs KERNEL="${k%-perf}"
done

start=$(date +%s)
# cpu_ticks: the host's steal and total CPU ticks (/proc/stat): on a shared cloud host another
# tenant's load slows every CPU-bound figure of a TCG guest, so each run records its share
cpu_ticks() { awk '/^cpu / { t = 0; for (i = 2; i <= 9; i++) t += $i; print $9, t }' /proc/stat; }
elapsed() { local s=$(($(date +%s) - start)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
# guest_ran CONSOLE: whether a guest printed anything there, a line other than vm-run's own
# ("memtide-host: ..."): if none did, vm-run or QEMU failed before any guest ran
guest_ran() { grep -qav '^memtide-host: ' "$1" 2>/dev/null; }
# passed_runs RESULTS: how many runs there passed (stats.awk's run_failed)
passed_runs() { awk "$(cat "$BENCH/stats.awk")"'!run_failed() { n++ } END { print n + 0 }' "$1"; }
no_result=0 # runs of this invocation that gave no result

run_scenario() {
	local name=$1 dir=$OUT/$1 total done=0 run v label kernel args tmp line host
	VM_SMP=2 # scenarios may lower it: one vCPU leaves a host core to QEMU's I/O thread
	ROOTFS=  # "debian": the systemd guest (selftests/vm/mkrootfs.sh)
	MGLRU=   # 0: the classic LRU (vm-run.sh turns MGLRU off before the payload); empty: on
	EXTRA=()
	DISK_LATENCY_MS=0 # the disk model's latency per request (vm-run), if the scenario sets one
	GUEST_LIBS=()     # files the guest half sources, beside it in scenarios/
	local -A CMDLINE=() # kernel parameters of a variant (vm-run's VM_CMDLINE), by label
	local -A VM_ENV=()  # more vm-run settings of a variant, "VM_KEY=VALUE ...", by label
	STEPS=() # times drawn side by side per variant (plot-steps.sh), if the scenario names any
	SERIES=(resident) # the curves of plot-series.sh, where the guest half samples any
	# host_result CONSOLE_LOG, if the scenario has one: figures timed by the host
	unset -f host_result
	# shellcheck source=scenarios/reclaim.sh
	. "$SCENARIOS/$name.sh"
	mkdir -p "$dir"
	# not touch: the file's last change dates results older than at= (measured.sh)
	[ -e "$dir/results" ] || : >"$dir/results"
	# no runs: a machine named there is from runs deleted to start over
	[ -s "$dir/results" ] || rm -f "$dir/machine"
	[ "$REDERIVE" = 0 ] || rederive "$dir"
	case $ROOTFS in
	'') ;;
	# (only for runs to make: a report needs no guest)
	debian) [ -z "${todo[$name]}" ] || ROOTFS=$(selftests/vm/mkrootfs.sh) || die "$name: cannot build the root file system" ;;
	*) die "$name: ROOTFS '$ROOTFS' (only debian is known)" ;;
	esac
	total=$((RUNS * ${#VARIANTS[@]}))
	for run in $(seq 1 "$RUNS"); do
		for v in "${VARIANTS[@]}"; do
			read -r label kernel args <<<"$v"
			done=$((done + 1))
			if grep -q "^$label $run " "$dir/results"; then
				continue
			fi
			echo "==> bench $name: run $run/$RUNS $label ($done of $total, $(elapsed) so far)" >&2
			tmp=$(mktemp -d)
			read -r steal0 ticks0 < <(cpu_ticks)
			printf '#!/bin/sh\nexec sh ./%s %s\n' "$GUEST" "$args" >"$tmp/run.sh"
			console=$dir/console-$label-$run.log
			# every vm-run setting given, so that none comes from the caller's environment
			# (VM_BLOCKSTATS: QEMU's count of the swap disk's requests per boot, in the log)
			st=0
			SCRIPT="$tmp/run.sh" VM_FILES="$SCENARIOS/$GUEST${GUEST_LIBS[*]/#/ $SCENARIOS/}" KERNEL=$kernel MGLRU=$MGLRU \
				VM_MEM=$VM_MEM VM_SMP=$VM_SMP ROOTFS=$ROOTFS SWAP_MB=$SWAP_MB DISK_BPS=$DISK_BPS DISK_IOPS=$DISK_IOPS \
				DISK_LATENCY_MS=$DISK_LATENCY_MS \
				VM_LOG="$console" VM_CMDLINE="${CMDLINE[$label]:-}" VM_TIMEOUT=900 \
				VM_SYSCTL= VM_PREALLOC=0 VM_BLOCKSTATS=1 env ${VM_ENV[$label]:-} "$VM_RUN" >"$tmp/out" 2>"$tmp/err" || st=$?
			line=$(grep -a '^bench-result ' "$tmp/out" || true)
			# vm-run's reason, if it gave one ("the guest timed out after 900s; last console lines:")
			why=$(grep -am 1 '^vm-run: ' "$tmp/err" | sed 's/^vm-run: //; s/; last console lines:$//' || true)
			rm -rf "$tmp"
			if [ "$st" != 0 ] || [ -z "$line" ]; then
				guest_ran "$console" ||
					die "$name $label run $run: no guest ran (${why:-vm-run exited $st}); nothing recorded"
				# the run failed: recorded as such, with vm-run's status (124: timed out; 125:
				# no exit status, a panic or a lost resume) and the console that shows why
				echo "bench: $name $label run $run gave no result (${why:-vm-run exited $st}): recorded as failed, rc=no-result (console: $console)" >&2
				echo "$label $run rc=no-result vm_run_exit=$st console=$(basename "$console") bench_id=$start at=$(date +%s)" >>"$dir/results"
				[ -f "$dir/machine" ] || echo "$machine" >"$dir/machine"
				no_result=$((no_result + 1))
				continue
			fi
			# the run stands; only the request sizes it would have had are missing
			! grep -q '^memtide-host: boot [0-9]* blockstats failed: ' "$dir/console-$label-$run.log" ||
				echo "bench: $name $label run $run: QEMU's count of requests failed (console: $dir/console-$label-$run.log)" >&2
			read -r steal1 ticks1 < <(cpu_ticks)
			line="$line steal_pct=$(awk -v s=$((steal1 - steal0)) -v t=$((ticks1 - ticks0)) \
				'BEGIN { printf "%.1f", (t > 0 ? 100 * s / t : 0) }')"
			host=$(host_figures "$label" "$dir/console-$label-$run.log")
			line="$line${host:+ $host}"
			# curves a guest half samples ("bench-series NAME T_US VALUE"), for plot-series.sh
			grep -a '^bench-series ' "$dir/console-$label-$run.log" >"$dir/series-$label-$run" ||
				rm -f "$dir/series-$label-$run"
			# bench_id: the invocation, so that figures of different invocations are not
			# compared as if side by side (scaling.sh)
			echo "$label $run ${line#bench-result } bench_id=$start at=$(date +%s)" >>"$dir/results"
			[ -f "$dir/machine" ] || echo "$machine" >"$dir/machine"
		done
	done
	# the date and machine of the runs, not of this invocation, which may have added none
	# (read before report.md is written again: older runs' machine may be only there)
	local measured_on
	measured_on=$(runs_machine "$name")
	# the archive: the runs this section shows, and nothing else
	if [ -s "$dir/results" ]; then
		rm -rf "$ARCHIVE/$name" && mkdir -p "$ARCHIVE/$name"
		raw_files "$dir" | xargs -r cp -p -t "$ARCHIVE/$name"
	fi
	"$BENCH/report.sh" "$SCENARIOS/$name.sh" "$dir/results" >"$dir/report.md"
	# (a chart of failed runs would be a chart of nothing: the plots leave them out)
	if [ "$(passed_runs "$dir/results")" = 0 ]; then
		printf '\nNo chart: every run failed.\n' >>"$dir/report.md"
	else
		"$BENCH/plot.sh" "$SCENARIOS/$name.sh" "$dir/results" "$DOCS/bench-$name.png"
		printf '\n![%s](bench-%s.png)\n' "$TITLE" "$name" >>"$dir/report.md"
		if [ ${#STEPS[@]} -gt 0 ]; then
			"$BENCH/plot-steps.sh" "$SCENARIOS/$name.sh" "$dir/results" "$DOCS/bench-$name-steps.png"
			printf '\n![%s: each step](bench-%s-steps.png)\n' "$TITLE" "$name" >>"$dir/report.md"
		fi
		if ls "$dir"/series-* >/dev/null 2>&1; then
			for series in "${SERIES[@]}"; do
				"$BENCH/plot-series.sh" "$SCENARIOS/$name.sh" "$dir" "$DOCS/bench-$name-$series.png" "$series"
				printf '\n![%s: %s after resume](bench-%s-%s.png)\n' "$TITLE" \
					"$([ "$series" = hot ] && echo "the working set's passes" || echo "resident memory")" \
					"$name" "$series" >>"$dir/report.md"
			done
		fi
	fi
	{
		echo
		"$BENCH/measured-line.sh" print "$("$BENCH/measured.sh" "$dir/results")" \
			"${measured_on:-an unrecorded machine}" "$("$BENCH/steal.sh" "$dir/results")" "$name" "$RUNS"
	} >>"$dir/report.md"
}

for s in "${scenarios[@]}"; do
	run_scenario "$s"
done

"$BENCH/assemble.sh" "$SCENARIOS" "$OUT" "$DOCS/benchmarks.md" "$RUNS"
echo "==> bench: done in $(elapsed); docs/benchmarks.md written" >&2
[ "$no_result" = 0 ] ||
	echo "==> bench: $no_result runs gave no result: counted as failed in their sections (FRESH=1, or deleting their lines from build/bench/NAME/results, runs them again)" >&2
