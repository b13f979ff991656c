// SPDX-License-Identifier: GPL-2.0
/*
 * memhog [--order=address|scattered] [--file=PATH] [--probe] [--hot=PERCENT] SIZE: the idle process of the demo and
 * benchmarks. Holds SIZE bytes (K/M/G suffix) of incompressible data, prints "memhog: ready",
 * then sleeps until killed. Signals:
 *
 *   SIGUSR1  touch every page again and print the seconds it took ("memhog: touched N MiB in
 *            S s", then "memhog: touch_end_us=T" on CLOCK_MONOTONIC): how demand paging is
 *            timed
 *   SIGUSR2  check every page against what was written: "memhog: corrupt_pages=N"
 *   SIGHUP   rewrite a random quarter of the pages (each faulted in, written, so dirty
 *            again), then "memhog: rewrote N pages": between partial reclaims, this is what
 *            makes a long-lived process's swap slots stop following its addresses
 *   SIGTTIN  with --probe: print "memhog: probe_worst_us=N probe_loops=N" and start over
 *   SIGTTOU  check only the pages that are in memory (mincore(2): mapped, in the page cache or
 *            in the swap cache), without faulting any other in: "memhog: resident_pages=N
 *            corrupt_resident=N". What a release brought back is checked in seconds where a
 *            check of every page would first fault gigabytes in from swap
 *   SIGWINCH with --hot: run the hot loop (the program is active)
 *   SIGURG   with --hot: pause it after the pass in progress (the program is idle)
 *   SIGPWR   with --hot: print the passes so far (hot_loop.h: "memhog: hot_pass END_US
 *            DURATION_US" lines, then "memhog: hot_passes=N dropped=N")
 *
 * --probe starts a thread that maps 64 KiB, touches it and unmaps it, every millisecond: a
 * program that keeps allocating while an agent works on its memory. Each loop takes this
 * process's mmap_lock twice; probe_worst_us is the slowest loop since the last SIGTTIN (how
 * long the program could not answer), probe_loops how many ran.
 *
 * --hot=PERCENT starts a paused thread that reads PERCENT% of the pages, random 2 MiB chunks of
 * them page by page in a fixed random order, pass after pass (hot_loop.h): the program's
 * working set. The rest is cold: only the touch (SIGUSR1) and the check read it. Anonymous
 * memory only.
 *
 * --order says in which order pages are first written and later touched:
 *   address    ascending addresses (the default, the seed benchmark's): the LRU, and with it
 *              the swap offsets a full reclaim gives, follows the addresses
 *   scattered  one random permutation of the pages for the first write, another for each
 *              touch: a process whose memory was first used, and is used again, in no order
 *              of address (a heap, a hash table), so its swap offsets follow no address order
 * --file=PATH holds the data in a tmpfs file written with write(2) and never mapped (a
 * container's /dev/shm), in place of anonymous memory: the touch reads it, the rewrite
 * pwrite()s; it is not unlinked, so what the tool sees is what a real /dev/shm holds.
 *
 * Every page's data come from its own seed (the pid and the page's index), so that pages can
 * be written, rewritten and checked in any order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hot_loop.h"
#include "memtide_test.h"

static volatile sig_atomic_t touch_requested, verify_requested, rewrite_requested;
static volatile sig_atomic_t probe_requested, resident_check_requested;
/* -1: nothing asked; 0 pause, 1 run (the last of SIGURG and SIGWINCH) */
static volatile sig_atomic_t hot_run_requested = -1, hot_print_requested;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		touch_requested = 1;
	else if (sig == SIGUSR2)
		verify_requested = 1;
	else if (sig == SIGTTIN)
		probe_requested = 1;
	else if (sig == SIGTTOU)
		resident_check_requested = 1;
	else if (sig == SIGWINCH)
		hot_run_requested = 1;
	else if (sig == SIGURG)
		hot_run_requested = 0;
	else if (sig == SIGPWR)
		hot_print_requested = 1;
	else
		rewrite_requested = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the probe thread's figures: written by it, read and reset by the main thread */
static long probe_worst_us, probe_loops;

static void *probe_loop(void *arg)
{
	const size_t len = 64 << 10;
	const struct timespec ms = { .tv_nsec = 1000000 };

	for (;;) {
		double t = now();
		long us;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);

		if (p != MAP_FAILED) {
			memset(p, 1, len);
			munmap(p, len);
		}
		us = (long)((now() - t) * 1e6);
		if (us > __atomic_load_n(&probe_worst_us, __ATOMIC_RELAXED))
			__atomic_store_n(&probe_worst_us, us, __ATOMIC_RELAXED);
		__atomic_add_fetch(&probe_loops, 1, __ATOMIC_RELAXED);
		nanosleep(&ms, NULL);
	}
	return arg;
}

