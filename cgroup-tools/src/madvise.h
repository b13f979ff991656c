/* SPDX-License-Identifier: GPL-2.0 */
/*
 * release on kernels without memory.release: process_madvise(MADV_WILLNEED) over the
 * mappings with pages in swap of every process in the subtree, as a mainline agent can.
 * Shmem that no process maps (tmpfs files, unmapped memfds) is not reached.
 */
#ifndef MEMTIDE_MADVISE_H
#define MEMTIDE_MADVISE_H

#include "memtide.h"

void madvise_release(const struct options *o, const struct target *t, struct op_result *res);

#endif
