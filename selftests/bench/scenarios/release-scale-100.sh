# Scenario "release-scale-100" (issue 30): scenario "release-scale" with the swap disk capped
# at 100 MB/s: the time is bound by the disk, and the limit is the 512 MiB over the bandwidth.
# shellcheck source=release-scale.sh
. "$(dirname "${BASH_SOURCE[0]}")/release-scale.sh"
TITLE="Releasing 512 MiB of a slice with 1, 4 and 16 GiB in swap, from a 100 MB/s disk"
DISK_BPS=$((100 * 1000 * 1000))
TARGETS+=(
	"elapsed_us swap-16g 1.1 limit:moved|the release at 16 GiB in swap within 1.1x of its limit (512 MiB / bandwidth)"
)
