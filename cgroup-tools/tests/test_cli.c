// SPDX-License-Identifier: GPL-2.0
/*
 * The safety of reclaim's and release's command line, run as a user runs it (memtide_main()
 * in a child process): no amount is no longer "max", --dry-run changes nothing, and the
 * root cgroup is reclaimed only with --force. Every refusal is exit 2, one line (and the
 * "Try 'memtide --help'" hint after a mistake of syntax), and writes nothing.
 *
 *   root/ memory.stat (4 MiB) memory.reclaim memory.release  (the mount, "/", -.slice)
 *     box.slice/ memory.stat memory.current (1 MiB) memory.swap.current (4 KiB)
 *                memory.reclaim memory.release cgroup.procs (empty)
 *   (tree_create_stock_box(), and more)
 *   proc/4242/cgroup    0::/box.slice
 *   proc/1/cgroup       0::/
 *   state/              absent until memtide records a result
 *
 * The memory.* files are plain files, which keep what memtide wrote. The kernel is the
 * memtide 6.12.117 fixture's (memory.reclaim "max", memory.release), unless a test says.
 */
#include <json-c/json.h>
#include <limits.h>
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

/* memtide ARG...: its exit status */
#define MEMTIDE(...) child_run(run_memtide, (char *[]){ "memtide", __VA_ARGS__, NULL })

static const char *const written[] = {
	"root/memory.reclaim", "root/memory.release",
	"root/box.slice/memory.reclaim", "root/box.slice/memory.release",
};

static int setup(void **state)
{
	if (tree_create_stock_box())
		return -1;
	tree_put("root/memory.stat", "anon 3145728\nfile 1048576\n");
	tree_put("root/box.slice/memory.swap.current", "4096\n");
	for (size_t i = 0; i < sizeof(written) / sizeof(*written); i++)
		tree_put(written[i], "");
	tree_mkdir("proc");
	tree_mkdir("proc/4242");
	tree_put("proc/4242/cgroup", "0::/box.slice\n");
	tree_mkdir("proc/1");
	tree_put("proc/1/cgroup", "0::/\n");
	tree_mkdir("units");
	tree_use("memtide-6.12.117");
	return 0;
}

static int teardown(void **state)
{
	unsetenv("MEMTIDE_PROGRESS_DELAY");
	return tree_destroy();
}

