#!/usr/bin/env bash
# make bench [SCENARIO=name] [RUNS=3]: run benchmark scenarios in QEMU guests and write
# docs/benchmarks.md.
#
# A scenario is selftests/bench/scenarios/NAME.sh (settings and VARIANTS, see reclaim.sh) plus
# the guest script it names. Every variant of a scenario runs once per round, rounds repeat
# RUNS times (A B C A B C ...), each run in a fresh guest, so that all variants share the same
# host conditions. Raw results go to build/bench/NAME/results, one line per run; a run already
# there is not repeated, so an interrupted `make bench` resumes where it stopped (delete the
# file to start over). Benchmarks boot the -perf kernels (no debug checks). Each scenario's
# section of docs/benchmarks.md comes with a bar chart, docs/bench-NAME.png (gnuplot), and,
# where the scenario names them, its steps side by side (bench-NAME-steps.png) and curves of
# resident memory (bench-NAME-resident.png).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=$ROOT/selftests/bench
# BENCH_OUT and BENCH_SCENARIOS: for the tests
OUT=${BENCH_OUT:-$ROOT/build/bench}
SCENARIOS=${BENCH_SCENARIOS:-$BENCH/scenarios}
RUNS=${RUNS:-3}
cd "$ROOT"

die() { echo "bench: $*" >&2; exit 2; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "RUNS '$RUNS' must be a positive number"

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

# Checked before any build. The runs of one results file are compared side by side: a
# scenario's runs so far must have run on this machine (build/bench/NAME/machine) before more
# are added.
mkdir -p "$OUT"
machine=$("$BENCH/machine.sh")
for name in "${scenarios[@]}"; do
	# a variant's VM_ENV is split unquoted: nothing a shell would expand
	(
		declare -A VM_ENV=()
		# shellcheck source=scenarios/reclaim.sh
		. "$SCENARIOS/$name.sh"
		for label in "${!VM_ENV[@]}"; do
			[[ ${VM_ENV[$label]} =~ ^(VM_[A-Z_]+=[A-Za-z0-9_.,:-]*( |$))+$ ]] ||
				die "$name: VM_ENV[$label] '${VM_ENV[$label]}' must be VM_KEY=VALUE words"
		done
	) || exit 2
	if [ -f "$OUT/$name/machine" ] && [ "$(cat "$OUT/$name/machine")" != "$machine" ] &&
		[ -n "$(pending "$name")" ]; then
		die "$name: its runs so far ran on $(cat "$OUT/$name/machine"), this is $machine (move build/bench/$name aside to start over)"
	fi
done

# The kernels and guest images the chosen scenarios' missing runs need, built once: a
# scenario whose runs are all there is only reported again.
mapfile -t kernels < <(for name in "${scenarios[@]}"; do pending "$name"; done | sort -u)
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

run_scenario() {
	local name=$1 dir=$OUT/$1 total done=0 run v label kernel args tmp line
	VM_SMP=2 # scenarios may lower it: one vCPU leaves a host core to QEMU's I/O thread
	ROOTFS=  # "debian": the systemd guest (selftests/vm/mkrootfs.sh)
	MGLRU=   # 0: the classic LRU (vm-run.sh turns MGLRU off before the payload); empty: on
	EXTRA=()
	local -A CMDLINE=() # kernel parameters of a variant (vm-run's VM_CMDLINE), by label
	local -A VM_ENV=()  # more vm-run settings of a variant, "VM_KEY=VALUE ...", by label
	STEPS=() # times drawn side by side per variant (plot-steps.sh), if the scenario names any
	# host_result CONSOLE_LOG, if the scenario has one: figures timed by the host
	unset -f host_result
	# shellcheck source=scenarios/reclaim.sh
	. "$SCENARIOS/$name.sh"
	mkdir -p "$dir"
	# not touch: the file's last change dates results older than at= (measured.sh)
	[ -e "$dir/results" ] || : >"$dir/results"
	case $ROOTFS in
	'') ;;
	debian) ROOTFS=$(selftests/vm/mkrootfs.sh) || die "$name: cannot build the root file system" ;;
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
			if ! line=$(SCRIPT="$tmp/run.sh" VM_FILES="$SCENARIOS/$GUEST" KERNEL=$kernel MGLRU=$MGLRU \
				VM_MEM=$VM_MEM VM_SMP=$VM_SMP ROOTFS=$ROOTFS SWAP_MB=$SWAP_MB DISK_BPS=$DISK_BPS DISK_IOPS=$DISK_IOPS \
				VM_LOG="$dir/console-$label-$run.log" VM_CMDLINE="${CMDLINE[$label]:-}" VM_TIMEOUT=900 \
				env ${VM_ENV[$label]:-} selftests/vm/vm-run.sh 2>/dev/null | grep '^bench-result '); then
				rm -rf "$tmp"
				die "$name $label run $run produced no result (console: $dir/console-$label-$run.log)"
			fi
			rm -rf "$tmp"
			read -r steal1 ticks1 < <(cpu_ticks)
			line="$line steal_pct=$(awk -v s=$((steal1 - steal0)) -v t=$((ticks1 - ticks0)) \
				'BEGIN { printf "%.1f", (t > 0 ? 100 * s / t : 0) }')"
			if declare -F host_result >/dev/null; then
				line="$line $(VARIANT_CMDLINE="${CMDLINE[$label]:-}" VARIANT_ENV="${VM_ENV[$label]:-}" \
					host_result "$dir/console-$label-$run.log")"
			fi
			# curves a guest half samples ("bench-series NAME T_US VALUE"), for plot-series.sh
			grep -a '^bench-series ' "$dir/console-$label-$run.log" >"$dir/series-$label-$run" ||
				rm -f "$dir/series-$label-$run"
			# bench_id: the invocation, so that figures of different invocations are not
			# compared as if side by side (scaling.sh)
			echo "$label $run ${line#bench-result } bench_id=$start at=$(date +%s)" >>"$dir/results"
			[ -f "$dir/machine" ] || echo "$machine" >"$dir/machine"
		done
	done
	"$BENCH/report.sh" "$SCENARIOS/$name.sh" "$dir/results" >"$dir/report.md"
	"$BENCH/plot.sh" "$SCENARIOS/$name.sh" "$dir/results" "$ROOT/docs/bench-$name.png"
	printf '\n![%s](bench-%s.png)\n' "$TITLE" "$name" >>"$dir/report.md"
	if [ ${#STEPS[@]} -gt 0 ]; then
		"$BENCH/plot-steps.sh" "$SCENARIOS/$name.sh" "$dir/results" "$ROOT/docs/bench-$name-steps.png"
		printf '\n![%s: each step](bench-%s-steps.png)\n' "$TITLE" "$name" >>"$dir/report.md"
	fi
	if ls "$dir"/series-* >/dev/null 2>&1; then
		"$BENCH/plot-series.sh" "$SCENARIOS/$name.sh" "$dir" "$ROOT/docs/bench-$name-resident.png"
		printf '\n![%s: resident memory after resume](bench-%s-resident.png)\n' "$TITLE" "$name" \
			>>"$dir/report.md"
	fi
	# the date and machine of the runs, not of this invocation, which may have added none
	printf '\nMeasured %s on %s%s: `make bench SCENARIO=%s RUNS=%s`.\n' "$("$BENCH/measured.sh" "$dir/results")" \
		"$(cat "$dir/machine" 2>/dev/null || echo "$machine")" "$("$BENCH/steal.sh" "$dir/results")" \
		"$name" "$RUNS" >>"$dir/report.md"
}

for s in "${scenarios[@]}"; do
	run_scenario "$s"
done

"$BENCH/assemble.sh" "$SCENARIOS" "$OUT" "$ROOT/docs/benchmarks.md" "$RUNS"
echo "==> bench: done in $(elapsed); docs/benchmarks.md written" >&2
