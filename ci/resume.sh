# shellcheck shell=bash
# Sourced by ci/check.sh: what `make check-full RESUME=1` may keep from an earlier, interrupted
# run. check-full takes hours on a 2-core TCG host (the debug kernels' guests alone may take
# three), longer than one working session: with RESUME=1, a suite that passed on this very
# source tree (for a guest suite: the same files it reads), under the same settings, is not
# run again, so the run goes on where it stopped.
#
# Every run on a clean tree (no change, no untracked file outside build/) stamps the suites
# that pass, in $out/kept/NAME: the tree, the settings, the date. Only RESUME=1 reads the
# stamps. A suite's stamp is removed before it runs, and a pass is stamped only if what the
# suite reads is still what it was when the run started: a log and its stamp belong together.
#
# Needs: $out (the log directory), $ROOT (the repository).

# resume_settings: the environment that reaches the guest suites (Makefile's exports)
resume_settings() {
	env | grep -E '^(VM_[A-Z_]+|SCRIPT|SWAP_MB|DISK_BPS|DISK_IOPS|KERNEL|KERNEL_RESET|MGLRU|ROOTFS|BASE)=' |
		LC_ALL=C sort
}

# The paths no guest suite reads: the docs, the benchmark harness, the host tests, and this
# file (it decides what is kept, not what runs). A commit that changes only these keeps the
# guest suites' passes, so that a check-full spread over several sessions survives the doc and
# harness fixes made between them. The host tests read the whole tree (docs included), and
# their pass is kept for the same tree only.
guest_blind=(docs selftests/bench selftests/host ci/resume.sh)

# scope_id NAME [COMMIT]: what suite NAME reads at COMMIT (the run's first), and the run's settings
scope_id() {
	local tree commit=${2:-$resume_head}
	if [ "$1" = host ]; then
		tree=$(git -C "$ROOT" rev-parse "$commit^{tree}")
	else
		tree=$(git -C "$ROOT" ls-tree -r "$commit" |
			awk -v blind="${guest_blind[*]}" 'BEGIN { n = split(blind, b, " ") }
			{ p = $0; sub(/^[^\t]*\t/, "", p); for (i = 1; i <= n; i++) if (p == b[i] || index(p, b[i] "/") == 1) next; print }' |
			sha256sum | cut -c1-40)
	fi
	echo "$tree ${resume_start#* }"
}

# resume_id: the commit and the settings, or status 1 for a tree that differs from its commit
# (no result of it may be kept)
resume_id() {
	[ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null || echo dirty)" ] || return 1
	echo "$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || return 1) $(resume_settings | sha256sum | cut -c1-16)"
}

# resume_begin: at the start of a run, the identity its passes are stamped with
resume_begin() {
	resume_start=$(resume_id) || resume_start=
	resume_head=${resume_start%% *}
}

# kept NAME: status 0 if RESUME=1 and NAME passed before under this run's identity; prints when
kept() {
	local stamp=$out/kept/$1
	[ "${RESUME:-}" = 1 ] && [ -n "$resume_start" ] && [ -r "$stamp" ] &&
		[ "$(head -n 1 "$stamp")" = "$(scope_id "$1")" ] || return 1
	sed -n 2p "$stamp"
}

# forget NAME: NAME runs again, its old stamp no longer speaks for its log
forget() {
	rm -f "$out/kept/$1"
}

# keep NAME: NAME passed; stamped if the tree is clean and what NAME reads is still what it
# was when the run started (a commit to the docs meanwhile leaves a guest suite's pass good)
keep() {
	local now
	[ -n "$resume_start" ] && now=$(resume_id) && [ "${now#* }" = "${resume_start#* }" ] &&
		[ "$(scope_id "$1" "${now%% *}")" = "$(scope_id "$1")" ] || return 0
	mkdir -p "$out/kept"
	printf '%s\n%s\n' "$(scope_id "$1")" "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$out/kept/$1"
}
