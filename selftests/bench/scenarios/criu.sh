# Scenario "criu" (issue 7): how long `criu dump` keeps a task frozen when 60% of its memory
# is in swap. A 2 GiB guest booted with systemd (the Debian root file system of
# selftests/vm/mkrootfs.sh, criu 3.17.1); one idle process holds 400 MiB of incompressible
# anonymous memory, 240 MiB of it put in swap by memory.reclaim, on a swap disk capped at
# 100 MB/s; the image goes to a tmpfs. Time: CRIU's own "Frozen time" (--display-stats);
# the dump's wall time, action script included, is the second table. "moved" is what the
# frozen step read from swap (the physical limit of the frozen time).
#
# - plain: criu dump as it is; the frozen dump faults the swapped pages in
# - memtide: with `--action-script 'memtide criu-action'`, which releases the cgroup at
#   pre-dump, before the freeze
# - plain-again: plain once more, the noise floor (A/A)
TITLE="criu dump of a 400 MiB process with 60% in swap (100 MB/s swap disk)"
VM_MEM=2G
SWAP_MB=1024
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=0
ROOTFS=debian
GUEST=criu-guest.sh
# key:heading of further columns (medians of microsecond figures, in seconds)
EXTRA=("dump_us:dump wall time s")
# label kernel guest-arguments
VARIANTS=(
	"plain memtide-perf 0"
	"memtide memtide-perf 1"
	"plain-again memtide-perf 0"
)
