#!/usr/bin/env bash
# Extract the pinned base kernel into build/linux as a git repository whose first commit
# (tag "base") is the untouched Debian source. Kept between builds: a second run only checks.
#
# Source of the tarball, in order: ../shared/cache/ (a byte-for-byte mirror, because Debian's
# security archive drops old 6.12.y), then /usr/src from the installed linux-source-6.12
# package. The sha256 in kernel-tree/BASE must match unless BASE=any.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

want_sha=$(base_field sha256)
pkg=$(base_field package)
version=$(base_field version)
cache=${MEMTIDE_CACHE:-$ROOT/../shared/cache}/$(base_field tarball)

if [ -d "$SRC/.git" ] && kgit rev-parse -q --verify base >/dev/null; then
	have=$(cat "$SRC/.git/memtide-base-sha256" 2>/dev/null || echo unknown)
	if [ "${BASE:-}" != any ] && [ "$have" != "$want_sha" ]; then
		die "build/linux was made from a tarball with sha256 $have, not the pinned $want_sha; remove build/ or use BASE=any"
	fi
	exit 0
fi

if [ -f "$cache" ]; then
	tarball=$cache
else
	tarball=/usr/src/$pkg.tar.xz
	if [ ! -f "$tarball" ]; then
		note "installing $pkg (no mirrored tarball at $cache)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null ||
			die "cannot install $pkg; put the pinned tarball in $cache"
	fi
	got_version=$(dpkg-query -W -f='${Version}' "$pkg")
	[ "$got_version" = "$version" ] || [ "${BASE:-}" = any ] ||
		die "$pkg $got_version is installed, the pinned base is $version: put the pinned tarball in $cache, or build on it anyway with BASE=any"
fi

sha=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$sha" != "$want_sha" ]; then
	[ "${BASE:-}" = any ] ||
		die "checksum mismatch for $tarball: sha256 $sha, kernel-tree/BASE pins $want_sha (BASE=any builds on it anyway)"
	echo "WARNING: building on $tarball (sha256 $sha), not the pinned base; results are not comparable" >&2
fi

note "extracting $tarball into build/linux"
rm -rf "$SRC.tmp"
mkdir -p "$SRC.tmp"
tar -xaf "$tarball" -C "$SRC.tmp" --strip-components=1
git -C "$SRC.tmp" init -q -b memtide
git -C "$SRC.tmp" config core.autocrlf false
git -C "$SRC.tmp" config gc.auto 0
git -C "$SRC.tmp" add -A -f .
git -C "$SRC.tmp" -c user.name="memtide build" -c user.email=build@memtide.invalid \
	commit -q -m "base: $pkg $version (sha256 $sha)"
git -C "$SRC.tmp" tag base
echo "$sha" >"$SRC.tmp/.git/memtide-base-sha256"
mv "$SRC.tmp" "$SRC"
