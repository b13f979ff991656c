// SPDX-License-Identifier: GPL-2.0
/*
 * The files two 6.12.117 kernels wrote (tests/fixtures/, verbatim from their guests), as
 * status and idle read them. A real memory.stat has 60-some keys, and scan_pressure comes
 * after the 32nd: fixtures of a few lines cannot show a parser that stops early.
 *
 * Each test builds its fake tree from the fixtures of one KERNEL:
 *
 *   root/ memory.stat cpu.stat memory.pressure          (KERNEL/root/)
 *     app.service/ memory.stat cpu.stat memory.pressure memory.current memory.swap.current
 *                                                       (KERNEL/app.service/)
 *                  memory.reclaim                       (empty: keeps what idle writes)
 *   units/app.service.d/idle.conf                       Shrink=idle, IdleThreshold=1ms
 *   features: KERNEL/features, if it has one (tree_use())
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "fake_tree.h"
#include "kernel_features.h"
#include "keyed.h"
#include "parse.h"
#include "report.h"
#include "target.h"

#define MEMTIDE "memtide-6.12.117"
#define VANILLA "vanilla-perf-6.12.117"

static const char *const cgroup_files[] = {
	"memory.stat", "cpu.stat", "memory.pressure", "memory.current", "memory.swap.current",
};

/* Copy FILE of the fixture KERNEL/FROM to TO/FILE of the tree, if the kernel wrote it. */
static void copy_fixture(const char *kernel, const char *from, const char *to, const char *file)
{
	char src[PATH_MAX], dst[PATH_MAX], *text;

	snprintf(src, sizeof(src), FIXTURES "/%s/%s/%s", kernel, from, file);
	if (access(src, F_OK))
		return;		/* the root has no memory.current */
	snprintf(src, sizeof(src), "%s/%s/%s", kernel, from, file);
	snprintf(dst, sizeof(dst), "%s/%s", to, file);
	text = fixture(src);
	tree_put(dst, text);
	free(text);
}

/* The tree above for KERNEL, in a fresh tree_dir. */
static void build_tree(const char *kernel)
{
	assert_int_equal(tree_create(), 0);
	tree_mkdir("root");
	tree_mkdir("root/app.service");
	for (size_t i = 0; i < sizeof(cgroup_files) / sizeof(*cgroup_files); i++) {
		copy_fixture(kernel, "root", "root", cgroup_files[i]);
		copy_fixture(kernel, "app.service", "root/app.service", cgroup_files[i]);
	}
	tree_put("root/app.service/memory.reclaim", "");
	tree_mkdir("units");
	tree_mkdir("units/app.service.d");
	tree_put("units/app.service.d/idle.conf", "[X-Memtide]\nShrink=idle\nIdleThreshold=1ms\n");
	tree_use(kernel);
}

static int lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Every line of memory.stat is a key, and all of them are kept. */
static void test_whole_stat(void **state)
{
	static const char *const kernels[] = { MEMTIDE, VANILLA };
	struct keyed r;
	uint64_t v;

	for (int i = 0; i < 2; i++) {
		char path[64], *text;

		snprintf(path, sizeof(path), "%s/app.service/memory.stat", kernels[i]);
		text = fixture(path);
		assert_int_equal(keyed_parse(text, &r), lines(text));
		assert_true(keyed_get(&r, "anon", &v));
		assert_true(keyed_get(&r, "thp_swpout_fallback", &v));	/* the last line */
		free(text);
	}
}

/* More keys, or longer ones, than struct keyed holds: an error, not keys dropped. */
static void test_too_many_keys(void **state)
{
	char text[(KEYED_MAX + 1) * 16] = "", key[sizeof(((struct keyed *)0)->kv[0].key) + 8];
	struct cgroot root;
	struct cg_usage u;
	struct target t;
	char err[256];
	struct keyed r;

	for (int i = 0; i <= KEYED_MAX; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "key%d %d\n", i, i);
	assert_int_equal(keyed_parse(text, &r), -E2BIG);
	memset(key, 'k', sizeof(key) - 1);
	snprintf(key + sizeof(key) - 4, 4, " 1");
	assert_int_equal(keyed_parse(key, &r), -E2BIG);
	/* and what status and idle read says so */
	build_tree(MEMTIDE);
	tree_put("root/app.service/memory.stat", text);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(target_resolve(&root, UNIT_MANAGER_SYSTEM, "app.service", &t, err,
					sizeof(err)), 0);
	assert_int_equal(cg_read_usage(&t, &u), -E2BIG);
	assert_false(u.has_scan_pressure);
	target_close(&t);
	cgroot_close(&root);
}

/* The scan pressure status and idle read (cg_read_usage), from each kernel's file. */
static void test_usage(void **state)
{
	struct cgroot root;
	struct cg_usage u;
	struct target t;
	char err[256];

	build_tree(MEMTIDE);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(target_resolve(&root, UNIT_MANAGER_SYSTEM, "app.service", &t, err,
					sizeof(err)), 0);
	cg_read_usage(&t, &u);
	assert_true(u.has_current && u.current == 17088512);
	assert_true(u.anon == 12288 && u.shmem == 16777216);
	assert_true(u.has_scan_pressure);
	assert_true(u.scan_pressure == 0);
	target_close(&t);
	cgroot_close(&root);
	tree_destroy();

	build_tree(VANILLA);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(target_resolve(&root, UNIT_MANAGER_SYSTEM, "app.service", &t, err,
					sizeof(err)), 0);
	cg_read_usage(&t, &u);
	assert_false(u.has_scan_pressure);
	target_close(&t);
	cgroot_close(&root);
	tree_destroy();
}

