# Scenario "hibernate-nocompress" (issue 8): scenario "hibernate" with the image also written
# uncompressed (hibernate=nocompress on the kernel command line), each beside its LZO twin.
# Under TCG the kernel's one compression thread, not the disk, sets hibernation's time
# (hibernate-uncapped; hibernate-lz4: a faster compressor did not move it): written as it is,
# the image costs the disk more bytes and the CPU less. Which way does hibernation go, for
# vanilla's incompressible image and memtide's small, compressible one, and what does the way
# back pay for the bigger image? The resuming kernel reads either (the image's header says).
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest, image written with LZO (default) or uncompressed"
TARGETS=(
	"hibernate_us memtide-nocompress 0.0833 vanilla|hibernate (uncompressed) at most 1/12 of vanilla's (LZO)"
	"hibernate_us memtide-nocompress 0.0833 vanilla-nocompress|hibernate (uncompressed) at most 1/12 of vanilla's (uncompressed)"
	"hibernate_us memtide-nocompress 1.2 limit:hibernate_wr_bytes,image_bytes|hibernate (uncompressed) within 1.2x its limit (written / bandwidth)"
	"elapsed_us memtide-nocompress 0.75 vanilla-nocompress|full speed (uncompressed) at most 0.75x vanilla's (uncompressed)"
	"elapsed_us memtide-nocompress 1.2 limit:moved+fixed_us|full speed (uncompressed) within 1.2x its limit (moved / bandwidth + boot)"
)
VARIANTS=(
	"vanilla vanilla-perf plain"
	"vanilla-nocompress vanilla-perf plain"
	"memtide memtide-perf memtide"
	"memtide-nocompress memtide-perf memtide"
	"vanilla-again vanilla-perf plain"
)
declare -A CMDLINE=([vanilla-nocompress]=hibernate=nocompress [memtide-nocompress]=hibernate=nocompress)
