#!/usr/bin/env bash
# memhog's hot set (selftests/memtide/hot_loop.c, hot_set_choose()): PERCENT% of the pages, in
# whole 2 MiB-aligned chunks, each page once; single pages where the region holds no chunk.
. "$(dirname "$0")/lib.sh"
plan 4
cc -O2 -Wall -I"$ROOT/selftests/memtide" -o "$TMP/hot_set_check" "$ROOT/selftests/host/hot_set_check.c" \
	"$ROOT/selftests/memtide/hot_loop.c" -pthread 2>"$TMP/cc.err" || { fail "build" "$(cat "$TMP/cc.err")"; done_testing; }
hs() { "$TMP/hot_set_check" "$@"; }
# 900 MiB (230400 pages) 3 pages past a boundary: 23040 pages = 45 whole chunks
check "10% of 900 MiB: 23040 pages, each once, in whole chunks" [ "$(hs 230400 10 3)" = "n=23040 dup=0 out=0 partial=0" ]
# 22500 pages: 43 whole chunks and part of one more
check "a set that is not a whole number of chunks: one chunk in part, the rest whole" \
	[ "$(hs 225000 10 0)" = "n=22500 dup=0 out=0 partial=1" ]
# single pages: a random choice over the region, so more than one chunk in part
check "a region of no whole chunk: single pages, each once" \
	bash -c '[[ "$("$0" 1000 10 7)" =~ ^n=100\ dup=0\ out=0\ partial=[2-9]$ ]]' "$TMP/hot_set_check"
check "a set smaller than a chunk (1% of 40000 pages): single pages, each once" \
	bash -c '[[ "$("$0" 40000 1 0)" =~ ^n=400\ dup=0\ out=0\ partial=[2-9][0-9]*$ ]]' "$TMP/hot_set_check"
done_testing