/* Nothing written: no memory.reclaim or memory.release, no result recorded. */
static void assert_untouched(void)
{
	char path[PATH_MAX * 2];

	for (size_t i = 0; i < sizeof(written) / sizeof(*written); i++) {
		char *text = tree_get(written[i]);

		if (*text)
			fail_msg("%s was written: '%s'", written[i], text);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/state", tree_dir);
	if (!access(path, F_OK))
		fail_msg("a result was recorded in state/");
}

/*
 * Exit 2, nothing on stdout, and on stderr one line that contains WANT, followed by the
 * "Try" hint if HINT.
 */
static void assert_refused(int status, const char *want, bool hint)
{
	static const char try[] = "Try 'memtide --help' for more information.\n";
	char *out = tree_get(".stdout"), *err = tree_get(".stderr"), *nl = strchr(err, '\n');

	if (status != 2 || *out || !nl || !strstr(err, want) || (size_t)(nl - err) > 200 ||
	    strcmp(nl + 1, hint ? try : ""))
		fail_msg("want exit 2, one line with '%s'%s; got exit %d, stdout '%s', stderr '%s'",
			 want, hint ? " and the hint" : "", status, out, err);
	free(out);
	free(err);
	assert_untouched();
}

/* reclaim and release without an amount: a usage error, not "max" */
static void test_no_amount(void **state)
{
	assert_refused(MEMTIDE("reclaim", "box.slice"), "reclaim needs a SIZE or max", true);
	assert_refused(MEMTIDE("release", "box.slice"), "release needs a SIZE or max", true);
	assert_refused(MEMTIDE("reclaim", "box.slice", "/", "--force"), "needs a SIZE or max",
		       true);
	assert_refused(MEMTIDE("reclaim", "--dry-run", "box.slice"), "needs a SIZE or max", true);
	assert_refused(MEMTIDE("release", "--json", "pid:4242"), "needs a SIZE or max", true);
	/* no target either: the target is asked for first */
	assert_refused(MEMTIDE("reclaim"), "reclaim needs a TARGET", true);
	assert_refused(MEMTIDE("release", "max"), "release needs a TARGET", true);
}

/* an amount given is written as before */
static void test_amount_written(void **state)
{
	assert_int_equal(MEMTIDE("reclaim", "box.slice", "max"), 0);
	tree_expect("root/box.slice/memory.reclaim", "max");
	assert_int_equal(MEMTIDE("release", "pid:4242", "1M"), 0);
	tree_expect("root/box.slice/memory.release", "1048576");
}

/* TEXT has every word of WANT (NULL-terminated), and none of AVOID */
static void assert_has(const char *text, const char *const *want, const char *const *avoid)
{
	for (; *want; want++)
		if (!strstr(text, *want))
			fail_msg("no '%s' in '%s'", *want, text);
	for (; avoid && *avoid; avoid++)
		if (strstr(text, *avoid))
			fail_msg("'%s' in '%s'", *avoid, text);
}

/* A dry run: exit 0, WANT in what it printed, and nothing written */
static void assert_dry_run(int status, const char *want)
{
	char *out = tree_get(".stdout");

	if (status || !strstr(out, want))
		fail_msg("want exit 0 and '%s'; got exit %d and '%s'", want, status, out);
	free(out);
	assert_untouched();
}

/* memtide OPERATION box.slice SIZE exits 0 having written WANT to FILE, which is emptied */
static void assert_takes(const char *operation, const char *size, const char *file,
			 const char *want)
{
	char rel[64];

	assert_int_equal(MEMTIDE((char *)operation, "box.slice", (char *)size), 0);
	snprintf(rel, sizeof(rel), "root/box.slice/%s", file);
	tree_expect(rel, want);
	tree_put(rel, "");
}

/* sizes as users type them elsewhere: fractions of a suffix, rounded down to a byte */
static void test_size_fraction(void **state)
{
	assert_takes("reclaim", "1.5K", "memory.reclaim", "1536");
	assert_takes("release", "0.5g", "memory.release", "536870912");
	assert_takes("reclaim", "512MiB", "memory.reclaim", "536870912");
	assert_takes("reclaim", "0.1K", "memory.reclaim", "102");
}

/*
 * N% of what each target holds when the command starts: memory.current for reclaim
 * (anon + file of memory.stat at the root), memory.swap.current for release
 */
static void test_size_percent(void **state)
{
	char *out;

	tree_mkdir("root/two.slice");
	tree_put("root/two.slice/memory.stat", "anon 0\nfile 0\n");
	tree_put("root/two.slice/memory.current", "3000\n");
	tree_put("root/two.slice/memory.reclaim", "");
	/* first the dry run, which writes and records nothing */
	assert_dry_run(MEMTIDE("reclaim", "-n", "box.slice", "25%"),
		       "/box.slice: would reclaim 25% (256.0 KiB): \"262144\" to memory.reclaim;");
	/* less than a byte of a target: nothing written to it, and a line says so */
	assert_int_equal(MEMTIDE("release", "box.slice", "0.01%"), 0);
	assert_untouched();
	out = tree_get(".stdout");
	assert_string_equal(out, "/box.slice: 0.01% comes to 0 bytes: nothing to release\n");
	free(out);
	assert_dry_run(MEMTIDE("release", "-n", "box.slice", "0.01%"),
		       "/box.slice: 0.01% comes to 0 bytes: nothing to release\n");
	assert_int_equal(MEMTIDE("release", "--json", "box.slice", "0.01%"), 0);
	out = tree_get(".stdout");
	assert_has(out, (const char *[]){ "\"status\":\"done\"",
					  "\"note\":\"0.01% comes to 0 bytes: nothing to release\"",
					  NULL }, NULL);
	free(out);
	assert_untouched();
	assert_int_equal(MEMTIDE("reclaim", "box.slice", "two.slice", "50%"), 0);
	tree_expect("root/box.slice/memory.reclaim", "524288");
	tree_expect("root/two.slice/memory.reclaim", "1500");
	tree_put("root/box.slice/memory.reclaim", "");
	assert_takes("reclaim", "12.5%", "memory.reclaim", "131072");
	assert_takes("reclaim", "0.0001%", "memory.reclaim", "1");
	assert_takes("release", "50%", "memory.release", "2048");
	assert_int_equal(MEMTIDE("reclaim", "--force", "/", "100%"), 0);
	tree_expect("root/memory.reclaim", "4194304");
}

/* a share of what is not there: the root has no memory.swap.current */
static void test_size_percent_root(void **state)
{
	assert_refused(MEMTIDE("release", "box.slice", "/", "50%"),
		       "/: the root cgroup has no memory.swap.current: release a size or max",
		       false);
	assert_refused(MEMTIDE("release", "-n", "pid:1", "10%"), "no memory.swap.current",
		       false);
	/* a cgroup without it (no swap accounting) is an error of that target: exit 1 */
	tree_remove("root/box.slice/memory.swap.current");
	assert_int_equal(MEMTIDE("release", "box.slice", "50%"), 1);
	assert_untouched();
}

/* malformed sizes: exit 2, one line, nothing written */
static void test_size_bad(void **state)
{
	static const char *const bad[] = {
		"1.5.5G", "%", "1e3", "1.5", "1.5B", "50%%", "1G%", "1.2.3%", "0.5",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char want[64];

		snprintf(want, sizeof(want), "memtide: invalid size '%s'\n", bad[i]);
		assert_refused(MEMTIDE("reclaim", "box.slice", (char *)bad[i]), want, true);
	}
	assert_refused(MEMTIDE("reclaim", "box.slice", "150%"),
		       "memtide: invalid size '150%' (at most 100%)\n", true);
	assert_refused(MEMTIDE("release", "box.slice", "100.01%"), "(at most 100%)", true);
	/* digits past the fourth of a percent are refused, whatever they would round to */
	assert_refused(MEMTIDE("release", "box.slice", "100.00001%"),
		       "memtide: invalid size '100.00001%' (at most 4 digits after the point)\n",
		       true);
	assert_refused(MEMTIDE("release", "box.slice", "0.00001%"),
		       "(at most 4 digits after the point)", true);
	assert_refused(MEMTIDE("reclaim", "box.slice", "1.0000000000000000001G"),
		       "(at most 18 digits after the point)", true);
	/* nothing to do, said as such */
	assert_refused(MEMTIDE("reclaim", "box.slice", "0.0001K"),
		       "memtide: invalid size '0.0001K' (rounds to 0 bytes)\n", true);
	assert_refused(MEMTIDE("reclaim", "box.slice", "0%"),
		       "memtide: invalid size '0%' (0 bytes)\n", true);
	assert_refused(MEMTIDE("release", "box.slice", "0K"), "invalid size '0K' (0 bytes)",
		       true);
	assert_refused(MEMTIDE("reclaim", "--", "box.slice", "-1G"), "invalid size '-1G'", true);
	assert_refused(MEMTIDE("reclaim", "box.slice", "16.0E"), "(too large; max asks for all)",
		       true);
}

/* --timeout takes systemd.time(7)'s spans, and infinity for none */
static void test_timeout_spans(void **state)
{
	static const char *const good[] = { "1.5s", "2h 30min", "5min", "infinity", "1d", "90" };

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		if (MEMTIDE("reclaim", "--timeout", (char *)good[i], "box.slice", "1M"))
			fail_msg("--timeout '%s' is refused: %s", good[i], tree_get(".stderr"));
		tree_expect("root/box.slice/memory.reclaim", "1048576");
		tree_put("root/box.slice/memory.reclaim", "");
	}
}

