/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The read-back of memory.reclaim and memory.release (memtide kernels): what the last write
 * on a descriptor did, read from that descriptor, and merged over the writes of one
 * operation (after a freezer -EINTR, memtide writes again for what is left).
 */
#ifndef MEMTIDE_READBACK_H
#define MEMTIDE_READBACK_H

#include <stdint.h>

#include "keyed.h"

/*
 * Read the result of the last write on FD (pread() at offset 0) and merge it into INTO;
 * what this write did (its DONE_KEY) goes to *DONE. Returns 0, also when FD has nothing to
 * read, or -E2BIG for a read-back cut short or with more keys than INTO holds.
 */
int readback_add(int fd, const char *done_key, struct keyed *into, uint64_t *done);
/* Merge ONCE, the read-back of one write, into INTO, the operation's. Returns 0 or -E2BIG. */
int readback_merge(struct keyed *into, const struct keyed *once);

#endif
