#!/usr/bin/env bash
# make demo: the seed's scenario, once each way, in a QEMU guest on the memtide kernel (its
# benchmark build, memtide-perf: the debug checks would make every step CPU-bound here).
# An idle process in spot.slice holds 85% of a 1 GiB guest's memory, on a swap disk capped at
# 100 MB/s. The guest hibernates and resumes, then the process touches all its memory:
#   without memtide   the kernel shrinks memory itself while hibernating
#   with memtide      `memtide hibernate`: the slice is shrunk at idle time, the image is
#                     small, and after resume memory.release brings the slice back in order
# Prints the seed's columns side by side. The guest half and the host's timing are the
# benchmark's (selftests/bench/scenarios/hibernate*.sh); `make bench SCENARIO=hibernate`
# measures the same with medians, mainline's own options and the vanilla kernel.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
scen=selftests/bench/scenarios
# shellcheck source=../../selftests/bench/scenarios/hibernate.sh
. "$scen/hibernate.sh"
out=$ROOT/build/demo
mkdir -p "$out"
declare -A result
for side in plain memtide; do
	name=$([ $side = plain ] && echo "without memtide" || echo "with memtide")
	echo "==> demo: $name (a 1 GiB guest hibernates and resumes; about a minute)" >&2
	printf '#!/bin/sh\nexec sh ./hibernate-guest.sh %s\n' "$side" >"$out/run.sh"
	if ! line=$(SCRIPT="$out/run.sh" VM_FILES="$scen/hibernate-guest.sh" KERNEL=memtide-perf \
		VM_MEM=$VM_MEM SWAP_MB=$SWAP_MB DISK_BPS=$DISK_BPS VM_TIMEOUT=600 \
		VM_LOG="$out/console-$side.log" selftests/vm/vm-run.sh 2>"$out/vm-run-$side.err" |
		grep '^bench-result '); then
		echo "demo: the guest ($name) gave no result; console: $out/console-$side.log" >&2
		tail -n 5 "$out/vm-run-$side.err" >&2
		exit 1
	fi
	result[$side]="${line#bench-result } $(host_result "$out/console-$side.log")"
done

# one row per side: the seed's columns, in seconds and MiB
{
	echo "plain ${result[plain]}"
	echo "memtide ${result[memtide]}"
} | awk '
{
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[$1, kv[1]] = kv[2] }
}
END {
	printf "\n%-16s %10s %12s %10s %12s %10s\n", "", "prep", "hibernate", "resume", "full speed", "image"
	split("plain memtide", sides, " ")
	for (s = 1; s <= 2; s++) {
		k = sides[s]
		if (v[k, "rc"] != "0" || v[k, "elapsed_us"] == "") { printf "%-16s failed (rc=%s)\n", k, v[k, "rc"]; bad = 1; continue }
		printf "%-16s %8.1f s %10.1f s %8.1f s %10.1f s %6d MiB\n",
			k == "plain" ? "without memtide" : "with memtide", v[k, "prep_us"] / 1e6,
			v[k, "hibernate_us"] / 1e6, v[k, "resume_us"] / 1e6, v[k, "elapsed_us"] / 1e6,
			v[k, "image_bytes"] / 1048576
	}
	if (!bad)
		printf "\nhibernate %.1fx faster, full speed %.1fx sooner after the start of resume\n",
			v["plain", "hibernate_us"] / v["memtide", "hibernate_us"],
			v["plain", "elapsed_us"] / v["memtide", "elapsed_us"]
	print "(one run each, on the memtide-perf kernel; make bench SCENARIO=hibernate for medians and vanilla)"
	exit bad
}'
