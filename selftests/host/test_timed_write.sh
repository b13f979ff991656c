#!/usr/bin/env bash
# timed_write, the benchmarks' timed request (selftests/memtide/timed_write.c), on the host:
# one write of VALUE, or VALUE bytes in writes of at most BATCH (scenario reclaim-floor's
# stock-kernel batching), stopping at the first failure; bad arguments refused in one line.
. "$(dirname "$0")/lib.sh"
plan 8

tw=$TMP/timed_write
gcc -O2 -Wall -o "$tw" "$ROOT/selftests/memtide/timed_write.c" || { echo "Bail out! cannot build timed_write"; exit 1; }

: >"$TMP/one"
"$tw" "$TMP/one" 700M >"$TMP/one.out"
check "without BATCH, VALUE goes in one write, as given, and no batch count is printed" \
	bash -c "[ \"\$(cat '$TMP/one')\" = 700M ] && grep -q '^timed_write: rc=0 elapsed_us=[0-9]* ' '$TMP/one.out' &&
		! grep -q batches= '$TMP/one.out'"
: >"$TMP/batched"
"$tw" "$TMP/batched" 20K 8K >"$TMP/batched.out"
check "with BATCH, VALUE bytes go in writes of at most BATCH, the last one the rest" \
	bash -c "[ \"\$(cat '$TMP/batched')\" = 819281924096 ] && grep -q ' batches=3 ran_dry=0' '$TMP/batched.out'"
# /dev/full fails every write with ENOSPC: one write made, the failure reported, exit 0
"$tw" /dev/full 20K 8K >"$TMP/full.out"
check "with BATCH, the first failed write ends the run and is reported" \
	bash -c "grep -q '^timed_write: rc=ENOSPC .* batches=1 ran_dry=0\$' '$TMP/full.out'"
# a fake memory.reclaim that has run dry: every write fails with EAGAIN (a FIFO cannot do
# that; an LD_PRELOAD shim can)
cat >"$TMP/eagain.c" <<'C'
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>
ssize_t write(int fd, const void *buf, size_t n) { (void)fd; (void)buf; (void)n; errno = EAGAIN; return -1; }
C
gcc -shared -fPIC -o "$TMP/eagain.so" "$TMP/eagain.c"
: >"$TMP/dry"
LD_PRELOAD=$TMP/eagain.so "$tw" "$TMP/dry" 20K 8K >"$TMP/dry.out" 2>&1
check "with BATCH, EAGAIN (the cgroup ran dry) ends the run as done: rc=0 ran_dry=1" \
	bash -c "grep -q '^timed_write: rc=0 .* batches=1 ran_dry=1\$' '$TMP/dry.out'"
: >"$TMP/bad"
expect_error "a BATCH that is not a byte count" 2 "^timed_write: with BATCH, VALUE and BATCH are byte counts" \
	"$tw" "$TMP/bad" 700M 8X
expect_error "a VALUE of 0 with BATCH" 2 "^timed_write: with BATCH, VALUE and BATCH are byte counts" \
	"$tw" "$TMP/bad" 0 8M
expect_error "a missing VALUE" 2 "^usage: timed_write FILE VALUE \[BATCH\]\$" "$tw" "$TMP/bad"
check "nothing was written by the refused runs" bash -c "[ ! -s '$TMP/bad' ]"
done_testing
