// SPDX-License-Identifier: GPL-2.0
/*
 * memhog SIZE: the idle process of the demo and benchmarks. Maps SIZE bytes (K/M/G suffix)
 * of anonymous memory, fills it with incompressible data, prints "memhog: ready", then
 * sleeps until killed. With SIGUSR1 it touches every page again and prints the seconds it took
 * ("memhog: touched N MiB in S s", then "memhog: touch_end_us=T" on CLOCK_MONOTONIC), which is
 * how demand paging is timed. With SIGUSR2 it checks every page against what it wrote and
 * prints "memhog: corrupt_pages=N".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "memtide_test.h"

static volatile sig_atomic_t touch_requested, verify_requested;

static void on_usr1(int sig)
{
	touch_requested = 1;
}

static void on_usr2(int sig)
{
	verify_requested = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
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

int main(int argc, char **argv)
{
	volatile char sink;
	size_t size, i;
	long page = sysconf(_SC_PAGESIZE);
	char *buf;

	if (argc != 2 || !(size = parse_size(argv[1]))) {
		fprintf(stderr, "Usage: memhog SIZE   (bytes, or with a K, M or G suffix)\n");
		return 2;
	}
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("memhog: mmap");
		return 1;
	}
	fill_incompressible(buf, size, getpid());
	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, on_usr2);
	printf("memhog: ready\n");
	fflush(stdout);
	for (;;) {
		double t;

		pause();
		if (verify_requested) {
			verify_requested = 0;
			printf("memhog: corrupt_pages=%zu\n",
			       count_corrupt_pages(buf, size, (unsigned long)getpid()));
			fflush(stdout);
		}
		if (!touch_requested)
			continue;
		touch_requested = 0;
		t = now();
		for (i = 0; i < size; i += page)
			sink = buf[i];
		(void)sink;
		/*
		 * The end on the monotonic clock too: a benchmark measures from its own start,
		 * since waking this process can itself wait for swap-in (its stack is swapped out)
		 */
		printf("memhog: touched %zu MiB in %.2f s\nmemhog: touch_end_us=%.0f\n", size >> 20,
		       now() - t, now() * 1e6);
		fflush(stdout);
	}
}