/* bad spans: exit 2, one line, nothing written; idle's interval keeps its floor */
static void test_timeout_bad(void **state)
{
	static const char *const bad[] = { "1.5.5s", "1M", "-1s", "0", "1 2", "forever", "" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char want[64];

		snprintf(want, sizeof(want), "memtide: invalid duration '%s'\n", bad[i]);
		assert_refused(MEMTIDE("release", "-t", (char *)bad[i], "box.slice", "1M"), want,
			       true);
	}
	assert_refused(MEMTIDE("idle", "--interval", "infinity"),
		       "memtide: invalid duration 'infinity'\n", true);
	assert_refused(MEMTIDE("idle", "--interval", "0.05s"), "(at least 100ms)", true);
	assert_refused(MEMTIDE("idle", "--interval", "99.999ms"), "(at least 100ms)", true);
}

/*
 * MEMTIDE_PROGRESS_DELAY takes the same spans, 0 included (the bar at once); a bad one is
 * refused as a bad option is, before anything is written
 */
static void test_progress_delay_env(void **state)
{
	static const char *const good[] = { "0", "250ms", "2s", "1.5" };

	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		setenv("MEMTIDE_PROGRESS_DELAY", good[i], 1);
		if (MEMTIDE("reclaim", "box.slice", "1M"))
			fail_msg("MEMTIDE_PROGRESS_DELAY='%s' is refused: %s", good[i],
				 tree_get(".stderr"));
		tree_expect("root/box.slice/memory.reclaim", "1048576");
		tree_put("root/box.slice/memory.reclaim", "");
	}
}

