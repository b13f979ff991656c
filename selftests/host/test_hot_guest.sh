#!/usr/bin/env bash
# The figures of the hot loop (selftests/bench/scenarios/hot-guest.sh, scenario hibernate-hot)
# on a fixed memhog output: the warm reference, the worst pass of the first 10 s, the curve,
# and the rc of a run whose loop was not idle, whose record was full, or that had no warm
# pass. (Responsive is the host's reading of the curve: test_bench.sh.)
. "$(dirname "$0")/lib.sh"
plan 8
cd "$TMP" || exit 1

# hot_figures_on FILE: hot_figures with the guest's signals and waits stubbed out, memhog's
# output being FILE; the warm phase paused at 10 s, resume at 100 s (uptime, microseconds)
hot_figures_on() {
	(
		kill() { :; }
		sleep() { :; }
		. "$ROOT/selftests/bench/scenarios/hot-guest.sh"
		cp "$1" hog.out
		hot_paused_us=10000000 HOT_RESUMED_US=100000000
		hot_figures 1234 >series.out
		echo "$HOT_RESULT" >result.out
		echo "$HOT_RC" >rc.out
	)
}
# warm passes of 4, 5 and 6 ms (median 5); after resume: 3 s, 0.5 s (beginning at 103.5 s),
# 12 ms, 9 ms; a pass of 20 s that began after the first 10 s is not the worst of them
{
	echo "memhog: hot_pages=25600"
	echo "memhog: ready"
	echo "memhog: hot_pass 9000000 4000"
	echo "memhog: hot_pass 9005000 5000"
	echo "memhog: hot_pass 9011000 6000"
	echo "memhog: hot_pass 103000000 3000000"
	echo "memhog: hot_pass 104000000 500000"
	echo "memhog: hot_pass 104012000 12000"
	echo "memhog: hot_pass 104021000 9000"
	echo "memhog: hot_pass 131000000 20000000"
	echo "memhog: hot_passes=8 dropped=0"
} >warm.out
hot_figures_on warm.out
check "the hot set, the reference (median warm pass) and the passes after resume" \
	grep -q " hot_bytes=104857600 hot_ref_us=5000 hot_passes=5 hot_dropped=0 " result.out
check "the worst pass is the slowest that began within 10 s of resume (3 s, not the later 20 s)" \
	grep -q " hot_worst_us=3000000 " result.out
check "no rc for a run whose loop was idle from the pause to the resume" bash -c '[ -z "$(cat rc.out)" ]'
check "the curve: the slowest pass that ended in each 100 ms after resume (4.0-4.1 s: the 0.5 s one)" \
	bash -c "[ \"\$(grep -c '^bench-series hot ' series.out)\" = 3 ] &&
		grep -q '^bench-series hot 3000000 3000000$' series.out &&
		grep -q '^bench-series hot 4000000 500000$' series.out &&
		grep -q '^bench-series hot 31000000 20000000$' series.out"

# a pass that ended between the pause (10 s) and the resume (100 s): the loop ran through
# the preparation, which then saw a working set in use, not an idle one
sed 's/^memhog: hot_pass 9011000 6000$/&\nmemhog: hot_pass 50000000 6000/' warm.out >busy.out
hot_figures_on busy.out
check "a pass between the pause and the resume: rc hot-not-idle" bash -c "[ \"\$(cat rc.out)\" = hot-not-idle ]"
# memhog's record was full: passes after it are missing from the curve
sed 's/dropped=0/dropped=7/' warm.out >full.out
hot_figures_on full.out
check "passes dropped: rc hot-record-full" bash -c "[ \"\$(cat rc.out)\" = hot-record-full ]"

# no warm pass (the loop never ran before the pause): no reference to compare with
grep -v "hot_pass 90" warm.out >cold.out
hot_figures_on cold.out
check "no warm pass: rc hot-no-warm-pass" bash -c "[ \"\$(cat rc.out)\" = hot-no-warm-pass ]"
check "no warm pass: the reference is 0, not a made-up one" grep -q " hot_ref_us=0 " result.out
done_testing
