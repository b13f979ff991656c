# Scenario "hibernate-4g-prealloc" (issue 8): how much of memory.release's distance from its
# physical limit after a resume is the host's, not the guest's. The resuming guest is a new
# QEMU process, and memory.release writes gigabytes into guest pages that this process never
# touched: each such page costs a host page fault and, where the host is itself a VM whose
# memory its hypervisor backs lazily and takes back when free (free page reporting, as on the
# Firecracker host of 2026-12), a fault on the hypervisor too. That host's page reporting
# has max_waiting_mib=1024: if that is how much freed memory it holds back, a 1 GiB guest
# mostly gets memory the guest before it left backed and a 4 GiB one mostly fresh memory,
# which would bend the size table (a guess; this scenario measures only 4 GiB). So scenario
# "hibernate-4g"'s memtide variant runs twice here: as there, and with vm-run's VM_PREALLOC=1
# (QEMU touches all guest memory before the guest starts, -mem-prealloc). The time of the
# table is the release alone (from the first line after resume to the end of memory.release),
# its limit what came back (the swapped bytes / bandwidth): QEMU's preallocation happens
# before the guest runs, so it is not in it, but it is in the resume and full speed columns
# of memtide-prealloc (from the second QEMU start), which compare with memtide's only there.
# Variants: memtide (as in hibernate-4g), memtide-prealloc (the same, memory preallocated),
# memtide-again (memtide once more: the A/A pair, the noise a difference must exceed).
# shellcheck source=hibernate.sh
. "$(dirname "${BASH_SOURCE[0]}")/hibernate.sh"
TITLE="memory.release after resuming a 4 GiB guest, with and without the host's memory touched first"
VM_MEM=4G
SWAP_MB=8192
VARIANTS=(
	"memtide memtide-perf memtide"
	"memtide-prealloc memtide-perf memtide"
	"memtide-again memtide-perf memtide"
)
declare -A VM_ENV=([memtide-prealloc]=VM_PREALLOC=1)
EXTRA=("resume_us:resume s" "full_us:full speed s" "prep_us:prep s" "hibernate_us:hibernate s")
STEPS=()
# the release is the timed step here: the main table has its limit
LIMITS=()
TARGETS=(
	"elapsed_us memtide 1.2 limit:moved|release within 1.2x its limit (swapped / bandwidth)"
	"elapsed_us memtide-prealloc 1.2 limit:moved|release within 1.2x its limit, memory preallocated"
)
# host_result CONSOLE_LOG: hibernate's figures, with the release as the timed step: elapsed_us
# is release_us (full speed moves to full_us), moved what the release read (moved less the
# image read, or where QEMU did not count it, the image), and no fixed part (the boot is
# before the release)
host_result() {
	hibernate_host_result "$1" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2]; k[i] = kv[1] }
		if ("rc" in f) { print; exit }
		out = ""
		for (i = 1; i <= NF; i++) {
			if (k[i] == "elapsed_us") out = out " full_us=" f["elapsed_us"] " elapsed_us=" f["release_us"]
			# %.0f: awk would print a number of 2^31 or more as 3.51698e+09
			else if (k[i] == "moved")
				out = out sprintf(" moved=%.0f", f["moved"] - ("image_rd_bytes" in f ? f["image_rd_bytes"] : f["image_bytes"]))
			else if (k[i] != "fixed_us") out = out " " $i
		}
		print substr(out, 2)
	}'
}
