// SPDX-License-Identifier: GPL-2.0
/*
 * memtide features where it can tell less than on the memtide kernel, against a fake tree:
 *
 *   cgroup v1      root/ is a v1 memory mount (memory.limit_in_bytes, tasks): one line, the
 *                  exit status of every other command there (1)
 *   no mount       $MEMTIDE_CGROUP_ROOT names nothing: the same
 *   stock 6.12     vanilla-perf-6.12.117 (no features file, its release): "no" for each
 *                  memtide feature, never "unknown"
 *   stock 6.16     a newer stock kernel (no features file, release 6.16.3, root/
 *                  memory.reclaim write-only, no memory.release): swappiness=max yes (6.16
 *                  has it), read-back no (memory.reclaim cannot be read), memory.release no
 *                  (no such file), memory.reclaim max unknown (text) and null (JSON)
 *   stock 6.14     swappiness=max unknown: mainline has it from 6.16, a distribution may
 *                  have backported it
 *   memtide        memtide-6.12.117: what its features file says
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "commands.h"
#include "fake_tree.h"

static struct options opts;

static int run_features(void *arg)
{
	return cmd_features(&opts);
}

static int run_status(void *arg)
{
	return cmd_status(&opts, NULL, 0);
}

static int setup(void **state)
{
	memset(&opts, 0, sizeof(opts));
	opts.depth = -1;
	if (tree_create())
		return -1;
	tree_mkdir("root");
	return 0;
}

static int teardown(void **state)
{
	return tree_destroy();
}

/* The command failed with one line on stderr containing WANT, nothing on stdout. */
static void check_one_line_error(const char *want)
{
	char *out = tree_get(".stdout"), *err = tree_get(".stderr");

	if (*out || !strstr(err, want) || strchr(err, '\n') != err + strlen(err) - 1)
		fail_msg("want one line with '%s' and no output; stderr: %s stdout: %s", want, err,
			 out);
	free(out);
	free(err);
}

static void test_cgroup_v1(void **state)
{
	/* what a v1 memory controller's mount holds, and a v2 one never does */
	tree_put("root/memory.limit_in_bytes", "9223372036854771712\n");
	tree_put("root/memory.usage_in_bytes", "1048576\n");
	tree_put("root/tasks", "1\n");
	tree_use("vanilla-perf-6.12.117");
	tree_release_of("vanilla-perf-6.12.117");
	assert_int_equal(child_run(run_status, NULL), EXIT_ERROR);
	check_one_line_error("cgroup v1");
	assert_int_equal(child_run(run_features, NULL), EXIT_ERROR);
	check_one_line_error("cgroup v1");
	opts.json = true;
	assert_int_equal(child_run(run_features, NULL), EXIT_ERROR);
	check_one_line_error("cgroup v1");
}

static void test_no_mount(void **state)
{
	char path[PATH_MAX * 2];

	tree_use("vanilla-perf-6.12.117");
	tree_release_of("vanilla-perf-6.12.117");
	snprintf(path, sizeof(path), "%s/nothing-mounted-here", tree_dir);
	setenv("MEMTIDE_CGROUP_ROOT", path, 1);
	assert_int_equal(child_run(run_status, NULL), EXIT_ERROR);
	check_one_line_error("nothing-mounted-here");
	assert_int_equal(child_run(run_features, NULL), EXIT_ERROR);
	check_one_line_error("nothing-mounted-here");
}

/* The state of feature ROW in the text output: "yes", "no" or "unknown". */
static void check_row(const char *out, const char *row, const char *want)
{
	char needle[128], got[16] = "";
	const char *line;

	snprintf(needle, sizeof(needle), "  %s ", row);
	line = strstr(out, needle);
	if (!line || sscanf(line + strlen(needle), " %15[a-z]:", got) != 1 || strcmp(got, want))
		fail_msg("row '%s': want %s, got '%s' in:\n%s", row, want, got, out);
}

/* The value of feature ROW in the JSON output: "true", "false" or "null". */
static void check_json(const char *out, const char *row, const char *want)
{
	char needle[128];
	const char *v;

	snprintf(needle, sizeof(needle), "\"%s\":", row);
	v = strstr(out, needle);
	if (!v)
		fail_msg("no '%s' in %s", row, out);
	v += strlen(needle);
	v += strspn(v, " ");
	if (strncmp(v, want, strlen(want)))
		fail_msg("'%s': want %s in %s", row, want, out);
}

