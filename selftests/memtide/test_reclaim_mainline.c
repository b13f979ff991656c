// SPDX-License-Identifier: GPL-2.0
/*
 * Mainline's memory.reclaim as the memtide kernel inherits it, the baseline later patches
 * extend without breaking: an idle process's anonymous memory goes to the swap disk, and
 * input the parser refuses fails with -EINVAL and reclaims nothing.
 *
 *   root
 *    `- memtide_reclaim (one idle process holding 64M of incompressible anon memory)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

#define HOG_SIZE MB(64L)
/* a request the idle anon covers with room to spare: all of it can be done, no -EAGAIN */
#define REQUEST "48M"
#define REQUEST_BYTES MB(48L)
/*
 * What the write may take beyond the request: mainline's loop stops once it has reclaimed
 * enough, and its last batch overshoots by at most what one reclaim pass frees past its
 * target (SWAP_CLUSTER_MAX pages a list, MIN_LRU_BATCH under MGLRU, one THP of 2M): a few
 * MiB, 8M to spare, where reclaiming all the hog holds would be 16M.
 */
#define OVERSHOOT MB(8L)
/* memory charged or freed beside the reclaim: per-CPU charge batches of 64 pages, slab */
#define SLACK MB(1L)

/*
 * memory.reclaim of REQUEST returns 0 only once it has reclaimed that much (else -EAGAIN), and
 * every page it frees is uncharged at once: memory.current falls by at least REQUEST and, as
 * the cgroup holds nothing but anon, swap holds at least as much. It stops there: no more than
 * OVERSHOOT beyond.
 */
static int test_reclaim_moves_anon_to_swap(const char *root)
{
	int ret = KSFT_FAIL;
	long before, after, swapped;
	struct hog_spec spec = { .anon = HOG_SIZE };
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;

	before = cg_read_long(cg, "memory.current");
	err = cg_write(cg, "memory.reclaim", REQUEST);
	after = cg_read_long(cg, "memory.current");
	swapped = cg_read_long(cg, "memory.swap.current");
	if (err || before - after < REQUEST_BYTES - SLACK ||
	    before - after > REQUEST_BYTES + OVERSHOOT || swapped < REQUEST_BYTES - SLACK) {
		ksft_print_msg("reclaim %s: %d; memory.current %ld -> %ld, memory.swap.current %ld\n",
			       REQUEST, err, before, after, swapped);
		goto cleanup;
	}
	ret = KSFT_PASS;
cleanup:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

static int test_reclaim_bad_input(const char *root)
{
	static char *const bad[] = {
		"abc", "-1", "0x", "10M swappiness=201", "10M swappiness=-1",
		"10M bogus=1", "10M swappiness=60 swappiness",
	};
	long steal_before, swap_before;
	int ret = KSFT_FAIL;
	size_t i;
	struct hog_spec spec = { .anon = HOG_SIZE };
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_reclaim_bad", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;

	steal_before = cg_read_key_long(cg, "memory.stat", "pgsteal ");
	swap_before = cg_read_long(cg, "memory.swap.current");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = cg_write(cg, "memory.reclaim", bad[i]);
		if (err != -EINVAL) {
			ksft_print_msg("'%s': got %d, want -EINVAL\n", bad[i], err);
			goto cleanup;
		}
	}
	/* Nothing may have been reclaimed by the refused writes. */
	if (cg_read_key_long(cg, "memory.stat", "pgsteal ") != steal_before ||
	    cg_read_long(cg, "memory.swap.current") != swap_before)
		goto cleanup;
	ret = KSFT_PASS;
cleanup:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_reclaim_moves_anon_to_swap),
	MEMTIDE_TEST(test_reclaim_bad_input),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
