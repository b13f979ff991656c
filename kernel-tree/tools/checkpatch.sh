#!/usr/bin/env bash
# Run scripts/checkpatch.pl --strict over every patch of the queue; fail if any is not clean.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$KT/tools/prepare-base.sh"
mapfile -t patches < <(series_patches)
if [ ${#patches[@]} -eq 0 ]; then
	note "checkpatch: the series is empty, nothing to check"
	exit 0
fi
bad=0
# checkpatch runs scripts/spdxcheck.py on new files with "env python3": make that Debian's
# python3, which has the python3-ply and python3-git that ci/install-deps.sh installs (a
# pyenv or venv python3 earlier in PATH would not).
export PATH=/usr/bin:$PATH
# The base is one commit made from Debian's tarball, without mainline's history: checkpatch
# cannot look up a mainline commit that a message cites (a backport's "commit X upstream.",
# a Fixes: tag), so UNKNOWN_COMMIT_ID is ignored. How the citation is written is still
# checked (GIT_COMMIT_ID: 12+ hex digits and the quoted subject).
for p in "${patches[@]}"; do
	if ! (cd "$SRC" && scripts/checkpatch.pl --strict --quiet --no-summary \
		--ignore UNKNOWN_COMMIT_ID "$KT/patches/$p"); then
		echo "checkpatch: $p is not clean (above)" >&2
		bad=1
	fi
done
[ $bad = 0 ] && note "checkpatch --strict: ${#patches[@]} patch(es) clean"
exit $bad
