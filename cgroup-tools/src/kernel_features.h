/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel's memory.reclaim and memory.release accept, from
 * /sys/kernel/mm/memcg/features (memtide kernels; absent on stock kernels, which is then
 * read as "mainline": memory.reclaim with a byte amount, no read-back, no memory.release).
 */
#ifndef MEMTIDE_KERNEL_FEATURES_H
#define MEMTIDE_KERNEL_FEATURES_H

#include <stdbool.h>

#define FEATURES_FILE "/sys/kernel/mm/memcg/features"

struct features {
	bool present;			/* the features file exists */
	bool reclaim_readback;		/* memory.reclaim result=... */
	bool reclaim_max;		/* memory.reclaim amount=...,max */
	bool swappiness_max;		/* memory.reclaim swappiness=...,max */
	bool release;			/* memory.release exists */
	bool release_readback;		/* memory.release result=... */
	char reclaim_keys[256];		/* the result= list, as the kernel wrote it */
	char release_keys[256];
};

/* Parse the text of the features file into F (zeroed first). */
void features_parse(const char *text, struct features *f);
/* Read FEATURES_FILE ($MEMTIDE_FEATURES_FILE overrides it for tests); absent = stock. */
int features_load(struct features *f);

#endif