static void test_progress_delay_env_bad(void **state)
{
	static const char *const bad[] = { "soon", "-1s", "1M", "" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		char want[96];

		setenv("MEMTIDE_PROGRESS_DELAY", bad[i], 1);
		snprintf(want, sizeof(want),
			 "memtide: invalid duration '%s' in MEMTIDE_PROGRESS_DELAY\n", bad[i]);
		assert_refused(MEMTIDE("reclaim", "box.slice", "1M"), want, true);
	}
	/* a command that draws no bar does not read it: CRIU's action script never fails */
	setenv("MEMTIDE_PROGRESS_DELAY", "soon", 1);
	assert_int_equal(MEMTIDE("features"), 0);
	assert_int_equal(MEMTIDE("criu-action"), 0);
}

/* reclaim --dry-run: the cgroup, the amount and what it holds; nothing written, exit 0 */
static void test_dry_run(void **state)
{
	assert_dry_run(MEMTIDE("reclaim", "--dry-run", "pid:4242", "max"),
		       "/box.slice: would reclaim max: \"max\" to memory.reclaim; "
		       "current 1.0 MiB, swap 4.0 KiB\n");
	assert_dry_run(MEMTIDE("release", "-n", "box.slice", "512K"),
		       "/box.slice: would release 512.0 KiB: \"524288\" to memory.release; "
		       "current 1.0 MiB, swap 4.0 KiB\n");
	assert_dry_run(MEMTIDE("reclaim", "-n", "--swappiness", "max", "box.slice", "2M"),
		       ": \"2097152 swappiness=max\" to memory.reclaim;");
}

/* on a stock kernel: what memtide would do there instead (no max; process_madvise) */
static void test_dry_run_stock(void **state)
{
	tree_remove("features");
	assert_dry_run(MEMTIDE("reclaim", "-n", "box.slice", "max"),
		       ": \"1048576\" to memory.reclaim (this kernel has no max: what the cgroup "
		       "holds);");
	assert_dry_run(MEMTIDE("release", "-n", "box.slice", "max"),
		       "/box.slice: would release max: process_madvise(MADV_WILLNEED) over the "
		       "processes of cgroup.procs; current 1.0 MiB, swap 4.0 KiB\n");
}

static json_object *field(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" in %s", key, json_object_to_json_string(o));
	return v;
}

/*
 * a dry run checks that the file it names can be opened for writing: where the write would
 * fail, it says so as the command would (that target's error, exit 1)
 */
