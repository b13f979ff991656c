#!/usr/bin/env bash
# check-quotes.sh [BENCHMARKS DOC...]: whether the benchmark figures the docs quote are in the
# sections of docs/benchmarks.md they name, so that a doc cannot go on quoting a figure a new
# run replaced (issue 32: release.md still quoted 4.4x, 3.1x and 1.21x of an older run).
# Without arguments: docs/benchmarks.md against README.md, docs/release.md, docs/tool.md and
# docs/reclaim.md. Prints each figure that fails as FILE:LINE; exit 1 if any does, 2 on bad
# usage.
#
# A quote names its sections: "(docs/benchmarks.md, section release)", or "(docs/benchmarks.md,
# sections hibernate, hibernate-2g and cost against size: what they measure)"; a section is
# named by its heading's scenario ("## release: ...") or title ("## ...: cost against size").
# A mark in a heading covers everything under it; elsewhere, its paragraph or list item. Every
# figure there must be a number of those sections, to its decimals (0.57 for a section's
# 0.567), or the ratio of two figures of its own paragraph ("2.21x faster (7.41 s against
# 16.40 s)"). A figure is a number with two decimals or more, as the tables print them, or a
# ratio or time with one (4.4x, 21.7 s); not a version (7.2.22, or 6.12 after Linux, kernel or
# vanilla), a target ("within 1.2x", "at most 0.6x", "the 1.1x target") or a rough figure
# ("about 0.9 s"). Text without a mark is not checked.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 0 ]; then
	cd "$ROOT"
	set -- docs/benchmarks.md README.md docs/release.md docs/tool.md docs/reclaim.md
