#!/usr/bin/env bash
# make bench's host side without guests: the report's arithmetic on fixed results, the plot,
# and bad settings refused in one line before anything is built.
. "$(dirname "$0")/lib.sh"
bench=$ROOT/selftests/bench
plan 126

cat >"$TMP/s.sh" <<'S'
# Scenario "t": a fixture.
TITLE="fixture"
VM_MEM=1G
SWAP_MB=64
DISK_BPS=100000000
DISK_IOPS=0
GUEST=none.sh
VARIANTS=("base vanilla-perf x" "fast memtide-perf x" "same memtide-perf x")
S
# base: 10, 11, 12 s (median 11, noise 2/11 = 18%); fast: 5 s (0.45x); same: 10.5 s (within
# noise), and a failed run of 40 s that no figure may count
{
	for t in 10 11 12; do echo "base 1 swapped=700000000 write_ios=100 write_bytes=102400000 rc=0 elapsed_us=${t}000000 readback_us=10"; done
	echo "fast 1 swapped=700000000 write_ios=100 write_bytes=102400000 rc=0 elapsed_us=5000000 readback_us=50"
	echo "same 1 swapped=700000000 write_ios=100 write_bytes=102400000 rc=0 elapsed_us=10500000 readback_us=10"
	echo "same 2 swapped=700000000 write_ios=100 write_bytes=102400000 rc=EAGAIN elapsed_us=40000000 readback_us=10"
} >"$TMP/results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/results" >"$TMP/report.md" 2>"$TMP/err"
check "median, range, MB/s, limit and ratio of the baseline" \
	bash -c "[[ \"\$(grep '^| base |' '$TMP/report.md')\" == '| base | 11.00 (10.00-12.00) | 668 | 63.6 | 7.00 | 1.57 | baseline (noise 18%) | 1000 | 10 (0.0001%) | 0 |' ]]"
check "a ratio beyond the noise is reported as a ratio" bash -c "grep -q '^| fast | 5.00 .* | 0.45x | ' '$TMP/report.md'"
check "a ratio within the noise reads 'no difference'" bash -c "grep -q '^| same | .* | 0.95x, no difference | ' '$TMP/report.md'"
check "a run that failed is counted, and left out of the median and range" \
	bash -c "grep -q '^| same | 10.50 (10.50-10.50) | .* | 1 |\$' '$TMP/report.md'"
# a run that gave no result (bench.sh: a hang, a timeout, a failed resume) is a failed run; a
# variant whose runs all failed keeps its row, with the count, and no figure
{
	grep -v '^same ' "$TMP/results"
	echo "same 1 rc=no-result console=console-same-1.log bench_id=1 at=2"
} >"$TMP/nr-results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/nr-results" >"$TMP/nr-report.md" 2>"$TMP/err"
check "a variant whose only run gave no result: its row, no figure, one failed run" \
	bash -c "grep -qx '| same | - | - | - | - | - | - | - | - | 1 |' '$TMP/nr-report.md' && ! [ -s '$TMP/err' ]"
# the baseline's runs all failed: no ratio to it, and no division by nothing
grep -v '^base ' "$TMP/results" | sed '1i base 1 rc=no-result console=console-base-1.log' >"$TMP/nb-results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/nb-results" >"$TMP/nb-report.md" 2>"$TMP/err"
check "no run of the baseline measured: the others without a ratio, the baseline's failure counted" \
	bash -c "grep -qx '| base | - | - | - | - | - | - | - | - | 1 |' '$TMP/nb-report.md' &&
		grep -q '^| fast | 5.00 .* | - (no baseline run) | ' '$TMP/nb-report.md' && ! [ -s '$TMP/err' ]"

# The A/A pair ("base-again") sets the noise when its gap is wider than the baseline's spread:
# base 10, 11, 12 s (spread 18%), base-again 14 s (1.27x): 1.20x is then within the noise
sed 's/^VARIANTS=.*/VARIANTS=("base vanilla-perf x" "mid memtide-perf x" "base-again vanilla-perf x")/
	$a EXTRA=("dump_us:dump s")' "$TMP/s.sh" >"$TMP/aa.sh"
{
	for t in 10 11 12; do echo "base 1 swapped=700000000 rc=0 elapsed_us=${t}000000 dump_us=${t}000000"; done
	echo "mid 1 swapped=700000000 rc=0 elapsed_us=13200000 dump_us=13200000"
	echo "base-again 1 swapped=700000000 rc=0 elapsed_us=14000000 dump_us=14000000"
} >"$TMP/aa-results"
"$bench/report.sh" "$TMP/aa.sh" "$TMP/aa-results" >"$TMP/aa-report.md" 2>"$TMP/err"
check "A/A: the baseline's noise is the A/A pair's gap, 27%, not its spread, 18%" \
	bash -c "grep -q '^| base | .* | baseline (noise 27%) | ' '$TMP/aa-report.md'"
check "A/A: 1.20x, within that noise, reads 'no difference'" \
	bash -c "grep -q '^| mid | .* | 1.20x, no difference | ' '$TMP/aa-report.md'"
check "A/A: the pair's own ratio is marked A/A, not judged" \
	bash -c "grep -q '^| base-again | .* | 1.27x, A/A | ' '$TMP/aa-report.md'"
check "A/A: EXTRA's figures take the same noise" \
	bash -c "grep -q '^| mid | 13.20 (13.20-13.20), 1.20x (no difference) |\$' '$TMP/aa-report.md' &&
		grep -q '^| base-again | 14.00 (14.00-14.00), 1.27x (A/A) |\$' '$TMP/aa-report.md'"
# without its A/A pair, the same 1.20x is beyond the spread: a difference
grep -v '^base-again ' "$TMP/aa-results" >"$TMP/noaa-results"
"$bench/report.sh" "$TMP/aa.sh" "$TMP/noaa-results" >"$TMP/noaa-report.md" 2>"$TMP/err"
check "no A/A runs: the spread alone is the noise, and 1.20x is a difference" \
	bash -c "grep -q '^| base | .* | baseline (noise 18%) | ' '$TMP/noaa-report.md' &&
		grep -q '^| mid | .* | 1.20x | ' '$TMP/noaa-report.md' &&
		grep -q '^| mid | 13.20 (13.20-13.20), 1.20x |\$' '$TMP/noaa-report.md'"
# a noise floor of at least 1%: runs that agree to 0.1% do not make a 0.3% gap a difference
printf 'base 1 swapped=700000000 rc=0 elapsed_us=7270000\nbase 2 swapped=700000000 rc=0 elapsed_us=7270000\nfast 1 swapped=700000000 rc=0 elapsed_us=7290000\nsame 1 swapped=700000000 rc=0 elapsed_us=7200000\n' >"$TMP/n-results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/n-results" >"$TMP/n-report.md" 2>"$TMP/err"
check "the noise floor is at least 1%: a 0.3% gap reads 'no difference', a 1.0% one too, not 1.01x" \
	bash -c "grep -q '^| base | .* | baseline (noise 1%) | ' '$TMP/n-report.md' && grep -q '^| fast | .* | 1.00x, no difference | ' '$TMP/n-report.md' &&
		grep -q '^| same | .* | 0.99x, no difference | ' '$TMP/n-report.md'"