static void test_dry_run_unwritable(void **state)
{
	char path[PATH_MAX * 2], *out, *err;

	tree_remove("root/box.slice/memory.reclaim");
	assert_int_equal(MEMTIDE("reclaim", "box.slice", "1M", "-n"), 1);
	out = tree_get(".stdout");
	err = tree_get(".stderr");
	assert_string_equal(out, "");
	assert_string_equal(err, "memtide: box.slice: memory.reclaim: No such file or directory\n");
	free(out);
	free(err);
	/* the others are still reported */
	assert_int_equal(MEMTIDE("reclaim", "-n", "box.slice", "--force", "/", "1M"), 1);
	out = tree_get(".stdout");
	assert_has(out, (const char *[]){ "/: would reclaim 1.0 MiB", NULL },
		   (const char *[]){ "/box.slice", NULL });
	free(out);
	assert_int_equal(MEMTIDE("release", "-n", "box.slice", "1M"), 0);
	/* not created either */
	snprintf(path, sizeof(path), "%s/root/box.slice/memory.reclaim", tree_dir);
	assert_int_equal(access(path, F_OK), -1);
	tree_put("root/box.slice/memory.reclaim", "");
	assert_untouched();
}

/* --dry-run --json: one object per target, with what it would write and the counters */
static void test_dry_run_json(void **state)
{
	json_object *top, *all, *o;
	char *out;

	assert_int_equal(MEMTIDE("release", "--dry-run", "--json", "box.slice", "/", "max"), 0);
	out = tree_get(".stdout");
	top = json_tokener_parse(out);
	/* one object, its "results" the targets in order */
	if (!top || !json_object_object_get_ex(top, "results", &all) ||
	    !json_object_is_type(all, json_type_array) || json_object_array_length(all) != 2)
		fail_msg("want {\"results\": [2 objects]}: %s", out);
	o = json_object_array_get_idx(all, 0);
	assert_string_equal(json_object_get_string(field(o, "target")), "box.slice");
	assert_string_equal(json_object_get_string(field(o, "cgroup")), "/box.slice");
	assert_string_equal(json_object_get_string(field(o, "operation")), "release");
	assert_true(json_object_get_boolean(field(o, "dry_run")));
	/* one type per field: null and a flag for max */
	assert_null(field(o, "requested"));
	assert_true(json_object_get_boolean(field(o, "requested_max")));
	assert_string_equal(json_object_get_string(field(o, "file")), "memory.release");
	assert_string_equal(json_object_get_string(field(o, "write")), "max");
	assert_int_equal(json_object_get_uint64(field(o, "current")), 1048576);
	assert_int_equal(json_object_get_uint64(field(o, "swap")), 4096);
	/* the root: no memory.current (anon + file), no memory.swap.current (null) */
	o = json_object_array_get_idx(all, 1);
	assert_string_equal(json_object_get_string(field(o, "cgroup")), "/");
	assert_int_equal(json_object_get_uint64(field(o, "current")), 4194304);
	assert_null(field(o, "swap"));
	json_object_put(top);
	free(out);
	assert_untouched();
}

/* the root, however named, is reclaimed only with --force; dry run or not */
static void test_root_refused(void **state)
{
	char mount[PATH_MAX * 2];

	snprintf(mount, sizeof(mount), "%s/root", tree_dir);
	assert_refused(MEMTIDE("reclaim", "/", "max"), "/: the root cgroup", false);
	assert_refused(MEMTIDE("reclaim", "/", "1M"), "--force", false);
	assert_refused(MEMTIDE("reclaim", "--", "-.slice", "max"), "--force", false);
	assert_refused(MEMTIDE("reclaim", mount, "max"), "--force", false);
	assert_refused(MEMTIDE("reclaim", "pid:1", "max"), "--force", false);
	assert_refused(MEMTIDE("reclaim", "box.slice/..", "max"), "--force", false);
	assert_refused(MEMTIDE("reclaim", "--dry-run", "/", "max"), "--force", false);
	/* with --json: no array either, as for any other usage error */
	assert_refused(MEMTIDE("reclaim", "/", "max", "--json"), "--force", false);
	assert_refused(MEMTIDE("release", "--json", "-n", "/", "50%"), "no memory.swap.current",
		       false);
	/* with another target: neither is reclaimed */
	assert_refused(MEMTIDE("reclaim", "box.slice", "/", "max"), "--force", false);
}