/* The four features memtide's patches add, in their order on output. */
static const char *const memtide_rows[] = {
	"memory.reclaim read-back", "memory.reclaim max", "memory.reclaim swappiness=max",
	"memory.release",
};

/* Each of them in the text output: WANT[i] for memtide_rows[i]. */
static void check_rows(const char *out, const char *const want[4])
{
	for (int i = 0; i < 4; i++)
		check_row(out, memtide_rows[i], want[i]);
}

static char *run_ok(bool json)
{
	opts.json = json;
	assert_int_equal(child_run(run_features, NULL), EXIT_DONE);
	return tree_get(".stdout");
}

/*
 * A 6.12.117 fixture's kernel: its first line says HEAD, the memtide features are WANT and
 * nothing is unknown (memtide knows what 6.12 has, patched or not).
 */
static void check_known(const char *kernel, const char *head, const char *const want[4])
{
	char *out;

	tree_use(kernel);
	tree_release_of(kernel);
	out = run_ok(false);
	if (strncmp(out, head, strlen(head)) || strstr(out, "unknown"))
		fail_msg("want '%s' and nothing unknown:\n%s", head, out);
	check_rows(out, want);
	free(out);
}

static void test_stock_6_12(void **state)
{
	char *out;

	check_known("vanilla-perf-6.12.117", "kernel 6.12.117-vanilla-perf: stock",
		    (const char *const[]){ "no", "no", "no", "no" });
	out = run_ok(true);
	check_json(out, "reclaim_max", "false");
	check_json(out, "reclaim_swappiness_max", "false");
	free(out);
}

/* a stock kernel newer than the queue's base, with memory.reclaim as mainline makes it */
static void newer_stock(const char *release)
{
	char path[PATH_MAX * 2];

	tree_use("vanilla-perf-6.12.117");
	tree_release(release);
	tree_put("root/memory.reclaim", "");
	snprintf(path, sizeof(path), "%s/root/memory.reclaim", tree_dir);
	assert_int_equal(chmod(path, 0200), 0);
}

static void test_stock_6_16(void **state)
{
	char *out;

	newer_stock("6.16.3-stock");
	out = run_ok(false);
	if (!strstr(out, "kernel 6.16.3-stock: stock"))
		fail_msg("want a stock 6.16.3:\n%s", out);
	check_rows(out, (const char *const[]){ "no", "unknown", "yes", "no" });
	free(out);
	out = run_ok(true);
	check_json(out, "reclaim_readback", "false");
	check_json(out, "reclaim_max", "null");
	check_json(out, "reclaim_swappiness_max", "true");
	check_json(out, "release", "false");
	free(out);
}

static void test_stock_6_14(void **state)
{
	char *out;

	newer_stock("6.14.0-1-amd64");
	out = run_ok(false);
	check_row(out, "memory.reclaim swappiness=max", "unknown");
	check_row(out, "memory.reclaim max", "unknown");
	free(out);
}

/*
 * a stock kernel whose release cannot be read or parsed (empty, garbage, no osrelease):
 * not taken for a new one; what cannot be seen from outside is unknown
 */
static void test_stock_release_unknown(void **state)
{
	static const char *const releases[] = { "", "linux", "6", "x.16.0" };
	const char *const want[4] = { "no", "unknown", "unknown", "no" };
	char *out;

	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		newer_stock(releases[i]);
		out = run_ok(false);
		check_rows(out, want);
		free(out);
		out = run_ok(true);
		check_json(out, "reclaim_swappiness_max", "null");
		check_json(out, "reclaim_max", "null");
		free(out);
	}
	tree_remove("proc/sys/kernel/osrelease");
	out = run_ok(false);
	check_rows(out, want);
	free(out);
}

static void test_memtide(void **state)
{
	check_known("memtide-6.12.117", "kernel 6.12.117-memtide: memtide",
		    (const char *const[]){ "yes", "yes", "yes", "yes" });
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cgroup_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_mount, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_6_12, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_6_16, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_6_14, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_release_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memtide, setup, teardown),
	};

	return cmocka_run_group_tests_name("features", tests, NULL, NULL);
}
