# Scenario "hibernate-hot" (issue 31): scenario "hibernate" with a program that has a working
# set. The slice's process holds 85% of memory as there; a thread of it loops over a hot set,
# 10% of its pages (a random choice, read in a random order, incompressible), and times each
# pass (hot-guest.sh). It is active for 3 s (the warm passes: the reference), idle during the
# preparation and hibernation, and active again from the moment it resumes, while memtide's
# release (or demand paging) and the touch of everything go on. Times:
#   responsive  from the second QEMU start until the passes stay within 2x the warm one for
#               a whole second (hibernate.sh: ten 100 ms steps in a row, each with a pass
#               that ended in it and none slower; the end of the first step): when the
#               program answers again, not one lucky pass between stalls. The limit is the
#               resume (boot + image read) plus the hot set over the bandwidth; a variant
#               whose image holds the hot set can be below it.
#   worst pass  the slowest pass that began within 10 s after resume
#   full speed  as in "hibernate": until every page has been touched again
# The curves (docs/bench-hibernate-hot-hot.png) are each variant's median run's passes, the
# slowest of every 100 ms, against the seconds after resume.
# Variants (kernels: vanilla-perf and memtide-perf):
# - vanilla: hibernate as is; the kernel shrinks memory to fit image_size (2/5 of RAM),
#   the pages used least recently first: the baseline
# - vanilla-rootreclaim: idle-time memory.reclaim of the root, mainline's best effort
# - stock-tool: the memtide tool on the vanilla kernel (memory.reclaim in bytes, then
#   process_madvise(MADV_WILLNEED) after resume)
# - memtide: `memtide hibernate --prepare-only`, hibernate, `memtide resume` (memory.release
#   in swap-offset order)
# - vanilla-again: the baseline once more, the noise floor (A/A)
# Two more try design (a) of issue 31 before any kernel change: a preparation that keeps the
# working set (what was used since a mark) and swaps out the rest, done with MGLRU's debugfs
# interface (hibernate-guest.sh's lrugen), and after resume `memtide release spot.slice max`:
# - stock-lrugen: on the vanilla kernel (the tool's stock fallback, process_madvise)
# - memtide-lrugen: on the memtide kernel (memory.release)
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="Hibernate and resume a 1 GiB guest whose spot.slice holds 85% of memory, 10% of it a working set used again at resume"
GUEST_LIBS=(hot-guest.sh)
HOT_VARIANTS=(
	"vanilla vanilla-perf plain hot=10"
	"vanilla-rootreclaim vanilla-perf rootreclaim hot=10"
	"stock-tool vanilla-perf memtide hot=10"
	"memtide memtide-perf memtide hot=10"
	"stock-lrugen vanilla-perf lrugen hot=10"
	"memtide-lrugen memtide-perf lrugen hot=10"
	"vanilla-again vanilla-perf plain hot=10"
)
VARIANTS=("${HOT_VARIANTS[@]}")
EXTRA=("responsive_us:responsive s" "hot_worst_us:worst pass s" "hot_ref_us:warm pass ms" "resume_us:resume s"
	"elapsed_us:full speed s" "prep_us:prep s" "hibernate_us:hibernate s" "image_bytes:image MiB"
	"hot_bytes:hot set MiB")
STEPS=("prep_us:prep" "hibernate_us:hibernate" "resume_us:resume" "responsive_us:responsive" "elapsed_us:full speed")
LIMITS=(
	"responsive_us hot_bytes+resume_us|responsive"
	"elapsed_us moved+fixed_us|full speed"
)
# issue 31's targets for memtide; "the shortest of all variants" is each ratio below 1
TARGETS=(
	"responsive_us memtide 1.3 limit:hot_bytes+resume_us|responsive within 1.3x its limit (resume + hot set / bandwidth)"
	"responsive_us memtide 1.0 vanilla|responsive sooner than vanilla (whose image holds the hot set)"
	"responsive_us memtide 1.0 vanilla-rootreclaim|responsive sooner than root memory.reclaim"
	"responsive_us memtide 1.0 stock-tool|responsive sooner than the stock tool"
	"hibernate_us memtide 0.2 vanilla|hibernate after idle-time preparation at most 0.2x vanilla's"
)
SERIES=(hot resident)
