#!/bin/sh
# make gate-record's guest: memtide's tests, then upstream's cgroup selftests, in one boot, as
# make check's suite runs them (guest-suite.sh "gate"). MEMTIDE_OPT: a test's stand-in for
# the image's /opt/memtide.
exec sh "${MEMTIDE_OPT:-/opt/memtide}/bin/guest-suite.sh" gate
