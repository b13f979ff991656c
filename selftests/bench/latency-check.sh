#!/usr/bin/env bash
# latency-check.sh CONSOLE_LOG MS: "rc=..." if the run's swap disk did not have MS ms of
# latency per request (vm-run logs "memtide-host: swap disk latency N ms" when it has one),
# nothing if it did: a scenario's host_result adds it, so that a run on another disk model
# cannot pass for the one its section names.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 CONSOLE_LOG MS" >&2; exit 2; }
awk -v want="$2" '
/^memtide-host: swap disk latency [0-9]+ ms/ { seen = $5 }
END { if (seen + 0 != want + 0) printf "rc=disk-latency-%s-not-%s\n", seen == "" ? "0" : seen, want }' "$1"
