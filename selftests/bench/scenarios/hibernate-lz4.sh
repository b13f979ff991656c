# Scenario "hibernate-lz4" (issue 8): scenario "hibernate" with the image written by LZ4
# instead of the default LZO (hibernate.compressor, Linux 6.9+), each beside its LZO twin.
# Hibernation here costs the one compression thread's CPU, not the disk
# (hibernate-uncapped): does a faster compressor move that floor, for vanilla and memtide
# alike, and how close does memtide then come to the seed's 1/12?
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest, image compressed by LZO (default) or LZ4"
TARGETS=(
	"hibernate_us memtide-lz4 0.0833 vanilla|hibernate (LZ4) at most 1/12 of vanilla's (LZO)"
	"hibernate_us memtide-lz4 0.0833 vanilla-lz4|hibernate (LZ4) at most 1/12 of vanilla's (LZ4)"
	"hibernate_us memtide-lz4 1.2 limit:hibernate_wr_bytes,image_bytes|hibernate (LZ4) within 1.2x its limit (written / bandwidth)"
	"elapsed_us memtide-lz4 0.75 vanilla-lz4|full speed (LZ4) at most 0.75x vanilla's (LZ4)"
)
VARIANTS=(
	"vanilla vanilla-perf plain"
	"vanilla-lz4 vanilla-perf plain lz4"
	"memtide memtide-perf memtide"
	"memtide-lz4 memtide-perf memtide lz4"
	"floor memtide-perf floor"
	"floor-lz4 memtide-perf floor lz4"
	"vanilla-again vanilla-perf plain"
)
