#!/bin/sh
# Upstream's cgroup selftests only, in a fresh boot (the vanilla runs of make check-full and
# make check-debug). MEMTIDE_OPT: a test's stand-in for the image's /opt/memtide.
exec sh "${MEMTIDE_OPT:-/opt/memtide}/bin/guest-suite.sh" upstream