static size_t parse_size(const char *s)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return 0;
	switch (*end) {
	case 'G': case 'g': n <<= 10; /* fall through */
	case 'M': case 'm': n <<= 10; /* fall through */
	case 'K': case 'k': n <<= 10; end++; break;
	}
	return *end ? 0 : n;
}

/* The hog's pages: anonymous memory, or a tmpfs file read and written through fd. */
struct hog {
	char *anon;		/* NULL for a file */
	int fd;
	size_t pages, page;
	unsigned long seed;
	char *scratch;		/* one page, for the file's reads and writes */
	uint64_t rng;
};

static uint64_t next_random(struct hog *h)
{
	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	return h->rng;
}

/* Page indices in ascending order, or in a fresh random order (Fisher-Yates). */
static void page_order(struct hog *h, size_t *order, int scattered)
{
	size_t i, j, t;

	for (i = 0; i < h->pages; i++)
		order[i] = i;
	if (!scattered)
		return;
	for (i = h->pages - 1; i > 0; i--) {
		j = next_random(h) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/*
 * Distinct for every page of every hog: fill_incompressible() drops bit 0 of its seed, so the
 * page's number goes above it
 */
static unsigned long page_seed(const struct hog *h, size_t i)
{
	return (h->seed * 0x9e3779b97f4a7c15ULL + i) << 1;
}

/* Writes page i's data: in place, or through the file. 0 or -1. */
static int write_page(struct hog *h, size_t i)
{
	if (h->anon) {
		fill_incompressible(h->anon + i * h->page, h->page, page_seed(h, i));
		return 0;
	}
	fill_incompressible(h->scratch, h->page, page_seed(h, i));
	return pwrite(h->fd, h->scratch, h->page, i * h->page) == (ssize_t)h->page ? 0 : -1;
}

/* Reads page i (a fault or a file read); with check, says whether it holds its data. */
static int read_page(struct hog *h, size_t i, int check)
{
	const char *p = h->anon ? h->anon + i * h->page : h->scratch;
	volatile char sink;

	if (!h->anon && pread(h->fd, h->scratch, h->page, i * h->page) != (ssize_t)h->page)
		return -1;
	if (check)
		return count_corrupt_pages(p, h->page, page_seed(h, i)) ? -1 : 0;
	sink = p[0];
	(void)sink;
	return 0;
}

/*
 * Checks the pages mincore() says are in memory; sets *checked. Returns the corrupt ones, or
 * -1 if mincore fails. The file is mapped for mincore() only: its pages are read with pread().
 */
static long check_resident(struct hog *h, size_t *checked)
{
	size_t len = h->pages * h->page, i;
	unsigned char *vec = malloc(h->pages);
	void *map = h->anon;
	long bad = 0;

	*checked = 0;
	if (!vec)
		return -1;
	if (!map)
		map = mmap(NULL, len, PROT_READ, MAP_SHARED, h->fd, 0);
	if (map == MAP_FAILED || mincore(map, len, vec)) {
		free(vec);
		return -1;
	}
	if (!h->anon)
		munmap(map, len);
	for (i = 0; i < h->pages; i++) {
		if (!(vec[i] & 1))
			continue;
		(*checked)++;
		bad += read_page(h, i, 1) != 0;
	}
	free(vec);
	return bad;
}

int main(int argc, char **argv)
{
	const char *file = NULL;
	int scattered = 0, probe = 0, hot_percent = 0, argi;
	size_t size, i, *order, *hot_pages = NULL, hot_n = 0, bad, rewritten;
	struct hog h = { .fd = -1, .page = sysconf(_SC_PAGESIZE) };
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t wanted, waiting;

	for (argi = 1; argi < argc - 1; argi++) {
		if (!strcmp(argv[argi], "--order=address"))
			scattered = 0;
		else if (!strcmp(argv[argi], "--order=scattered"))
			scattered = 1;
		else if (!strncmp(argv[argi], "--file=", 7) && argv[argi][7])
			file = argv[argi] + 7;
		else if (!strcmp(argv[argi], "--probe"))
			probe = 1;
		else if (!strncmp(argv[argi], "--hot=", 6) && (hot_percent = atoi(argv[argi] + 6)) > 0 &&
			 hot_percent <= 100 && argv[argi][6 + strspn(argv[argi] + 6, "0123456789")] == '\0')
			;
		else
			break;
	}
	if (argi != argc - 1 || !(size = parse_size(argv[argi])) || size < h.page ||
	    (hot_percent && file)) {
		fprintf(stderr, "Usage: memhog [--order=address|scattered] [--file=PATH] [--probe] [--hot=PERCENT] SIZE   (bytes, or with a K, M or G suffix; --hot: 1 to 100, not with --file)\n");
		return 2;
	}
	h.pages = size / h.page;
	h.seed = getpid();
	h.rng = h.seed | 1;
	order = malloc(h.pages * sizeof(*order));
	h.scratch = malloc(h.page);
	if (!order || !h.scratch) {
		perror("memhog: malloc");
		return 1;
	}
	if (file) {
		h.fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (h.fd < 0) {
			fprintf(stderr, "memhog: %s: %s\n", file, strerror(errno));
			return 1;
		}
	} else {
		h.anon = mmap(NULL, h.pages * h.page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (h.anon == MAP_FAILED) {
			perror("memhog: mmap");
			return 1;
		}
	}
	page_order(&h, order, scattered);
	for (i = 0; i < h.pages; i++) {
		if (write_page(&h, order[i])) {
			perror("memhog: write");
			return 1;
		}
	}
	/*
	 * The signals are blocked but while waiting for them (sigsuspend()): one that came
	 * between the checks below and a pause() would be lost, and its sender wait forever
	 */
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGUSR1);
	sigaddset(&wanted, SIGUSR2);
	sigaddset(&wanted, SIGHUP);
	sigaddset(&wanted, SIGTTIN);
	sigaddset(&wanted, SIGTTOU);
	sigaddset(&wanted, SIGWINCH);
	sigaddset(&wanted, SIGURG);
	sigaddset(&wanted, SIGPWR);
	/* (the probe thread inherits the blocked set: the signals go to the main thread) */
	sigprocmask(SIG_BLOCK, &wanted, &waiting);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTTIN, &sa, NULL);
	sigaction(SIGTTOU, &sa, NULL);
	sigaction(SIGWINCH, &sa, NULL);
	sigaction(SIGURG, &sa, NULL);
	sigaction(SIGPWR, &sa, NULL);
	if (hot_percent) {
		hot_pages = malloc(h.pages * sizeof(*hot_pages));
		if (!hot_pages) {
			perror("memhog: malloc");
			return 1;
		}
		hot_n = hot_set_choose(h.anon, h.pages, h.page, hot_percent, next_random(&h),
				       hot_pages);
		if (hot_loop_start(h.anon, h.page, hot_pages, hot_n)) {
			perror("memhog: hot loop");
			return 1;
		}
	}
	if (probe) {
		pthread_t t;

		if (pthread_create(&t, NULL, probe_loop, NULL)) {
			perror("memhog: probe");
			return 1;
		}
	}
	if (hot_pages)
		printf("memhog: hot_pages=%zu\n", hot_n);
	printf("memhog: ready\n");
	fflush(stdout);
	for (;;) {
		double t;

		while (!touch_requested && !verify_requested && !rewrite_requested &&
		       !probe_requested && !resident_check_requested && hot_run_requested < 0 &&
		       !hot_print_requested)
			sigsuspend(&waiting);
		if (hot_run_requested >= 0) {
			if (hot_pages)
				hot_loop_run(hot_run_requested);
			hot_run_requested = -1;
		}
		if (hot_print_requested) {
			hot_print_requested = 0;
			if (hot_pages)
				hot_loop_print(stdout);
		}
		if (resident_check_requested) {
			size_t checked;
			long bad;

			resident_check_requested = 0;
			bad = check_resident(&h, &checked);
			printf("memhog: resident_pages=%zu corrupt_resident=%ld\n", checked, bad);
			fflush(stdout);
		}
		if (probe_requested) {
			probe_requested = 0;
			printf("memhog: probe_worst_us=%ld probe_loops=%ld\n",
			       __atomic_exchange_n(&probe_worst_us, 0, __ATOMIC_RELAXED),
			       __atomic_exchange_n(&probe_loops, 0, __ATOMIC_RELAXED));
			fflush(stdout);
		}
		if (verify_requested) {
			verify_requested = 0;
			for (i = 0, bad = 0; i < h.pages; i++)
				bad += read_page(&h, i, 1) != 0;
			printf("memhog: corrupt_pages=%zu\n", bad);
			fflush(stdout);
		}
		if (rewrite_requested) {
			rewrite_requested = 0;
			page_order(&h, order, 1);
			for (i = 0, rewritten = 0; i < h.pages / 4; i++)
				rewritten += write_page(&h, order[i]) == 0;
			printf("memhog: rewrote %zu pages\n", rewritten);
			fflush(stdout);
		}
		if (!touch_requested)
			continue;
		touch_requested = 0;
		t = now();
		/* (address order needs no array: it would be one more thing to swap in, timed) */
		if (scattered)
			page_order(&h, order, 1);
		for (i = 0; i < h.pages; i++)
			read_page(&h, scattered ? order[i] : i, 0);
		/*
		 * The end on the monotonic clock too: a benchmark measures from its own start,
		 * since waking this process can itself wait for swap-in (its stack is swapped out)
		 */
		printf("memhog: touched %zu MiB in %.2f s\nmemhog: touch_end_us=%.0f\n",
		       (h.pages * h.page) >> 20, now() - t, now() * 1e6);
		fflush(stdout);
	}
}
