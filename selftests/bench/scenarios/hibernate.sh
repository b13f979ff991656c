# Scenario "hibernate" (the seed's, issue 8): a 1 GiB guest, an idle process in spot.slice
# holding 85% of memory (incompressible), a swap disk capped at 100 MB/s that also takes the
# hibernation image. The guest hibernates, QEMU stops, vm-run boots it again and it resumes;
# then the process touches all its memory. Times come from the host's clock (vm-run stamps:
# boots, QEMU exits and the guest's "memtide-stamp" lines), since the guest's clocks jump:
#   prep        idle-time preparation (the guest's clock; before anything is frozen), until
#               what it swapped out is on the disk (the disk's queue is empty)
#   hibernate   from `echo disk` to QEMU's exit (freeze, shrink, image write, power-off)
#   resume      from the second QEMU start to the first line after resume (boot + image read)
#   full speed  from the second QEMU start until the process has touched all its memory
#               (memtide: its release, then the touch). The main table's time.
#   prep + hibernate   the two together: what preparing only moves from hibernation to idle time
#   image write the kernel's own time for compressing and writing the image
#               ("Wrote N kbytes in S seconds", the guest's clock): the part of hibernation
#               that the image's size and the disk set
#   image alloc the kernel's time to count and allocate the image's copy
#               ("Allocated N kbytes in S seconds"); what is left of hibernation is freezing,
#               devices, copying the image and powering off
#   image       the image the kernel wrote, before compression ("Wrote N kbytes")
#   boot        the first boot, from QEMU's start to /init ("memtide-stamp kernel-booted"):
#               measured on its own, the part of a resume that no disk speed shortens
#   hibernate wrote  what hibernation wrote to the swap disk, from `echo disk` to power-off:
#               the kernel's own shrinking (swap-out) and the image; QEMU counts it (vm-run's
#               VM_BLOCKSTATS), since the guest's counters die with the power-off
#   hibernate req / resume req  the average write request of hibernation and the average
#               read request of the boot kernel reading the image (QEMU's count of the boot
#               less what the resumed kernel read itself), in KiB
#   image read  what the boot kernel read: the image as it is on the disk (compressed)
# The limits are the bytes each step moved over the bandwidth, as QEMU counted them: for
# hibernate what it wrote (the image, compressed, and what the kernel swapped out while
# hibernating: vanilla's shrinking), for resume the image read (plus the boot). The image's size
# before compression ("image") was the limit before QEMU counted: it overstates what a
# compressible image moves. Runs without QEMU's counts ("hibernate wrote", "image read": older
# runs, or one whose count failed) still use it, and a variant uses the counted bytes only
# if all its runs have them.
# "moved" is what must come back from the disk after resume: the image read plus what the
# process had in swap then (the image's size where QEMU did not count); the limit of "full
# speed" is moved / bandwidth + boot.
# "disk req KiB" is the average read request from resume to full speed: memory.release's,
# or demand paging's (the image is read before, by the boot kernel, and not counted).
# The guest samples the slice's memory.current from resume to full speed: the curves of
# docs/bench-hibernate-resident.png (the median run of each variant).
# Variants (kernels: vanilla-perf and memtide-perf):
# - stock-tool: the memtide tool on the vanilla kernel, as a user without memtide's kernel runs
#   the flow: `memtide hibernate --prepare-only` (the slice's memory.reclaim, in bytes),
#   hibernate, `memtide resume` (process_madvise(MADV_WILLNEED), its stock fallback). The
#   baseline at 1 GiB: the strongest thing a user can do without memtide's kernel (issue 32).
# - stock-tool-again: the baseline once more, the noise floor (A/A)
# - vanilla: hibernate as is; the kernel shrinks memory to fit image_size (2/5 of RAM)
# - vanilla-image0: /sys/power/image_size = 0, the kernel shrinks all it can
# - vanilla-rootreclaim: idle-time memory.reclaim of the root, mainline's best effort
# - memtide: `memtide hibernate --prepare-only`, hibernate, `memtide resume` (memory.release)
# - vanilla-again: vanilla once more, the A/A pair of the bigger guests' baseline (vanilla)
# - floor: memtide's kernel with a process of 16 MiB in the slice: hibernation and resume
#   with next to nothing to save or bring back, the floor of the hibernate and resume columns
#   on this machine (freezing, the kernel's own image, power-off, boot)
# Two more, only at 1 GiB (the bigger guests keep SIZE_VARIANTS: what grows with size), tell
# whether the memtide kernel or the tool's preparation costs memtide's hibernation its
# distance from vanilla-rootreclaim's:
# - vanilla-floor: the floor on the vanilla kernel
# - memtide-rootreclaim: vanilla-rootreclaim's preparation on the memtide kernel
TITLE="Hibernate and resume a 1 GiB guest whose idle spot.slice holds 85% of memory"
VM_MEM=1G
SWAP_MB=2048
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=0
GUEST=hibernate-guest.sh
EXTRA=("prep_us:prep s" "hibernate_us:hibernate s" "total_us:prep + hibernate s" "resume_us:resume s" "elapsed_us:full speed s"
	"write_us:image write s" "alloc_us:image alloc s" "image_bytes:image MiB" "boot_us:boot s"
	"hibernate_wr_bytes:hibernate wrote MiB" "hibernate_req_kib:hibernate req KiB" "image_rd_bytes:image read MiB"
	"resume_req_kib:resume req KiB")
