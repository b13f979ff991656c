#!/bin/sh
# Upstream's cgroup selftests only (make gate-record, the vanilla run of make check-full).
exec sh /opt/memtide/bin/guest-suite.sh upstream