/* --force: the root as asked */
static void test_root_forced(void **state)
{
	assert_int_equal(MEMTIDE("reclaim", "--dry-run", "--force", "/", "max"), 0);
	assert_untouched();
	assert_int_equal(MEMTIDE("reclaim", "-f", "/", "max"), 0);
	tree_expect("root/memory.reclaim", "max");
}

/* release of the root needs no --force: it moves nothing to swap */
static void test_root_release(void **state)
{
	assert_int_equal(MEMTIDE("release", "/", "max"), 0);
	tree_expect("root/memory.release", "max");
}

/* the new options where they do not belong */
static void test_misplaced_options(void **state)
{
	assert_refused(MEMTIDE("release", "--force", "box.slice", "max"),
		       "--force is for reclaim only", true);
	assert_refused(MEMTIDE("status", "--force"), "--force is for reclaim only", true);
	assert_refused(MEMTIDE("status", "--dry-run"),
		       "--dry-run is for reclaim, release and hibernate", true);
	assert_refused(MEMTIDE("resume", "-n"), "--dry-run is for reclaim, release and hibernate",
		       true);
	assert_refused(MEMTIDE("hibernate", "--force"), "--force is for reclaim only", true);
	assert_refused(MEMTIDE("reclaim", "--prepare-only", "box.slice", "max"),
		       "--prepare-only is for hibernate only", true);
	/* units are named by reclaim, release and status only */
	assert_refused(MEMTIDE("hibernate", "--user", "--dry-run"),
		       "--user is for reclaim, release and status", true);
	assert_refused(MEMTIDE("--user", "features"), "--user is for reclaim, release and status",
		       true);
}

/*
 * status as lsblk: -o picks and orders the columns (any case; +LIST adds to the defaults),
 * --bytes prints sizes in bytes, --noheadings drops the heading; a child is drawn below its
 * parent. Mistakes are exit 2, one line, and print no table.
 */
static void test_status_columns(void **state)
{
	char *out;

	tree_mkdir("root/box.slice/app.service");
	tree_put("root/box.slice/app.service/memory.stat", "anon 8192\nfile 0\nshmem 4096\n");
	tree_put("root/box.slice/app.service/memory.current", "12288\n");
	assert_int_equal(MEMTIDE("status", "-o", "cgroup,Current,SWAP", "--bytes", "--noheadings",
				 "box.slice"), 0);
	out = tree_get(".stdout");
	assert_string_equal(out, "/box.slice    1048576 4096\n"
				 "`-app.service   12288    -\n");
	free(out);
	assert_int_equal(MEMTIDE("status", "--output=+shmem", "--depth", "0", "/box.slice"), 0);
	out = tree_get(".stdout");
	assert_string_equal(out, "CGROUP     CURRENT    SWAP ANON FILE PSI10 SCAN LAST SHMEM\n"
				 "/box.slice 1.0 MiB 4.0 KiB  0 B  0 B     -    - -      0 B\n");
	free(out);
	/* JSON: the columns asked for, under the row's cgroup and depth */
	assert_int_equal(MEMTIDE("status", "--json", "-o", "shmem", "box.slice/app.service"), 0);
	out = tree_get(".stdout");
	assert_string_equal(out, "{\"cgroups\":[{\"cgroup\":\"/box.slice/app.service\","
				 "\"depth\":0,\"shmem\":4096}]}\n");
	free(out);
	/* --json=pretty: indented into a file too */
	assert_int_equal(MEMTIDE("status", "--json=pretty", "-o", "shmem", "box.slice/app.service"),
			 0);
	out = tree_get(".stdout");
	assert_string_equal(out, "{\n  \"cgroups\": [\n    {\n      \"cgroup\": "
				 "\"/box.slice/app.service\",\n      \"depth\": 0,\n      "
				 "\"shmem\": 4096\n    }\n  ]\n}\n");
	free(out);
	assert_refused(MEMTIDE("status", "--json=yaml"), "invalid --json format 'yaml' (pretty)",
		       true);

	assert_refused(MEMTIDE("status", "-o", "cgroup,bogus"),
		       "unknown column 'bogus' (CGROUP, CURRENT, SWAP, ANON, FILE, SHMEM, PSI10, "
		       "SCAN, LAST)", true);
	assert_refused(MEMTIDE("status", "-o", ""), "--output needs a column", true);
	assert_refused(MEMTIDE("status", "-o", "+"), "--output needs a column", true);
	assert_refused(MEMTIDE("status", "-o", "cgroup,,current"),
		       "an empty column name in 'cgroup,,current'", true);
	assert_refused(MEMTIDE("status", "-o", "cgroup,"), "an empty column name in 'cgroup,'",
		       true);
	assert_refused(MEMTIDE("reclaim", "--bytes", "box.slice", "max"),
		       "--output, --bytes and --noheadings are for status only", true);
	assert_refused(MEMTIDE("features", "--noheadings"),
		       "--output, --bytes and --noheadings are for status only", true);
	assert_refused(MEMTIDE("release", "-o", "cgroup", "box.slice", "max"),
		       "--output, --bytes and --noheadings are for status only", true);
}

