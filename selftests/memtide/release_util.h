/* SPDX-License-Identifier: GPL-2.0 */
/* What memtide's memory.release tests share: swap a cgroup out, release it, watch the reads. */
#ifndef RELEASE_UTIL_H
#define RELEASE_UTIL_H

#include <stddef.h>
#include "reclaim_result.h"

/* Page-granular counters move by per-cpu charge batches: allow that much disagreement. */
#define SLACK MB(2L)

/* Reclaims all of cg to swap; its memory.swap.current afterwards, or -1 if under want. */
long swap_out(const char *cg, long want);

/* One line with every key of a release read-back, after what and the write's status. */
void print_release(const char *what, int err, const struct release_result *r);

/* A writer of "max" to cg's memory.release in its own thread: its status and read-back. */
struct release_writer {
	const char *cg;
	int err;
	struct release_result r;
};

/* pthread body: release_request(w->cg, "max", &w->r) into w->err; arg is the writer. */
void *release_thread(void *arg);

/* Pages read from swap devices so far (pswpin: counted as each read is issued), or -1. */
long pages_swapped_in(void);

/* Waits until at least bytes more than start were read from swap; 0, or -1 after 30 s. */
int wait_swapped_in(long start, long bytes);

/*
 * Waits until memory.swap.current of cg is at least bytes below start: a release has begun
 * to map (its reads hold their slots until then); 0, or -1 after 30 s.
 */
int wait_swap_freed(const char *cg, long start, long bytes);

/* The first active swap device of /proc/swaps into dev; 0 or -1. */
int swap_device(char *dev, size_t len);

#endif
