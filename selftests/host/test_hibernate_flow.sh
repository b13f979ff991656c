#!/usr/bin/env bash
# memtide hibernate / resume on the host, against a fake cgroup tree with [X-Memtide]
# drop-ins (no real cgroup, no real hibernation): the plan, the writes it makes, the order
# of release after resume, and bad drop-ins. The memory.reclaim / memory.release files of
# the fake tree are plain files, so what memtide wrote stays there to be read.
. "$(dirname "$0")/lib.sh"
plan 9
build_tool

cg=$TMP/cg units=$TMP/units
for d in "" init.scope system.slice system.slice/db.service system.slice/web.service \
	user.slice spot.slice spot.slice/batch.service; do
	mkdir -p "$cg/$d"
	echo "anon 0" >"$cg/$d/memory.stat"
	: >"$cg/$d/memory.reclaim"
	: >"$cg/$d/memory.release"
done
mkdir -p "$units/db.service.d" "$units/user.slice.d" "$units/spot.slice.d" "$units/batch.service.d"
printf '[X-Memtide]\nShrink=never\n' >"$units/db.service.d/memtide.conf"
printf '[X-Memtide]\nReleasePriority=900\n' >"$units/user.slice.d/memtide.conf"
printf '[X-Memtide]\nShrink=idle\n' >"$units/spot.slice.d/memtide.conf"
printf '[X-Memtide]\nShrink=hibernate\nReleasePriority=10\n' >"$units/batch.service.d/memtide.conf"
# a memtide kernel's feature list, so that memtide writes "max" and uses memory.release
printf 'memory.reclaim amount=bytes,max swappiness=0-200,max result=reclaimed\nmemory.release amount=bytes,max result=released\n' >"$TMP/features"
export MEMTIDE_CGROUP_ROOT=$cg MEMTIDE_UNIT_PATH=$units MEMTIDE_STATE_DIR=$TMP/state \
	MEMTIDE_FEATURES_FILE=$TMP/features MEMTIDE_POWER_STATE=$TMP/power-state
: >"$TMP/power-state" # stands for /sys/power/state

# written FILE: the cgroups whose FILE memtide wrote to
written() { find "$cg" -name "$1" -size +0 | sed "s|^$cg||; s|/$1$||" | sort | tr '\n' ' '; }

"$mt" hibernate --dry-run >"$TMP/out" 2>"$TMP/err"
check "--dry-run: exit 0, the plan in release order" \
	test "$(awk '/priority/ { print $1, $3 }' "$TMP/out" | tr '\n' ' ')" = \
	"/user.slice 900 /system.slice/web.service 100 /spot.slice/batch.service 10 "
check "--dry-run: names what its policy keeps, and writes nothing" bash -c "
	grep -q '^kept by its \[X-Memtide\] policy: /system.slice/db.service$' '$TMP/out' &&
	grep -q '^kept by its \[X-Memtide\] policy: /spot.slice$' '$TMP/out' &&
	[ -z \"\$(find '$cg' -name 'memory.re*' -size +0)\" ] && [ ! -s '$TMP/power-state' ]"
"$mt" hibernate --dry-run --json >"$TMP/out.json"
check "--dry-run --json" python3 -c "
import json
p = json.load(open('$TMP/out.json'))
assert [e['cgroup'] for e in p['shrink_then_release']] == ['/user.slice', '/system.slice/web.service', '/spot.slice/batch.service'], p
assert sorted(p['kept']) == ['/spot.slice', '/system.slice/db.service'], p"

"$mt" hibernate --prepare-only >"$TMP/out" 2>"$TMP/err"; rc=$?
check "--prepare-only: reclaims exactly the planned cgroups, does not hibernate (exit $rc)" bash -c "
	[ $rc = 0 ] && [ \"$(written memory.reclaim)\" = '/spot.slice/batch.service /system.slice/web.service /user.slice ' ] &&
	[ \"\$(cat '$cg/user.slice/memory.reclaim')\" = max ] && [ ! -s '$TMP/power-state' ] &&
	[ -z \"$(written memory.release)\" ]"
"$mt" resume >"$TMP/out" 2>"$TMP/err"; rc=$?
check "resume: releases them in priority order (exit $rc)" \
	test "$rc $(awk -F: '/released/ { print $1 }' "$TMP/out" | tr '\n' ' ')" = \
	"0 /user.slice /system.slice/web.service /spot.slice/batch.service "
"$mt" resume >"$TMP/out" 2>"$TMP/err"; rc=$?
check "a second resume has nothing to do (exit $rc)" bash -c "
	[ $rc = 0 ] && grep -q '^nothing to release' '$TMP/out'"

find "$cg" -name 'memory.re*' -exec truncate -s 0 {} +
"$mt" hibernate >"$TMP/out" 2>"$TMP/err"; rc=$?
check "hibernate without systemd: shrink, 'disk' to the power state file, release (exit $rc)" bash -c "
	[ $rc = 0 ] && [ \"\$(cat '$TMP/power-state')\" = disk ] &&
	[ \"$(written memory.release)\" = '/spot.slice/batch.service /system.slice/web.service /user.slice ' ]"

# a bad drop-in: a warning with file and line, the file ignored as a whole
printf '[X-Memtide]\nReleasePriority=5\nShrink=sometimes\n' >"$units/user.slice.d/zz-bad.conf"
"$mt" hibernate --dry-run >"$TMP/out" 2>"$TMP/err"; rc=$?
check "a bad drop-in: one warning naming file and line (exit $rc)" bash -c "
	[ $rc = 0 ] && [ \$(wc -l <'$TMP/err') = 1 ] &&
	grep -q \"^memtide: warning: $units/user.slice.d/zz-bad.conf:3: invalid Shrink 'sometimes'; the file is ignored$\" '$TMP/err'"
check "... and nothing of it applied (user.slice keeps priority 900)" \
	grep -q "^  /user.slice  *priority 900$" "$TMP/out"
done_testing