# report.sh counts a result line without rc= as a failed run: every guest half must print one
# (rc=0 where reaching the result line means success, or timed_write's own)
check "every scenario's guest half prints rc= in its result" bash -c "
	for g in '$bench'/scenarios/*-guest.sh; do
		grep -q 'bench-result' \"\$g\" || continue
		grep -q 'rc=\\|timed_write' \"\$g\" || { echo \"\$g\"; exit 1; }
	done"
check "the plot is written" "$bench/plot.sh" "$TMP/s.sh" "$TMP/results" "$TMP/p.png"
# the steps of a scenario side by side: a cluster of bars per variant
echo 'STEPS=("elapsed_us:time" "readback_us:read-back")' >"$TMP/st.sh"
cat "$TMP/s.sh" >>"$TMP/st.sh"
check "plot-steps draws the STEPS a scenario names" bash -c "
	'$bench/plot-steps.sh' '$TMP/st.sh' '$TMP/results' '$TMP/st.png' && [ -s '$TMP/st.png' ]"
expect_error "plot-steps of a scenario without STEPS" 1 "^plot-steps: .* names no STEPS\$" \
	"$bench/plot-steps.sh" "$TMP/s.sh" "$TMP/results" "$TMP/none.png"

# a scenario that reads (release): the request size comes from read_ios and read_bytes
echo "base 1 swapped=700000000 read_ios=50 read_bytes=102400000 rc=0 elapsed_us=7000000" >"$TMP/read-results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/read-results" >"$TMP/read-report.md" 2>"$TMP/err"
check "read requests are averaged when the scenario reads" \
	bash -c "grep -q '^| base | 7.00 .* | 2000 | - | 0 |\$' '$TMP/read-report.md'"

# moved: what the timed step moved, where it differs from what was swapped; none, no limit.
# EXTRA: one more table of medians, with ratios to the baseline. Any rc= other than 0 fails.
cat "$TMP/s.sh" >"$TMP/x.sh"
echo 'EXTRA=("dump_us:dump s" "image_bytes:image MiB")' >>"$TMP/x.sh"
{
	for t in 10 11 12; do echo "base 1 swapped=700000000 moved=700000000 rc=0 elapsed_us=${t}000000 dump_us=${t}000000 image_bytes=104857600"; done
	echo "fast 1 swapped=700000000 moved=4096 rc=0 elapsed_us=5000000 dump_us=20000000 image_bytes=52428800"
	echo "same 1 swapped=700000000 moved=700000000 rc=0 elapsed_us=10500000 dump_us=10500000"
	echo "same 2 swapped=700000000 moved=700000000 rc=0 elapsed_us=30000000 dump_us=30000000 image_bytes=1 rc=host-stamps-missing"
} >"$TMP/x-results"
"$bench/report.sh" "$TMP/x.sh" "$TMP/x-results" >"$TMP/x-report.md" 2>"$TMP/err"
check "next to nothing moved: no limit, no time/limit; no requests counted: none shown" bash -c "grep -q '^| fast | 5.00 (5.00-5.00) | 0 | 0.0 | - | - | 0.45x | - | ' '$TMP/x-report.md'"
check "EXTRA: a table with a column per key, seconds and MiB" \
	bash -c "grep -q '^| variant | dump s | image MiB |\$' '$TMP/x-report.md' && grep -q '^| base | 11.00 (10.00-12.00) | 100 (100-100) |\$' '$TMP/x-report.md'"
check "EXTRA: ratios to the baseline, 'no difference' within its spread; a failed run left out" \
	bash -c "grep -q '^| fast | 20.00 (20.00-20.00), 1.82x | 50 (50-50), 0.50x |\$' '$TMP/x-report.md' && grep -q '^| same | 10.50 (10.50-10.50), 0.95x (no difference) | - |\$' '$TMP/x-report.md'"
echo 'EXTRA=("hot_ref_us:warm pass ms" "hot_worst_us:worst pass s")' >>"$TMP/x.sh"
printf 'base 1 rc=0 elapsed_us=1 hot_ref_us=5630 hot_worst_us=2710000\n' >"$TMP/ms-results"
"$bench/report.sh" "$TMP/x.sh" "$TMP/ms-results" >"$TMP/ms-report.md" 2>"$TMP/err"
check "EXTRA: a _us key whose heading ends in ' ms' is shown in milliseconds, the others in seconds" \
	grep -q '^| base | 5.6 (5.6-5.6) | 2.71 (2.71-2.71) |$' "$TMP/ms-report.md"
echo 'EXTRA=("kswapd_pages:kswapd freed")' >>"$TMP/x.sh"
printf 'base 1 rc=0 elapsed_us=1 kswapd_pages=1500\nfast 1 rc=0 elapsed_us=1 kswapd_pages=3000\n' >"$TMP/p-results"
"$bench/report.sh" "$TMP/x.sh" "$TMP/p-results" >"$TMP/p-report.md" 2>"$TMP/err"
check "EXTRA: _pages keys are shown as counts" \
	bash -c "grep -q '^| base | 1500 (1500-1500) |\$' '$TMP/p-report.md' && grep -q '^| fast | 3000 (3000-3000), 2.00x |\$' '$TMP/p-report.md'"
echo 'EXTRA=("probe_loops:probe loops")' >>"$TMP/x.sh"
printf 'base 1 rc=0 elapsed_us=1 probe_loops=427\nfast 1 rc=0 elapsed_us=1 probe_loops=345\n' >"$TMP/l-results"
"$bench/report.sh" "$TMP/x.sh" "$TMP/l-results" >"$TMP/l-report.md" 2>"$TMP/err"
check "EXTRA: _loops keys are shown as counts (release-scale's probe_loops read 0.00 as seconds)" \
	bash -c "grep -q '^| base | 427 (427-427) |\$' '$TMP/l-report.md'"
printf 'base 1 rc=0 elapsed_us=1 prep_us=10000\nfast 1 rc=0 elapsed_us=1 prep_us=8000000\n' >"$TMP/z-results"
printf 'EXTRA=("prep_us:prep s")\n' >>"$TMP/x.sh"
"$bench/report.sh" "$TMP/x.sh" "$TMP/z-results" >"$TMP/z-report.md" 2>"$TMP/err"
check "EXTRA: no ratio to a baseline time under 50 ms" bash -c "grep -q '^| fast | 8.00 (8.00-8.00) |\$' '$TMP/z-report.md'"
check "a run whose host-side rc is not 0 is counted as failed" bash -c "grep -q '^| same | .* | 1 |\$' '$TMP/x-report.md'"

# TARGETS: a ratio to another variant or to the physical limit, met or missed; a variant
# without results is "not measured", not left out; a failed run (fast's 50 s) counts in none
cat "$TMP/s.sh" >"$TMP/t.sh"
cat >>"$TMP/t.sh" <<'S'
TARGETS=("elapsed_us fast 0.5 base|fast at most half of base" "elapsed_us fast 0.4 base|fast at most 0.4x"
	"elapsed_us fast 1.2 limit:swapped+boot_us|fast within 1.2x its limit" "elapsed_us gone 1 base|gone")
S
{
	for t in 10 11 12; do echo "base 1 swapped=700000000 rc=0 elapsed_us=${t}000000"; done
	echo "fast 1 swapped=400000000 boot_us=1000000 rc=0 elapsed_us=5000000"
	echo "fast 2 swapped=900000000 boot_us=9000000 rc=EAGAIN elapsed_us=50000000"
} >"$TMP/t-results"
"$bench/report.sh" "$TMP/t.sh" "$TMP/t-results" >"$TMP/t-report.md" 2>"$TMP/err"
check "TARGETS: against a variant, met and missed" \
	bash -c "grep -q '^| fast at most half of base | 5.00 | 11.00 (base) | 0.455 (0.5) | met |\$' '$TMP/t-report.md' &&
		grep -q '^| fast at most 0.4x | 5.00 | 11.00 (base) | 0.455 (0.4) | \*\*missed\*\* |\$' '$TMP/t-report.md'"
check "TARGETS: against the limit (bytes / bandwidth + a time), and a variant not measured" \
	bash -c "grep -q '^| fast within 1.2x its limit | 5.00 | 5.00 (limit) | 1.000 (1.2) | met |\$' '$TMP/t-report.md' &&
		grep -q '^| gone | - | - | - (1) | not measured |\$' '$TMP/t-report.md'"
sed 's/^DISK_BPS=.*/DISK_BPS=0/' "$TMP/t.sh" >"$TMP/u.sh"
"$bench/report.sh" "$TMP/u.sh" "$TMP/t-results" >"$TMP/u-report.md" 2>"$TMP/err"
check "TARGETS: no limit on an uncapped disk, and no error" \
	bash -c "grep -q '^| fast within 1.2x its limit | 5.00 | - | - (1.2) | no limit: the disk is uncapped |\$' '$TMP/u-report.md' && ! [ -s '$TMP/err' ]"
# LIMITS: every variant's steps against their own physical limits, one table (fast's failed
# second run counts in none)
sed 's/^VARIANTS=.*/VARIANTS=("base vanilla-perf x" "fast memtide-perf x")/' "$TMP/s.sh" >"$TMP/l.sh"
echo 'LIMITS=("prep_us swapped_before|prep" "resume_us image_bytes+boot_us|resume" "elapsed_us moved+fixed_us|full speed")' >>"$TMP/l.sh"
{
	echo "base 1 rc=0 swapped_before=0 prep_us=20000 resume_us=9000000 image_bytes=300000000 boot_us=4000000 elapsed_us=40000000 moved=900000000 fixed_us=4000000"
	echo "fast 1 rc=0 swapped_before=800000000 prep_us=10000000 resume_us=7000000 image_bytes=80000000 boot_us=5000000 elapsed_us=17000000 moved=900000000 fixed_us=5000000"
	echo "fast 2 rc=no-result console=console-fast-2.log"
	echo "fast 3 rc=1 swapped_before=1 prep_us=1 resume_us=1 image_bytes=1 boot_us=1 elapsed_us=1 moved=1 fixed_us=1"
} >"$TMP/l-results"
"$bench/report.sh" "$TMP/l.sh" "$TMP/l-results" >"$TMP/l-report.md" 2>"$TMP/err"
check "LIMITS: a column per step, time / limit (ratio) per variant, bytes / bandwidth + a time" \
	bash -c "grep -q '^| variant | prep s / limit s | resume s / limit s | full speed s / limit s |\$' '$TMP/l-report.md' &&
		grep -q '^| fast | 10.00 / 8.00 (1.25x) | 7.00 / 5.80 (1.21x) | 17.00 / 14.00 (1.21x) |\$' '$TMP/l-report.md'"
check "LIMITS: a step that moved under 1 MiB has no disk limit, the others of its variant do" \
	bash -c "grep -q '^| base | 0.02 / - | 9.00 / 7.00 (1.29x) | 40.00 / 13.00 (3.08x) |\$' '$TMP/l-report.md' && ! [ -s '$TMP/err' ]"
