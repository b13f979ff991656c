// SPDX-License-Identifier: GPL-2.0
/*
 * trace_memcg_reclaim [RUNS]: upstream's test_memcontrol test_memcg_reclaim, unchanged (its
 * source is included whole), run RUNS times (default 20) with every memory.current read and
 * memory.reclaim write it makes traced, for the repeat case memcg-reclaim (issue 34 item 2).
 *
 * The test fails without a word: reclaim_until() returns false when a write returned 0 yet
 * memory.current is still more than 3% above its 30M goal, when a write failed otherwise
 * than with -EAGAIN, or after five -EAGAIN. Which of these, and why, is what a failing run
 * prints ("# " lines before its "not ok"): each read of memory.current with its time since
 * the run began, and around each write the cgroup's anon, file and swap, how much the write
 * asked for and what it returned, and on a kernel with the read-back (memtide) what the
 * write says it reclaimed. Every run first says how much page cache was charged when the
 * first write began (the test's writer has 50M to write).
 *
 * The calls are caught with the linker's --wrap (cg_write and cg_read_long live in
 * cgroup_util.c, another object), so that upstream's code runs as it is. Its timing does
 * not quite: the reads around each write (memory.stat, a few milliseconds) come between
 * the test's own steps, and its writers run on meanwhile.
 */
#define main upstream_main
#include "test_memcontrol.c"
#undef main

#include <fcntl.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

long __real_cg_read_long(const char *cgroup, const char *control);
int __real_cg_write(const char *cgroup, const char *control, char *buf);

static char trace[1 << 16];
static size_t trace_len;
static struct timespec run_start;
/* the page cache charged when the run's first write began: its writer's 50M, or less */
static long first_write_file = -1;

static long ms_since_start(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - run_start.tv_sec) * 1000 + (now.tv_nsec - run_start.tv_nsec) / 1000000;
}

static void note(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (trace_len >= sizeof(trace) - 1)
		return;
	n = snprintf(trace + trace_len, sizeof(trace) - trace_len, "# %6ld ms  ", ms_since_start());
	if (n > 0)
		trace_len += n;
	if (trace_len >= sizeof(trace) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(trace + trace_len, sizeof(trace) - trace_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		trace_len += n;
	if (trace_len > sizeof(trace) - 2)
		trace_len = sizeof(trace) - 2;
	trace[trace_len++] = '\n';
	trace[trace_len] = '\0';
}

/* memory.stat's anon, file and swapcached, memory.swap.current, in KiB; -1 if unreadable */
static void note_state(const char *cgroup, const char *when)
{
	long anon = cg_read_key_long(cgroup, "memory.stat", "anon ");
	long file = cg_read_key_long(cgroup, "memory.stat", "file ");
	long swapcached = cg_read_key_long(cgroup, "memory.stat", "swapcached ");
	long swap = __real_cg_read_long(cgroup, "memory.swap.current");

	if (first_write_file < 0 && !strcmp(when, "before the write"))
		first_write_file = file;
	note("%s: current %ld KiB, anon %ld, file %ld, swapcached %ld, swap %ld", when,
	     __real_cg_read_long(cgroup, "memory.current") / 1024, anon / 1024, file / 1024,
	     swapcached / 1024, swap / 1024);
}

long __wrap_cg_read_long(const char *cgroup, const char *control)
{
	long value = __real_cg_read_long(cgroup, control);

	if (!strcmp(control, "memory.current"))
		note("read memory.current = %ld KiB", value / 1024);
	return value;
}

/*
 * memory.reclaim is written as cg_write() writes it, but on a file opened for reading too:
 * memtide's read-back is of the writes made through the same open file, so that is where it
 * is read (a stock kernel has none: its read fails, and nothing is printed)
 */
int __wrap_cg_write(const char *cgroup, const char *control, char *buf)
{
	char path[PATH_MAX], readback[1024];
	ssize_t len = strlen(buf), n;
	int fd, ret;

	if (strcmp(control, "memory.reclaim"))
		return __real_cg_write(cgroup, control, buf);
	snprintf(path, sizeof(path), "%s/%s", cgroup, control);
	fd = open(path, O_RDWR | O_APPEND);
	if (fd < 0)
		return __real_cg_write(cgroup, control, buf);
	note_state(cgroup, "before the write");
	n = write(fd, buf, len);
	ret = n == len ? 0 : n < 0 ? -errno : (int)n;
	note("write memory.reclaim %s (%ld KiB) = %d%s", buf, atol(buf) / 1024, ret,
	     ret == -EAGAIN ? " (-EAGAIN)" : "");
	note_state(cgroup, "after the write");
	n = pread(fd, readback, sizeof(readback) - 1, 0);
	if (n > 0) {
		readback[n] = '\0';
		for (char *nl = strchr(readback, '\n'); nl; nl = strchr(nl, '\n'))
			*nl = ' ';
		note("read-back: %s", readback);
	}
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 20, failed = 0;
	char root[PATH_MAX];

	if (runs < 1)
		ksft_exit_fail_msg("usage: trace_memcg_reclaim [RUNS]\n");
	if (cg_find_unified_root(root, sizeof(root), NULL))
		ksft_exit_skip("cgroup v2 isn't mounted\n");
	if (cg_read_strstr(root, "cgroup.subtree_control", "memory") &&
	    __real_cg_write(root, "cgroup.subtree_control", "+memory"))
		ksft_exit_skip("Failed to set memory controller\n");
	ksft_print_header();
	ksft_set_plan(runs);
	for (int i = 1; i <= runs; i++) {
		trace_len = 0;
		trace[0] = '\0';
		first_write_file = -1;
		clock_gettime(CLOCK_MONOTONIC, &run_start);
		bool pass = test_memcg_reclaim(root) == KSFT_PASS;

		/* every run says it: is a failure the runs whose writer had not finished? */
		printf("# run %d: %s, page cache at the first write %ld KiB of 51200\n", i,
		       pass ? "passed" : "failed", first_write_file / 1024);
		if (pass) {
			ksft_test_result_pass("test_memcg_reclaim run %d\n", i);
		} else {
			fputs(trace, stdout);
			ksft_test_result_fail("test_memcg_reclaim run %d\n", i);
			failed++;
		}
	}
	printf("# test_memcg_reclaim failed %d of %d runs\n", failed, runs);
	ksft_finished();
}
