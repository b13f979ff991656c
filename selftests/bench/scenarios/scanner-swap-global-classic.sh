# Scenario "scanner-swap-global-classic" (issue 5): scenario "scanner-swap-global" with MGLRU
# off, on 6.12's classic active/inactive LRU.
# shellcheck source=scanner-swap-global.sh
. "$(dirname "${BASH_SOURCE[0]}")/scanner-swap-global.sh"
TITLE="768 MiB of anonymous memory cycled through a 512 MiB guest, no cgroup limit (100 MB/s, 3000 req/s swap), MGLRU off"
MGLRU=0
