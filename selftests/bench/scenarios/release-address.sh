# Scenario "release-address" (issue 32, the order sweep): scenario "release-scattered" with the
# slice's pages written in address order and reclaimed in one go, so that swap offsets
# follow addresses (the seed benchmark's case, with four owners): the best case for
# process_madvise and for readahead.
# shellcheck source=release-scattered.sh
. "$(dirname "${BASH_SOURCE[0]}")/release-scattered.sh"
TITLE="Bringing back a slice (3 processes + tmpfs, address order) from a 125 MiB/s, 3000 req/s volume, +1 ms per request"
MODE=address
order_variants $MODE
# issue 32 sets targets for the scattered order only: this mode is reported as it is
TARGETS=()
