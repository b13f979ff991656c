#!/bin/sh
# The guest of `make repeat CASE=memcg-reclaim` (selftests/vm/repeat.sh), issue 34 item 2:
# upstream's test_memcontrol test_memcg_reclaim failed in 3 of 7 gate boots of the memtide
# kernel and 1 of 7 of vanilla's, without a word. Here it runs MEMCG_RECLAIM_RUNS times
# (default 30) in a fresh boot, each run traced (trace_memcg_reclaim): a failing run prints
# the reads and writes that made it fail. THP as guest-suite.sh sets it for upstream's tests.
opt=${MEMTIDE_OPT:-/opt/memtide}
echo madvise >/sys/kernel/mm/transparent_hugepage/enabled
echo "# memtide-suite: repro trace_memcg_reclaim"
"$opt/bin/trace_memcg_reclaim" "${MEMCG_RECLAIM_RUNS:-30}"
echo "# memtide-suite-exit: $?"
