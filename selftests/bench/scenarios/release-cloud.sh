# Scenario "release-cloud" (issue 4): scenario "release" on the "cloud volume" disk model,
# 100 MB/s and 3000 requests/s (QEMU iops-total), like a gp3 volume. A byte cap alone rewards
# nothing for order or batching; a request cap rewards large sequential requests.
# shellcheck source=release.sh
. "$(dirname "${BASH_SOURCE[0]}")/release.sh"
TITLE="Bringing back a 700 MiB idle cgroup from a 100 MB/s, 3000 requests/s volume"
DISK_IOPS=3000
