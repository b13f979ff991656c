#!/usr/bin/env bash
# selftests/vm/qmp-blockstats.py against a real QEMU without a guest (its firmware finds
# nothing to boot; a second QMP socket plays the guest's power-off with system_reset, which
# -no-reboot makes a shutdown): the counts once QEMU stops, QEMU then told to quit, whether the stop came
# before or after it connected; nothing when QEMU goes away; one line and status 1 when it
# cannot do its job (vm-run then stops QEMU itself).
. "$(dirname "$0")/lib.sh"
plan 8
helper=$ROOT/selftests/vm/qmp-blockstats.py
truncate -s 16M "$TMP/d.img"

# qemu_start: a QEMU with the drive "swap" and two QMP sockets, a.sock for the helper,
# b.sock for the test; its exit status goes to $TMP/qemu.rc
qemu_start() {
	rm -f "$TMP"/a.sock "$TMP"/b.sock "$TMP/qemu.rc"
	(
		timeout 60 qemu-system-x86_64 -accel tcg -nodefaults -display none -no-reboot -no-shutdown \
			-qmp "unix:$TMP/a.sock,server=on,wait=off" -qmp "unix:$TMP/b.sock,server=on,wait=off" \
			-drive "file=$TMP/d.img,if=none,id=swap,format=raw" -device virtio-blk-pci,drive=swap \
			>/dev/null 2>&1
		echo $? >"$TMP/qemu.rc"
	) &
	qemu_pid=$!
	for _ in $(seq 1 100); do [ -S "$TMP/b.sock" ] && return 0; sleep 0.05; done
	return 1
}
# qmp_b COMMAND: COMMAND on the test's socket
qmp_b() {
	python3 - "$TMP/b.sock" "$1" <<'P'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()
for cmd in ("qmp_capabilities", sys.argv[2]):
    f.write(json.dumps({"execute": cmd}) + "\n")
    f.flush()
    while "return" not in json.loads(f.readline()):
        pass
P
}
# (the firmware reads the disk's first sector looking for a boot record)
counts='^swap rd_ops=[0-9]+ rd_bytes=[0-9]+ wr_ops=0 wr_bytes=0$'

# helper_while COMMAND: a fresh QEMU; the helper connects, then the test sends COMMAND; the
# helper's status in $st, once both are done
helper_while() {
	qemu_start
	"$helper" "$TMP/a.sock" swap >"$TMP/out" 2>"$TMP/err" &
	local h=$! i
	# the command once the helper is connected (ss: the socket's connected peers)
	for i in $(seq 1 100); do
		ss -x state connected | grep -q -- "$TMP/a.sock" && break
		sleep 0.05
	done
	qmp_b "$1"
	wait $h
	st=$?
	wait $qemu_pid
}

helper_while system_reset
check "stopped after it connected: the drive's counts in one line, QEMU told to quit (exit 0)" \
	bash -c "[ $st = 0 ] && grep -Eqx '$counts' '$TMP/out' && [ \$(wc -l <'$TMP/out') = 1 ] && [ ! -s '$TMP/err' ] && [ \"\$(cat '$TMP/qemu.rc')\" = 0 ]"

qemu_start
qmp_b system_reset
"$helper" "$TMP/a.sock" swap >"$TMP/out" 2>"$TMP/err"
st=$?
wait $qemu_pid
check "stopped before it connected (no event to see): the counts all the same, QEMU quits" \
	bash -c "[ $st = 0 ] && grep -Eqx '$counts' '$TMP/out' && [ \$(wc -l <'$TMP/out') = 1 ] && [ \"\$(cat '$TMP/qemu.rc')\" = 0 ]"

helper_while quit
check "QEMU went away first (vm-run's timeout): status 0, nothing printed" \
	bash -c "[ $st = 0 ] && [ ! -s '$TMP/out' ] && [ ! -s '$TMP/err' ]"

qemu_start
qmp_b system_reset
expect_error "no such drive: one line, status 1" 1 "^qmp-blockstats: QEMU has no drive 'nope'\$" \
	"$helper" "$TMP/a.sock" nope
qmp_b quit
wait $qemu_pid
expect_error "no QEMU at the socket: one line, status 1" 1 "^qmp-blockstats: " \
	env QMP_CONNECT_TIMEOUT_S=0.5 "$helper" "$TMP/none.sock" swap
expect_error "without its arguments: usage, status 2" 2 "^usage: qmp-blockstats.py SOCKET DRIVE\$" "$helper"
# vm-run's side: a helper that fails (the stand-in QEMU makes no QMP socket, and stays as
# a QEMU with -no-shutdown would) has vm-run stop QEMU, and the log says why. Left alone, the
# stand-in would stay until VM_TIMEOUT (30 s): stopped, the boot ends within seconds of the
# helper's 1 s wait (a bound on a hang, not a speed figure: 20 s)
fake_vm
echo 'echo hi' >"$TMP/s.sh"
env -i PATH="$vm_stand_in:$PATH" BUILD="$vm_build" SCRIPT="$TMP/s.sh" VM_BLOCKSTATS=1 VM_TIMEOUT=30 \
	FAKE_QEMU_STALL=1 QMP_CONNECT_TIMEOUT_S=1 VM_LOG="$TMP/stall.log" "$ROOT/selftests/vm/vm-run.sh" >/dev/null 2>&1
st=$?
t0=$(sed -n 's/^memtide-host: boot 1 at //p' "$TMP/stall.log")
t1=$(sed -n 's/^memtide-host: boot 1 exit at //p' "$TMP/stall.log")
check "vm-run: the helper failed, QEMU stopped after $(((${t1:-0} - ${t0:-0}) / 1000)) s, not at the timeout; the log says why" bash -c "
	[ $st = 0 ] && [ -n '$t0' ] && [ -n '$t1' ] && [ \$(($t1 - $t0)) -lt 20000 ] &&
	grep -q '^memtide-host: boot 1 blockstats failed: qmp-blockstats: ' '$TMP/stall.log'"
check "no QEMU left behind" bash -c "! pgrep -f -- '^qemu-system-x86_64 .*$TMP/a.sock' >/dev/null"
done_testing
