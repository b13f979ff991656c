#!/usr/bin/env bash
# memtide idle on the host, against a fake cgroup tree: who is shrunk after being idle for
# its IdleThreshold, and who is not (busy, under memory pressure or scan pressure, no
# Shrink=idle), the
# re-arming when activity comes back, and SIGTERM; what it says it watches, and what it tells
# systemd (sd_notify: READY=1 after the first look, a STATUS= per round, STOPPING=1). The
# fake cpu.stat / memory.pressure files are written by the test; memory.reclaim is a plain
# file that keeps what was written.
. "$(dirname "$0")/lib.sh"
plan 10
build_tool

cg=$TMP/cg units=$TMP/units
echo "anon 0" >"$TMP/stat"
for s in "" spot.slice busy.slice tense.slice scanned.slice plain.slice; do
	mkdir -p "$cg/$s"
	cp "$TMP/stat" "$cg/$s/memory.stat"
	echo "usage_usec 1000" >"$cg/$s/cpu.stat"
	echo "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" >"$cg/$s/memory.pressure"
	: >"$cg/$s/memory.reclaim"
done
echo "some avg10=25.00 avg60=5.00 avg300=1.00 total=9" >"$cg/tense.slice/memory.pressure"
printf 'anon 0\nscan_pressure 400\n' >"$cg/scanned.slice/memory.stat"
for s in spot busy tense scanned; do
	mkdir -p "$units/$s.slice.d"
	printf '[X-Memtide]\nShrink=idle\nIdleThreshold=400ms\n' >"$units/$s.slice.d/idle.conf"
done
printf 'memory.reclaim amount=bytes,max swappiness=0-200,max result=reclaimed\n' >"$TMP/features"
export MEMTIDE_CGROUP_ROOT=$cg MEMTIDE_UNIT_PATH=$units MEMTIDE_STATE_DIR=$TMP/state \
	MEMTIDE_FEATURES_FILE=$TMP/features

# systemd's end of sd_notify: a datagram socket, each message a block of $TMP/notify
python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(30)
with open(sys.argv[2], "w") as out:
    while True:
        d = s.recv(4096).decode()
        out.write(d + "\n--\n")
        out.flush()
        if "STOPPING=1" in d:
            break
' "$TMP/notify.sock" "$TMP/notify" &
for _ in $(seq 50); do [ -S "$TMP/notify.sock" ] && break; sleep 0.1; done
# busy.slice uses 10% of a CPU throughout; spot.slice wakes up once, at 1.2 s
(u=1000; for _ in $(seq 40); do u=$((u + 10000)); echo "usage_usec $u" >"$cg/busy.slice/cpu.stat"; sleep 0.1; done) &
busy=$!
(sleep 1.2; echo "usage_usec 900000" >"$cg/spot.slice/cpu.stat") &
# tense.slice's drop-in goes at 2 s, at once (a rename): it leaves the plan
(sleep 2; mv "$units/tense.slice.d" "$TMP/tense.slice.d.gone") &
NOTIFY_SOCKET=$TMP/notify.sock "$mt" idle --interval 200ms --count 16 >"$TMP/out" 2>"$TMP/err"; rc=$?
wait
check "exit 0 after --count rounds, nothing on stderr (exit $rc)" bash -c "[ $rc = 0 ] && [ ! -s '$TMP/err' ]"
check "the idle slice is reclaimed with max" test "$(cat "$cg/spot.slice/memory.reclaim")" = max
check "... twice: once idle, and again after it was active and idle again" \
	test "$(grep -c '^idle [0-9.]* ms: /spot.slice: reclaimed' "$TMP/out")" = 2
check "busy, under pressure or scan pressure, or without Shrink=idle: never" bash -c "
	[ ! -s '$cg/busy.slice/memory.reclaim' ] && [ ! -s '$cg/tense.slice/memory.reclaim' ] &&
	[ ! -s '$cg/scanned.slice/memory.reclaim' ] &&
	[ ! -s '$cg/plain.slice/memory.reclaim' ] && [ \$(grep -c '^idle' '$TMP/out') = 2 ]"
# in the order of the tree's walk: the four, then tense leaving
check "it says what it watches, as cgroups come and go" diff -u - \
	<(grep watching "$TMP/out" | head -n 4 | sort; grep watching "$TMP/out" | tail -n +5) <<'EOF2'
watching /busy.slice (reclaimed after 400 ms idle)
watching /scanned.slice (reclaimed after 400 ms idle)
watching /spot.slice (reclaimed after 400 ms idle)
watching /tense.slice (reclaimed after 400 ms idle)
no longer watching /tense.slice
EOF2
check "sd_notify: READY=1 once, with the first round's status; STOPPING=1 last" bash -c "
	[ \$(grep -c '^READY=1\$' '$TMP/notify') = 1 ] &&
	head -n 2 '$TMP/notify' | tr '\n' '|' | grep -qx 'READY=1|STATUS=watching 4 cgroups with Shrink=idle; 0 shrunk, left alone until active|' &&
	[ \$(grep -c '^STATUS=' '$TMP/notify') = 16 ] && tail -n 2 '$TMP/notify' | head -n 1 | grep -qx STOPPING=1 ||
	{ cat '$TMP/notify'; false; }"
check "... its status counts the slice shrunk and the one that left" \
	grep -q '^STATUS=watching 3 cgroups with Shrink=idle; 1 shrunk, left alone until active$' "$TMP/notify"
expect_error "--interval on another command: exit 2" 2 "^memtide: --interval and --count are for idle only$" \
	bash -c "'$mt' status --interval 1s 2>&1 >/dev/null | grep -v '^Try' >&2; exit \${PIPESTATUS[0]}"

# a tree it cannot read (a cgroup it may not list, memtide without root's DAC override):
# said once on stderr, not every round, and the daemon goes on
mkdir "$cg/locked.slice" && chmod 000 "$cg/locked.slice"
setpriv --inh-caps=-all --bounding-set=-dac_override,-dac_read_search "$mt" idle --interval 100ms --count 3 \
	>"$TMP/out" 2>"$TMP/err"; rc=$?
chmod 755 "$cg/locked.slice" && rmdir "$cg/locked.slice"
check "a tree it cannot read: one line on stderr, exit 0 (exit $rc)" bash -c "
	[ $rc = 0 ] && [ \"\$(cat '$TMP/err')\" = 'memtide: cannot read the cgroup tree: Permission denied; trying again every interval' ] ||
	{ cat '$TMP/err'; false; }"

"$mt" idle --interval 1s >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid
t0=$(date +%s%N)
wait $pid; rc=$?
check "SIGTERM: exit 0 within a second (exit $rc)" \
	test "$rc" = 0 -a $(( ($(date +%s%N) - t0) / 1000000 )) -lt 1000
done_testing
