# median, min and max of a space-separated list of numbers: the awk functions every
# bench script's figures come from (report.sh, scaling.sh and the plots prepend this file)
# run_failed(): whether the run of the current results line failed: an rc= other than 0 (the
# guest's, or the host's reading of its console; bench.sh's rc=no-result for a run that gave
# no result), or no rc= at all (a result line must say that the run succeeded). A failed run is
# counted, never measured: its figures stay out of every median, table and chart.
function run_failed(    i) {
	if ($0 !~ / rc=/) return 1
	for (i = 3; i <= NF; i++)
		if ($i ~ /^rc=/ && $i != "rc=0") return 1
	return 0
}
function median(list,    n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++)	# insertion sort: a handful of runs
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function minof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 < m + 0) m = a[i]; return m }
function maxof(list,    n, a, i, m) { n = split(list, a, " "); m = a[1]; for (i = 2; i <= n; i++) if (a[i] + 0 > m + 0) m = a[i]; return m }
# noise_floor(BASE, AA): a figure's noise floor, as a fraction of the baseline's median: the
# larger of the spread of the baseline's own runs and the gap between the medians of the A/A pair
# (the baseline's variant run again, AA; empty where a scenario has none). The spread alone
# was too small: hibernate's vanilla runs spread 14% while vanilla-again's median was 1.21x
# vanilla's (2026-12-02), so a 1.31x of another variant would have read as a difference.
# It is never under NOISE_MIN, 1%: three runs that agree to 0.1% (reclaim's, 2026-12-03) do
# not make a 0.3% gap a difference, and the tables print 1.00x for it.
function noise_floor(base, aa,    m, n, g) {
	m = median(base)
	if (m <= 0) return 0
	n = (maxof(base) - minof(base)) / m
	if (aa != "") {
		g = median(aa) / m - 1
		if (g < 0) g = -g
		if (g > n) n = g
	}
	return n < 0.01 ? 0.01 : n
}
# limit_of(VALS, V, SPEC, BPS): the physical limit, in seconds, of a step of variant V: SPEC is
# TERM[+TERM...], each the median of V's runs in VALS[V, KEY]; bytes keys are divided by the
# disk's BPS, _us keys (a boot no disk speed shortens) added as they are (report.sh). A TERM
# may be KEY,KEY...: the key first_key chooses (what QEMU counted, or for runs without its
# count what the guest reported)
function limit_of(vals, v, spec, bps,    n, terms, j, s, k) {
	n = split(spec, terms, "+")
	for (j = 1; j <= n; j++) {
		k = first_key(vals, v, terms[j])
		s += k ~ /_us$/ ? median(vals[v, k]) / 1e6 : median(vals[v, k]) / bps
	}
	return s
}
# first_key(VALS, V, ALTS): of the keys ALTS names ("KEY,KEY..."), the first that all of V's
# runs have, that is as many as have the last, which every run has: a median of the runs QEMU
# counted beside others of the older figure would mix two measures (else the last)
function first_key(vals, v, alts,    n, a, i, all, x) {
	n = split(alts, a, ",")
	all = split(vals[v, a[n]], x, " ")
	for (i = 1; i < n; i++)
		if (vals[v, a[i]] != "" && split(vals[v, a[i]], x, " ") == all) return a[i]
	return a[n]
}
