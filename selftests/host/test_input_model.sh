#!/usr/bin/env bash
# The user-space model of the kernel's parsers (selftests/memtide/input_model.c), by which
# test_bad_input judges its generated inputs, against the known cases of input_cases.h; the
# guest checks the same cases against the kernel. One TAP line per case.
. "$(dirname "$0")/lib.sh"
src=$ROOT/selftests/memtide
gcc -O2 -Wall -Wextra -Werror -I"$src" -o "$TMP/check" "$ROOT/selftests/host/input_model_check.c" \
	"$src/input_model.c" || { plan 1; fail "the model and its check compile"; done_testing; }
"$TMP/check"