sed -i 's/^DISK_BPS=.*/DISK_BPS=0/' "$TMP/l.sh"
"$bench/report.sh" "$TMP/l.sh" "$TMP/l-results" >"$TMP/l-report.md" 2>"$TMP/err"
check "LIMITS on an uncapped disk: said in a line, no table, no error" \
	bash -c "grep -qx 'No limits per step: the disk is uncapped.' '$TMP/l-report.md' &&
		! grep -q 'prep s / limit s' '$TMP/l-report.md' && ! [ -s '$TMP/err' ]"
# a limit's term KEY,KEY: the first key a variant's runs have (QEMU's count, else the older figure)
sed 's/^LIMITS=.*/LIMITS=("resume_us rd_bytes,image_bytes+boot_us|resume")/; s/^DISK_BPS=.*/DISK_BPS=$((100 * 1000 * 1000))/' "$TMP/l.sh" >"$TMP/a.sh"
sed '1s/$/ rd_bytes=20000000/' "$TMP/l-results" >"$TMP/a-results"
"$bench/report.sh" "$TMP/a.sh" "$TMP/a-results" >"$TMP/a-report.md" 2>"$TMP/err"
check "LIMITS: KEY,KEY takes the first key the variant has, else the next" \
	bash -c "grep -q '^| base | 9.00 / 4.20 (2.14x) |\$' '$TMP/a-report.md' &&
		grep -q '^| fast | 7.00 / 5.80 (1.21x) |\$' '$TMP/a-report.md' && ! [ -s '$TMP/err' ]"
# ... and only if all the variant's runs have it: a median of one measure, not of two
{ cat "$TMP/a-results"; sed -n '1s/^base 1 /base 2 /p' "$TMP/l-results"; } >"$TMP/m-results"
"$bench/report.sh" "$TMP/a.sh" "$TMP/m-results" >"$TMP/m-report.md" 2>"$TMP/err"
check "LIMITS: KEY,KEY: a key only some of a variant's runs have is not taken" \
	bash -c "grep -q '^| base | 9.00 / 7.00 (1.29x) |\$' '$TMP/m-report.md' && ! [ -s '$TMP/err' ]"
check "no LIMITS, no table" bash -c "! grep -q 'physical limit (bytes\|No limits per step' '$TMP/report.md'"
# the noise floor needs the baseline's A/A pair: every scenario runs its first variant twice
check "every scenario has an A/A pair, its baseline again (BASELINE-again)" bash -c "
	for f in '$bench'/scenarios/*.sh; do
		case \$f in *-guest.sh) continue ;; esac
		( VARIANTS=(); . \"\$f\" >/dev/null
		  set -- \${VARIANTS[0]}
		  printf '%s\n' \"\${VARIANTS[@]}\" | cut -d' ' -f1 | grep -qx -- \"\$1-again\" ) ||
			{ echo \"no A/A pair: \$f\"; exit 1; }
	done"
check "the hibernate scenarios name a limit for each of their steps" bash -c "
	. '$bench/scenarios/hibernate.sh' && [ \${#LIMITS[@]} -eq 4 ]"
# the hibernate scenario times boots and guest stamps on the host's clock
cat >"$TMP/console.log" <<'L'
memtide-host: boot 1 at 1000000
memtide-host: stamp hibernate-start at 1010000
[   29.000000] PM: hibernation: Allocated 110000 kbytes in 0.25 seconds (440.00 MB/s)
[   30.100000] PM: hibernation: Wrote 102400 kbytes in 1.00 seconds (104.85 MB/s)
memtide-host: boot 1 exit at 1011500
memtide-host: boot 2 at 1012000
memtide-host: stamp resumed at 1015000
swap_at_resume=1048576
memtide-host: stamp released at 1020000
memtide-host: stamp full-speed at 1021000
L
check "hibernate: hibernate, resume, release, full speed, image, moved, the kernel's write and allocation times from the log" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(host_result '$TMP/console.log')\" = 'hibernate_us=1500000 resume_us=3000000 release_us=5000000 elapsed_us=9000000 image_bytes=104857600 moved=105906176 write_us=1000000 alloc_us=250000' ] &&
		grep -v 'stamp full-speed' '$TMP/console.log' >'$TMP/short.log' && [ \"\$(host_result '$TMP/short.log')\" = rc=host-stamps-missing ]"
# a variant's kernel parameters name how the image is written: the console must agree
sed 's/^\[   30.100000\] PM: hibernation: Wrote/[   29.500000] PM: Saving image data pages (25600 pages)...\n&/' \
	"$TMP/console.log" >"$TMP/plain.log"
sed 's/^\[   30.100000\] PM: hibernation: Wrote/[   29.500000] PM: Using 1 thread(s) for lzo compression\n&/' \
	"$TMP/console.log" >"$TMP/lzo.log"
check "hibernate: hibernate=nocompress, and the kernel wrote the image uncompressed: the figures" \
	bash -c ". '$bench/scenarios/hibernate.sh' && VARIANT_CMDLINE='quiet hibernate=nocompress' host_result '$TMP/plain.log' | grep -q '^hibernate_us=1500000 '"
check "hibernate: hibernate=nocompress, but the kernel compressed it (or said nothing): an rc" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(VARIANT_CMDLINE=hibernate=nocompress host_result '$TMP/lzo.log')\" = rc=image-written-by-lzo-not-none ] &&
		[ \"\$(VARIANT_CMDLINE=hibernate=nocompress host_result '$TMP/console.log')\" = rc=image-written-by-unknown-not-none ]"
check "hibernate: hibernate.compressor=NAME is checked the same way; no parameter, no check" \
	bash -c ". '$bench/scenarios/hibernate.sh' && VARIANT_CMDLINE=hibernate.compressor=lzo host_result '$TMP/lzo.log' | grep -q '^hibernate_us=' &&
		[ \"\$(VARIANT_CMDLINE=hibernate.compressor=lz4 host_result '$TMP/lzo.log')\" = rc=image-written-by-lzo-not-lz4 ] &&
		host_result '$TMP/plain.log' | grep -q '^hibernate_us='"
# a 4 GiB guest moves more than 2^31 bytes: no figure may be clamped (mawk's %d stops at 2^31-1)
sed 's/Wrote 102400 kbytes/Wrote 2097152 kbytes/; s/^swap_at_resume=.*/swap_at_resume=3221225472/' \
	"$TMP/console.log" >"$TMP/big.log"
check "hibernate: image and moved beyond 2 GiB are not clamped" \
	bash -c ". '$bench/scenarios/hibernate.sh' && host_result '$TMP/big.log' | grep -q ' image_bytes=2147483648 moved=5368709120 '"
check "hibernate-4g-prealloc: moved beyond 2 GiB in full digits" \
	bash -c ". '$bench/scenarios/hibernate-4g-prealloc.sh' && host_result '$TMP/big.log' | grep -q ' image_bytes=2147483648 moved=3221225472 '"
# with the guest's result line: prep + hibernate as total_us
echo 'bench-result prep_us=2000000 swapped_before=0 rc=0' >>"$TMP/console.log"
check "hibernate: total_us is the guest's prep plus the host-timed hibernation" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(host_result '$TMP/console.log')\" = 'hibernate_us=1500000 resume_us=3000000 release_us=5000000 elapsed_us=9000000 image_bytes=104857600 moved=105906176 write_us=1000000 alloc_us=250000 total_us=3500000' ]"
# the working set (hibernate-hot): responsive is the resume (3 s) plus the end of the first of
# ten 100 ms buckets in a row whose slowest pass is within 2x the warm one (5 ms): one fast
# pass at 1.0 s, then slow ones, then fast from 2.0 s on: 2.1 s
{
	sed 's/^bench-result prep_us=2000000 /&hot_ref_us=5000 /' "$TMP/console.log"
	echo "bench-series hot 500000 900000"
	echo "bench-series hot 1000000 6000"
	printf 'bench-series hot 1100000 30000\r\n'
	for b in $(seq 20 31); do printf 'bench-series hot %d 9000\r\n' $((b * 100000)); done
} >"$TMP/hot.log"
check "hibernate-hot: responsive_us once the passes stay within 2x for a second, not at the first fast one" \
	bash -c ". '$bench/scenarios/hibernate-hot.sh' && host_result '$TMP/hot.log' | grep -q ' moved=105906176 responsive_us=5100000 ' &&
		! host_result '$TMP/console.log' | grep -q responsive_us"
# a gap (no pass ended in a bucket: one still running) breaks the second; never a whole
# second within 2x: the run fails
grep -v 'hot 2500000 ' "$TMP/hot.log" >"$TMP/gap.log"
check "hibernate-hot: a bucket without a pass breaks the stretch" \
	bash -c ". '$bench/scenarios/hibernate-hot.sh' && host_result '$TMP/gap.log' | grep -q ' rc=hot-never-responsive'"
