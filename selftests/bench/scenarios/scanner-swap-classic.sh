# Scenario "scanner-swap-classic" (issue 5): scenario "scanner-swap" with MGLRU off, on 6.12's
# classic active/inactive LRU. Under MGLRU a folio kept by the second chance leaves the
# oldest generation, so reclaim meets it again only after a whole aging round; on the classic
# LRU it meets it again at the next scan of the inactive list, as the seed's kernel did.
# shellcheck source=scanner-swap.sh
. "$(dirname "${BASH_SOURCE[0]}")/scanner-swap.sh"
TITLE="384 MiB of anonymous memory cycled through a 192 MiB cgroup (100 MB/s, 3000 req/s swap), MGLRU off"
MGLRU=0
