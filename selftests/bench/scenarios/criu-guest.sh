#!/bin/sh
# Guest half of scenario "criu" (systemd guest): one checkpoint and restore with
# selftests/systemd/criu-round.sh; $1 is 1 to use memtide's action script. Prints one
# "bench-result" line for the host.
. /opt/memtide/systemd/criu-round.sh
criu_round bench 400 "$1"
[ "$gone" = 1 ] && criu_verify bench && corrupt=0 || corrupt=1
criu_kill
rc=$dump_rc
[ "$restore_rc" = 0 ] && [ $corrupt = 0 ] || rc=1
echo "bench-result swapped=$swapped moved=$((dumpin * 4096)) elapsed_us=$frozen_us dump_us=$dump_us rc=$rc"