grep -v 'hot 3[01]00000 ' "$TMP/hot.log" | sed 's/hot 2000000 9000/hot 2000000 11000/' >"$TMP/short.log"
check "hibernate-hot: less than a whole second within 2x: rc hot-never-responsive, no figure" \
	bash -c ". '$bench/scenarios/hibernate-hot.sh' && host_result '$TMP/short.log' | grep -q ' rc=hot-never-responsive' &&
		! host_result '$TMP/short.log' | grep -q responsive_us"
# QEMU's counts (vm-run VM_BLOCKSTATS) less the guest's own: boot 1 wrote 1000 - 400 requests,
# 104857600 - 4194304 bytes (164 KiB each) after the guest's count; boot 2 read 60 requests, 50 of
# them (and 104857600 - 409600 bytes) the boot kernel's (2040 KiB each)
cat "$TMP/console.log" - >"$TMP/bs.log" <<'L'
memtide-host: boot 1 blockstats swap rd_ops=7 rd_bytes=28672 wr_ops=1000 wr_bytes=104857600
memtide-host: boot 2 blockstats swap rd_ops=60 rd_bytes=104857600 wr_ops=0 wr_bytes=0
bench-result prep_us=2000000 hib_wr_ios0=400 hib_wr_bytes0=4194304 resumed_rd_ios=10 resumed_rd_bytes=409600 rc=0
L
check "hibernate: what hibernation wrote, the image read, their average requests, from QEMU's counts" \
	bash -c ". '$bench/scenarios/hibernate.sh' && host_result '$TMP/bs.log' | grep -q ' total_us=3500000 hibernate_wr_bytes=100663296 hibernate_req_kib=164 image_rd_bytes=104448000 resume_req_kib=2040\$'"
# moved: the image as read (104448000 bytes) plus swap_at_resume, not its size before compression
check "hibernate: with QEMU's counts, moved is the image read plus what was in swap" \
	bash -c ". '$bench/scenarios/hibernate.sh' && host_result '$TMP/bs.log' | grep -q ' image_bytes=104857600 moved=105496576 '"
check "hibernate: no QEMU counts (VM_BLOCKSTATS=0, older runs): no request sizes, moved from the image's size, no error" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(host_result '$TMP/bs.log' | sed 's/ hibernate_wr_bytes=.*//; s/ moved=105496576 / moved=105906176 /')\" = \"\$(grep -v blockstats '$TMP/bs.log' >'$TMP/nobs.log'; host_result '$TMP/nobs.log')\" ] &&
		host_result '$TMP/nobs.log' | grep -q ' moved=105906176 .* total_us=3500000\$'"
check "hibernate-4g-prealloc: with QEMU's counts, the release's bytes are moved less the image read" \
	bash -c ". '$bench/scenarios/hibernate-4g-prealloc.sh' && host_result '$TMP/bs.log' | grep -q ' image_bytes=104857600 moved=1048576 '"
sed -i '/^bench-result /d' "$TMP/console.log"
# a variant that asked vm-run for preallocated memory (VM_ENV) must have had it
printf 'memtide-host: guest memory preallocated\n' | cat - "$TMP/console.log" >"$TMP/pre.log"
check "hibernate: VM_PREALLOC=1 asked, and the console without vm-run's line: an rc" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(VARIANT_ENV='VM_PREALLOC=1' host_result '$TMP/console.log')\" = rc=memory-not-preallocated ] &&
		VARIANT_ENV='VM_PREALLOC=1' host_result '$TMP/pre.log' | grep -q '^hibernate_us=1500000 '"
