// SPDX-License-Identifier: GPL-2.0
/*
 * timed_write FILE VALUE [BATCH]: the benchmarks' one timed kernel request. Opens FILE
 * read-write, writes VALUE in one write(2) and prints, on one line,
 *
 *   timed_write: rc=0 elapsed_us=N stime_us=N readback_us=N [rb_KEY=VALUE ...]
 *
 * stime_us is the system CPU time the write cost this process (getrusage(): the kernel's work
 * done in the writer's context, which is where memory.reclaim and memory.release do theirs).
 * rc is 0 or the errno name of a failed write; the rb_KEY=VALUE pairs are what a read from
 * offset 0 of the same descriptor returned (memtide's result read-back; prefixed so that the
 * kernel's keys never clash with ours), with readback_us the cost of that read. On a kernel
 * without read-back the read fails and no pairs follow.
 *
 * With BATCH, VALUE is an amount of bytes (K, M, G suffixes) written as a run of writes of
 * at most BATCH bytes each on the same descriptor, stopping at the first that fails, all of
 * it timed: what a program can do on a stock kernel to reclaim in bounded batches, as
 * memtide's memory.reclaim does inside the kernel (scenario reclaim-floor compares the two).
 * The line then also says batches=N, the writes made. A write that fails with EAGAIN (the
 * cgroup had less left than the batch asked for) ends such a run as done, not failed, as
 * "max" ends on memtide: rc=0 and ran_dry=1.
 *
 * Exit status: 0 after any write outcome (it is reported), 1 if FILE cannot be opened, 2 on
 * usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long stime_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_stime.tv_sec * 1000000LL + ru.ru_stime.tv_usec;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* a byte count with an optional K, M or G suffix, as memory.reclaim takes it; -1 if not one */
static long long parse_bytes(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	switch (*end) {
	case 'G':
		v <<= 10;
		/* fall through */
	case 'M':
		v <<= 10;
		/* fall through */
	case 'K':
		v <<= 10;
		end++;
		break;
	}
	return *end || v == 0 || v > (1ULL << 50) ? -1 : (long long)v;
}

/* write TOTAL bytes' worth of requests of at most BATCH bytes each; the first failure ends it */
static ssize_t write_in_batches(int fd, long long total, long long batch, int *batches)
{
	char amount[32];
	ssize_t w = 0;

	for (*batches = 0; total > 0 && w >= 0; total -= batch, ++*batches) {
		snprintf(amount, sizeof(amount), "%lld", total < batch ? total : batch);
		w = write(fd, amount, strlen(amount));
	}
	return w;
}

int main(int argc, char **argv)
{
	long long t0, t1, t2, s0, s1, total = 0, batch = 0;
	char buf[4096], *line, *save;
	int fd, err, batches = 0, ran_dry = 0;
	ssize_t n, w;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: timed_write FILE VALUE [BATCH]\n");
		return 2;
	}
	if (argc == 4) {
		total = parse_bytes(argv[2]);
		batch = parse_bytes(argv[3]);
		if (total < 0 || batch < 0) {
			fprintf(stderr, "timed_write: with BATCH, VALUE and BATCH are byte counts (K, M, G suffixes)\n");
			return 2;
		}
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "timed_write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	s0 = stime_us();
	t0 = now_us();
	if (batch)
		w = write_in_batches(fd, total, batch, &batches);
	else
		w = write(fd, argv[2], strlen(argv[2]));
	err = w < 0 ? errno : 0;
	t1 = now_us();
	if (batch && err == EAGAIN) {
		ran_dry = 1;
		err = 0;
	}
	s1 = stime_us();
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	t2 = now_us();
	printf("timed_write: rc=%s elapsed_us=%lld stime_us=%lld readback_us=%lld",
	       err ? strerrorname_np(err) : "0", t1 - t0, s1 - s0, t2 - t1);
	if (batch)
		printf(" batches=%d ran_dry=%d", batches, ran_dry);
	if (n > 0) {
		buf[n] = '\0';
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *sp = strchr(line, ' ');

			if (sp)
				*sp = '=';
			printf(" rb_%s", line);
		}
	}
	printf("\n");
	close(fd);
	return 0;
}
