// SPDX-License-Identifier: GPL-2.0
/*
 * The freezer (hibernation, a frozen ancestor) ends a long write to memory.reclaim with
 * -EINTR that no one asked for, and memtide writes again. On a stock kernel, which reports
 * nothing back, the second write must ask only for what the first did not reclaim: asking
 * for the whole amount again can take twice what the user asked for.
 *
 *   root/ memory.stat
 *     box.slice/ memory.stat memory.current   (8 MiB, 1 MiB less after the "freezer")
 *                memory.reclaim               (a full FIFO: the write blocks)
 *                cgroup.procs (empty)
 *   features: none (the vanilla 6.12.117 fixture has no features file)
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "fake_tree.h"
#include "parse.h"
#include "stop.h"

#define MiB (1ULL << 20)

static void put_usage(uint64_t bytes)
{
	char text[64];

	/* replaced whole: memtide never reads half of one */
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)bytes);
	tree_put("root/box.slice/memory.current.new", text);
	tree_rename("root/box.slice/memory.current.new", "root/box.slice/memory.current");
	snprintf(text, sizeof(text), "anon %llu\nfile 0\n", (unsigned long long)bytes);
	tree_put("root/box.slice/memory.stat.new", text);
	tree_rename("root/box.slice/memory.stat.new", "root/box.slice/memory.stat");
}

static int setup(void **state)
{
	if (tree_create_stock_box())
		return -1;
	put_usage(8 * MiB);
	tree_fifo("root/box.slice/memory.reclaim");
	return 0;
}

static int teardown(void **state)
{
	return tree_destroy();
}

static int reclaim_4m(void *arg)
{
	struct options o = { .amount = 4 * MiB, .swappiness = -1, .depth = -1, .json = true };
	char *args[] = { "box.slice" };

	return cmd_operate(&o, "reclaim", args, 1);
}

/*
 * Empty the FIFO behind FD (the filler is NUL bytes) until the request of the blocked
 * write comes through, then return it (malloc'ed).
 */
static char *next_request(int fd)
{
	char buf[4096], req[64] = "";
	size_t len = 0;

	for (int i = 0; i < 500; i++) {
		ssize_t n = read(fd, buf, sizeof(buf));

		for (ssize_t j = 0; j < n && len < sizeof(req) - 1; j++)
			if (buf[j])
				req[len++] = buf[j];
		if (n < 0 && errno == EAGAIN && len)
			return strdup(req);
		if (n < 0 && errno == EAGAIN)
			usleep(10000);
	}
	fail_msg("no request written within 5 s");
	return NULL;
}

/* A number after LABEL in /proc/PID/task/PID/FILE, or -1. */
static long proc_number(pid_t pid, const char *file, const char *label)
{
	char path[64], *text = NULL, *at;
	size_t cap = 0;
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", (int)pid, (int)pid, file);
	f = fopen(path, "re");
	if (f && getdelim(&text, &cap, '\0', f) > 0 && (at = strstr(text, label)))
		sscanf(at + strlen(label), "%ld", &v);
	if (f)
		fclose(f);
	free(text);
	return v;
}

/*
 * Wait until the writer PID is blocked in write() (/proc's syscall file names it only
 * while it sleeps), having gone to sleep more than SLEPT times. Returns how often it has.
 * A signal that wakes the writer is only seen if the FIFO is still full when it wakes: the
 * reader must wait for this before it makes room.
 */
static long wait_in_write(pid_t pid, long slept)
{
	for (int i = 0; i < 500; i++) {
		long now = proc_number(pid, "status", "voluntary_ctxt_switches:");

		if (proc_number(pid, "syscall", "") == SYS_write && now > slept)
			return now;
		usleep(10000);
	}
	fail_msg("memtide did not block in a write to memory.reclaim within 5 s");
	return -1;
}

/* reclaim 4M, the freezer after 1 MiB: the retry asks for the 3 MiB that are missing */
static void test_stock_retry(void **state)
{
	int fifo = tree_fifo_fill("root/box.slice/memory.reclaim");
	pid_t pid = child_start(reclaim_4m, NULL);
	long slept = wait_in_write(pid, -1);
	char *req, *out;

	put_usage(7 * MiB);
	/* what the freezer does to the write: -EINTR, and no stop asked for */
	kill(pid, SIGURG);
	wait_in_write(pid, slept);
	req = next_request(fifo);
	assert_int_equal(child_wait(pid), EXIT_DONE);
	close(fifo);
	if (strcmp(req, "3145728"))
		fail_msg("the retry asked for '%s', want what is missing, 3145728 (3 MiB)", req);
	free(req);
	out = tree_get(".stdout");
	if (!strstr(out, "\"freezer_retries\":1") || !strstr(out, "\"reclaimed\":1048576"))
		fail_msg("want one freezer retry and 1 MiB reclaimed: %s", out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stock_retry, setup, teardown),
	};

	return cmocka_run_group_tests_name("freezer retry", tests, NULL, NULL);
}
