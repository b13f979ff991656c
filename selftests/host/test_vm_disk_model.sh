#!/usr/bin/env bash
# make bench's disk models reach QEMU: vm-run.sh turns DISK_BPS and DISK_IOPS into the
# swap drive's throttling (bps-total, iops-total: the "seed" disk and the "cloud volume"),
# DISK_LATENCY_MS into nbdkit's delay filter serving the swap drive, and leaves the scratch
# disk, which no figure times, uncapped. QEMU is a stand-in (lib.sh fake_vm) that records its
# arguments; so is nbdkit (it records its own and listens on the socket it is given).
. "$(dirname "$0")/lib.sh"
plan 12

fake_vm
echo 'echo hi' >"$TMP/s.sh"
# drives_of NAME SETTINGS...: vm-run.sh with SETTINGS; QEMU's -drive values in $TMP/drives.NAME
drives_of() {
	local name=$1
	shift
	env -i PATH="$vm_stand_in:$PATH" BUILD="$vm_build" QEMU_ARGS_LOG="$TMP/args.$name" \
		SCRIPT="$TMP/s.sh" KERNEL=memtide "$@" "$ROOT/selftests/vm/vm-run.sh" >"$TMP/vm.$name.log" 2>&1
	grep -A1 -x -- -drive "$TMP/args.$name" | grep -v -x -- '-drive\|--' >"$TMP/drives.$name"
}
drives_of seed DISK_BPS=100000000
check "seed: the swap drive is capped at 100 MB/s, no request cap" \
	bash -c "grep 'id=swap,' '$TMP/drives.seed' | grep -q ',throttling.bps-total=100000000\$'"
drives_of cloud DISK_BPS=100000000 DISK_IOPS=3000
check "cloud volume: 100 MB/s and 3000 requests/s on the swap drive" \
	bash -c "grep 'id=swap,' '$TMP/drives.cloud' | grep -q ',throttling.bps-total=100000000,throttling.iops-total=3000\$'"
drives_of uncapped DISK_BPS=0 DISK_IOPS=0
check "uncapped: no throttling on any drive" \
	bash -c "[ \$(wc -l <'$TMP/drives.uncapped') -ge 2 ] && ! grep -q throttling '$TMP/drives.uncapped'"
check "the scratch drive is never throttled" \
	bash -c "grep -q 'id=scratch,' '$TMP/drives.cloud' && ! grep 'id=scratch,' '$TMP/drives.cloud' | grep -q throttling"

# nbdkit stand-in: its arguments to $NBDKIT_ARGS_LOG, a listening socket at -U's path
cat >"$vm_stand_in/nbdkit" <<'N'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$NBDKIT_ARGS_LOG"
echo $$ >"$NBDKIT_ARGS_LOG.pid"
while [ $# -gt 0 ]; do [ "$1" = -U ] && sock=$2; shift; done
exec python3 -c 'import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(); time.sleep(60)' "$sock"
N
chmod +x "$vm_stand_in/nbdkit"
export NBDKIT_ARGS_LOG="$TMP/nbdkit.args"
drives_of latency DISK_BPS=131072000 DISK_IOPS=3000 DISK_LATENCY_MS=1 NBDKIT_ARGS_LOG="$TMP/nbdkit.args" VM_LOG="$TMP/latency.console"
check "latency: nbdkit's delay filter delays reads and writes by 1 ms" \
	bash -c "grep -qx -- '--filter=delay' '$TMP/nbdkit.args' && grep -qx rdelay=1ms '$TMP/nbdkit.args' && grep -qx wdelay=1ms '$TMP/nbdkit.args'"
check "latency: the swap drive is nbdkit's socket, still capped by QEMU" \
	bash -c "grep 'id=swap,' '$TMP/drives.latency' | grep -q 'file.driver=nbd,.*,throttling.bps-total=131072000,throttling.iops-total=3000\$'"
check "latency: the log says the model (bench checks each run had it)" \
	grep -qx 'memtide-host: swap disk latency 1 ms (nbdkit delay filter)' "$TMP/latency.console"
check "latency: nbdkit is gone with the run" \
	bash -c "[ -s '$TMP/nbdkit.args.pid' ] && ! kill -0 \$(cat '$TMP/nbdkit.args.pid') 2>/dev/null"
: >"$TMP/nbdkit.args"
drives_of nolatency DISK_BPS=131072000 NBDKIT_ARGS_LOG="$TMP/nbdkit.args"
check "no latency: no nbdkit, the swap drive is the file" \
	bash -c "[ ! -s '$TMP/nbdkit.args' ] && grep 'id=swap,' '$TMP/drives.nolatency' | grep -q '^file=.*swap.img,'"

# bench's check of each run (latency-check.sh, in the latency scenarios' host_result)
lc=$ROOT/selftests/bench/latency-check.sh
check "latency-check: a run with the latency asked for passes" \
	bash -c "[ -z \"\$('$lc' '$TMP/latency.console' 1)\" ]"
check "latency-check: a run with another latency is an rc" \
	bash -c "[ \"\$('$lc' '$TMP/latency.console' 2)\" = rc=disk-latency-1-not-2 ]"
echo 'memtide-host: boot 1 at 0' >"$TMP/none.console"
check "latency-check: a run without one is an rc" \
	bash -c "[ \"\$('$lc' '$TMP/none.console' 1)\" = rc=disk-latency-0-not-1 ]"
done_testing
