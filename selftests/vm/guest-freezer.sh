#!/bin/sh
# The guest of `make repeat CASE=freezer` (selftests/vm/repeat.sh): upstream's test_freezer
# FREEZER_RUNS times (default 20) in a fresh boot. test_cgfreezer_vfork was in the gate (it
# passed the 3 vanilla runs of make gate-record) and failed once in CI on the memtide kernel
# (2026-12-07, `1002 passed, 2 failed`), without a word: is it a race of the test, on both
# kernels, or a regression of memtide's? (docs/development.md, the freezer case: a race under
# host load, on both.) Each run is framed as guest-suite.sh frames one.
opt=${MEMTIDE_OPT:-/opt/memtide}
i=0
while [ $i -lt "${FREEZER_RUNS:-20}" ]; do
	echo "# memtide-suite: upstream test_freezer"
	"$opt/upstream/test_freezer"
	echo "# memtide-suite-exit: $?"
	i=$((i + 1))
done
