#!/usr/bin/env bash
# make repeat CASE=NAME [KERNELS="K1 K2"] [BOOTS=N]: boot each kernel N times, alternating
# (K1, K2, K1, K2, ...: a drift of the host hits both alike), run CASE's guest script in
# every boot, and count per kernel how each test ended. For what fails now and then: a hang
# seen in 2 boots of 5, a flaky upstream test. Cases:
#   fill-race  issue 35 item 7: three cgroups fill 200 MiB each at once (then 400 MiB, which
#              must swap), THP=always, in a 1 GiB guest with the swap disk at 125 MiB/s and
#              3000 requests/s
#              (guest-fill-race.sh); default kernels memtide-perf vanilla-perf, 10 boots
#   gate       make check's suite up to upstream's cgroup tests (guest-gate.sh), the context
#              in which make check runs them; default kernels memtide vanilla, 10 boots
#   memcg-reclaim  upstream's test_memcg_reclaim 30 times in a fresh boot, each run traced
#              (guest-memcg-reclaim.sh): why it fails; default kernels memtide vanilla
#   freezer    upstream's test_freezer 20 times in a fresh boot (guest-freezer.sh): how often
#              each of its tests fails on each kernel; default kernels memtide vanilla
# CONTINUE=1 keeps the boots already made and adds BOOTS more of each kernel, for a case longer
# than one working session (the gate's 2 x 10 boots take about 5 hours); it is refused when
# the kernel tree or the tests changed since those boots (build/repeat/CASE/source), as the
# counts would mix two things. The tool is left out, so that its work can go on between
# sessions: in these guests it runs in test_tool alone, and changes there show in the tests.
# Logs and summaries go to build/repeat/CASE/KERNEL-I.{log,summary}, the counts to
# build/repeat/CASE/counts ("KERNEL STATUS COUNT TEST", STATUS PASS, FAIL or SKIP, TEST as
# summarize.sh names it) and to standard output as a table. A boot whose guest timed out or
# printed a kernel warning, hung-task or lockup report counts as a FAIL of guest/finished or
# guest/console-clean (summarize.sh). Exit status 0 when every boot of this run had no
# failure, 1 otherwise, 2 on usage errors.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
die_usage() { echo "repeat: $*" >&2; exit 2; }

case=${CASE:-}
case $case in
fill-race)
	script=selftests/vm/guest-fill-race.sh
	kernels=${KERNELS:-memtide-perf vanilla-perf}
	export VM_MEM=1G VM_SMP=2 SWAP_MB=2048 DISK_BPS=$((125 * 1024 * 1024)) DISK_IOPS=3000
	# five rounds of at most 240 s each (hang_watch) and the boot
	export VM_TIMEOUT=${VM_TIMEOUT:-1500}
	;;
gate)
	script=selftests/vm/guest-gate.sh
	kernels=${KERNELS:-memtide vanilla}
	export VM_MEM=2G VM_SMP=2
	# make check's limit for the same suite (ci/check.sh)
	export VM_TIMEOUT=${VM_TIMEOUT:-1800}
	;;
memcg-reclaim)
	script=selftests/vm/guest-memcg-reclaim.sh
	kernels=${KERNELS:-memtide vanilla}
	# the gate's guest; 30 runs of about 5 s each, 900 s on a slow host
	export VM_MEM=2G VM_SMP=2
	export VM_TIMEOUT=${VM_TIMEOUT:-1200}
	;;
freezer)
	script=selftests/vm/guest-freezer.sh
	kernels=${KERNELS:-memtide vanilla}
	# the gate's guest; 20 runs of test_freezer, a few seconds each
	export VM_MEM=2G VM_SMP=2
	export VM_TIMEOUT=${VM_TIMEOUT:-1200}
	;;
'') die_usage "CASE= is needed: fill-race, gate, memcg-reclaim or freezer" ;;
*) die_usage "unknown CASE '$case' (fill-race, gate, memcg-reclaim, freezer)" ;;
esac
boots=${BOOTS:-10}
[[ $boots =~ ^[1-9][0-9]*$ ]] || die_usage "BOOTS must be a positive number, not '$boots'"
for k in $kernels; do
	[[ $k =~ ^(memtide|vanilla)(-perf|-debug)?$ ]] || die_usage "unknown kernel '$k'"
done
[ "${1:-}" = --check ] && exit 0

out=$ROOT/build/repeat/$case
mkdir -p "$out"
# what the boots run: the patches, configs and base, and the tests (working tree included)
source_id=$(for d in kernel-tree selftests; do [ ! -d $d ] || find $d -type f -print0; done |
	LC_ALL=C sort -z | xargs -0r sha256sum | sha256sum | cut -c1-16)
first=1
if [ "${CONTINUE:-}" = 1 ] && [ -s "$out/source" ]; then
	[ "$(cat "$out/source")" = "$source_id" ] ||
		die_usage "CONTINUE=1, but kernel-tree/ or selftests/ changed since the boots in $out"
	last=$(ls "$out" | sed -n 's/^.*-\([0-9]*\)\.summary$/\1/p' | sort -n | tail -1)
	first=$((${last:-0} + 1))
else
	rm -f "$out"/*.log "$out"/*.summary "$out/counts"
fi
echo "$source_id" >"$out/source"
# each kernel and its guest image, built once before the first boot
for k in $kernels; do
	flavour=${k#*-}
	[ "$flavour" = "$k" ] && flavour=
	case $k in
	memtide*) make -s kernel ${flavour:+${flavour^^}=1} ;;
	vanilla*) make -s kernel-vanilla ${flavour:+${flavour^^}=1} ;;
	esac
	make -s initramfs KERNEL="${k%%-*}"
done

failed=0
for i in $(seq "$first" $((first + boots - 1))); do
	for k in $kernels; do
		log=$out/$k-$i.log
		echo "==> repeat $case: boot $i of $((first + boots - 1)) on $k" >&2
		rc=0
		SCRIPT=$script KERNEL=$k VM_LOG=$log selftests/vm/vm-run.sh >/dev/null 2>&1 || rc=$?
		selftests/vm/summarize.sh "guest=$log" >"$out/$k-$i.summary" || failed=1
		echo "    exit $rc: $(tail -1 "$out/$k-$i.summary")" >&2
	done
done

for k in $kernels; do
	# "STATUS NAME  (why)": the name may hold spaces (a TAP description), the why is dropped
	sed -En 's/^(PASS|FAIL|SKIP) +guest\/(.*[^ ]) *$/\1 \2/p' "$out/$k"-*.summary |
		sed -E 's/  \(.*\)$//' | sed "s/^/$k /"
done | sort | uniq -c | awk '{ c = $1; k = $2; s = $3; $1 = $2 = $3 = ""; sub(/^ +/, ""); print k, s, c, $0 }' \
	>"$out/counts"
echo "# repeat $case: $((first + boots - 1)) boots of each of: $kernels (build/repeat/$case/)"
awk '{ t = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ /, "", t); n[t " [" $1 "]"] = n[t " [" $1 "]"] sprintf(" %s=%d", $2, $3) }
     END { for (t in n) print t ":" n[t] }' "$out/counts" | sort
exit $failed
