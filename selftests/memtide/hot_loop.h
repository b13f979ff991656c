/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memhog's hot loop (--hot=PERCENT): a thread that reads one byte of every page of a hot set,
 * in one fixed random order, pass after pass, and records when each pass ended and how long
 * it took. A program's working set: how soon it answers again after resume is how soon its
 * passes are back to their warm duration (scenario hibernate-hot, issue 31).
 */
#ifndef MEMTIDE_HOT_LOOP_H
#define MEMTIDE_HOT_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Chooses the hot set of the npages pages at base: whole 2 MiB-aligned chunks of them, chosen
 * at random until they hold percent% of the pages, listed page by page in a random order
 * into pages[] (room for npages). Chunks, not single pages: working sets come in regions (a
 * heap arena, a table), and with THP no LRU can keep a 4 KiB page apart from the huge page
 * it sits in. A region too small for a chunk gives single pages. Returns how many it listed.
 */
size_t hot_set_choose(const char *base, size_t npages, size_t page, int percent, uint64_t seed,
		      size_t *pages);

/*
 * Starts the thread, paused, over the n pages of base (each page bytes long) whose indices
 * pages[] gives, in that order; pages[] must live as long as the process. 0 or -1 (errno).
 * The passes are timed on CLOCK_BOOTTIME, the clock of /proc/uptime, which goes on across a
 * hibernation: a guest script can place them against its own steps.
 */
int hot_loop_start(const char *base, size_t page, const size_t *pages, size_t n);

/*
 * Runs the loop (run != 0) or pauses it after the pass in progress (run == 0): the program
 * is idle, as before an idle-time shrink, or active again.
 */
void hot_loop_run(int run);

/*
 * Prints every pass recorded so far: "memhog: hot_pass END_US DURATION_US" lines, then
 * "memhog: hot_passes=N dropped=N" (dropped: passes beyond the record's room, not kept).
 */
void hot_loop_print(FILE *out);

#endif
