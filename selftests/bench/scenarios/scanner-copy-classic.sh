# Scenario "scanner-copy-classic" (issue 5): scenario "scanner-copy" with MGLRU off, on 6.12's
# classic active/inactive LRU. Under MGLRU a folio kept by the second chance leaves the
# oldest generation, so reclaim meets it again only after a whole aging round; on the classic
# LRU it meets it again at the next scan of the inactive list, as the seed's kernel did.
# shellcheck source=scanner-copy.sh
. "$(dirname "${BASH_SOURCE[0]}")/scanner-copy.sh"
TITLE="The seed's copy benchmark: 10 x 400 MB from ramfs onto ext2 in a 128 MiB cgroup, MGLRU off"
MGLRU=0