# the steps of docs/bench-hibernate-steps.png, side by side per variant
STEPS=("prep_us:prep" "hibernate_us:hibernate" "resume_us:resume" "elapsed_us:full speed")
# every variant's steps against their physical limits (report.sh's LIMITS table): what each
# step must move over the disk's bandwidth, plus the boot where a boot is in the step
LIMITS=(
	"prep_us swapped_before|prep"
	"hibernate_us hibernate_wr_bytes,image_bytes|hibernate"
	"resume_us image_rd_bytes,image_bytes+boot_us|resume"
	"elapsed_us moved+fixed_us|full speed"
)
# issue 8's targets for memtide (report.sh prints each as met or missed)
TARGETS=(
	"hibernate_us memtide 0.0833 vanilla|hibernate at most 1/12 of vanilla's"
	"elapsed_us memtide 0.75 vanilla|full speed at most 0.75x vanilla's"
	"elapsed_us memtide 0.75 vanilla-rootreclaim|full speed at most 0.75x root memory.reclaim + demand paging"
	"elapsed_us memtide 0.75 stock-tool|full speed at most 0.75x the tool's own flow on the stock kernel"
	"prep_us memtide 1.2 limit:swapped_before|prep within 1.2x its limit (swapped / bandwidth)"
	"hibernate_us memtide 1.2 limit:hibernate_wr_bytes,image_bytes|hibernate within 1.2x its limit (written / bandwidth)"
	"resume_us memtide 1.2 limit:image_rd_bytes,image_bytes+boot_us|resume within 1.2x its limit (image read / bandwidth + boot)"
	"elapsed_us memtide 1.2 limit:moved+fixed_us|full speed within 1.2x its limit (moved / bandwidth + boot)"
)
# label kernel guest-arguments
SIZE_VARIANTS=(
	"vanilla vanilla-perf plain"
	"vanilla-image0 vanilla-perf image0"
	"vanilla-rootreclaim vanilla-perf rootreclaim"
	"memtide memtide-perf memtide"
	"vanilla-again vanilla-perf plain"
	"floor memtide-perf floor"
)
VARIANTS=(
	"stock-tool vanilla-perf memtide"
	"${SIZE_VARIANTS[@]}"
	"vanilla-floor vanilla-perf floor"
	"memtide-rootreclaim memtide-perf rootreclaim"
	"stock-tool-again vanilla-perf memtide"
)

