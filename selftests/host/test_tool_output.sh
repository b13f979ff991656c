#!/usr/bin/env bash
# What the memtide tool prints, on the host against a fake cgroup tree: cgroup names that a
# delegated user made with a terminal's escape sequences or a newline reach neither the
# terminal raw nor the state file as lines of their own; a write error on stdout is an
# error (exit 1, one line), as util-linux's close_stdout() makes it; the progress bar keeps
# to the terminal's width.
. "$(dirname "$0")/lib.sh"
# the tree's lines are ASCII in the C locale (box drawing in a UTF-8 one)
export LC_ALL=C
plan 17
build_tool

cg=$TMP/cg
osc=$'x\e]0;owned\a'			# sets the terminal's title
forger=$'p\nreclaim done 734003200 1 '	# with a.slice below it: a line of the state file
blink=$'bar\e[5m.slice'
for d in "" a.slice "$osc" "$forger" "$forger/a.slice" "$blink"; do
	mkdir -p "$cg/$d"
	echo "anon 0" >"$cg/$d/memory.stat"
	: >"$cg/$d/memory.reclaim"
done
echo 734003200 >"$cg/a.slice/memory.current"
echo 734003200 >"$cg/$blink/memory.current"
printf 'memory.reclaim amount=bytes,max swappiness=0-200,max result=reclaimed\n' >"$TMP/features"
export MEMTIDE_CGROUP_ROOT=$cg MEMTIDE_STATE_DIR=$TMP/state MEMTIDE_FEATURES_FILE=$TMP/features

# clean FILE: no control character in FILE but the ends of its lines
clean() { ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1"; }

"$mt" status >"$TMP/status" 2>&1
check "status: no control character reaches the terminal" clean "$TMP/status"
check "status: one line per cgroup, names escaped" bash -c "
	[ \$(wc -l <'$TMP/status') = 7 ] && grep -qF -- '-x\\x1b]0;owned\\a ' '$TMP/status' &&
	grep -qF -- '-p\\nreclaim done 734003200 1  ' '$TMP/status'"
"$mt" reclaim "/$osc" max >"$TMP/out" 2>&1
check "reclaim: the result line names the cgroup escaped" \
	grep -qxF '/x\x1b]0;owned\a: reclaimed 0 B' "$TMP/out"
expect_error "an unknown target is named escaped (exit 1)" 1 \
	'^memtide: /no\\x1b\[2Jsuch: no such cgroup$' "$mt" reclaim $'/no\e[2Jsuch' max

# a name cannot forge a line of the state file: a.slice was never reclaimed
rm -rf "$TMP/state"
"$mt" reclaim "/$forger/a.slice" max >/dev/null 2>&1
check "state: the forger's reclaim is one record" test "$(wc -l <"$TMP/state/last")" = 1
check "state: no record for /a.slice; the forger's own is found" python3 -c "
import json, subprocess
def last(path):
    out = subprocess.run(['$mt', 'status', '--json', '--depth', '0', path], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)['cgroups'][0]['last']
assert last('/a.slice') is None, last('/a.slice')
assert last('''/$forger/a.slice''')['reclaim']['status'] == 'done'"

# stdout that cannot be written: one line, exit 1 (the rest of the command was done)
for args in "status" "features" "--help"; do
	expect_error "$args >/dev/full: exit 1, one line" 1 \
		"^memtide: write error: No space left on device$" bash -c "'$mt' $args >/dev/full"
done

# the progress bar on a terminal of 40 columns, and of 0 (a serial line) with COLUMNS=50:
# memory.reclaim is a FIFO kept full, so that the write blocks until --timeout
rm -f "$cg/$blink/memory.reclaim"
mkfifo "$cg/$blink/memory.reclaim"
python3 -c "
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_NONBLOCK)
try:
    while True:
        os.write(fd, b'x' * 4096)
except BlockingIOError:
    pass
print('full', flush=True)
time.sleep(30)" "$cg/$blink/memory.reclaim" >"$TMP/filler" &
filler=$!
for _ in $(seq 300); do grep -q full "$TMP/filler" 2>/dev/null && break; sleep 0.1; done
# bar COLS STTY [ENV...]: the redraws of the bar in a pty of STTY's size, one a line
bar() {
	local cols=$1 size=$2
	shift 2
	env "$@" script -qec "stty $size; '$mt' reclaim '/$blink' max --timeout 1800ms" /dev/null \
		>"$TMP/tty" 2>&1
	# each redraw is \r LINE \e[K; the last line is the result
	tr '\r' '\n' <"$TMP/tty" | sed -n 's/\x1b\[K$//p' | grep . >"$TMP/bars.$cols"
}
# fits COLS: at least one redraw, none wider than COLS - 1, none with a raw escape
fits() {
	[ -s "$TMP/bars.$1" ] && ! LC_ALL=C grep -q $'\e' "$TMP/bars.$1" &&
		[ "$(awk '{ if (length($0) > n) n = length($0) } END { print n }' "$TMP/bars.$1")" -le $(($1 - 1)) ]
}
bar 40 "cols 40 rows 24"
check "progress bar on 40 columns: every redraw fits, the name escaped" fits 40
check "... and then the result (exit 4, --timeout)" \
	grep -qF '/bar\x1b[5m.slice: reclaimed 0 B; interrupted' "$TMP/tty"
bar 50 "cols 0 rows 0" COLUMNS=50
check "progress bar, a terminal without a size: COLUMNS=50" fits 50
bar 80 "cols 0 rows 0" -u COLUMNS
check "progress bar, neither: 80 columns" fits 80
kill $filler
wait $filler 2>/dev/null

# status on a terminal of 80 columns keeps to it, as lsblk does: the last result is cut, a
# name never (two docker-<id>.scope cut alike would read the same): a row whose name is too
# long goes on below it. Into a pipe nothing is cut or moved.
long=docker-0123456789abcdef0123456789abcdef0123456789abcdef.scope
mkdir -p "$cg/a.slice/$long" && echo "anon 0" >"$cg/a.slice/$long/memory.stat"
script -qec "stty cols 80 rows 24; '$mt' status" /dev/null | tr -d '\r' >"$TMP/status.tty"
check "status on 80 columns: every line fits, the long name whole" bash -c "
	[ \$(awk '{ if (length(\$0) > n) n = length(\$0) } END { print n }' '$TMP/status.tty') -le 80 ] &&
	grep -qF -- '-$long' '$TMP/status.tty'"
"$mt" status >"$TMP/status.pipe"
check "status into a pipe: the names whole, a row a line" bash -c "
	grep -qF -- '-p\\nreclaim done 734003200 1 ' '$TMP/status.pipe' &&
	grep -q -- '-$long  *0 B ' '$TMP/status.pipe' && [ \$(wc -l <'$TMP/status.pipe') = 8 ]"

# a name in UTF-8 (a delegated user's mkdir): libsmartcols cannot measure it outside a UTF-8
# locale, where it is escaped; in one it is shown as it is
mkdir -p "$cg/café.slice" && echo "anon 0" >"$cg/café.slice/memory.stat"
check "status in the C locale: a UTF-8 name escaped, and the table printed" bash -c "
	timeout 10 '$mt' status >'$TMP/status.c' && grep -qF -- '-caf\\xc3\\xa9.slice ' '$TMP/status.c'"
check "status in a UTF-8 locale: the name as it is, the tree in box drawing" bash -c "
	LC_ALL=C.UTF-8 timeout 10 '$mt' status >'$TMP/status.u' && grep -qF -- '─café.slice ' '$TMP/status.u'"
done_testing