/*
 * A cgroup whose memory.stat cannot be read keeps its place in the tree ("-" for what is not
 * known, the reason on stderr, exit 1): its children are drawn below it, not below the
 * sibling before it or at the top
 */
static void test_status_unreadable_parent(void **state)
{
	char *out;

	tree_mkdir("root/box.slice/a.service");
	tree_put("root/box.slice/a.service/memory.stat", "anon 4096\nfile 0\n");
	tree_mkdir("root/box.slice/b.slice");
	tree_mkdir("root/box.slice/b.slice/memory.stat");	/* read(): EISDIR */
	tree_mkdir("root/box.slice/b.slice/c.service");
	tree_put("root/box.slice/b.slice/c.service/memory.stat", "anon 8192\nfile 0\n");
	assert_int_equal(MEMTIDE("status", "-o", "cgroup,anon", "--bytes", "--noheadings",
				 "box.slice"), 1);
	out = tree_get(".stdout");
	assert_string_equal(out, "/box.slice       0\n"
				 "|-a.service   4096\n"
				 "`-b.slice        -\n"
				 "  `-c.service 8192\n");
	free(out);
}

/* memtide ARG...'s standard output, which must be all there is, after exit 0 */
static char *help_of(int status)
{
	char *out = tree_get(".stdout"), *err = tree_get(".stderr");

	if (status || *err || !*out)
		fail_msg("want exit 0 and help on stdout; got exit %d, stdout '%s', stderr '%s'",
			 status, out, err);
	free(err);
	return out;
}

/* memtide help VERB and memtide VERB --help: that command's synopsis, options, example */
static void test_help_verb(void **state)
{
	static const char *const verbs[] = {
		"reclaim", "release", "status", "features", "hibernate", "resume", "idle",
		"criu-action",
	};
	char head[64];

	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++) {
		char *help = help_of(MEMTIDE("help", (char *)verbs[i])), *other;

		snprintf(head, sizeof(head), "Usage:\n memtide %s", verbs[i]);
		assert_has(help, (const char *[]){ head, "Options:", "--help", "Example:\n", NULL },
			   (const char *[]){ "--version", NULL });
		other = help_of(MEMTIDE((char *)verbs[i], "--help"));
		assert_string_equal(help, other);
		free(other);
		free(help);
	}
	/* its options, and what its arguments are; not the others' */
	char *help = help_of(MEMTIDE("help", "reclaim"));

	assert_has(help, (const char *[]){ "--swappiness", "--force", "--dry-run", "--timeout",
					   "power of two", "1.5G", "50%", "systemd.time(7)",
					   " memtide reclaim spot.slice 2G\n", "--user", "sshd.service",
					   "'app-*.scope'", NULL },
		   (const char *[]){ "--interval", "--depth", "--prepare-only", NULL });
	free(help);
	help = help_of(MEMTIDE("idle", "-h"));
	assert_has(help, (const char *[]){ "--interval", "--count", "100ms", NULL },
		   (const char *[]){ "--swappiness", "--json", "SIZE", "--user", NULL });
	free(help);
	/* --help before the other mistakes: no size, no target, an option it does not take */
	help = help_of(MEMTIDE("--help", "release"));
	assert_has(help, (const char *[]){ "Usage:\n memtide release", NULL }, NULL);
	free(help);
	help = help_of(MEMTIDE("status", "--force", "--help"));
	free(help);
}

