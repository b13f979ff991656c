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
	err = cg_write(cg, "memory.reclaim", "64M");
	/* -EAGAIN: fewer bytes than asked could be reclaimed, which is not a failure here. */
	if (err && err != -EAGAIN)
		goto cleanup;
	after = cg_read_long(cg, "memory.current");
	swapped = cg_read_long(cg, "memory.swap.current");
	if (before - after < HOG_SIZE / 2 || swapped < HOG_SIZE / 2) {
		ksft_print_msg("memory.current %ld -> %ld, memory.swap.current %ld\n",
			       before, after, swapped);
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
