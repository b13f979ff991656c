# Scenario "release-scattered-uncapped" (issue 32): scenario "release-scattered" with the disk
# uncapped and no latency added: the CPU floor of each method under TCG. A method as fast
# here as on the cloud volume is bound by the emulated CPU there, not by the disk.
# shellcheck source=release-scattered.sh
. "$(dirname "${BASH_SOURCE[0]}")/release-scattered.sh"
TITLE="Bringing back a slice (3 processes + tmpfs, scattered first touch), disk uncapped: the CPU floor"
DISK_BPS=0
DISK_IOPS=0
DISK_LATENCY_MS=0
TARGETS=()
