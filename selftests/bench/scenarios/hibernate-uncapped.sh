# Scenario "hibernate-uncapped" (issue 8): scenario "hibernate" with the disk uncapped, so
# that its times are what hibernation and resume cost the (emulated) CPU: the kernel writes
# the image through one compression thread, which under TCG may not keep up with 100 MB/s.
# Where a time here is close to the capped scenario's, the CPU, not the disk, sets it.
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest, disk uncapped (the CPU floor)"
DISK_BPS=0
# no disk limit to hold memtide to; the ratios to vanilla are the capped scenario's to judge
TARGETS=()
VARIANTS=(
	"vanilla vanilla-perf plain"
	"memtide memtide-perf memtide"
	"floor memtide-perf floor"
	"vanilla-again vanilla-perf plain"
)
