# Scenario "hibernate-cloud" (issue 8): scenario "hibernate" on the "cloud volume" disk model,
# 100 MB/s and 3000 requests/s (QEMU iops-total, like a gp3 volume), where small requests
# cost time of their own: demand paging reads a page or a readahead window per fault, the
# image and memory.release read in large requests.
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest (100 MB/s, 3000 req/s disk) whose idle spot.slice holds 85% of memory"
DISK_IOPS=3000