check "hibernate: preallocated memory not asked for: an rc" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(host_result '$TMP/pre.log')\" = rc=memory-preallocated-not-asked ]"
check "hibernate: no release stamp: an rc, not a negative release" \
	bash -c ". '$bench/scenarios/hibernate.sh' && grep -v 'stamp released' '$TMP/console.log' >'$TMP/norel.log' &&
		[ \"\$(host_result '$TMP/norel.log')\" = rc=host-stamps-missing ]"
# hibernate-4g-prealloc times the release: elapsed_us is release_us, moved what came back from swap
check "hibernate-4g-prealloc: the release is the timed step, its bytes what was swapped" \
	bash -c ". '$bench/scenarios/hibernate-4g-prealloc.sh' && [ \"\$(VARIANT_ENV='VM_PREALLOC=1' host_result '$TMP/pre.log')\" = 'hibernate_us=1500000 resume_us=3000000 release_us=5000000 full_us=9000000 elapsed_us=5000000 image_bytes=104857600 moved=1048576 write_us=1000000 alloc_us=250000' ] &&
		[ \"\$(VARIANT_ENV='VM_PREALLOC=1' host_result '$TMP/console.log')\" = rc=memory-not-preallocated ]"
# the first boot up to /init, measured on its own, is the part of the limit no disk shortens
sed 's/^memtide-host: boot 1 at 1000000$/&\nmemtide-host: stamp kernel-booted at 1002500/' "$TMP/console.log" >"$TMP/booted.log"
check "hibernate: the boot up to /init is boot_us and fixed_us" \
	bash -c ". '$bench/scenarios/hibernate.sh' && [ \"\$(host_result '$TMP/booted.log')\" = 'hibernate_us=1500000 resume_us=3000000 release_us=5000000 elapsed_us=9000000 image_bytes=104857600 moved=105906176 write_us=1000000 alloc_us=250000 boot_us=2500000 fixed_us=2500000' ]"
# fixed_us: added to the limit (700 MB at 100 MB/s = 7 s, + 3 s)
echo "base 1 swapped=700000000 rc=0 elapsed_us=12000000 fixed_us=3000000" >"$TMP/f-results"
"$bench/report.sh" "$TMP/s.sh" "$TMP/f-results" >"$TMP/f-report.md" 2>"$TMP/err"
check "fixed_us is added to the physical limit" bash -c "grep -q '^| base | 12.00 .* | 10.00 | 1.20 | ' '$TMP/f-report.md'"

# curves: one per variant from its median run; lines cut by kernel messages are skipped
mkdir -p "$TMP/series"
{
	for r in 1 2 3; do echo "base $r rc=0 elapsed_us=${r}0000000"; done
	echo "fast 1 rc=0 elapsed_us=5000000"
} >"$TMP/series/results"
for r in 1 2 3; do printf 'bench-series resident 0 0\r\nbench-series resident 200000 %d\nbench-series resi[ 3.1] x\n' $((r * 1048576)) >"$TMP/series/series-base-$r"; done
check "plot-series draws the curves of the median runs" bash -c "
	'$bench/plot-series.sh' '$TMP/s.sh' '$TMP/series' '$TMP/curves.png' && [ -s '$TMP/curves.png' ]"
expect_error "plot-series without series" 1 "^plot-series: no resident series in " "$bench/plot-series.sh" "$TMP/s.sh" "$TMP" "$TMP/none.png"
# the hot loop's passes (hot-guest.sh) beside the resident curve: each plot takes its own lines
mkdir -p "$TMP/hot"
{
	for r in 1 2 3; do echo "base $r rc=0 elapsed_us=${r}0000000 responsive_us=$((4 - r))000000"; done
} >"$TMP/hot/results"
for r in 1 2 3; do printf 'bench-series hot 0 900000\nbench-series hot 100000 %d\n' $((r * 1000)) >"$TMP/hot/series-base-$r"; done
check "plot-series draws the hot loop's passes" bash -c "
	'$bench/plot-series.sh' '$TMP/s.sh' '$TMP/hot' '$TMP/hot.png' hot && [ -s '$TMP/hot.png' ]"
expect_error "plot-series: the resident curve is not drawn from the hot loop's lines" 1 "^plot-series: no resident series in " \
	"$bench/plot-series.sh" "$TMP/s.sh" "$TMP/hot" "$TMP/none.png" resident
expect_error "plot-series: an unknown series is refused" 2 "^plot-series: unknown series 'cold' \(resident, hot\)$" \
	"$bench/plot-series.sh" "$TMP/s.sh" "$TMP/hot" "$TMP/none.png" cold

# cost against size: the hibernate scenarios at 1, 2 and 4 GiB, seconds per GiB moved
mkdir -p "$TMP/sc/hibernate" "$TMP/sc/hibernate-4g"
# (memtide's third run failed: no figure of it counts)
printf 'memtide 1 rc=0 elapsed_us=5000000 moved=536870912\nmemtide 2 rc=0 elapsed_us=7000000 moved=536870912\nmemtide 3 rc=1 elapsed_us=90000000 moved=1\n' >"$TMP/sc/hibernate/results"
check "scaling: nothing without results" bash -c "mkdir -p '$TMP/none' && [ -z \"\$('$bench/scaling.sh' '$TMP/none')\" ]"
check "scaling: one size, a heading, why there is no table and the command that makes one" bash -c "
	'$bench/scaling.sh' '$TMP/sc' >'$TMP/sc1.md' && grep -q '^## hibernate at 1 GiB: cost against size\$' '$TMP/sc1.md' &&
	grep -qF 'No table: the cost against size needs two sizes or more measured in one invocation (\`make bench SCENARIO=\"hibernate hibernate-2g hibernate-4g\"\`).' '$TMP/sc1.md' &&
	! grep -q '^| ' '$TMP/sc1.md'"
echo 'memtide 1 rc=0 elapsed_us=24000000 moved=2147483648' >"$TMP/sc/hibernate-4g/results"
check "scaling: median s, MiB and s/GiB per size" bash -c "
	'$bench/scaling.sh' '$TMP/sc' >'$TMP/sc.md' && grep -q '^## hibernate at 1, 4 GiB: cost against size\$' '$TMP/sc.md' &&
	grep -qx '| memtide | 6.0, 512, 12.0 | 24.0, 2048, 12.0 | 12.0 | - |' '$TMP/sc.md'"
# three sizes: marginal costs per step, linear when they agree within 1.2x
mkdir -p "$TMP/sc/hibernate-2g"
printf 'memtide 1 rc=0 elapsed_us=10000000 moved=1073741824\nvanilla 1 rc=0 elapsed_us=9000000 moved=1073741824\n' >"$TMP/sc/hibernate-2g/results"
echo 'vanilla 1 rc=0 elapsed_us=17000000 moved=2147483648' >>"$TMP/sc/hibernate-4g/results"
echo 'vanilla 1 rc=0 elapsed_us=5000000 moved=536870912' >>"$TMP/sc/hibernate/results"
# the floor: a few MiB more per size, no marginal cost (its seconds are not the bytes')
printf 'floor 1 rc=0 elapsed_us=4000000 moved=50331648\n' >>"$TMP/sc/hibernate/results"
printf 'floor 1 rc=0 elapsed_us=4200000 moved=52428800\n' >>"$TMP/sc/hibernate-2g/results"
printf 'floor 1 rc=0 elapsed_us=5000000 moved=58720256\n' >>"$TMP/sc/hibernate-4g/results"
check "scaling: marginal s/GiB per step; linear or not" bash -c "
	'$bench/scaling.sh' '$TMP/sc' >'$TMP/sc3.md' &&
	grep -qx '| floor | 4.0, 48, 85.3 | 4.2, 50, 86.0 | 5.0, 56, 91.4 | - | - |' '$TMP/sc3.md' &&
	grep -qx '| memtide | 6.0, 512, 12.0 | 10.0, 1024, 10.0 | 24.0, 2048, 12.0 | 8.0, 14.0 | \*\*no\*\* |' '$TMP/sc3.md' &&
	grep -qx '| vanilla | 5.0, 512, 10.0 | 9.0, 1024, 9.0 | 17.0, 2048, 8.5 | 8.0, 8.0 | yes |' '$TMP/sc3.md'"
# sizes of different invocations are not compared: the 4 GiB runs of another bench_id are left
# out and named; the newest invocation's sizes stay
sed 's/$/ bench_id=200/' "$TMP/sc/hibernate/results" >"$TMP/sc/x" && mv "$TMP/sc/x" "$TMP/sc/hibernate/results"
sed 's/$/ bench_id=200/' "$TMP/sc/hibernate-2g/results" >"$TMP/sc/x" && mv "$TMP/sc/x" "$TMP/sc/hibernate-2g/results"
sed 's/$/ bench_id=100/' "$TMP/sc/hibernate-4g/results" >"$TMP/sc/x" && mv "$TMP/sc/x" "$TMP/sc/hibernate-4g/results"
check "scaling: only the newest invocation's sizes, the others named" bash -c "
	'$bench/scaling.sh' '$TMP/sc' >'$TMP/sc4.md' && grep -q '^## hibernate at 1, 2 GiB: cost against size\$' '$TMP/sc4.md' &&
	grep -qx 'Compared: the runs of one .make bench. invocation, started 1970-01-01 00:03 UTC (the machine its size sections name).' '$TMP/sc4.md' &&
	! grep -q '^Compared:' '$TMP/sc3.md' &&
	grep -q '^Not compared: 4 GiB, measured in another' '$TMP/sc4.md' &&
	grep -qx '| memtide | 6.0, 512, 12.0 | 10.0, 1024, 10.0 | 8.0 | - |' '$TMP/sc4.md' && ! grep -q '24.0, 2048' '$TMP/sc4.md'"
sed 's/bench_id=200/bench_id=50/' "$TMP/sc/hibernate-2g/results" >"$TMP/sc/x" && mv "$TMP/sc/x" "$TMP/sc/hibernate-2g/results"
check "scaling: one size left in the newest invocation: no table, the others named" bash -c "
	'$bench/scaling.sh' '$TMP/sc' >'$TMP/sc5.md' && grep -q '^## hibernate at 1 GiB: cost against size\$' '$TMP/sc5.md' &&
	grep -q '^Not compared: 2, 4 GiB, measured' '$TMP/sc5.md' && ! grep -q '^| ' '$TMP/sc5.md'"

# docs/benchmarks.md: new sections replace old ones; a scenario without results keeps its old
# section (a fresh checkout has no build/bench), one that never had any has none
mkdir -p "$TMP/asm/scen" "$TMP/asm/out/b"
touch "$TMP/asm/scen/a.sh" "$TMP/asm/scen/b.sh" "$TMP/asm/scen/c.sh" "$TMP/asm/scen/a-guest.sh"
printf '# Benchmarks\n\nold header\n\n## a: old a\n\na figures\n\n## b: old b\n\nold b figures\n\n' >"$TMP/asm/doc.md"
printf '## b: new b\n\nnew b figures\n' >"$TMP/asm/out/b/report.md"
"$bench/assemble.sh" "$TMP/asm/scen" "$TMP/asm/out" "$TMP/asm/doc.md" 3 2>"$TMP/err"
check "assemble: a new section replaces the old, an old one without results stays" bash -c "
	sed -n '/^## /,\$p' '$TMP/asm/doc.md' >'$TMP/asm/got' &&
	printf '## a: old a\n\na figures\n\n## b: new b\n\nnew b figures\n\n' | cmp - '$TMP/asm/got'"
# sections name their machine, the header none: the sections may come from several hosts. A
# kept section that names none is not given the old header's machine (the audit of issue 32:
# sections of another host were labelled with the last run's)
printf '# Benchmarks\n\n- Machine: 2 CPUs (Old CPU), 23 GiB\n\n## a: old a\n\nMeasured 2026-11-30: `make bench SCENARIO=a`.\n\n' >"$TMP/asm/doc2.md"
printf '## b: new b\n\nMeasured 2030-01-01 to 2030-01-02 on 2 CPUs (New CPU), 23 GiB, host CPU steal median 1.0%% (max 2.0%%, 3 runs): `make bench SCENARIO=b`.\n' \
	>"$TMP/asm/out/b/report.md"
"$bench/assemble.sh" "$TMP/asm/scen" "$TMP/asm/out" "$TMP/asm/doc2.md" 3 2>"$TMP/err"
# the header's last run is the newest section's, not today (no run was added)
check "assemble: the header's date is the newest section's; it names no machine, each section its own" bash -c "
	header() { sed '/^## /,\$d' \"\$1\"; }
	header '$TMP/asm/doc2.md' | grep -qx -- '- Date of the last run: 2030-01-02 (the newest day a section names)' &&
	header '$TMP/asm/doc2.md' | grep -qx -- '- Machine and date: each section'\"'\"'s \"Measured\" line names the machine and the days of its own' &&
	! header '$TMP/asm/doc2.md' | grep -q 'New CPU\|Old CPU' &&
	grep -q '^Measured 2030-01-01 to 2030-01-02 on 2 CPUs (New CPU), 23 GiB, host' '$TMP/asm/doc2.md'"
check "assemble: a kept section that names no machine: said so, not given the old header's, again the next time" bash -c "
	header() { sed '/^## /,\$d' \"\$1\"; }
	line='- Sections whose \"Measured\" line names no machine were measured before the lines named one:'
	header '$TMP/asm/doc2.md' | grep -qxF -- \"\$line\" &&
	'$bench/assemble.sh' '$TMP/asm/scen' '$TMP/asm/out' '$TMP/asm/doc2.md' 3 &&
	header '$TMP/asm/doc2.md' | grep -qxF -- \"\$line\" && ! grep -q 'Old CPU' '$TMP/asm/doc2.md'"
rm -rf "$TMP/asm/scen/a.sh"
"$bench/assemble.sh" "$TMP/asm/scen" "$TMP/asm/out" "$TMP/asm/doc2.md" 3 2>"$TMP/err"
check "assemble: no line for sections without a machine when none is left" \
	bash -c "! grep -q '^- Sections whose \"Measured\" line names no machine' '$TMP/asm/doc2.md'"
# two sections of the newest day on two hosts: the header names neither, each section its own
mkdir -p "$TMP/asm/out/c"
printf '## c: new c\n\nMeasured 2030-01-02 on 1 CPUs (Other CPU), 8 GiB: `make bench SCENARIO=c`.\n' >"$TMP/asm/out/c/report.md"
"$bench/assemble.sh" "$TMP/asm/scen" "$TMP/asm/out" "$TMP/asm/doc2.md" 3 2>"$TMP/err"
check "assemble: sections of the newest day on two hosts: the header names neither" bash -c "
	! sed '/^## /,\$d' '$TMP/asm/doc2.md' | grep -q 'New CPU\|Other CPU' &&
	grep -q '^Measured 2030-01-02 on 1 CPUs (Other CPU), 8 GiB: ' '$TMP/asm/doc2.md'"
rm -rf "$TMP/asm/out/c"
# the line's one writer and its readers agree: what print writes, parse reads back
ml=$bench/measured-line.sh
check "measured-line: a range, a machine and the steal read back as last day and machine" bash -c "
	'$ml' print '2030-01-01 to 2030-01-02' '2 CPUs (X), 8 GiB' ', host CPU steal median 1.0% (max 2.0%, 3 runs)' s 3 |
		'$ml' parse | grep -qx '2030-01-02|2 CPUs (X), 8 GiB'"
check "measured-line: a line that names no machine reads back without one" bash -c "
	printf 'Measured 2026-11-30: \`make bench SCENARIO=a\`.\nother text\n' | '$ml' parse | grep -qx '2026-11-30|'"
expect_error "measured-line: a wrong number of arguments" 2 "^usage: .*measured-line.sh print" "$ml" print 2030-01-01 m
# host CPU steal per run: median and max for the "Measured" line; nothing from older results
printf 'a 1 rc=0 steal_pct=2.0\na 2 rc=0 steal_pct=30.5\nb 1 rc=0 steal_pct=4.0\nb 2 rc=0\n' >"$TMP/steal"
check "steal: median and max of the runs that recorded it" \
	bash -c "[ \"\$('$bench/steal.sh' '$TMP/steal')\" = ', host CPU steal median 4.0% (max 30.5%, 3 runs)' ]"
check "steal: nothing when no run recorded it (or recorded it empty)" \
	bash -c "printf 'a 1 rc=0\na 2 rc=0 steal_pct=\n' >'$TMP/nosteal' && [ -z \"\$('$bench/steal.sh' '$TMP/nosteal')\" ]"
# the day(s) of a section's runs: at= (a run's end), else its console log's last change, else
# its invocation's start; the results file's own change only when no run says
mkdir -p "$TMP/when"
printf 'a 1 rc=0 bench_id=85000 at=86000\nb 1 rc=0 bench_id=85000 at=87000\n' >"$TMP/when/results"
check "measured: the runs' days from at=, across midnight" \
	bash -c "[ \"\$('$bench/measured.sh' '$TMP/when/results')\" = '1970-01-01 to 1970-01-02' ]"
printf 'a 1 rc=0 bench_id=1000\na 2 rc=0 bench_id=1000\n' >"$TMP/when/results"
touch -d @90000 "$TMP/when/console-a-2.log"
check "measured: a run without at= ends when its console log last changed" \
	bash -c "[ \"\$('$bench/measured.sh' '$TMP/when/results')\" = '1970-01-01 to 1970-01-02' ]"
rm "$TMP/when/console-a-2.log"
check "measured: without at= or a console log, the invocation's day" \
	bash -c "[ \"\$('$bench/measured.sh' '$TMP/when/results')\" = '1970-01-01' ]"
printf 'a 1 rc=0\n' >"$TMP/when/results" && touch -d @200000 "$TMP/when/results"
check "measured: results that record no time: the file's last change" \
	bash -c "[ \"\$('$bench/measured.sh' '$TMP/when/results')\" = '1970-01-03' ]"
expect_error "measured.sh without arguments" 2 "^usage: .*measured.sh RESULTS" "$bench/measured.sh"
expect_error "measured.sh of a missing file" 2 "^measured.sh: no results file '$TMP/none'" "$bench/measured.sh" "$TMP/none"
expect_error "steal.sh without arguments" 2 "^usage: .*steal.sh RESULTS" "$bench/steal.sh"
expect_error "assemble.sh without arguments" 2 "^usage: .*assemble.sh SCENARIO_DIR OUT DOC RUNS" "$bench/assemble.sh"

expect_error "unknown scenario" 2 "^bench: no scenario 'nosuch'" env -i PATH="$PATH" "$bench/bench.sh" nosuch
expect_error "RUNS not a number" 2 "^bench: RUNS 'three' must be a positive number" \
	env -i PATH="$PATH" RUNS=three "$bench/bench.sh" reclaim
# a scenario's runs so far ran on another machine: no more are added (they would be compared
# side by side with those), refused before any kernel build, nothing written
mkdir -p "$TMP/bo/hibernate" "$TMP/fakebin"
printf '#!/bin/sh\necho "make $*" >>"%s/made"\n' "$TMP" >"$TMP/fakebin/make" && chmod +x "$TMP/fakebin/make"
echo "9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG" >"$TMP/bo/hibernate/machine"
echo "vanilla 1 rc=0 bench_id=1 at=2" >"$TMP/bo/hibernate/results"
expect_error "runs of another machine: refused" 2 \
	"^bench: hibernate: its runs so far ran on 9 CPUs \(Elsewhere\), 1 GiB, QEMU 0 TCG, this is .* \(start over: make bench SCENARIO=hibernate FRESH=1\)\$" \
	env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/bo" BENCH_DOCS="$TMP/bd" "$bench/bench.sh" hibernate
check "runs of another machine: no build, results unchanged" bash -c "
	[ ! -e '$TMP/made' ] && [ \"\$(cat '$TMP/bo/hibernate/results')\" = 'vanilla 1 rc=0 bench_id=1 at=2' ] &&
	[ \"\$(ls '$TMP/bo/hibernate')\" = 'machine
results' ]"
# a variant's vm-run settings (VM_ENV) are split unquoted: anything but VM_KEY=VALUE words is
# refused before a guest starts
mkdir -p "$TMP/bscen"
printf 'VARIANTS=("a memtide-perf x")\ndeclare -A VM_ENV=([a]="VM_PREALLOC=1 *")\nGUEST=none.sh\n' >"$TMP/bscen/bad.sh"
expect_error "a variant's VM_ENV that is not VM_KEY=VALUE words" 2 \
	"^bench: bad: VM_ENV\[a\] 'VM_PREALLOC=1 \*' must be VM_PREALLOC=0\|1 \(the one vm-run setting a variant may add\)\$" \
	env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/bo" BENCH_SCENARIOS="$TMP/bscen" "$bench/bench.sh" bad
check "... no run recorded" bash -c "[ ! -e '$TMP/bo/bad' ]"
# bench.sh end to end with vm-run stood in for (BENCH_VM_RUN): it prints a result and logs the
# settings it got; make (kernels) is the fake above
mkdir -p "$TMP/fs" "$TMP/fd"
: >"$TMP/fs/g.sh"
cat >"$TMP/fs/two.sh" <<'S'
# Scenario "two": a test's.
TITLE="two"
VM_MEM=512M
SWAP_MB=64
DISK_BPS=$((100 * 1000 * 1000))
DISK_IOPS=0
GUEST=g.sh
VARIANTS=("a memtide-perf x" "b memtide-perf y")
declare -A VM_ENV=([b]=VM_PREALLOC=1)
S
printf '#!/bin/sh\necho "VM_PREALLOC=$VM_PREALLOC VM_SYSCTL=$VM_SYSCTL VM_BLOCKSTATS=$VM_BLOCKSTATS" >"$VM_LOG"\necho "bench-series resident 0 1" >>"$VM_LOG"\n[ "$FAKE_BS_FAIL" != 1 ] || echo "memtide-host: boot 1 blockstats failed: qmp-blockstats: no" >>"$VM_LOG"\necho "bench-result elapsed_us=1000000 swapped=90000000 rc=0"\n' \
	>"$TMP/fake-vm-run" && chmod +x "$TMP/fake-vm-run"
fb() { env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/fo" BENCH_SCENARIOS="$TMP/fs" BENCH_DOCS="$TMP/fd" \
	BENCH_VM_RUN="$TMP/fake-vm-run" VM_PREALLOC=1 VM_SYSCTL=vm.swappiness=1 VM_BLOCKSTATS=0 "$@" "$bench/bench.sh" two; }
here=$("$bench/machine.sh")
rm -f "$TMP/made"
fb RUNS=2 >/dev/null 2>"$TMP/fb.err"
check "bench: runs made, each with its end (at=) and invocation, the machine recorded" bash -c "
	[ \$(grep -c '^[ab] [12] elapsed_us=1000000 swapped=90000000 rc=0 steal_pct=[0-9.]* bench_id=[0-9]* at=[0-9]*\$' '$TMP/fo/two/results') = 4 ] &&
	[ \"\$(cat '$TMP/fo/two/machine')\" = '$here' ] && grep -q '^make -s kernel PERF=1' '$TMP/made'"
check "bench: the variants alternate, round by round (a b a b)" \
	bash -c "[ \"\$(cut -d' ' -f1,2 '$TMP/fo/two/results' | tr '\n' ,)\" = 'a 1,b 1,a 2,b 2,' ]"
check "bench: each run shows its scenario, round, variant, count and time so far" \
	bash -c "grep -qx '==> bench two: run 1/2 a (1 of 4, 0m[0-9][0-9]s so far)' '$TMP/fb.err' &&
		grep -qx '==> bench two: run 2/2 b (4 of 4, [0-9]*m[0-9][0-9]s so far)' '$TMP/fb.err'"
check "bench: vm-run gets the variant's VM_ENV and nothing of the caller's environment; QEMU counts requests" bash -c "
	grep -qx 'VM_PREALLOC=0 VM_SYSCTL= VM_BLOCKSTATS=1' '$TMP/fo/two/console-a-1.log' &&
	grep -qx 'VM_PREALLOC=1 VM_SYSCTL= VM_BLOCKSTATS=1' '$TMP/fo/two/console-b-2.log'"
check "bench: the section names the runs' day and machine" \
	grep -qx "Measured $(date -u +%Y-%m-%d) on $here, host CPU steal median .*: \`make bench SCENARIO=two RUNS=2\`." "$TMP/fd/benchmarks.md"
# the raw results go into the repository (docs/bench-data), and come back from there in a
# clone or on another machine: the document is written again from them, no run is made
check "bench: the runs, their machine and series are archived in docs/bench-data/NAME" bash -c "
	cmp -s '$TMP/fo/two/results' '$TMP/fd/bench-data/two/results' &&
	cmp -s '$TMP/fo/two/machine' '$TMP/fd/bench-data/two/machine' &&
	cmp -s '$TMP/fo/two/series-b-2' '$TMP/fd/bench-data/two/series-b-2' && [ ! -e '$TMP/fd/bench-data/two/console-a-1.log' ]"
cp -r "$TMP/fo" "$TMP/fo.kept" && rm -rf "$TMP/fo" "$TMP/fd/benchmarks.md" "$TMP/made"
echo "9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG" >"$TMP/fd/bench-data/two/machine"
fb RUNS=2 >/dev/null 2>"$TMP/fb.err"
check "bench: no build/bench: the archive's runs restored, no build, no run, the doc written" bash -c "
	[ ! -e '$TMP/made' ] && cmp -s '$TMP/fo.kept/two/results' '$TMP/fo/two/results' &&
	grep -qx '==> bench two: 4 runs restored from docs/bench-data/two' '$TMP/fb.err' &&
	grep -q '^Measured .* on 9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG, host CPU' '$TMP/fd/benchmarks.md'"
expect_error "bench: runs to add to the archive's of another machine: refused" 2 \
	"^bench: two: its runs so far ran on 9 CPUs \(Elsewhere\), 1 GiB, QEMU 0 TCG, this is .* \(start over: make bench SCENARIO=two FRESH=1\)\$" fb RUNS=3
expect_error "bench: FRESH not 0 or 1: refused" 2 "^bench: FRESH 'yes' must be 0 or 1\$" fb RUNS=2 FRESH=yes
check "... nothing moved" bash -c "[ ! -e '$TMP/fo/two.old' ] && [ \$(wc -l <'$TMP/fo/two/results') = 4 ]"
fb RUNS=1 FRESH=1 >/dev/null 2>"$TMP/fb.err"
check "bench: FRESH=1 starts over: earlier runs in NAME.old, new ones on this machine, archived" bash -c "
	[ \$(wc -l <'$TMP/fo/two.old/results') = 4 ] && [ \$(wc -l <'$TMP/fo/two/results') = 2 ] &&
	[ \"\$(cat '$TMP/fd/bench-data/two/machine')\" = '$here' ] &&
	cmp -s '$TMP/fo/two/results' '$TMP/fd/bench-data/two/results'"
rm -rf "$TMP/fo" && mv "$TMP/fo.kept" "$TMP/fo"
# QEMU's count failed in a run: the run stands, and bench says so
cp -r "$TMP/fo" "$TMP/fo.bs"
fb RUNS=1 FRESH=1 FAKE_BS_FAIL=1 >/dev/null 2>"$TMP/fb.err"
check "bench: a run whose request count failed is kept, with a warning" bash -c "
	grep -qx \"bench: two a run 1: QEMU's count of requests failed (console: $TMP/fo/two/console-a-1.log)\" '$TMP/fb.err' &&
	[ \$(wc -l <'$TMP/fo/two/results') = 2 ]"
rm -rf "$TMP/fo" && mv "$TMP/fo.bs" "$TMP/fo"
rm -f "$TMP/made"
cp "$TMP/fo/two/results" "$TMP/two.before"
echo "9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG" >"$TMP/fo/two/machine"
fb RUNS=2 >/dev/null 2>"$TMP/fb.err"
st=$?
check "bench: all runs there: no build, no run, the doc again, naming their machine" bash -c "
	[ $st = 0 ] && [ ! -e '$TMP/made' ] && cmp -s '$TMP/two.before' '$TMP/fo/two/results' &&
	grep -q '^Measured .* on 9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG, host CPU' '$TMP/fd/benchmarks.md'"
rm "$TMP/fo/two/machine"
fb RUNS=2 >/dev/null 2>"$TMP/fb.err"
check "bench: runs older than the machine file: the machine their last report named" \
	grep -q '^Measured .* on 9 CPUs (Elsewhere), 1 GiB, QEMU 0 TCG, host CPU' "$TMP/fd/benchmarks.md"
expect_error "bench: more runs to those of the machine the report named: refused" 2 \
	"^bench: two: its runs so far ran on 9 CPUs \(Elsewhere\), 1 GiB, QEMU 0 TCG, this is " fb RUNS=3
rm "$TMP/fo/two/report.md"
expect_error "bench: more runs to runs that name no machine: refused" 2 \
	"^bench: two: its runs so far name no machine \(write it into build/bench/two/machine, or start over: make bench SCENARIO=two FRESH=1\)\$" fb RUNS=3
sed 's/, [0-9]* GiB,/, 999 GiB,/' <<<"$here" >"$TMP/fo/two/machine"
fb RUNS=3 >/dev/null 2>"$TMP/fb.err"
check "bench: the same machine with another memory total (a balloon, free's rounding): runs added" \
	bash -c "[ \$(wc -l <'$TMP/fo/two/results') = 6 ]"
# A run that gives no result (a hang until VM_TIMEOUT, a lost resume, a crash) is a failed run:
# recorded with rc=no-result, the invocation goes on, the section counts it and leaves it out
# of the medians, and the next invocation does not make it again
sed 's/^# Scenario "two".*/# Scenario "hang": a test'"'"'s, some runs of which hang./; s/^TITLE=.*/TITLE="hang"/' \
	"$TMP/fs/two.sh" >"$TMP/fs/hang.sh"
cat >"$TMP/hang-vm-run" <<'V'
#!/bin/sh
# vm-run stood in for: the runs FAKE_HANG names (VARIANT-RUN ...) time out after the guest
# booted; with FAKE_NO_GUEST=1 QEMU never starts; the others run as fake-vm-run's do
if [ "${FAKE_NO_GUEST:-0}" = 1 ]; then
	echo "memtide-host: boot 1 at 1" >"$VM_LOG"
	echo "vm-run: qemu failed: no such device" >&2
	exit 2
fi
for r in $FAKE_HANG; do
	case $VM_LOG in
	*/console-$r.log)
		printf 'memtide-host: boot 1 at 1\n[    1.000000] Run /init as init process\n' >"$VM_LOG"
		printf 'vm-run: the guest timed out after 900s; last console lines:\n  | x\n' >&2
		exit 124 ;;
	esac
done
exec "$FAKE_VM_RUN"
V
chmod +x "$TMP/hang-vm-run"
fg() { env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/fo" BENCH_SCENARIOS="$TMP/fs" BENCH_DOCS="$TMP/fd" \
	BENCH_VM_RUN="$TMP/hang-vm-run" FAKE_VM_RUN="$TMP/fake-vm-run" "$@" "$bench/bench.sh" hang; }
fg RUNS=2 FAKE_HANG=b-1 >/dev/null 2>"$TMP/fg.err"
st=$?
check "bench: a run without a result is recorded as failed (rc=no-result, vm-run's status, its console), the next runs made" bash -c "
	[ $st = 0 ] && [ \"\$(cut -d' ' -f1,2 '$TMP/fo/hang/results' | tr '\n' ,)\" = 'a 1,b 1,a 2,b 2,' ] &&
	grep -qx 'b 1 rc=no-result vm_run_exit=124 console=console-b-1.log bench_id=[0-9]* at=[0-9]*' '$TMP/fo/hang/results' &&
	[ -s '$TMP/fo/hang/console-b-1.log' ] && [ ! -e '$TMP/fo/hang/series-b-1' ]"
check "bench: ... and says so, with vm-run's reason and the console, then once more at the end" bash -c "
	grep -qxF 'bench: hang b run 1 gave no result (the guest timed out after 900s): recorded as failed, rc=no-result (console: $TMP/fo/hang/console-b-1.log)' '$TMP/fg.err' &&
	tail -n 1 '$TMP/fg.err' | grep -q '^==> bench: 1 runs gave no result: counted as failed in their sections (FRESH=1, or deleting'"
check "bench: the section counts the failed run and takes b's median from the run that passed" bash -c "
	grep -q '^| b | 1.00 (1.00-1.00) | .* | 1 |\$' '$TMP/fd/benchmarks.md' && grep -q '^| a | 1.00 (1.00-1.00) | .* | 0 |\$' '$TMP/fd/benchmarks.md' &&
	grep -q '^!\[hang\](bench-hang.png)\$' '$TMP/fd/benchmarks.md' && cmp -s '$TMP/fo/hang/results' '$TMP/fd/bench-data/hang/results'"
cp "$TMP/fo/hang/results" "$TMP/hang.before"
fg RUNS=2 >/dev/null 2>"$TMP/fg.err"
check "bench: the failed run stays recorded: the next invocation makes no run" bash -c "
	cmp -s '$TMP/hang.before' '$TMP/fo/hang/results' && ! grep -q '==> bench hang: run ' '$TMP/fg.err' &&
	grep -q '^| b | 1.00 (1.00-1.00) | .* | 1 |\$' '$TMP/fd/benchmarks.md'"
# no guest ran at all (vm-run's settings, QEMU that does not start): every run would fail so,
# and none is recorded
fg RUNS=3 FAKE_NO_GUEST=1 >/dev/null 2>"$TMP/fg.err"
st=$?
check "bench: no guest ran: the invocation stops, exit 2, nothing recorded" bash -c "
	[ $st = 2 ] && tail -n 1 '$TMP/fg.err' | grep -qx 'bench: hang a run 3: no guest ran (qemu failed: no such device); nothing recorded' &&
	cmp -s '$TMP/hang.before' '$TMP/fo/hang/results'"
# every run failed: the rows with their counts, no chart, and the document still written
rm -f "$TMP/fd/bench-hang.png"
fg RUNS=1 FRESH=1 FAKE_HANG='a-1 b-1' >/dev/null 2>"$TMP/fg.err"
st=$?
check "bench: every run without a result: each variant's row with its count, no chart, exit 0" bash -c "
	[ $st = 0 ] && grep -qx '| a | - | - | - | - | - | - | - | - | 1 |' '$TMP/fd/benchmarks.md' &&
	grep -qx '| b | - | - | - | - | - | - | - | - | 1 |' '$TMP/fd/benchmarks.md' &&
	grep -qx 'No chart: every run failed.' '$TMP/fd/benchmarks.md' && [ ! -e '$TMP/fd/bench-hang.png' ] &&
	grep -q '^==> bench: 2 runs gave no result' '$TMP/fg.err'"
# REDERIVE=1: the host's figures (host_result) worked out again from the consoles kept, no run
sed 's/^# Scenario "two".*/# Scenario "hr": a test'"'"'s, with figures read off the console./; s/^TITLE=.*/TITLE="hr"/' \
	"$TMP/fs/two.sh" >"$TMP/fs/hr.sh"
cat >>"$TMP/fs/hr.sh" <<'S'
host_result() {
	printf 'lines=%s prealloc=%s hostfig=%s' "$(wc -l <"$1")" "$([ "$VARIANT_ENV" = VM_PREALLOC=1 ] && echo 1 || echo 0)" "${FAKE_HOSTFIG:-1}"
	[ -z "${FAKE_NEWKEY:-}" ] || printf ' newkey=%s' "$FAKE_NEWKEY"
	[ -z "${FAKE_HOSTRC:-}" ] || printf ' rc=%s' "$FAKE_HOSTRC"
	printf '\n'
}
S
fh() { env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/fo" BENCH_SCENARIOS="$TMP/fs" BENCH_DOCS="$TMP/fd" \
	BENCH_VM_RUN="$TMP/fake-vm-run" "$@" "$bench/bench.sh" hr; }
fh RUNS=1 >/dev/null 2>"$TMP/fh.err"
check "bench: a scenario's host_result adds its figures to each run" \
	bash -c "grep -q '^a 1 elapsed_us=1000000 swapped=90000000 rc=0 steal_pct=[0-9.]* lines=2 prealloc=0 hostfig=1 bench_id=' '$TMP/fo/hr/results' &&
		grep -q '^b 1 .* lines=2 prealloc=1 hostfig=1 bench_id=' '$TMP/fo/hr/results'"
sed 's/ hostfig=1 / hostfig=7 newkey=5 /' "$TMP/fo/hr/results" >"$TMP/hr.want"
# the host's rc (a failed reading) beside the guest's, then a host_result that no longer fails
fh RUNS=1 REDERIVE=1 FAKE_HOSTRC=bad >/dev/null 2>"$TMP/fh.err"
check "bench: REDERIVE=1: an rc host_result prints joins the run's, the guest's rc stays" \
	bash -c "[ \$(grep -c ' rc=0 .* hostfig=1 rc=bad bench_id=' '$TMP/fo/hr/results') = 2 ]"
chmod 644 "$TMP/fo/hr/results" && touch -d @1000000000 "$TMP/fo/hr/results"
rm -f "$TMP/made"
fh RUNS=1 REDERIVE=1 FAKE_HOSTFIG=7 FAKE_NEWKEY=5 >/dev/null 2>"$TMP/fh.err"
check "bench: REDERIVE=1: the host's figures replaced as a whole (a new key, no stale rc), the guest's as they were" \
	bash -c "cmp -s '$TMP/hr.want' '$TMP/fo/hr/results' &&
		grep -qx \"==> bench hr: 2 runs' host figures worked out again from their consoles\" '$TMP/fh.err'"
check "bench: REDERIVE=1: the results file keeps its mode and date" \
	bash -c "[ \"\$(stat -c '%a %Y' '$TMP/fo/hr/results')\" = '644 1000000000' ]"
check "bench: REDERIVE=1: no run, no build; the archive and the document from the new figures" \
	bash -c "[ ! -e '$TMP/made' ] && ! grep -q '==> bench hr: run ' '$TMP/fh.err' &&
		cmp -s '$TMP/fo/hr/results' '$TMP/fd/bench-data/hr/results' && grep -q '^## hr: hr' '$TMP/fd/benchmarks.md'"
# a second scenario whose run lost its console: refused before the first is reworked
cp "$TMP/fs/hr.sh" "$TMP/fs/hr2.sh" && cp -r "$TMP/fo/hr" "$TMP/fo/hr2" && rm "$TMP/fo/hr2/console-b-1.log"
expect_error "bench: REDERIVE=1 and a run's console gone: refused" 2 \
	"^bench: hr2: REDERIVE=1 needs the console of b run 1 \($TMP/fo/hr2/console-b-1.log\)\$" \
	env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/fo" BENCH_SCENARIOS="$TMP/fs" BENCH_DOCS="$TMP/fd" \
	BENCH_VM_RUN="$TMP/fake-vm-run" RUNS=1 REDERIVE=1 FAKE_HOSTFIG=9 "$bench/bench.sh" hr hr2
check "... before anything changed: the other scenario's results as they were" cmp -s "$TMP/hr.want" "$TMP/fo/hr/results"
# a run older than steal_pct= (the mark between the guest's figures and the host's)
sed -i '2s/ steal_pct=[0-9.]*//' "$TMP/fo/hr2/results" && cp "$TMP/fo/hr2/results" "$TMP/hr2.before"
cp "$TMP/fo/hr/console-b-1.log" "$TMP/fo/hr2/"
expect_error "bench: REDERIVE=1 and a run without steal_pct=: refused" 2 \
	"^bench: hr2: REDERIVE=1: b run 1 has no steal_pct= \(a run older than that cannot be reworked\)\$" \
	env -i PATH="$TMP/fakebin:$PATH" BENCH_OUT="$TMP/fo" BENCH_SCENARIOS="$TMP/fs" BENCH_DOCS="$TMP/fd" \
	BENCH_VM_RUN="$TMP/fake-vm-run" RUNS=1 REDERIVE=1 FAKE_HOSTFIG=9 "$bench/bench.sh" hr2
check "... the results unchanged" cmp -s "$TMP/hr2.before" "$TMP/fo/hr2/results"
# a run that gave no result has no figures to rework, and needs no console
echo "b 2 rc=no-result vm_run_exit=124 console=console-b-2.log bench_id=1 at=2" >>"$TMP/fo/hr/results"
cp "$TMP/fo/hr/results" "$TMP/hr.nr"
fh RUNS=1 REDERIVE=1 FAKE_HOSTFIG=7 FAKE_NEWKEY=5 >/dev/null 2>"$TMP/fh.err"
st=$?
check "bench: REDERIVE=1 and a run without a result (and without a console): not refused, its line as it was" \
	bash -c "[ $st = 0 ] && cmp -s '$TMP/hr.nr' '$TMP/fo/hr/results'"
expect_error "bench: REDERIVE not 0 or 1: refused" 2 "^bench: REDERIVE 'yes' must be 0 or 1\$" fh RUNS=1 REDERIVE=yes
expect_error "report.sh without arguments" 2 "^usage: .*report.sh SCENARIO_FILE RESULTS" "$bench/report.sh"
done_testing
