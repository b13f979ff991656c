// SPDX-License-Identifier: GPL-2.0
/*
 * release on a stock kernel (process_madvise(MADV_WILLNEED), then waiting for the reads to
 * land in memory.current) when the cgroup is active: its memory.current never holds still,
 * and the wait must end by itself, for `memtide release` and for a CRIU dump's pre-dump.
 *
 *   root/ memory.stat
 *     box.slice/ memory.stat memory.reclaim cgroup.procs (empty)
 *                memory.current                (rises every 50 ms while the test runs)
 *   proc/4242/cgroup                           0::/box.slice
 *   features: none (the vanilla 6.12.117 fixture has no features file)
 *
 * and a release of processes memtide may not ptrace, which it skips, doing the others.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "fake_tree.h"
#include "madvise.h"
#include "parse.h"
#include "stop.h"

static int setup(void **state)
{
	if (tree_create_stock_box())
		return -1;
	tree_mkdir("proc");
	tree_mkdir("proc/4242");
	tree_put("proc/4242/cgroup", "0::/box.slice\n");
	return 0;
}

static int teardown(void **state)
{
	return tree_destroy();
}

/*
 * Run FN in a child while box.slice's memory.current rises every 50 ms, as an active
 * cgroup's does (replaced whole, so that no read sees it half written). Returns the exit
 * status; the run's length in *MS.
 */
static int run_while_active(int (*fn)(void *arg), int *ms)
{
	uint64_t start = now_us(), current = 1 << 20;
	int status;
	pid_t pid = child_start(fn, NULL);

	while (!child_exited(pid, &status)) {
		char text[32];

		if (now_us() - start > 20000000) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			fail_msg("did not return within 20 s while memory.current kept changing");
		}
		current += 4096;
		snprintf(text, sizeof(text), "%llu\n", (unsigned long long)current);
		tree_put("root/box.slice/memory.current.new", text);
		tree_rename("root/box.slice/memory.current.new", "root/box.slice/memory.current");
		usleep(50000);
	}
	*ms = (int)((now_us() - start) / 1000);
	return status;
}

static void check_gave_up(void)
{
	char *err = tree_get(".stderr");

	if (!strstr(err, "still rising"))
		fail_msg("no line saying it stopped waiting: %s", err);
	free(err);
}

static int release(void *arg)
{
	struct options o = { .amount = AMOUNT_MAX, .swappiness = -1, .depth = -1 };
	char *args[] = { "box.slice" };

	return cmd_operate(&o, "release", args, 1);
}

/* memtide release, no --timeout: done once the default wait is over, and says why */
static void test_release(void **state)
{
	int wait_ms = (int)(RELEASE_SETTLE_MAX_US / 1000), ms;
	int status = run_while_active(release, &ms);

	assert_int_equal(status, EXIT_DONE);
	if (ms < wait_ms || ms > wait_ms + 3000)
		fail_msg("returned after %d ms, want the default wait, %d ms", ms, wait_ms);
	check_gave_up();
}

static int criu_action(void *arg)
{
	struct options o = { .amount = AMOUNT_MAX, .swappiness = -1, .depth = -1 };

	setenv("CRTOOLS_SCRIPT_ACTION", "pre-dump", 1);
	setenv("CRTOOLS_INIT_PID", "4242", 1);
	return cmd_criu_action(&o);
}

/* memtide criu-action at pre-dump: the dump goes on (exit 0), and CRIU's log says why */
static void test_criu_action(void **state)
{
	int ms, status = run_while_active(criu_action, &ms);

	assert_int_equal(status, EXIT_DONE);
	check_gave_up();
}

/*
 * Release with cgroup.procs listing pid 1, which memtide may not look into (as root it
 * becomes nobody first), and then the process running the release, which it may.
 */
static int release_skipping(void *arg)
{
	struct options o = { .amount = AMOUNT_MAX, .swappiness = -1, .depth = -1, .json = true };
	char *args[] = { "box.slice" }, procs[32];

	snprintf(procs, sizeof(procs), "1\n%d\n", (int)getpid());
	tree_put("root/box.slice/cgroup.procs", procs);
	if (!geteuid() && (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)))
		return 125;
	return cmd_operate(&o, "release", args, 1);
}

/* the process memtide may not ptrace is skipped and named, the other one released: partial */
static void test_release_skips(void **state)
{
	char *out;

	/* mkdtemp()'s 0700 would keep nobody out of the whole tree */
	assert_int_equal(chmod(tree_dir, 0755), 0);
	assert_int_equal(child_run(release_skipping, NULL), EXIT_PARTIAL);
	out = tree_get(".stdout");
	if (!strstr(out, "\"status\":\"partial\"") || !strstr(out, "\"skipped_processes\":1") ||
	    !strstr(out, "(pid 1;"))
		fail_msg("want partial, 1 process skipped, and pid 1 named: %s", out);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_criu_action, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release_skips, setup, teardown),
	};

	return cmocka_run_group_tests_name("stock release", tests, NULL, NULL);
}
