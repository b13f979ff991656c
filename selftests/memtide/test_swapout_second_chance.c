// SPDX-License-Identifier: GPL-2.0
/*
 * vm.swapout_second_chance: with it at 0, reclaim writes dirty anonymous and shmem folios to
 * swap the first time it meets them; above the scan pressure, reclaim caused by a cgroup's
 * limit puts them back once first (/proc/vmstat pgswapout_second_chance) and still swaps them
 * out, intact, on the next pass. Reclaim that is asked for (memory.reclaim) never gives the
 * chance: it writes at once whatever the switch says. Values outside 0-1000 are refused and
 * change nothing.
 *
 *   root
 *    `- memtide_second_chance (a checked child holding anon or memfd memory)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

#define SYSCTL "/proc/sys/vm/swapout_second_chance"
#define COUNTER "pgswapout_second_chance"
#define HELD MB(64)
#define RECLAIM "48M"
#define LIMIT "16M"		/* HELD less RECLAIM */

/* How a test makes the cgroup give up memory. */
enum shrink_by {
	BY_LIMIT,		/* lowering memory.max: reclaim the second chance may delay */
	BY_MEMORY_RECLAIM,	/* proactive reclaim: never delayed */
};

/* Sets the sysctl; 0 or -errno. */
static int write_sysctl(long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return write_string(SYSCTL, buf);
}

static long vmstat(const char *key)
{
	return proc_key_long("/proc/vmstat", key);
}

/*
 * Has a checked child of spec give up RECLAIM, by its limit or by memory.reclaim, with the
 * sysctl at setting; the pages given a second chance on the way into *chances. 0 if the
 * write succeeded, the memory went to swap and came back intact; -1 otherwise.
 */
static int reclaim_with(const char *root, struct checked_spec *spec, enum shrink_by by,
			long setting, long *chances)
{
	long before, swapped;
	int ret = -1, err, checked;
	pid_t pid;
	char *cg;

	if (write_sysctl(setting))
		return -1;
	cg = cgroup_with_child(root, "memtide_second_chance", checked_child, spec, &pid);
	if (!cg)
		return -1;
	before = vmstat(COUNTER);
	if (by == BY_LIMIT)
		err = cg_write(cg, "memory.max", LIMIT);
	else
		err = cg_write(cg, "memory.reclaim", RECLAIM);
	*chances = vmstat(COUNTER) - before;
	swapped = cg_read_long(cg, "memory.swap.current");
	ksft_print_msg("setting %ld: %s %d, %ld pages given a second chance, swap %ld MiB\n",
		       setting, by == BY_LIMIT ? "memory.max " LIMIT : "memory.reclaim " RECLAIM,
		       err, *chances, swapped >> 20);
	checked = check_child(pid);
	if (!err && before >= 0 && swapped >= MB(32) && !checked)
		ret = 0;
	/* check_child() reaped it, unless it failed to signal it */
	hogged_cgroup_destroy(cg, checked < 0 ? pid : -1);
	return ret;
}

/*
 * The same reclaim, by, without and with the switch, for one kind of memory: no second chance
 * with it off; with it on, some if expected, else none.
 */
static int second_chance_for(const char *root, struct checked_spec *spec, enum shrink_by by,
			     bool expected)
{
	long saved = read_long(SYSCTL), off, on;
	int ret = KSFT_FAIL;

	if (saved < 0)
		return KSFT_FAIL;
	if (!reclaim_with(root, spec, by, 0, &off) && off == 0 &&
	    !reclaim_with(root, spec, by, 1000, &on) && (expected ? on > 0 : on == 0))
		ret = KSFT_PASS;
	write_sysctl(saved);
	return ret;
}

static int test_anon(const char *root)
{
	struct checked_spec spec = { .anon = HELD, .max_majflt = HELD };

	return second_chance_for(root, &spec, BY_LIMIT, true);
}

static int test_shmem(const char *root)
{
	struct checked_spec spec = { .memfd = HELD, .max_majflt = HELD };

	return second_chance_for(root, &spec, BY_LIMIT, true);
}

/* memory.reclaim writes the dirty anon out at once, the switch on or not. */
static int test_not_for_memory_reclaim(const char *root)
{
	struct checked_spec spec = { .anon = HELD, .max_majflt = HELD };

	return second_chance_for(root, &spec, BY_MEMORY_RECLAIM, false);
}

static int test_bad_input(const char *root)
{
	static const struct bad_input bad[] = {
		{ "-1", -EINVAL }, { "1001", -EINVAL }, { "abc", -EINVAL },
		{ "99999999999999999999", -EINVAL }, { "1e3", -EINVAL },
	};
	long saved = read_long(SYSCTL);
	int ret = KSFT_FAIL;

	if (saved < 0 || write_sysctl(250))
		return KSFT_FAIL;
	if (!refused_by_file(SYSCTL, bad, ARRAY_SIZE(bad)) && read_long(SYSCTL) == 250)
		ret = KSFT_PASS;
	write_sysctl(saved);
	return ret;
}

int main(void)
{
	static const struct memtide_test tests[] = {
		MEMTIDE_TEST(test_anon),
		MEMTIDE_TEST(test_shmem),
		MEMTIDE_TEST(test_not_for_memory_reclaim),
		MEMTIDE_TEST(test_bad_input),
	};

	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
