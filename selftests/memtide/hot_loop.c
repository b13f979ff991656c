// SPDX-License-Identifier: GPL-2.0
/* memhog's hot loop: see hot_loop.h. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "hot_loop.h"

/*
 * Room for 2^18 passes (4 MiB): about 20 minutes of 5 ms passes, the warm ones of a 1 GiB
 * guest; a run needs a few minutes, and hot-guest.sh fails one whose record filled up. The record is mlock()ed
 * when it can be, so that writing it costs no fault of its own while the hot set is in swap.
 */
#define HOT_LOOP_ROOM (1 << 18)

struct hot_pass {
	int64_t end_us, duration_us;
};

static struct {
	const char *base;
	size_t page;
	const size_t *pages;
	size_t n;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int run;			/* under lock */
	struct hot_pass *passes;
	size_t recorded;		/* written by the thread only, read with acquire */
	size_t dropped;
} hot = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER };

static int64_t boottime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void *hot_loop(void *arg)
{
	for (;;) {
		volatile char sink;
		int64_t t0, t1;
		size_t i, r;

		pthread_mutex_lock(&hot.lock);
		while (!hot.run)
			pthread_cond_wait(&hot.wake, &hot.lock);
		pthread_mutex_unlock(&hot.lock);

		t0 = boottime_us();
		for (i = 0; i < hot.n; i++)
			sink = hot.base[hot.pages[i] * hot.page];
		(void)sink;
		t1 = boottime_us();
		r = hot.recorded;
		if (r == HOT_LOOP_ROOM) {
			__atomic_add_fetch(&hot.dropped, 1, __ATOMIC_RELAXED);
			continue;
		}
		hot.passes[r] = (struct hot_pass){ t1, t1 - t0 };
		__atomic_store_n(&hot.recorded, r + 1, __ATOMIC_RELEASE);
	}
	return arg;
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void shuffle(size_t *a, size_t n, uint64_t *rng)
{
	size_t i, j, t;

	for (i = n; i > 1; i--) {
		j = xorshift(rng) % i;
		t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

size_t hot_set_choose(const char *base, size_t npages, size_t page, int percent, uint64_t seed,
		      size_t *pages)
{
	const size_t chunk = (2UL << 20) / page, want = npages * percent / 100 ?: 1;
	/* the first page on a 2 MiB boundary, and how many whole chunks follow it */
	size_t first = ((-(uintptr_t)base) & ((2UL << 20) - 1)) / page, chunks, c, i, n = 0;
	uint64_t rng = seed | 1;

	chunks = first < npages ? (npages - first) / chunk : 0;
	if (want < chunk || !chunks) {
		for (i = 0; i < npages; i++)
			pages[i] = i;
		shuffle(pages, npages, &rng);
		return want;
	}
	/* pages[] holds the chunk numbers first, then is overwritten from the front */
	for (c = 0; c < chunks; c++)
		pages[npages - chunks + c] = c;
	shuffle(pages + npages - chunks, chunks, &rng);
	for (c = 0; c < chunks && n < want; c++) {
		size_t start = first + pages[npages - chunks + c] * chunk;

		/* (writes end at or before the list's entry c, read above: none ahead) */
		for (i = 0; i < chunk && n < want; i++)
			pages[n++] = start + i;
	}
	shuffle(pages, n, &rng);
	return n;
}

int hot_loop_start(const char *base, size_t page, const size_t *pages, size_t n)
{
	pthread_t t;

	hot.passes = calloc(HOT_LOOP_ROOM, sizeof(*hot.passes));
	if (!hot.passes)
		return -1;
	/* (best effort: without it a pass may also wait for its own record's fault) */
	mlock(hot.passes, HOT_LOOP_ROOM * sizeof(*hot.passes));
	hot.base = base;
	hot.page = page;
	hot.pages = pages;
	hot.n = n;
	return pthread_create(&t, NULL, hot_loop, NULL) ? -1 : 0;
}

void hot_loop_run(int run)
{
	pthread_mutex_lock(&hot.lock);
	hot.run = run;
	pthread_cond_signal(&hot.wake);
	pthread_mutex_unlock(&hot.lock);
}

void hot_loop_print(FILE *out)
{
	size_t n = __atomic_load_n(&hot.recorded, __ATOMIC_ACQUIRE), i;

	for (i = 0; i < n; i++)
		fprintf(out, "memhog: hot_pass %lld %lld\n", (long long)hot.passes[i].end_us,
			(long long)hot.passes[i].duration_us);
	fprintf(out, "memhog: hot_passes=%zu dropped=%zu\n", n,
		__atomic_load_n(&hot.dropped, __ATOMIC_RELAXED));
	fflush(out);
}
