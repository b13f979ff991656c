# TAP helpers for the host tests (sourced). Each test file: plan N, then ok/fail per check.
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_n=0
_failed=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

plan() { echo "1..$1"; }
ok() { _n=$((_n + 1)); echo "ok $_n $1"; }
fail() { _n=$((_n + 1)); _failed=1; echo "not ok $_n $1"; shift; for l in "$@"; do echo "# $l"; done; }
# skip WHY: a check that cannot run here, counted as skipped (never as passed)
skip() { _n=$((_n + 1)); echo "ok $_n # SKIP $1"; }
# check NAME CMD...: ok if CMD succeeds
check() { local name=$1; shift; if "$@"; then ok "$name"; else fail "$name"; fi; }
done_testing() { exit $_failed; }

# expect_error NAME WANT_STATUS PATTERN CMD...: CMD must exit WANT_STATUS and print exactly one
# line on stderr, matching PATTERN, and nothing on stdout.
expect_error() {
	local name=$1 want=$2 pattern=$3 status
	shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"
	status=$?
	if [ "$status" -eq "$want" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
		grep -qE -- "$pattern" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		ok "$name"
	else
		fail "$name" "status $status (want $want), stderr: $(head -c 300 "$TMP/err" | tr '\n' '|')" \
			"stdout: $(head -c 200 "$TMP/out" | tr '\n' '|')"
	fi
}

# build_tool: build the memtide tool into build/tools (its path is $mt), or fail the test
# file with the build's last lines.
mt=$ROOT/build/tools/memtide
build_tool() {
	make -s -C "$ROOT/cgroup-tools" OUT="$ROOT/build/tools" "$mt" >"$TMP/build.log" 2>&1 ||
		{ fail "build" "$(tail -n 5 "$TMP/build.log")"; done_testing; }
}

# fake_vm: a build tree (build/obj/KERNEL/.../bzImage and initramfs images, empty) and a
# QEMU stand-in in $TMP/bin, for vm-run.sh without a guest. The stand-in writes its
# arguments, one per line, to $QEMU_ARGS_LOG and its -append to $QEMU_APPEND_LOG (each if
# set), and prints the exit line the guest's /init would (with vm-run's nonce). Given
# -pidfile, it writes its PID there; with FAKE_QEMU_STALL=1 it then stays, as a QEMU with
# -no-shutdown does after the guest's power-off, until killed.
# vm_build=$TMP/build and vm_stand_in=$TMP/bin, for BUILD= and PATH=.
vm_build=$TMP/build
vm_stand_in=$TMP/bin
fake_vm() {
	local k
	mkdir -p "$vm_stand_in" "$vm_build/vm"
	for k in memtide memtide-debug vanilla vanilla-debug; do
		mkdir -p "$vm_build/obj/$k/arch/x86/boot" && : >"$vm_build/obj/$k/arch/x86/boot/bzImage"
	done
	: >"$vm_build/vm/initramfs-memtide.cpio"
	: >"$vm_build/vm/initramfs-vanilla.cpio"
	cat >"$vm_stand_in/qemu-system-x86_64" <<'Q'
#!/usr/bin/env bash
[ -z "${QEMU_ARGS_LOG:-}" ] || printf '%s\n' "$@" >"$QEMU_ARGS_LOG"
while [ $# -gt 0 ]; do
	case $1 in
	-append) append=$2 ;;
	-pidfile) echo $$ >"$2" ;;
	esac
	shift
done
[ -z "${QEMU_APPEND_LOG:-}" ] || printf '%s\n' "$append" >"$QEMU_APPEND_LOG"
nonce=$(sed -n 's/.*memtide\.nonce=\([0-9a-f]*\).*/\1/p' <<<"$append")
echo "memtide-exit $nonce 0"
# (exec: the PID in the pidfile is the one that holds the console open)
[ "${FAKE_QEMU_STALL:-0}" = 0 ] || exec sleep 60
Q
	chmod +x "$vm_stand_in/qemu-system-x86_64"
}
