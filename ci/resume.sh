# shellcheck shell=bash
# Sourced by ci/check.sh: what `make check-full RESUME=1` may keep from an earlier, interrupted
# run. check-full takes hours on a 2-core TCG host (the debug kernels' guests alone may take
# three), longer than one working session: with RESUME=1, a suite that passed on this very
# source tree, under the same settings, is not run again, so the run goes on where it stopped.
#
# Every run on a clean tree (no change, no untracked file outside build/) stamps the suites
# that pass, in $out/kept/NAME: the tree, the settings, the date. Only RESUME=1 reads the
# stamps. A suite's stamp is removed before it runs, and a pass is stamped only if the tree is
# still the one the run started on: a log and its stamp always belong together.
#
# Needs: $out (the log directory), $ROOT (the repository).

# resume_settings: the environment that reaches the guest suites (Makefile's exports)
resume_settings() {
	env | grep -E '^(VM_[A-Z_]+|SCRIPT|SWAP_MB|DISK_BPS|DISK_IOPS|KERNEL|KERNEL_RESET|MGLRU|ROOTFS|BASE)=' |
		LC_ALL=C sort
}

# resume_id: the sources under test and the settings, or status 1 for a tree that differs
# from its commit (no result of it may be kept)
resume_id() {
	local tree
	[ -z "$(git -C "$ROOT" status --porcelain 2>/dev/null || echo dirty)" ] || return 1
	tree=$(git -C "$ROOT" rev-parse 'HEAD^{tree}' 2>/dev/null) || return 1
	echo "$tree $(resume_settings | sha256sum | cut -c1-16)"
}

# resume_begin: at the start of a run, the identity its passes are stamped with
resume_begin() {
	resume_start=$(resume_id) || resume_start=
}

# kept NAME: status 0 if RESUME=1 and NAME passed before under this run's identity; prints when
kept() {
	local stamp=$out/kept/$1
	[ "${RESUME:-}" = 1 ] && [ -n "$resume_start" ] && [ -r "$stamp" ] &&
		[ "$(head -n 1 "$stamp")" = "$resume_start" ] || return 1
	sed -n 2p "$stamp"
}

# forget NAME: NAME runs again, its old stamp no longer speaks for its log
forget() {
	rm -f "$out/kept/$1"
}

# keep NAME: NAME passed; stamped if the tree is still the one the run started on
keep() {
	[ -n "$resume_start" ] && [ "$(resume_id)" = "$resume_start" ] || return 0
	mkdir -p "$out/kept"
	printf '%s\n%s\n' "$resume_start" "$(date -u '+%Y-%m-%d %H:%M UTC')" >"$out/kept/$1"
}