/* every key of R is one of the comma-separated LIST the features line announced */
static void assert_keys_announced(const struct keyed *r, const char *list)
{
	char key[64], all[300];

	snprintf(all, sizeof(all), ",%s,", list);
	for (int i = 0; i < r->n; i++) {
		snprintf(key, sizeof(key), ",%s,", r->kv[i].key);
		assert_non_null(strstr(all, key));
	}
}

/*
 * The read-backs of a reclaim of 8M and a release of max, and the features line that names
 * their keys: every key the kernel wrote is one the features line announces, and the report
 * line says what the kernel did.
 */
static void test_readbacks(void **state)
{
	char *features = fixture(MEMTIDE "/features"), *text, buf[512];
	struct op_result res = { .operation = "release", .status = OP_DONE };
	struct features f;
	uint64_t v;
	FILE *out;

	features_parse(features, &f);
	assert_true(f.reclaim_readback && f.release_readback);
	text = fixture(MEMTIDE "/release-readback");
	assert_int_equal(keyed_parse(text, &res.r), 10);
	assert_keys_announced(&res.r, f.release_keys);
	assert_true(keyed_get(&res.r, "requested", &v) && v == AMOUNT_MAX);
	assert_true(keyed_get(&res.r, "skipped", &v) && v == 0);
	out = fmemopen(buf, sizeof(buf), "w");
	report_line(out, "/fix.slice/app.service", &res);
	fclose(out);
	assert_string_equal(buf, "/fix.slice/app.service: released 8.5 MiB (shmem 8.5 MiB) "
			    "in 283 ms\n");
	free(text);
	text = fixture(MEMTIDE "/reclaim-readback");
	assert_int_equal(keyed_parse(text, &res.r), 8);
	assert_keys_announced(&res.r, f.reclaim_keys);
	assert_true(keyed_get(&res.r, "demoted", &v) && v == 0);
	assert_true(keyed_get(&res.r, "requested", &v) && v == 8 << 20);
	assert_true(keyed_get(&res.r, "scanned", &v) && v == 17567744);
	free(text);
	free(features);
}

static int status_json(void *arg)
{
	struct options o = { .json = true, .depth = -1, .swappiness = -1 };
	char *args[] = { "app.service" };

	return cmd_status(&o, args, 1);
}

/* status --json app.service: "scan_pressure" of the one row */
static json_object *status_scan_pressure(const char *kernel)
{
	json_object *top, *rows, *value;
	char *out;

	build_tree(kernel);
	assert_int_equal(child_run(status_json, NULL), EXIT_DONE);
	out = tree_get(".stdout");
	tree_destroy();
	top = json_tokener_parse(out);
	free(out);
	assert_non_null(top);
	assert_true(json_object_object_get_ex(top, "cgroups", &rows));
	assert_int_equal(json_object_array_length(rows), 1);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(rows, 0), "scan_pressure",
					      &value));
	value = json_object_get(value);
	json_object_put(top);
	return value;
}

static void test_status(void **state)
{
	json_object *v = status_scan_pressure(MEMTIDE);

	/* a number on the memtide kernel (0: the slice is quiet), null on the stock one */
	assert_non_null(v);
	assert_true(json_object_is_type(v, json_type_int) && json_object_get_int(v) == 0);
	json_object_put(v);
	assert_null(status_scan_pressure(VANILLA));
}

/* rounds of 200 ms: each reclaim step has one round, which a loaded machine must not use up */
static int idle_three_rounds(void *arg)
{
	struct options o = { .interval_us = 200000, .count = 3, .swappiness = -1, .depth = -1 };

	return cmd_idle(&o);
}

/* What idle wrote to app.service's memory.reclaim in three rounds (malloc'ed). */
static char *idle_writes(void)
{
	char *written;

	assert_int_equal(child_run(idle_three_rounds, NULL), EXIT_DONE);
	written = tree_get("root/app.service/memory.reclaim");
	tree_destroy();
	return written;
}

/*
 * idle on the memtide kernel: app.service's CPU time does not move, so it is idle, and
 * reclaimed; with the same memory.stat but a scan pressure of 400 (its limits make reclaim
 * scan deep: something in it allocates), it is busy, and left alone.
 */
static void test_idle(void **state)
{
	char *stat, *at, *busy, *written;

	build_tree(MEMTIDE);
	written = idle_writes();
	assert_string_equal(written, "max");
	free(written);

	build_tree(MEMTIDE);
	stat = tree_get("root/app.service/memory.stat");
	at = strstr(stat, "\nscan_pressure 0\n");
	assert_non_null(at);
	*at = '\0';
	assert_true(asprintf(&busy, "%s\nscan_pressure 400\n%s", stat, at + 17) > 0);
	tree_put("root/app.service/memory.stat", busy);
	free(busy);
	free(stat);
	written = idle_writes();
	assert_string_equal(written, "");
	free(written);
}

/* the tree a failed test leaves */
static int teardown(void **state)
{
	return tree_destroy();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_stat),
		cmocka_unit_test_teardown(test_too_many_keys, teardown),
		cmocka_unit_test_teardown(test_usage, teardown),
		cmocka_unit_test(test_readbacks),
		cmocka_unit_test_teardown(test_status, teardown),
		cmocka_unit_test_teardown(test_idle, teardown),
	};

	return cmocka_run_group_tests_name("kernel files", tests, NULL, NULL);
}
