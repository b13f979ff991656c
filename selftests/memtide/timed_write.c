// SPDX-License-Identifier: GPL-2.0
/*
 * timed_write FILE VALUE: the benchmarks' one timed kernel request. Opens FILE read-write,
 * writes VALUE in one write(2) and prints, on one line,
 *
 *   timed_write: rc=0 elapsed_us=N stime_us=N readback_us=N [rb_KEY=VALUE ...]
 *
 * stime_us is the system CPU time the write cost this process (getrusage(): the kernel's work
 * done in the writer's context, which is where memory.reclaim and memory.release do theirs).
 * rc is 0 or the errno name of a failed write; the rb_KEY=VALUE pairs are what a read from
 * offset 0 of the same descriptor returned (memtide's result read-back; prefixed so that the
 * kernel's keys never clash with ours), with readback_us the cost of that read. On a kernel without read-back the read fails and no pairs follow. Exit status:
 * 0 after any write outcome (it is reported), 1 if FILE cannot be opened, 2 on usage errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
	long long t0, t1, t2, s0, s1;
	char buf[4096], *line, *save;
	ssize_t n, w;
	int fd, err;

	if (argc != 3) {
		fprintf(stderr, "usage: timed_write FILE VALUE\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "timed_write: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	s0 = stime_us();
	t0 = now_us();
	w = write(fd, argv[2], strlen(argv[2]));
	err = w < 0 ? errno : 0;
	t1 = now_us();
	s1 = stime_us();
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	t2 = now_us();
	printf("timed_write: rc=%s elapsed_us=%lld stime_us=%lld readback_us=%lld",
	       err ? strerrorname_np(err) : "0", t1 - t0, s1 - s0, t2 - t1);
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
