#!/usr/bin/env bash
# memtide criu-action as CRIU calls it (environment CRTOOLS_SCRIPT_ACTION, CRTOOLS_INIT_PID),
# against a fake cgroup tree and /proc: pre-dump reclaims the page cache and releases the
# tree's cgroup; other actions and every failure leave everything alone and exit 0.
. "$(dirname "$0")/lib.sh"
plan 6
build_tool

cg=$TMP/cg proc=$TMP/proc
for d in "" box.slice box.slice/app.scope; do
	mkdir -p "$cg/$d"
	echo "anon 0" >"$cg/$d/memory.stat"
	: >"$cg/$d/memory.reclaim"
	: >"$cg/$d/memory.release"
done
mkdir -p "$proc/4242" "$proc/1"
echo "0::/box.slice/app.scope" >"$proc/4242/cgroup"
echo "0::/" >"$proc/1/cgroup"
printf 'memory.reclaim amount=bytes,max swappiness=0-200,max result=reclaimed\nmemory.release amount=bytes,max result=released\n' >"$TMP/features"
export MEMTIDE_CGROUP_ROOT=$cg MEMTIDE_PROC_ROOT=$proc MEMTIDE_FEATURES_FILE=$TMP/features \
	MEMTIDE_STATE_DIR=$TMP/state
written() { find "$cg" -name 'memory.re*' -size +0 | sed "s|^$cg||" | sort | tr '\n' ' '; }

CRTOOLS_SCRIPT_ACTION=pre-dump CRTOOLS_INIT_PID=4242 "$mt" criu-action >"$TMP/out" 2>"$TMP/err"; rc=$?
check "pre-dump: exit 0, page cache reclaimed and the cgroup released (exit $rc)" bash -c "
	[ $rc = 0 ] && [ '$(written)' = '/box.slice/app.scope/memory.reclaim /box.slice/app.scope/memory.release ' ] &&
	[ \"\$(cat '$cg/box.slice/app.scope/memory.reclaim')\" = 'max swappiness=0' ] &&
	[ \"\$(cat '$cg/box.slice/app.scope/memory.release')\" = max ]"
check "... and says what it did, on stderr (CRIU's log)" bash -c "
	[ ! -s '$TMP/out' ] && grep -q '^/box.slice/app.scope: released' '$TMP/err'"
find "$cg" -name 'memory.re*' -exec truncate -s 0 {} +

for action in post-dump pre-restore post-resume network-lock; do
	CRTOOLS_SCRIPT_ACTION=$action CRTOOLS_INIT_PID=4242 "$mt" criu-action || echo "rc $action"
done >"$TMP/out" 2>&1
check "other actions: exit 0, nothing written, nothing printed" bash -c "[ ! -s '$TMP/out' ] && [ -z '$(written)' ]"

CRTOOLS_SCRIPT_ACTION=pre-dump CRTOOLS_INIT_PID=1 "$mt" criu-action >"$TMP/out" 2>"$TMP/err"; rc=$?
check "a tree in the root cgroup: exit 0, nothing written, says why" bash -c "
	[ $rc = 0 ] && [ -z '$(written)' ] && grep -q 'is in the root cgroup; nothing done' '$TMP/err'"
CRTOOLS_SCRIPT_ACTION=pre-dump CRTOOLS_INIT_PID=999 "$mt" criu-action >"$TMP/out" 2>"$TMP/err"; rc=$?
check "a process that is gone: exit 0, says why" bash -c "
	[ $rc = 0 ] && grep -q '^memtide: criu-action: pid:999: no such process; nothing done$' '$TMP/err'"
CRTOOLS_SCRIPT_ACTION=pre-dump "$mt" criu-action >"$TMP/out" 2>"$TMP/err"; rc=$?
check "no CRTOOLS_INIT_PID: exit 0, says why" bash -c "
	[ $rc = 0 ] && grep -q 'without CRTOOLS_INIT_PID' '$TMP/err' && [ -z '$(written)' ]"
done_testing
