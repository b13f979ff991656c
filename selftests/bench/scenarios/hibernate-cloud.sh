# Scenario "hibernate-cloud" (issue 8): scenario "hibernate" on the "cloud volume" disk model,
# 100 MB/s and 3000 requests/s (QEMU iops-total, like a gp3 volume), where small requests
# cost time of their own: demand paging reads a page or a readahead window per fault, the
# image and memory.release read in large requests.
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest (100 MB/s, 3000 req/s disk) whose idle spot.slice holds 85% of memory"
DISK_IOPS=3000
# the 1 GiB variants as they were when this scenario last ran (2026-12-03): the stock tool and
# its A/A pair are not run here yet (issue 32)
VARIANTS=(
	"${SIZE_VARIANTS[@]}"
	"vanilla-floor vanilla-perf floor"
	"memtide-rootreclaim memtide-perf rootreclaim"
)
