#!/usr/bin/env bash
# kernel-tree/tools/debian-kernel.sh (make kernel-debian), with apt stood in for: the pinned
# package, the mirrored one, the newest 6.12 when the pinned one is gone, and none at all.
. "$(dirname "$0")/lib.sh"
plan 10
tool=$ROOT/kernel-tree/tools/debian-kernel.sh
version=$(sed -n 's/^version=//p' "$ROOT/kernel-tree/BASE") # 6.12.117-1~deb12u1
up=${version%%-*}

# fake_deb DIR UPSTREAM VERSION: a package laid out as Debian's kernel image is
fake_deb() {
	local d=$TMP/pkg-$2 rel=$2+deb12-cloud-amd64
	mkdir -p "$d/DEBIAN" "$d/boot" "$d/lib/modules/$rel/kernel/drivers/block"
	printf 'Package: linux-image-%s-unsigned\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t.invalid>\nDescription: t\n' \
		"$rel" "$3" >"$d/DEBIAN/control"
	echo "kernel $rel" >"$d/boot/vmlinuz-$rel"
	echo "virtio_blk of $rel" | xz >"$d/lib/modules/$rel/kernel/drivers/block/virtio_blk.ko.xz"
	dpkg-deb -b -Zxz "$d" "$1/linux-image-$rel-unsigned_$3_amd64.deb" >/dev/null
}
mkdir -p "$TMP/bin" "$TMP/archive" "$TMP/cache" "$TMP/empty"
fake_deb "$TMP/archive" "$up" "$version"
fake_deb "$TMP/archive" 6.12.99 6.12.99-1~deb12u1
fake_deb "$TMP/archive" 6.12.120 6.12.120-1~deb12u1
# apt-cache show NAME=VERSION / search REGEX, apt-get download NAME[=VERSION] over
# $TMP/archive, or over nothing when $TMP/pinned-gone (the pinned one) or $TMP/none (all)
cat >"$TMP/bin/apt-cache" <<A
#!/bin/bash
echo "apt-cache \$*" >>"$TMP/calls"
[ -e "$TMP/none" ] && { [ "\$1" = search ]; exit; }
case \$1 in
show) [ ! -e "$TMP/pinned-gone" ] && [ "\$2" = "linux-image-$up+deb12-cloud-amd64-unsigned=$version" ] ;;
search) for v in 6.12.99 6.12.120; do echo "linux-image-\$v+deb12-cloud-amd64-unsigned - Linux 6.12"; done ;;
esac
A
cat >"$TMP/bin/apt-get" <<A
#!/bin/bash
echo "apt-get \$*" >>"$TMP/calls"
name=\${3%%=*}
cp "$TMP/archive/\${name}_"*.deb . 2>/dev/null || { echo "E: Unable to locate package \$3"; exit 100; }
A
chmod +x "$TMP/bin/"*
obj=$TMP/build/obj/debian
# kernel-tree/BASE, with the checksum of the fake package a mirror holds
mkdir -p "$TMP/kt"
sed "s/^debian_image_sha256=.*/debian_image_sha256=$(sha256sum "$TMP/archive/linux-image-$up+deb12-cloud-amd64-unsigned_${version}_amd64.deb" | cut -d' ' -f1)/" \
	"$ROOT/kernel-tree/BASE" >"$TMP/kt/BASE"
run() {
	: >"$TMP/calls"
	env PATH="$TMP/bin:$PATH" BUILD="$TMP/build" KT="$TMP/kt" MEMTIDE_CACHE="$1" "$tool" \
		>"$TMP/out" 2>"$TMP/err"
}

run "$TMP/empty"
st=$?
check "the pinned package: exit 0, the kernel where vm-run.sh looks for it" \
	eval '[ $st -eq 0 ] && [ "$(cat "$obj/arch/x86/boot/bzImage")" = "kernel $up+deb12-cloud-amd64" ]'
check "its virtio_blk uncompressed, and its uname -r" \
	eval '[ "$(cat "$obj/modules/virtio_blk.ko")" = "virtio_blk of $up+deb12-cloud-amd64" ] &&
		[ "$(cat "$obj/release")" = "$up+deb12-cloud-amd64" ]'
check "asked apt for the pinned version exactly" grep -q "^apt-get download -q linux-image-$up+deb12-cloud-amd64-unsigned=$version$" "$TMP/calls"

run "$TMP/empty"
check "a second run downloads nothing" eval '[ $? -eq 0 ] && ! grep -q "^apt-get" "$TMP/calls"'

rm -rf "$TMP/build"
: >"$TMP/pinned-gone"
run "$TMP/empty"
st=$?
check "the pinned version gone: the newest 6.12 by version (6.12.120, not 6.12.99)" \
	eval '[ $st -eq 0 ] && [ "$(cat "$obj/release")" = 6.12.120+deb12-cloud-amd64 ]'
check "and the log says which it took instead" \
	grep -q "$up-1~deb12u1 is no longer in the archive; taking linux-image-6.12.120+deb12-cloud-amd64-unsigned" "$TMP/err"

rm -rf "$TMP/build"
cp "$TMP/archive/linux-image-$up+deb12-cloud-amd64-unsigned_${version}_amd64.deb" "$TMP/cache/"
: >"$TMP/none"
run "$TMP/cache"
st=$?
check "a mirrored package in the cache: used, apt not asked" \
	eval '[ $st -eq 0 ] && [ "$(cat "$obj/release")" = "$up+deb12-cloud-amd64" ] && [ ! -s "$TMP/calls" ] &&
		grep -q "(mirrored)" "$TMP/err"'

rm -rf "$TMP/build"
echo tampered >>"$TMP/cache/linux-image-$up+deb12-cloud-amd64-unsigned_${version}_amd64.deb"
expect_error "a mirrored package whose sha256 is not BASE's: exit 1, one line" 1 \
	"debian-kernel.sh: .*: sha256 is not kernel-tree/BASE's debian_image_sha256" \
	env PATH="$TMP/bin:$PATH" BUILD="$TMP/build" KT="$TMP/kt" MEMTIDE_CACHE="$TMP/cache" "$tool"

rm -rf "$TMP/build"
expect_error "apt serves no 6.12 cloud image: exit 1, one line" 1 \
	"debian-kernel.sh: apt serves no linux-image-6.12" \
	env PATH="$TMP/bin:$PATH" BUILD="$TMP/build" KT="$TMP/kt" MEMTIDE_CACHE="$TMP/empty" "$tool"
check "and no kernel is left behind" test ! -e "$obj/arch/x86/boot/bzImage"
done_testing
