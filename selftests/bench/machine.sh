#!/usr/bin/env bash
# machine.sh: the machine benchmarks run on, one line (bench.sh names it in each section of
# docs/benchmarks.md, since sections kept from earlier runs may come from another machine:
# under TCG the host's CPU sets every CPU-bound figure).
set -euo pipefail
printf '%s CPUs (%s), %s GiB, QEMU %s TCG\n' "$(nproc)" \
	"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" \
	"$(free -g | awk '/^Mem:/ {print $2}')" \
	"$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')"
