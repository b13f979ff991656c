# Scenario "scanner-reclaim-classic" (issue 5): scenario "scanner-reclaim" with MGLRU off, on 6.12's
# classic active/inactive LRU. Under MGLRU a folio kept by the second chance leaves the
# oldest generation, so reclaim meets it again only after a whole aging round; on the classic
# LRU it meets it again at the next scan of the inactive list, as the seed's kernel did.
# shellcheck source=scanner-reclaim.sh
. "$(dirname "${BASH_SOURCE[0]}")/scanner-reclaim.sh"
TITLE="memory.reclaim of a 700 MiB idle cgroup, second chance off and on (100 MB/s, 3000 req/s), MGLRU off"
MGLRU=0