# host_result CONSOLE_LOG: the host-timed figures of one run, as key=value. VARIANT_CMDLINE
# (bench.sh: the variant's CMDLINE) may ask for hibernate=nocompress or
# hibernate.compressor=NAME: a console whose kernel wrote the image otherwise gets an rc, so
# that a kernel ignoring the parameter cannot pass for the variant asked for; likewise
# VARIANT_ENV (its VM_ENV): preallocated guest memory (vm-run's line) if and only if it asks
# for VM_PREALLOC=1.
# (hibernate_host_result: for the scenarios that build on this one's figures.)
host_result() { hibernate_host_result "$@"; }
hibernate_host_result() {
	awk -v cmdline=" ${VARIANT_CMDLINE:-} " -v venv=" ${VARIANT_ENV:-} " '
	/^memtide-host: guest memory preallocated$/ { prealloc = 1 }
	/^memtide-host: boot [0-9]+ at / { boot[$3] = $5 }
	/^memtide-host: boot [0-9]+ exit at / { bexit[$3] = $6 }
	/^memtide-host: stamp / { st[$3] = $5 }
	# "PM: hibernation: Wrote N kbytes in S.SS seconds (R MB/s)", and "Allocated ..." likewise
	/Wrote [0-9]+ kbytes in / { for (i = 1; i < NF; i++) if ($i == "Wrote") { img = $(i + 1) * 1024; wr = $(i + 4) } }
	/Allocated [0-9]+ kbytes in / { for (i = 1; i < NF; i++) if ($i == "Allocated") al = $(i + 4) }
	/^swap_at_resume=/ { sub(/^swap_at_resume=/, ""); sar = $0 }
	# how the kernel wrote the image (kernel/power/swap.c): uncompressed, or by which compressor
	/PM: Saving image data pages/ { writer = "none" }
	/PM: Using [0-9]+ thread\(s\) for [a-z0-9]+ compression/ { for (i = 1; i < NF; i++) if ($i == "for") writer = $(i + 1) }
	/^bench-result / { for (i = 2; i <= NF; i++) { split($i, kv, "="); g[kv[1]] = kv[2] } }
	# the hot loop'"'"'s slowest pass of each 100 ms after resume (hot-guest.sh)
	/^bench-series hot / {
		sub(/\r$/, "")
		if ($3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/) { b = int($3 / 100000); hot[b] = $4; if (b > hot_last) hot_last = b }
	}
	# QEMU'"'"'s count of the swap disk'"'"'s requests in each boot (vm-run'"'"'s VM_BLOCKSTATS)
	/^memtide-host: boot [0-9]+ blockstats swap / {
		for (i = 6; i <= NF; i++) { split($i, kv, "="); q[$3, kv[1]] = kv[2] }
	}
	END {
		if (!st["hibernate-start"] || !bexit[1] || !boot[2] || !st["resumed"] || !st["released"] || !st["full-speed"]) {
			print "rc=host-stamps-missing"
			exit
		}
		wanted = cmdline ~ / hibernate=nocompress / ? "none" : ""
		if (match(cmdline, / hibernate\.compressor=[a-z0-9]+ /))
			wanted = substr(cmdline, RSTART + 22, RLENGTH - 23)
		if (wanted != "" && writer != wanted) {
			printf "rc=image-written-by-%s-not-%s\n", writer == "" ? "unknown" : writer, wanted
			exit
		}
		if (venv ~ / VM_PREALLOC=1 / && !prealloc) {
			print "rc=memory-not-preallocated"
			exit
		}
		if (venv !~ / VM_PREALLOC=1 / && prealloc) {
			print "rc=memory-preallocated-not-asked"
			exit
		}
		# the image as the boot kernel read it (boot 2 less what the resumed kernel read
		# itself), if QEMU counted: what must come back from it, compressed or not
		counted = (2, "rd_ops") in q && "resumed_rd_ios" in g && q[2, "rd_ops"] > g["resumed_rd_ios"]
		rd = counted ? q[2, "rd_bytes"] - g["resumed_rd_bytes"] : img
		printf "hibernate_us=%.0f resume_us=%.0f release_us=%.0f elapsed_us=%.0f image_bytes=%.0f moved=%.0f",
			(bexit[1] - st["hibernate-start"]) * 1000, (st["resumed"] - boot[2]) * 1000,
			(st["released"] - st["resumed"]) * 1000, (st["full-speed"] - boot[2]) * 1000,
			img, rd + sar
		# the working set (hot-guest.sh): responsive once its passes stay within 2x of the
		# warm one for a whole second: ten 100 ms buckets in a row, each with a pass that
		# ended in it (a bucket without one is a pass still running) and none slower. The
		# end of the first of them, after the "resumed" stamp on the guest'"'"'s clock, plus the
		# resume the host timed. One fast pass is not enough: between faults a pass can be
		# fast while the next ones stall again.
		if ("hot_ref_us" in g) {
			for (b = 0; b <= hot_last; b++) {
				for (k = 0; k < 10 && (b + k) in hot && hot[b + k] <= 2 * g["hot_ref_us"]; k++) ;
				if (k == 10) break
			}
			if (g["hot_ref_us"] > 0 && b <= hot_last)
				printf " responsive_us=%.0f", (st["resumed"] - boot[2]) * 1000 + (b + 1) * 100000
			else
				printf " rc=hot-never-responsive"
		}
		# on the guest kernel clock: compressing and writing the image, allocating its copy
		if (wr != "")
			printf " write_us=%.0f", wr * 1e6
		if (al != "")
			printf " alloc_us=%.0f", al * 1e6
		# idle-time preparation and hibernation together (the guest prints prep_us)
		if ("prep_us" in g)
			printf " total_us=%.0f", g["prep_us"] + (bexit[1] - st["hibernate-start"]) * 1000
		# the requests hibernation wrote (boot 1 after the guest read its counters: the
		# shrinking and the image) and the boot kernel read (the image), as bytes and average
		# sizes; nothing without QEMU'"'"'s counts
		if ((1, "wr_ops") in q && "hib_wr_ios0" in g && q[1, "wr_ops"] > g["hib_wr_ios0"]) {
			b = q[1, "wr_bytes"] - g["hib_wr_bytes0"]
			printf " hibernate_wr_bytes=%.0f hibernate_req_kib=%.0f", b, b / (q[1, "wr_ops"] - g["hib_wr_ios0"]) / 1024
		}
		if (counted)
			printf " image_rd_bytes=%.0f resume_req_kib=%.0f", rd, rd / (q[2, "rd_ops"] - g["resumed_rd_ios"]) / 1024
		# the boot, measured on its own in the first boot (guest images without the
		# stamp have none)
		if (st["kernel-booted"])
			printf " boot_us=%.0f fixed_us=%.0f", (st["kernel-booted"] - boot[1]) * 1000,
				(st["kernel-booted"] - boot[1]) * 1000
		printf "\n"
	}' "$1"
}
