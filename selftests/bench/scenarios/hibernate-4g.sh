# Scenario "hibernate-4g" (issue 8): scenario "hibernate" in a 4 GiB guest, to show how
# each variant's cost grows with the memory to move (target: linearly in the swapped bytes,
# from 1 to 4 GiB). The slice holds 85% of memory, as in the 1 GiB scenario.
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 4 GiB guest whose idle spot.slice holds 85% of memory"
VM_MEM=4G
# what grows with size; the 1 GiB diagnostics (vanilla-floor, memtide-rootreclaim) stay there
VARIANTS=("${SIZE_VARIANTS[@]}")
SWAP_MB=8192
