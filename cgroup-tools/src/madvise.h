/* SPDX-License-Identifier: GPL-2.0 */
/*
 * release on kernels without memory.release: process_madvise(MADV_WILLNEED) over the
 * mappings with pages in swap of every process in the subtree, as a mainline agent can.
 * Shmem that no process maps (tmpfs files, unmapped memfds) is not reached.
 */
#ifndef MEMTIDE_MADVISE_H
#define MEMTIDE_MADVISE_H

#include "memtide.h"

/*
 * MADV_WILLNEED only starts the reads; the release then waits for memory.current to stop
 * rising, at most this long (or to --timeout): the reads queued land within seconds, and
 * what still rises after that is the cgroup's own use, which need not ever stop. The
 * reads that are still queued land all the same.
 */
#define RELEASE_SETTLE_MAX_US 5000000ULL

void madvise_release(const struct op_request *req, const struct target *t,
		     struct op_result *res);

#endif
