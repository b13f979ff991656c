// SPDX-License-Identifier: GPL-2.0
/*
 * hang_watch SECONDS: the hang reporter of the reproduction loops (selftests/vm/repeat.sh).
 * Started beside a step that may hang and killed when the step is done; if it is still alive
 * after SECONDS, it asks the kernel for what a maintainer needs to see a hang, through
 * /proc/sysrq-trigger (which root may write whatever kernel.sysrq says):
 *
 *   w  the tasks in uninterruptible sleep, with their stacks
 *   l  a backtrace of every CPU (what the running tasks are doing: a livelock)
 *   m  the memory state (free pages per zone, swap, page cache)
 *   t  every task with its stack (runnable ones that are not on a CPU)
 *
 * then prints "hang_watch: fired after N s" and exits 1 (0 if it was never needed: killed).
 *
 * Why a program and not a shell loop: when the guest hangs under memory pressure, a shell
 * that has to fork `sleep` and `echo` needs memory the kernel may not find. This one locks
 * itself in memory (mlockall) before it waits, and then needs no allocation, fork or page
 * fault to do its work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static void trigger(int fd, char key)
{
	if (write(fd, &key, 1) != 1)
		fprintf(stderr, "hang_watch: sysrq %c: %s\n", key, strerror(errno));
}

int main(int argc, char **argv)
{
	struct timespec left;
	char *end;
	long seconds;
	int fd;

	seconds = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || seconds <= 0) {
		fprintf(stderr, "usage: hang_watch SECONDS\n");
		return 2;
	}
	/* opened now: at the time it is needed, opening may itself need memory */
	fd = open("/proc/sysrq-trigger", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hang_watch: /proc/sysrq-trigger: %s\n", strerror(errno));
		return 1;
	}
	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "hang_watch: mlockall: %s (going on unlocked)\n", strerror(errno));

	left.tv_sec = seconds;
	left.tv_nsec = 0;
	while (nanosleep(&left, &left) && errno == EINTR)
		;
	fprintf(stderr, "hang_watch: fired after %ld s\n", seconds);
	trigger(fd, 'w');
	trigger(fd, 'l');
	trigger(fd, 'm');
	trigger(fd, 't');
	return 1;
}
