#!/usr/bin/env bash
# mkinitramfs.sh FLAVOUR OUT.cpio: the guest image for one kernel flavour, a newc cpio of
#   /bin/busybox (+ applet links made by /init), /init (./init),
#   /opt/memtide/bin/          memtide's static tests and guest scripts
#   /opt/memtide/upstream/     upstream's static cgroup selftests from that flavour's tree
#   /usr/bin/memtide           the tool, with the shared libraries it links at their paths
#   /opt/memtide/install/      the tool as `make install` lays it out under /usr, with its
#                              units and sleep hook, for the systemd guest's root file system
#   /opt/memtide/rootfs/       the systemd guest's payload service (memtide-payload.service)
#   /opt/memtide/systemd/      the systemd guest's tests (selftests/systemd/)
#   /usr/bin/script            util-linux's, to run the tool on a terminal in its test
#   /etc/hosts, /etc/passwd    for getaddrinfo("localhost") (test_memcg_sock) and su
#   /lib/modules/memtide-preload/  the modules /init loads before it mounts a disk: only a
#                              kernel with modules has them (debian: virtio_blk)
# vm-run.sh appends each run's payload as a second archive.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 FLAVOUR OUT.cpio" >&2; exit 2; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
flavour=$1 out=$2
tests=$BUILD/tests

stage=$(mktemp -d "$BUILD/vm/rootfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,root,payload,opt/memtide/bin,opt/memtide/upstream}
cp /bin/busybox "$stage/bin/busybox"
file -L "$stage/bin/busybox" | grep -q "statically linked" ||
	{ echo "$0: /bin/busybox is not static (apt-get install busybox-static)" >&2; exit 1; }
install -m 0755 "$ROOT/selftests/vm/init" "$stage/init"
cp "$tests/memtide/"* "$stage/opt/memtide/bin/"
install -m 0755 "$ROOT/selftests/vm/guest-suite.sh" "$ROOT/selftests/vm/payload-run.sh" "$stage/opt/memtide/bin/"
install -D -m 0644 "$ROOT/selftests/vm/memtide-payload.service" "$stage/opt/memtide/rootfs/memtide-payload.service"
mkdir -p "$stage/opt/memtide/systemd"
install -m 0755 "$ROOT"/selftests/systemd/*.sh "$stage/opt/memtide/systemd/"
make -s -C "$ROOT/cgroup-tools" install OUT="$BUILD/tools" DESTDIR="$stage/opt/memtide/install" PREFIX=/usr \
	SLEEPDIR=/usr/lib/systemd/system-sleep UNITDIR=/usr/lib/systemd/system >/dev/null
# Debian's kernel has no source tree here, so no upstream tests (its guest runs the tool's)
[ "$flavour" = debian ] || cp "$tests/upstream-$flavour/"* "$stage/opt/memtide/upstream/"
if [ -d "$BUILD/obj/$flavour/modules" ]; then
	mkdir -p "$stage/lib/modules/memtide-preload"
	cp "$BUILD/obj/$flavour/modules/"*.ko "$stage/lib/modules/memtide-preload/"
fi
# The tool links libsystemd, which Debian ships as a shared library only: copy the binary's
# libraries and loader to the paths ldd names. script(1) gives the tool's test a terminal.
install -D -m 0755 "$BUILD/tools/memtide" "$stage/usr/bin/memtide"
install -D -m 0755 /usr/bin/script "$stage/usr/bin/script"
for bin in "$BUILD/tools/memtide" /usr/bin/script; do ldd "$bin"; done | grep -o '/[^ ]*' | sort -u |
while read -r lib; do
	install -D -m 0755 "$lib" "$stage$lib"
done
printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' >"$stage/etc/hosts"
printf 'hosts: files\n' >"$stage/etc/nsswitch.conf"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$out.tmp"
mv "$out.tmp" "$out"
