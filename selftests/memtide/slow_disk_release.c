// SPDX-License-Identifier: GPL-2.0
/*
 * memory.release holds no mmap_lock while its reads are on the disk: a thread of the
 * released process that maps, touches and unmaps memory in a loop is never held up for
 * long, however slow the swap disk. Run on a throttled disk (guest-suite.sh slow-disk, a
 * boot with vm-run's DISK_BPS), where one 128M round takes seconds: the patch before this
 * test held the mmap_lock of each process while it waited for the round's reads, and the
 * loop's munmap() waited with it for the whole round.
 *
 *   root
 *    `- memtide_slow_disk (one process: 128 MiB swapped out, and the mmap/munmap loop)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"
#include "release_util.h"

#define SWAPPED MB(128L)
/* A round must take this long for the test to tell anything: the disk is throttled */
#define MIN_ROUND_US 2000000L

/* Shared between the test and its child (MAP_SHARED before the fork) */
struct loop_stats {
	volatile long worst_us;	/* the slowest mmap + touch + munmap since the last reset */
	volatile long loops;
};

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void *mmap_loop(void *arg)
{
	struct loop_stats *s = arg;
	long t0, dt;
	char *p;

	for (;;) {
		t0 = now_us();
		p = mmap(NULL, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
		if (p != MAP_FAILED) {
			p[0] = 1;
			p[32 << 10] = 1;
			munmap(p, 64 << 10);
		}
		dt = now_us() - t0;
		if (dt > s->worst_us)
			s->worst_us = dt;
		s->loops++;
		usleep(1000);
	}
	return NULL;
}

/* cgroup_with_child() body: SWAPPED of anon memory, then the loop; arg is the stats */
static int looping_child(const char *cgroup, void *arg)
{
	pthread_t t;
	char *buf;

	buf = mmap(NULL, SWAPPED, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 3;
	fill_incompressible(buf, SWAPPED, 7);
	if (pthread_create(&t, NULL, mmap_loop, arg) || hog_ready())
		return 3;
	for (;;)
		pause();
	return 0;
}

static int test_release_no_mmap_lock_across_reads(const char *root)
{
	struct loop_stats *s;
	struct release_result r;
	int ret = KSFT_FAIL, err;
	long loops;
	pid_t pid = -1;
	char *cg;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return KSFT_FAIL;
	cg = cgroup_with_child(root, "memtide_slow_disk", looping_child, s, &pid);
	if (!cg)
		goto out_unmap;
	if (swap_out(cg, SWAPPED - SLACK) < 0)
		goto out;
	s->worst_us = 0;
	loops = s->loops;
	err = release_request(cg, "max", &r);
	print_release("max", err, &r);
	ksft_print_msg("mmap/touch/munmap during the release: %ld loops, the slowest %ld us\n",
		       s->loops - loops, s->worst_us);
	if (err || r.anon < SWAPPED - SLACK)
		goto out;
	if (r.elapsed_us < MIN_ROUND_US) {
		ksft_print_msg("the release took %ld us: the disk is not slow enough to tell\n",
			       r.elapsed_us);
		goto out;
	}
	/* the mapping itself holds the lock for a while, but never for the reads' time */
	if (s->worst_us > r.elapsed_us / 4)
		goto out;
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
out_unmap:
	munmap(s, sizeof(*s));
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_release_no_mmap_lock_across_reads),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