fi
[ $# -ge 2 ] || { echo "usage: $0 [BENCHMARKS DOC...]" >&2; exit 2; }
for f in "$@"; do
	[ -f "$f" ] || { echo "check-quotes: no file '$f'" >&2; exit 2; }
done

awk '
# figures(S, OUT): the figures of S in OUT[1..n]; returns n. A figure is a number with two
# decimals or more, or a ratio or time with one (4.4x, 21.7 s); not a version (7.2.22, or 6.12
# after Linux, kernel or vanilla), a target (1.2x after "within", "at most" or "target", or
# before "target") or a rough figure ("about 0.9 s")
function figures(s, out,    n, pos, tok, pre, post) {
	split("", out)
	n = 0; pos = 0 # (the characters of s read so far)
	while (match(substr(s, pos + 1), /[0-9]+\.[0-9]+/)) {
		tok = substr(s, pos + RSTART, RLENGTH)
		pre = substr(s, 1, pos + RSTART - 1)
		post = substr(s, pos + RSTART + RLENGTH)
		pos += RSTART + RLENGTH - 1
		if (pre ~ /\.$/ || pre ~ /(Linux|kernel|vanilla) $/) continue
		if (post ~ /^\.[0-9]/) { match(post, /^(\.[0-9]+)+/); pos += RLENGTH; continue }
		if (decimals(tok) == 1 && (post !~ /^(x| s)([^a-z]|$)/ || pre ~ /(about|within|at most|target) $/ ||
			post ~ /^x targets?([^a-z]|$)/))
			continue
		out[++n] = tok
	}
	return n
}
# decimals(T): how many decimals the number T has
function decimals(t) { return length(t) - index(t, ".") }
# rounded(X, D), truncated(X, D): X to D decimals, rounded or cut short (a quote may do either)
function rounded(x, d) { return sprintf("%." d "f", x) }
function truncated(x, d) { return substr(x, 1, index(x, ".") + d) }

# the sections of BENCHMARKS: every number of each, to every precision it can be quoted at
FILENAME == bench {
	if (/^## /) {
		h = substr($0, 4)
		label = index(h, ":") ? substr(h, 1, index(h, ":") - 1) : h
		title = index(h, ": ") ? substr(h, index(h, ": ") + 2) : ""
		section[label] = label
		if (title != "") section[title] = label
		next
	}
	if (label == "") next
	rest = $0
	while (match(rest, /[0-9]+\.[0-9]+/)) {
		x = substr(rest, RSTART, RLENGTH)
		for (d = 1; d <= decimals(x); d++) {
			has[label, rounded(x, d)] = 1
			has[label, truncated(x, d)] = 1
		}
		rest = substr(rest, RSTART + RLENGTH)
	}
	next
}

# marked(S, WHERE): the sections the marks in S name, as "|label|label..."; a section
# BENCHMARKS lacks is an error, at WHERE
function marked(s, where,    out, m, n, parts, i, name) {
	out = ""
	while (match(s, /\(docs\/benchmarks\.md, sections? [^)]*\)/)) {
		m = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		# (the names end the mark, or a colon or semicolon after them)
		sub(/^\(docs\/benchmarks\.md, sections? /, "", m); sub(/[:;].*$|\)$/, "", m)
		gsub(/`/, "", m); gsub(/ and /, ", ", m)
		n = split(m, parts, /, */)
		for (i = 1; i <= n; i++) {
			name = parts[i]; gsub(/^ +| +$/, "", name)
			if (name == "") continue
			if (name in section) { out = out "|" section[name]; continue }
			printf "%s: no section \"%s\" in %s\n", where, name, bench
			bad = 1
		}
	}
	return out
}

# flush(): check the paragraph (or list item) gathered in para[1..npara] (lines paraline[],
# of file parafile), under its own marks and those of the headings above it
function flush(    text, i, j, k, names, nn, sec, list, found, nf, fig, lineof, ok, a, b, q, d) {
	if (!npara) return
	text = ""
	for (i = 1; i <= npara; i++) text = text " " para[i]
	names = marked(text, parafile ":" paraline[1])
	for (i = 1; i <= depth; i++) names = scope[i] names
	nn = split(substr(names, 2), sec, "|")
	list = ""
	for (i = 1; i <= nn; i++) list = list (i > 1 ? "; " : "") sec[i]
	nf = 0
	for (i = 1; nn && i <= npara; i++) {
		k = figures(para[i], found)
		for (j = 1; j <= k; j++) { fig[++nf] = found[j]; lineof[nf] = paraline[i] }
	}
	# ok: 1, a number of a named section; 2, the ratio of two such figures of the paragraph
	for (j = 1; j <= nf; j++)
		for (i = 1; i <= nn && !ok[j]; i++)
			if ((sec[i], fig[j]) in has) ok[j] = 1
	for (j = 1; j <= nf; j++) {
		d = decimals(fig[j])
		for (a = 1; a <= nf && !ok[j]; a++)
			for (b = 1; b <= nf && !ok[j]; b++) {
				if (a == b || ok[a] != 1 || ok[b] != 1 || fig[b] + 0 == 0) continue
				q = fig[a] / fig[b]
				if (rounded(q, d) == fig[j] || truncated(sprintf("%.9f", q), d) == fig[j]) ok[j] = 2
			}
		if (ok[j]) continue
		printf "%s:%d: %s is not in %s, section%s %s (nor the ratio of two figures of its paragraph)\n", \
			parafile, lineof[j], fig[j], bench, (nn > 1 ? "s" : ""), list
		bad = 1
	}
	npara = 0
}

# a new doc: the paragraph the last one ended with is checked, none of its headings carries over
FNR == 1 { flush(); depth = 0; infence = 0 }
# code blocks are no quotes
/^```/ { flush(); infence = !infence; next }
infence { next }
# a heading ends a paragraph; its mark covers what is under it, to the next heading of its
# level or above
/^#+ / {
	flush()
	level = index($0, " ") - 1
	while (depth > 0 && slevel[depth] >= level) depth--
	depth++; slevel[depth] = level; scope[depth] = marked($0, FILENAME ":" FNR)
	next
}
/^[ \t]*$/ { flush(); next }
# a list item is a block of its own
/^[ \t]*([-*+]|[0-9]+\.) / { flush() }
{
	if (!npara) parafile = FILENAME
	para[++npara] = $0; paraline[npara] = FNR
}
END { flush(); exit bad }
' bench="$1" "$@"
