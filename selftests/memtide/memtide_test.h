/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by memtide's guest tests; cgroup_util.h (upstream's) does the cgroup file work. */
#ifndef MEMTIDE_TEST_H
#define MEMTIDE_TEST_H

#include <stddef.h>

struct memtide_test {
	int (*fn)(const char *root);	/* returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP */
	const char *name;
};
#define MEMTIDE_TEST(x) { x, #x }

/* Finds the cgroup2 root, runs every test as one TAP plan and exits with kselftest's status. */
int memtide_run_tests(const struct memtide_test *tests, size_t n);

/* Fills len bytes with xorshift output, so neither zswap nor hibernation can compress it. */
void fill_incompressible(char *buf, size_t len, unsigned long seed);

/*
 * cg_run_nowait() body: maps (size_t)arg bytes of anonymous memory, fills it incompressibly
 * and sleeps until killed. Wait for it with wait_for_memory_current().
 */
int anon_hog(const char *cgroup, void *arg);

/* Polls memory.current until it reaches min bytes; 0 on success, -1 after ~timeout_s. */
int wait_for_memory_current(const char *cgroup, long min, int timeout_s);

#endif
