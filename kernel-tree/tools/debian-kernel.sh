#!/usr/bin/env bash
# debian-kernel.sh: Debian's own build of the pinned base, the stock kernel the memtide tool
# falls back on (make check boots it for the tool's stock-kernel test, KERNEL=debian).
#
# Why Debian's package and not our vanilla build: it is the kernel a user of the base actually
# runs, with Debian's full config (modules, AppArmor, zswap, MGLRU on), and it costs a 34 MB
# download where building vanilla costs make check 11-15 minutes. The cloud flavour is the one
# a VM boots (virtio PCI and ext4 built in; only virtio_blk is a module) and the one spot VMs
# and container hosts run. Bench and check-full still build vanilla: the same tinyconfig as
# memtide's kernel, for comparisons where only the series differs.
#
# Which package: linux-image-<base>+deb12-cloud-amd64-unsigned at the version of
# kernel-tree/BASE, from ../shared/cache/ if mirrored there, else from the apt archive. The
# security archive keeps only recent 6.12.y: when the pinned one is gone, the newest 6.12
# cloud image it serves is taken, and the log says so (the stock fallback is the same for
# every 6.12.y).
#
# Out: build/obj/debian/arch/x86/boot/bzImage (where vm-run.sh looks for every flavour's
# kernel), build/obj/debian/modules/*.ko (uncompressed: busybox's insmod loads them in the
# guest's first stage) and build/obj/debian/release (its uname -r).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

obj=$OBJ_ROOT/debian
version=$(base_field version)      # 6.12.117-1~deb12u1
upstream=${version%%-*}            # 6.12.117
want=linux-image-$upstream+deb12-cloud-amd64-unsigned
# the modules the guest loads before it mounts its disks
modules=(kernel/drivers/block/virtio_blk.ko.xz)

# done before for this BASE: keep it
stamp=$obj/.memtide-package
[ "$(head -n 1 "$stamp" 2>/dev/null)" = "$want=$version" ] && [ -f "$obj/arch/x86/boot/bzImage" ] && exit 0

dl=$BUILD/debian-kernel
rm -rf "$dl" "$obj"
mkdir -p "$dl" "$obj/arch/x86/boot" "$obj/modules"
cache=${MEMTIDE_CACHE:-$ROOT/../shared/cache}
deb=$(ls "$cache/${want}_${version}_amd64.deb" 2>/dev/null || true)
if [ -n "$deb" ]; then
	# a mirror is checked as the base tarball is: apt's signed index does not vouch for it
	[ "$(sha256sum "$deb" | cut -d' ' -f1)" = "$(base_field debian_image_sha256)" ] ||
		die "$deb: sha256 is not kernel-tree/BASE's debian_image_sha256"
	note "Debian's stock kernel: $(basename "$deb") (mirrored)"
else
	pkg=$want=$version
	if ! apt-cache show "$pkg" >/dev/null 2>&1; then
		# the newest 6.12 cloud image apt knows, by version
		pkg=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-cloud-amd64-unsigned$' |
			awk '{print $1}' | sort -V | tail -n 1)
		[ -n "$pkg" ] || die "apt serves no linux-image-6.12.*+deb12-cloud-amd64-unsigned (apt-get update?)"
		note "Debian's stock kernel: $want $version is no longer in the archive; taking $pkg"
	fi
	# apt-get download as root warns that _apt cannot write here; the file is still verified
	# against the archive's signed index
	(cd "$dl" && apt-get download -q "$pkg" >"$dl/apt.log" 2>&1) ||
		{ cat "$dl/apt.log" >&2; die "cannot download $pkg"; }
	deb=$(ls "$dl"/*.deb)
	note "Debian's stock kernel: $(basename "$deb")"
fi
dpkg-deb -x "$deb" "$dl/root"
release=$(ls "$dl/root/lib/modules")
cp "$dl/root/boot/vmlinuz-$release" "$obj/arch/x86/boot/bzImage"
for m in "${modules[@]}"; do
	xz -dc "$dl/root/lib/modules/$release/$m" >"$obj/modules/$(basename "$m" .xz)"
done
echo "$release" >"$obj/release"
rm -rf "$dl"
printf '%s\n%s\n' "$want=$version" "$(basename "$deb")" >"$stamp"
note "Debian's stock kernel $release in $obj"
