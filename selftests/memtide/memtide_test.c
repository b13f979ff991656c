// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

int memtide_run_tests(const struct memtide_test *tests, size_t n)
{
	char root[PATH_MAX];
	size_t i;

	ksft_print_header();
	ksft_set_plan(n);
	if (cg_find_unified_root(root, sizeof(root), NULL))
		ksft_exit_fail_msg("cgroup v2 isn't mounted\n");

	for (i = 0; i < n; i++) {
		switch (tests[i].fn(root)) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
	}
	ksft_finished();
	return 0;
}

void fill_incompressible(char *buf, size_t len, unsigned long seed)
{
	uint64_t x = seed | 1;
	size_t i;

	for (i = 0; i + sizeof(x) <= len; i += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		*(uint64_t *)(buf + i) = x;
	}
}

int anon_hog(const char *cgroup, void *arg)
{
	size_t size = (size_t)arg;
	char *buf;

	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -1;
	fill_incompressible(buf, size, getpid());
	for (;;)
		pause();
}

int wait_for_memory_current(const char *cgroup, long min, int timeout_s)
{
	int i;

	for (i = 0; i < timeout_s * 10; i++) {
		if (cg_read_long(cgroup, "memory.current") >= min)
			return 0;
		usleep(100000);
	}
	return -1;
}
