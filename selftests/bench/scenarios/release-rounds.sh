# Scenario "release-rounds" (issue 32, the order sweep): scenario "release-scattered" with the
# slice's pages first written in address order, then rewritten a random quarter at a time
# and reclaimed a quarter at a time over four rounds before the last reclaim
# (workload-guest.sh's rounds): long-lived processes reclaimed in pieces.
# shellcheck source=release-scattered.sh
. "$(dirname "${BASH_SOURCE[0]}")/release-scattered.sh"
TITLE="Bringing back a slice (3 processes + tmpfs, reclaimed in rounds) from a 125 MiB/s, 3000 req/s volume, +1 ms per request"
MODE=rounds
order_variants $MODE
# issue 32 sets targets for the scattered order only: this mode is reported as it is
TARGETS=()
