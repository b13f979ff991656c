#!/usr/bin/env bash
# selftests/bench/check-quotes.sh: a doc that names a section of docs/benchmarks.md quotes only
# figures that section gives; and the repository's docs do.
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
cq=$ROOT/selftests/bench/check-quotes.sh
plan 14

# a benchmarks document of two scenario sections and the size table, as assemble.sh writes it
cat >"$TMP/b.md" <<'B'
# Benchmarks

- Date of the last run: 2030-01-02 (header figures such as 9.99 s are no section's)

## release: Bringing back a 700 MiB idle cgroup

| variant | time s, median (min-max) | limit s | time / limit |
|---|---|---|---|
| demand | 16.40 (15.56-17.04) | 7.34 | 2.23 |
| release | 7.41 (7.41-7.42) | 7.34 | 1.01 |

| target | measured s | against s | ratio (at most) | verdict |
|---|---|---|---|---|
| full speed at most 0.75x demand | 7.41 | 16.40 (demand) | 0.452 (0.75) | met |

## criu: criu dump of a 400 MiB process

| plain | 16.42 (14.21-21.55) |
| memtide | 5.14 (4.96-6.41) |

## hibernate at 1, 2, 4 GiB: cost against size

| memtide | 12.7, 871, 15.0 | 21.7, 1729, 12.9 |
B
# runs check-quotes over the fixture and DOC; status and output in $TMP/st, $TMP/out
quotes() { "$cq" "$TMP/b.md" "$TMP/$1" >"$TMP/out" 2>&1; echo $? >"$TMP/st"; }
passes() { quotes "$1"; [ "$(cat "$TMP/st")" = 0 ] && [ ! -s "$TMP/out" ]; }
# fails_with DOC LINE...: exit 1, and exactly these lines
fails_with() {
	local doc=$1
	shift
	quotes "$doc"
	[ "$(cat "$TMP/st")" = 1 ] && [ "$(cat "$TMP/out")" = "$(printf '%s\n' "$@")" ]
}

cat >"$TMP/good.md" <<'D'
# A doc

Release takes 7.41 s, 1.01x its limit of 7.34 s, and 0.45x the time of demand paging
(docs/benchmarks.md, section release), which it beats by 2.21x (7.41 s against 16.40 s).
On vanilla 6.12 and Linux 6.12.117 with QEMU 7.2.22, about 0.9 s, within 1.2x of the limit.

With the action script CRIU is frozen 5.14 s (docs/benchmarks.md, sections criu and
cost against size: the frozen time), and a 2 GiB guest is back in 21.7 s.
D
check "figures of the named sections, a rounding (0.452 as 0.45x), a ratio of two beside it; versions, targets, rough figures and a mark across lines" \
	passes good.md

printf '## Measured (docs/benchmarks.md, section release)\n\n| demand paging | 32.61 s (4.44x limit) |\n| release | 7.41 s |\n\nIt is 4.4x faster than demand paging and 1.21x faster than madvise.\n' >"$TMP/stale.md"
check "a figure the section does not give fails, with its line: the audit's stale 32.61 s, 4.44x, 4.4x, 1.21x" \
	fails_with stale.md \
	"$TMP/stale.md:3: 32.61 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)" \
	"$TMP/stale.md:3: 4.44 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)" \
	"$TMP/stale.md:6: 4.4 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)" \
	"$TMP/stale.md:6: 1.21 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf 'CRIU is frozen 5.14 s (docs/benchmarks.md, section release).\n' >"$TMP/other.md"
check "a figure of another section than the one named fails" fails_with other.md \
	"$TMP/other.md:1: 5.14 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf 'Header figure 9.99 s (docs/benchmarks.md, section release).\n' >"$TMP/header.md"
check "the document's header belongs to no section" fails_with header.md \
	"$TMP/header.md:1: 9.99 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf 'A ratio 2.22x of 7.41 s and 16.40 s (docs/benchmarks.md, section release).\n' >"$TMP/ratio.md"
check "a ratio that is not the quotient of two figures beside it fails" fails_with ratio.md \
	"$TMP/ratio.md:1: 2.22 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf 'A ratio 2.21x against demand paging (docs/benchmarks.md, section release).\n\nRelease 7.41 s, demand 16.40 s.\n' >"$TMP/apart.md"
check "the two figures of a ratio must be in its own paragraph" fails_with apart.md \
	"$TMP/apart.md:1: 2.21 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf '## Measured (docs/benchmarks.md, section release)\n\nRelease 7.41 s.\n\n### More\n\nDemand 3.33 s.\n\n## Other\n\nUnchecked 3.33 s.\n' >"$TMP/scope.md"
check "a mark in a heading covers what is under it, subsections too, up to the next heading of its level" \
	fails_with scope.md \
	"$TMP/scope.md:7: 3.33 is not in $TMP/b.md, section release (nor the ratio of two figures of its paragraph)"

printf -- '- Release 7.41 s (docs/benchmarks.md, section release).\n- Demand 3.33 s, unmarked.\n\nPlain 3.33 s too.\n\n```\n7.41 s (docs/benchmarks.md, section release) 3.33 s\n```\n' >"$TMP/item.md"
check "a mark in a list item covers that item only; unmarked text and code blocks are not checked" passes item.md

printf 'Frozen 5.14 s (docs/benchmarks.md, sections criu and relase).\n' >"$TMP/typo.md"
check "a section the document lacks: an error" fails_with typo.md \
	"$TMP/typo.md:1: no section \"relase\" in $TMP/b.md"

expect_error "one argument: usage" 2 "^usage: .*check-quotes.sh \[BENCHMARKS DOC...\]\$" "$cq" "$TMP/b.md"
expect_error "a file that is not there" 2 "^check-quotes: no file '$TMP/none.md'\$" "$cq" "$TMP/b.md" "$TMP/none.md"

# the repository's docs quote only what docs/benchmarks.md gives today
check "README.md, release.md, tool.md and reclaim.md quote only the current sections" "$cq"
check "... and they do mark their quotes (release, reclaim, reclaim-floor, criu, the hibernate sections)" bash -c "
	cd '$ROOT' && grep -q '^## Measured (docs/benchmarks.md, sections release and release-cloud)\$' docs/release.md &&
	grep -q '^## Cost (docs/benchmarks.md, sections reclaim and reclaim-floor)\$' docs/reclaim.md &&
	grep -q '(docs/benchmarks.md, section criu)' docs/tool.md && grep -q '(docs/benchmarks.md, section release:' docs/tool.md &&
	tr '\n' ' ' <README.md | grep -q '(docs/benchmarks.md, section hibernate: ' &&
	tr '\n' ' ' <README.md | grep -q '(docs/benchmarks.md, sections hibernate-2g and hibernate-4g: '"
# and a figure the data do not give, put into one of them, is caught
sed 's/^memory is back 14\.77 s after/memory is back 14.87 s after/' "$ROOT/README.md" >"$TMP/README.md"
check "the README with one figure changed (memtide's 14.77 s at 1 GiB): caught" bash -c "
	! cmp -s '$ROOT/README.md' '$TMP/README.md' &&
	! '$cq' '$ROOT/docs/benchmarks.md' '$TMP/README.md' >'$TMP/out' && grep -q '^$TMP/README.md:[0-9]*: 14.87 is not in ' '$TMP/out'"
done_testing
