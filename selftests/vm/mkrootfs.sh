#!/usr/bin/env bash
# mkrootfs.sh: print the path of the Debian 12 root filesystem image the systemd guest boots
# (vm-run.sh ROOTFS=...), building it first when it is missing.
#
# The image is a minimal bookworm made by debootstrap, with systemd as PID 1, dbus and logind
# (unit names over the bus, `systemctl hibernate`), udev and criu (the CRIU flow). It is
# cached as build/rootfs/debian-HASH.img, HASH being that of this file: change the recipe
# below and the next run rebuilds it; otherwise it is reused (about 2 minutes and 120 MB of
# downloads saved). vm-run.sh boots a copy-on-write overlay of it, so runs never change it.
# The memtide tool, the tests and the payload are not in the image: the guest's /init copies
# them in at each boot (see ./init), so the image outlives tool changes.
#
# Settings: MIRROR (default http://deb.debian.org/debian), ROOTFS_MB (image size, 2048).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
ROOTFS_MB=${ROOTFS_MB:-2048}

# The recipe: what the guest needs besides minbase. libcgroup2 and libjson-c5 are the
# tool's own libraries (libsystemd0 comes with systemd).
packages=systemd,systemd-sysv,dbus,udev,procps,kmod,iproute2,criu,libcgroup2,libjson-c5
# Units a test guest does not want: a login prompt on the console the tests write to, and
# timers that would wake up in the middle of a measurement.
masked=(serial-getty@ttyS0.service getty@tty1.service getty-static.service
	apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer
	systemd-tmpfiles-clean.timer dpkg-db-backup.timer)

hash=$(sha256sum "$0" | cut -c1-12)
img=$BUILD/rootfs/debian-$hash.img
if [ -f "$img" ]; then
	echo "$img"
	exit 0
fi

command -v debootstrap >/dev/null || { echo "$0: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "$0: debootstrap needs root" >&2; exit 1; }
mkdir -p "$BUILD/rootfs"
dir=$(mktemp -d "$BUILD/rootfs/tree.XXXXXX")
trap 'rm -rf "$dir" "$img.tmp"' EXIT
echo "==> debootstrap bookworm into $dir (log: $BUILD/rootfs/debootstrap.log)" >&2
debootstrap --variant=minbase --include="$packages" bookworm "$dir" "$MIRROR" \
	>"$BUILD/rootfs/debootstrap.log" 2>&1 ||
	{ echo "$0: debootstrap failed; last lines:" >&2; tail -n 15 "$BUILD/rootfs/debootstrap.log" >&2; exit 1; }

echo memtide-guest >"$dir/etc/hostname"
printf '127.0.0.1\tlocalhost memtide-guest\n::1\tlocalhost\n' >"$dir/etc/hosts"
# / is mounted by the guest's /init before systemd starts; swap is enabled by the payload
# runner (vm-run.sh makes the swap disk fresh each run)
: >"$dir/etc/fstab"
passwd -R "$dir" -d root >/dev/null
for u in "${masked[@]}"; do ln -sf /dev/null "$dir/etc/systemd/system/$u"; done
ln -sf /usr/lib/systemd/system/multi-user.target "$dir/etc/systemd/system/default.target"
# the journal in memory only: the root is a throw-away overlay anyway
mkdir -p "$dir/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' >"$dir/etc/systemd/journald.conf.d/memtide-guest.conf"
rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*

# mkfs.ext4 -d fills the file system from the tree without mounting it (no loop device)
truncate -s "${ROOTFS_MB}M" "$img.tmp"
mkfs.ext4 -q -F -L memtide-root -d "$dir" "$img.tmp"
rm -f "$BUILD"/rootfs/debian-*.img
mv "$img.tmp" "$img"
echo "$img"
