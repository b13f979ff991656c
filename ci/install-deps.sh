#!/usr/bin/env bash
# Install, with apt-get, what building and testing memtide needs on Debian 12; quiet and quick
# when everything is there already. linux-source-6.12 is installed only when the mirrored
# base tarball is missing (kernel-tree/tools/prepare-base.sh does that).
set -euo pipefail
pkgs=(
	build-essential flex bison bc libelf-dev libssl-dev dwarves ccache  # kernel build
	cpio xz-utils file perl git python3-ply python3-git                # tree, images, checkpatch (+ spdxcheck)
	linux-config-6.12                                                  # Debian's config (distro check)
	qemu-system-x86 qemu-utils busybox-static e2fsprogs                # the test guest
	python3 iproute2                                                   # QEMU's request counts (qmp-blockstats.py; ss in its test)
	debootstrap                                                        # the systemd guest's root
	gnuplot-nox                                                        # make bench plots
	nbdkit                                                             # disk models with latency (vm-run DISK_LATENCY_MS)
	pkg-config libcgroup-dev libsystemd-dev libjson-c-dev libsmartcols-dev libcmocka-dev # the memtide tool and its unit tests
	zsh                                                                # the zsh completion's test (test_completion_zsh.sh)
	clang libclang-rt-14-dev                                           # the tool's fuzz harnesses (libFuzzer)
	debhelper                                                          # make deb
	bash-completion                                                    # the completion's test (test_completion.sh)
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> apt-get install ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	{ echo "install-deps: apt-get could not install: ${missing[*]}" >&2; exit 1; }