/* every line of every help, the general one and each command's, fits 80 columns */
static void test_help_width(void **state)
{
	static const char *const topics[] = {
		"reclaim", "release", "status", "features", "hibernate", "resume", "idle",
		"criu-action", "help", NULL,
	};

	for (size_t i = 0; i < sizeof(topics) / sizeof(*topics); i++) {
		char *help = help_of(topics[i] ? MEMTIDE("help", (char *)topics[i]) :
					  MEMTIDE("--help"));

		for (char *line = help, *nl; *line; line = nl + 1) {
			nl = strchrnul(line, '\n');
			if (nl - line > 80)
				fail_msg("help %s: a line of %d columns: '%.*s'",
					 topics[i] ? topics[i] : "", (int)(nl - line),
					 (int)(nl - line), line);
			if (!*nl)
				break;
		}
		free(help);
	}
}

/* each command's --dry-run line is its own */
static void test_help_dry_run(void **state)
{
	char *help = help_of(MEMTIDE("help", "reclaim"));

	assert_has(help, (const char *[]){ "--dry-run", "written where", NULL },
		   (const char *[]){ "hibernate", "the plan", NULL });
	free(help);
	help = help_of(MEMTIDE("release", "--help"));
	assert_has(help, (const char *[]){ "--dry-run", "written where", NULL },
		   (const char *[]){ "hibernate", "the plan", NULL });
	free(help);
	help = help_of(MEMTIDE("help", "hibernate"));
	assert_has(help, (const char *[]){ "--dry-run", "the plan", NULL },
		   (const char *[]){ "reclaim", "written where", NULL });
	free(help);
}

/* memtide help alone is --help */
static void test_help_general(void **state)
{
	char *help = help_of(MEMTIDE("help")), *other = help_of(MEMTIDE("--help"));

	assert_string_equal(help, other);
	assert_has(help, (const char *[]){ " memtide help [COMMAND]", " memtide reclaim TARGET",
					   " memtide idle [", "--version", "--user", NULL }, NULL);
	free(other);
	/* help of help, which the synopsis lists: the same, exit 0 */
	other = help_of(MEMTIDE("help", "help"));
	assert_string_equal(help, other);
	free(other);
	other = help_of(MEMTIDE("help", "--help"));
	assert_string_equal(help, other);
	free(other);
	free(help);
}

/* help for what is not a command: exit 2, one line */
static void test_help_bad(void **state)
{
	assert_refused(MEMTIDE("help", "nosuch"), "memtide: unknown command 'nosuch'\n", true);
	assert_refused(MEMTIDE("nosuch", "--help"), "memtide: unknown command 'nosuch'\n", true);
	assert_refused(MEMTIDE("help", "reclaim", "release"),
		       "memtide: help takes one command at most\n", true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_amount, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amount_written, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_fraction, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_percent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_percent_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout_spans, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_progress_delay_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_progress_delay_env_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_stock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_unwritable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_json, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_forced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_root_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_misplaced_options, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_status_unreadable_parent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_verb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_general, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_width, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_dry_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help_bad, setup, teardown),
	};

	return cmocka_run_group_tests_name("reclaim and release: safe defaults", tests, NULL,
					   NULL);
}
