# Scenario "hibernate-hot-2g" (issue 31): scenario "hibernate-hot" in a 2 GiB guest: time to
# responsive at every size. The slice holds 85% of memory and its working set 10% of that, as
# at 1 GiB.
# shellcheck source=hibernate-hot.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate-hot.sh"
TITLE="Hibernate and resume a 2 GiB guest whose spot.slice holds 85% of memory, 10% of it a working set used again at resume"
VM_MEM=2G
SWAP_MB=4096
