// SPDX-License-Identifier: GPL-2.0
/*
 * memory.release on a throttled swap disk (guest-suite.sh slow-disk, a boot with vm-run's
 * DISK_BPS), where one 128M round takes seconds:
 * - it holds no mmap_lock while its reads are on the disk: a thread of the released process
 *   that maps, touches and unmaps memory in a loop is never held up for long. The patch
 *   before this test held the mmap_lock of each process while it waited for the round's
 *   reads, and the loop's munmap() waited with it for the whole round.
 * - the next round's reads are on the disk while a round is mapped, so the disk does not
 *   idle during the mapping. Before, a round was read, waited for, mapped, and only then was
 *   the next one read.
 *
 *   root
 *    |- memtide_slow_disk (one process: 128 MiB swapped out, and the mmap/munmap loop)
 *    `- memtide_slow_disk_overlap (the same with 192 MiB: a round and a half)
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
#define ROUND MB(128L)		/* the kernel's round (MEMORY_RELEASE_ROUND) */
#define SWAPPED_ROUNDS MB(192L)	/* a round and a half */
/* A round must take this long for the test to tell anything: the disk is throttled */
#define MIN_ROUND_US 2000000L

/* Shared between the test and its child (MAP_SHARED before the fork) */
struct loop_stats {
	long bytes;		/* what the child maps and fills */
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

/* cgroup_with_child() body: bytes of anon memory, then the loop; arg is the stats */
static int looping_child(const char *cgroup, void *arg)
{
	struct loop_stats *s = arg;
	pthread_t t;
	char *buf;

	buf = mmap(NULL, s->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 3;
	fill_incompressible(buf, s->bytes, 7);
	if (pthread_create(&t, NULL, mmap_loop, arg) || hog_ready())
		return 3;
	for (;;)
		pause();
	return 0;
}

/*
 * A cgroup NAME under ROOT whose looping child has BYTES swapped out; its stats, shared,
 * into *STATS (munmap them) and its pid into *PID. NULL on failure, with nothing left.
 */
static char *swapped_out_looper(const char *root, const char *name, long bytes,
				struct loop_stats **stats, pid_t *pid)
{
	struct loop_stats *s;
	char *cg;

	*pid = -1;
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	s->bytes = bytes;
	cg = cgroup_with_child(root, name, looping_child, s, pid);
	if (cg && swap_out(cg, bytes - SLACK) < 0) {
		hogged_cgroup_destroy(cg, *pid);
		cg = NULL;
	}
	if (!cg) {
		munmap(s, sizeof(*s));
		return NULL;
	}
	*stats = s;
	return cg;
}

/* Whether a release that brought BYTES back took long enough, on this disk, to tell */
static bool released_slowly(int err, const struct release_result *r, long bytes)
{
	if (err || r->anon < bytes - SLACK)
		return false;
	if (r->elapsed_us < MIN_ROUND_US) {
		ksft_print_msg("the release took %ld us: the disk is not slow enough to tell\n",
			       r->elapsed_us);
		return false;
	}
	return true;
}

static int test_release_no_mmap_lock_across_reads(const char *root)
{
	struct loop_stats *s;
	struct release_result r;
	int ret = KSFT_FAIL, err;
	long loops;
	pid_t pid;
	char *cg;

	cg = swapped_out_looper(root, "memtide_slow_disk", SWAPPED, &s, &pid);
	if (!cg)
		return KSFT_FAIL;
	s->worst_us = 0;
	loops = s->loops;
	err = release_request(cg, "max", &r);
	print_release("max", err, &r);
	ksft_print_msg("mmap/touch/munmap during the release: %ld loops, the slowest %ld us\n",
		       s->loops - loops, s->worst_us);
	/* the mapping itself holds the lock for a while, but never for the reads' time */
	if (released_slowly(err, &r, SWAPPED) && s->worst_us <= r.elapsed_us / 4)
		ret = KSFT_PASS;
	hogged_cgroup_destroy(cg, pid);
	munmap(s, sizeof(*s));
	return ret;
}

/* What a poller saw when the release freed its first slots */
struct first_free {
	const char *cg;
	long start_swap, start_read;	/* memory.swap.current, pswpin before the release */
	long read_at_free;		/* pswpin - start_read then, in pages; -1: never seen */
	volatile int stop;
};

/*
 * pthread body: poll until memory.swap.current drops by a MiB, i.e. the mapping of the
 * first round has begun (reads hold their slots until mapped), and note how much had been
 * read by then. pswpin counts a read as it is issued.
 */
static void *watch_first_free(void *arg)
{
	struct first_free *f = arg;

	f->read_at_free = -1;
	while (!f->stop) {
		long read = pages_swapped_in();
		long swap = cg_read_long(f->cg, "memory.swap.current");

		if (swap >= 0 && swap < f->start_swap - MB(1)) {
			f->read_at_free = read - f->start_read;
			break;
		}
		usleep(1000);
	}
	return NULL;
}

/*
 * The second round's reads are issued before the first round is mapped: when the first
 * slots are freed, more than one round has been read. Without the overlap, exactly one
 * round had been, and the disk idled while it was mapped.
 */
static int test_release_reads_next_round_while_mapping(const char *root)
{
	long page = sysconf(_SC_PAGESIZE);
	struct first_free f;
	struct release_result r;
	int ret = KSFT_FAIL, err;
	struct loop_stats *s;
	pthread_t t;
	pid_t pid;
	char *cg;

	cg = swapped_out_looper(root, "memtide_slow_disk_overlap", SWAPPED_ROUNDS, &s, &pid);
	if (!cg)
		return KSFT_FAIL;
	f = (struct first_free){ .cg = cg, .start_swap = cg_read_long(cg, "memory.swap.current"),
				 .start_read = pages_swapped_in() };
	if (f.start_swap < SWAPPED_ROUNDS - SLACK || f.start_read < 0 ||
	    pthread_create(&t, NULL, watch_first_free, &f))
		goto out;
	err = release_request(cg, "max", &r);
	f.stop = 1;
	pthread_join(t, NULL);
	print_release("max", err, &r);
	if (f.read_at_free < 0) {
		ksft_print_msg("no slot was seen freed\n");
		goto out;
	}
	ksft_print_msg("read when the first slots were freed: %ld MiB (a round is %ld MiB)\n",
		       f.read_at_free * page >> 20, ROUND >> 20);
	if (released_slowly(err, &r, SWAPPED_ROUNDS) && f.read_at_free * page > ROUND + MB(8))
		ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	munmap(s, sizeof(*s));
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_release_no_mmap_lock_across_reads),
	MEMTIDE_TEST(test_release_reads_next_round_while_mapping),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
