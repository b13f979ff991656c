// SPDX-License-Identifier: GPL-2.0
/*
 * memtide hibernate and resume without systemd, against a fake tree, where it goes wrong:
 * a stop (Ctrl-C, --timeout) while shrinking, a hibernation that outlasts --timeout, a
 * release stopped after resume, a hibernation that fails. Each test runs the command in a child process.
 *
 *   root/ memory.stat
 *     a.slice/ memory.stat memory.reclaim memory.release
 *     b.slice/ memory.stat memory.reclaim memory.release
 *     c.slice/ memory.stat memory.reclaim memory.release
 *   units/                     (no drop-ins: each slice is shrunk, released a, b, c)
 *   state/prepared             (what `memtide resume` releases)
 *   power-state                (stands for /sys/power/state; tree_use())
 *
 * The memory.* files are plain files, which keep what memtide wrote; a test makes one a
 * full FIFO, on which a write blocks as a long reclaim or release does, or removes one.
 * The kernel is the memtide 6.12.117 fixture's (memory.reclaim "max", memory.release).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "dropin_cache.h"
#include "fake_bus.h"
#include "fake_tree.h"
#include "parse.h"
#include "plan.h"
#include "stop.h"

static const char *const slices[] = { "a.slice", "b.slice", "c.slice" };

static int setup(void **state)
{
	char path[PATH_MAX * 2];

	if (tree_create())
		return -1;
	tree_mkdir("root");
	tree_put("root/memory.stat", "anon 0\n");
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "root/%s", slices[i]);
		tree_mkdir(path);
		snprintf(path, sizeof(path), "root/%s/memory.stat", slices[i]);
		tree_put(path, "anon 0\n");
		snprintf(path, sizeof(path), "root/%s/memory.reclaim", slices[i]);
		tree_put(path, "");
		snprintf(path, sizeof(path), "root/%s/memory.release", slices[i]);
		tree_put(path, "");
	}
	tree_mkdir("units");
	tree_mkdir("state");
	tree_put("power-state", "");
	tree_use("memtide-6.12.117");
	return 0;
}

static int teardown(void **state)
{
	return tree_destroy();
}

/* The options of the command line, with --timeout TIMEOUT_MS if not NULL */
static struct options options(const int *timeout_ms)
{
	struct options o = { .amount = AMOUNT_MAX, .swappiness = -1, .depth = -1 };

	if (timeout_ms) {
		o.timeout_us = *timeout_ms * 1000ULL;
		o.deadline_us = now_us() + o.timeout_us;
	}
	return o;
}

/* ARG: the --timeout in ms, or NULL */
static int hibernate(void *arg)
{
	struct options o = options(arg);

	return cmd_hibernate(&o);
}

static int resume(void *arg)
{
	struct options o = options(arg);

	return cmd_resume(&o);
}

/*
 * Run FN(ARG) with REL a full FIFO, on which memtide's write blocks until a stop: SIGNO
 * 300 ms after the start, or else ARG's --timeout. Returns the exit status.
 */
static int run_blocked(const char *rel, int (*fn)(void *arg), void *arg, int signo)
{
	int fifo, status;
	pid_t pid;

	tree_fifo(rel);
	fifo = tree_fifo_fill(rel);
	pid = child_start(fn, arg);
	if (signo) {
		usleep(300000);
		kill(pid, signo);
	}
	status = child_wait(pid);
	close(fifo);
	return status;
}

/* every slice was released */
static void check_all_released(void)
{
	for (int i = 0; i < 3; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "root/%s/memory.release", slices[i]);
		tree_expect(path, "max");
	}
}

/* The cgroups the prepared list holds, in its order ("/b.slice /c.slice"; "-" if no list) */
static void check_prepared(const char *want)
{
	char path[PATH_MAX + 16], line[128], got[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/state/prepared", tree_dir);
	f = fopen(path, "re");
	if (!f)
		strcpy(got, "-");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", *got ? " " : "",
			 strchr(line, ' ') ? strchr(line, ' ') + 1 : line);
	}
	if (f)
		fclose(f);
	if (strcmp(got, want))
		fail_msg("the prepared list holds '%s', want '%s'", got, want);
}

/* standard error has a line containing WANT */
static void check_stderr(const char *want)
{
	char *err = tree_get(".stderr");

	if (!strstr(err, want))
		fail_msg("no '%s' on stderr: %s", want, err);
	free(err);
}

/*
 * Ctrl-C while b.slice is shrunk, after a.slice failed (no memory.reclaim): the merged exit
 * code says error, but a stop asked for never hibernates. The list stays for `memtide
 * resume`, and a line says so.
 */
static void test_stop_after_error(void **state)
{
	int status;

	tree_remove("root/a.slice/memory.reclaim");
	status = run_blocked("root/b.slice/memory.reclaim", hibernate, NULL, SIGINT);
	tree_expect("power-state", "");
	assert_int_equal(status, EXIT_ERROR);	/* a.slice's error ranks first */
	tree_expect("root/c.slice/memory.reclaim", "");
	tree_expect("root/a.slice/memory.release", "");
	check_prepared("/a.slice /b.slice /c.slice");
	check_stderr("memtide resume");
}

/* The same with --timeout ending b.slice's shrinking. */
static void test_timeout_after_error(void **state)
{
	int timeout_ms = 300, status;

	tree_remove("root/a.slice/memory.reclaim");
	status = run_blocked("root/b.slice/memory.reclaim", hibernate, &timeout_ms, 0);
	tree_expect("power-state", "");
	assert_int_equal(status, EXIT_ERROR);
	tree_expect("root/c.slice/memory.reclaim", "");
	check_prepared("/a.slice /b.slice /c.slice");
}

/*
 * A hibernation longer than --timeout (the power-state FIFO's write waits 1 s for a
 * reader): the timeout was for the shrinking; after resume every release runs, on its own
 * --timeout, and the list goes once all are done.
 */
static void test_long_hibernation(void **state)
{
	int timeout_ms = 500, power, status;
	char disk[8] = "";
	pid_t pid;

	tree_fifo("power-state");
	pid = child_start(hibernate, &timeout_ms);
	usleep(1000000);
	power = open(strcat(strcpy((char[PATH_MAX + 16]){ 0 }, tree_dir), "/power-state"),
		     O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	assert_true(power >= 0);
	status = child_wait(pid);
	assert_true(read(power, disk, sizeof(disk) - 1) == 4);
	close(power);
	assert_string_equal(disk, "disk");
	assert_int_equal(status, EXIT_DONE);
	check_all_released();
	check_prepared("-");
}

/*
 * After resume, --timeout stops b.slice's release: a.slice is released and off the list,
 * b.slice and c.slice stay on it for `memtide resume`.
 */
static void test_release_stopped(void **state)
{
	int timeout_ms = 500, status;

	status = run_blocked("root/b.slice/memory.release", hibernate, &timeout_ms, 0);
	tree_expect("power-state", "disk");
	assert_int_equal(status, EXIT_INTERRUPTED);
	tree_expect("root/a.slice/memory.release", "max");
	tree_expect("root/c.slice/memory.release", "");
	check_prepared("/b.slice /c.slice");
	check_stderr("memtide resume");
}

/*
 * memtide resume: a.slice fails (no memory.release), then --timeout stops b.slice. The
 * merged exit code says error; b.slice and c.slice stay on the list, a.slice (done with,
 * if badly) does not.
 */
static void test_resume_error_then_stop(void **state)
{
	int timeout_ms = 300, status;

	tree_put("state/prepared", "100 /a.slice\n100 /b.slice\n100 /c.slice\n");
	tree_remove("root/a.slice/memory.release");
	status = run_blocked("root/b.slice/memory.release", resume, &timeout_ms, 0);
	assert_int_equal(status, EXIT_ERROR);
	tree_expect("root/c.slice/memory.release", "");
	check_prepared("/b.slice /c.slice");
}

/*
 * The hibernation fails (no power-state file: its open fails as /sys/power/state's write
 * can, EBUSY or ENOMEM): what was shrunk is released as after a resume, the list goes, and
 * one line on stderr says both.
 */
static void test_hibernation_fails(void **state)
{
	char *err;
	int status;

	tree_remove("power-state");
	status = child_run(hibernate, NULL);
	assert_int_equal(status, EXIT_ERROR);
	check_all_released();
	check_prepared("-");
	err = tree_get(".stderr");
	if (strchr(err, '\n') != err + strlen(err) - 1 || !strstr(err, "hibernat") ||
	    !strstr(err, "released"))
		fail_msg("want one line saying hibernation failed and the slices were released: %s",
			 err);
	free(err);
}

static int prepare_only(void *arg)
{
	struct options o = options(NULL);

	o.prepare_only = true;
	return cmd_hibernate(&o);
}

/*
 * On a stock kernel every slice's figure is approximate, for the same reason: the flow says
 * so once, as one command, not once per slice (it shrank them as one; it ran a reclaim
 * command per slice, and said it three times). Each slice is still shrunk and said.
 */
static void test_stock_note_once(void **state)
{
	char *out, *err, *p;
	int notes = 0;

	tree_use("vanilla-perf-6.12.117");
	assert_int_equal(child_run(prepare_only, NULL), EXIT_DONE);
	out = tree_get(".stdout");
	err = tree_get(".stderr");
	for (p = err; (p = strstr(p, "memtide: note: approximate")); p++)
		notes++;
	if (notes != 1 || !strstr(out, "/a.slice: reclaimed") || !strstr(out, "/b.slice: reclaimed") ||
	    !strstr(out, "/c.slice: reclaimed"))
		fail_msg("want each slice's line and one note; stdout: %s; stderr: %s", out, err);
	free(out);
	free(err);
	check_prepared("/a.slice /b.slice /c.slice");
}

static int dry_run(void *arg)
{
	struct options o = options(NULL);

	o.dry_run = true;
	return cmd_hibernate(&o);
}

/*
 * With the system manager on the bus, a unit it has loaded for that cgroup has the drop-ins
 * it says (DropInPaths), wherever they are, one removed since skipped without a word; a
 * name it has loaded for another cgroup (a user manager's unit of the same name) or not at
 * all has those the directory search finds: here none (the host's search path). With
 * $MEMTIDE_UNIT_PATH, the search of those directories alone, and the bus is not asked.
 *   a.slice  loaded, DropInPaths: elsewhere/keep.conf (Shrink=never), a removed one -> kept
 *   b.slice  loaded for /other.slice                                 -> shrunk
 *   c.slice  not loaded; units/c.slice.d/ says ReleasePriority=7     -> shrunk; with
 *            MEMTIDE_UNIT_PATH=units at priority 7, and a.slice shrunk
 */
static void test_dropins_of_the_manager(void **state)
{
	char keep[PATH_MAX * 2], gone[PATH_MAX * 2], units[PATH_MAX * 2], *out, *err;
	pid_t bus;
	int status;

	snprintf(keep, sizeof(keep), "%s/elsewhere/keep.conf", tree_dir);
	snprintf(gone, sizeof(gone), "%s/elsewhere/removed.conf", tree_dir);
	tree_mkdir("elsewhere");
	tree_put("elsewhere/keep.conf", "[X-Memtide]\nShrink=never\n");
	tree_mkdir("units/c.slice.d");
	tree_put("units/c.slice.d/memtide.conf", "[X-Memtide]\nReleasePriority=7\n");
	snprintf(units, sizeof(units), "%s", getenv("MEMTIDE_UNIT_PATH"));
	unsetenv("MEMTIDE_UNIT_PATH");
	bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", (struct fake_unit[]){
		{ "a.slice", "/a.slice", (const char *const[]){ keep, gone, NULL } },
		{ "b.slice", "/other.slice", NULL },
		{ 0 } });
	status = child_run(dry_run, NULL);
	out = tree_get(".stdout");
	err = tree_get(".stderr");
	if (status != EXIT_DONE || *err || !strstr(out, "kept by its [X-Memtide] policy: /a.slice") ||
	    strstr(out, "  /a.slice ") || !strstr(out, "  /b.slice ") ||
	    !strstr(out, "  /c.slice ") || strstr(out, "priority 7"))
		fail_msg("a.slice kept, b.slice and c.slice shrunk at 100; exit %d, got: %s%s",
			 status, out, err);
	free(out);
	free(err);
	tree_expect("system.log", "GetUnit a.slice\nControlGroup a.slice\nDropInPaths a.slice\n"
		    "GetUnit b.slice\nControlGroup b.slice\nGetUnit c.slice\n");
	/* the directories alone */
	tree_put("system.log", "");
	setenv("MEMTIDE_UNIT_PATH", units, 1);
	status = child_run(dry_run, NULL);
	fake_bus_stop(bus);
	out = tree_get(".stdout");
	if (status != EXIT_DONE || !strstr(out, "  /a.slice ") || !strstr(out, "priority 7"))
		fail_msg("MEMTIDE_UNIT_PATH: a.slice shrunk, c.slice at priority 7; got: %s", out);
	free(out);
	tree_expect("system.log", "");
}

/*
 * A manager that fails to say a loaded unit's DropInPaths: one warning, and the search for
 * that unit and the rest of the tree, the bus not asked again
 */
static void test_dropins_manager_fails(void **state)
{
	char keep[PATH_MAX * 2], *out, *err;
	pid_t bus;
	int status;

	snprintf(keep, sizeof(keep), "%s/elsewhere/keep.conf", tree_dir);
	tree_mkdir("elsewhere");
	tree_put("elsewhere/keep.conf", "[X-Memtide]\nShrink=never\n");
	unsetenv("MEMTIDE_UNIT_PATH");
	bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", (struct fake_unit[]){
		{ "a.slice", "/a.slice", (const char *const[]){ FAKE_BUS_FAIL, NULL } },
		{ "b.slice", "/b.slice", (const char *const[]){ keep, NULL } },
		{ 0 } });
	status = child_run(dry_run, NULL);
	fake_bus_stop(bus);
	out = tree_get(".stdout");
	err = tree_get(".stderr");
	if (status != EXIT_DONE || !strstr(out, "  /a.slice ") || !strstr(out, "  /b.slice ") ||
	    strcmp(err, "memtide: warning: the system manager did not answer on the system bus: "
			 "drop-ins are those the directory search finds\n"))
		fail_msg("both shrunk, one warning; exit %d, got: %s%s", status, out, err);
	free(out);
	free(err);
	tree_expect("system.log", "GetUnit a.slice\nControlGroup a.slice\nDropInPaths a.slice\n");
}

static int warnings;

static void count_warning(const char *warning)
{
	warnings++;
}

/*
 * Build a plan with CACHE: the bus's log of it is WANT, a.slice is kept by its drop-in if
 * KEPT, and WARNED warnings were given
 */
static void plan_asks_then(struct dropin_cache *cache, const char *want, bool kept,
			   int warned)
{
	struct cgroot root;
	struct plan plan;
	char err[256];
	bool a_kept = false;

	tree_put("system.log", "");
	warnings = 0;
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(plan_build_cached(&root, PLAN_HIBERNATE, &plan, count_warning, cache), 0);
	for (int i = 0; i < plan.n; i++)
		a_kept |= plan.e[i].kept && !strcmp(plan.e[i].path, "/a.slice");
	plan_free(&plan);
	cgroot_close(&root);
	tree_expect("system.log", want);
	assert_int_equal(a_kept, kept);
	assert_int_equal(warnings, warned);
}

static void plan_asks(struct dropin_cache *cache, const char *want)
{
	plan_asks_then(cache, want, true, 0);
}

/*
 * `memtide idle` plans every interval: the manager is asked about a unit's drop-ins once,
 * then only when it has loaded its units again (UnitsLoadTimestampMonotonic moved: a
 * daemon-reload), the unit has a new cgroup (started again), or the answer is older than
 * max_age_us. A name it has loaded for another cgroup (d.slice) is not asked again either;
 * one it has not loaded (c.slice) is asked every time. The connection is kept, and replaced
 * when it dies; one that does not answer the first question (a timeout) is closed with one
 * warning, and that plan's drop-ins are the directory search's. A manager without the
 * property is asked everything every time.
 */
static void test_idle_asks_once(void **state)
{
	static const char all[] = "Get UnitsLoadTimestampMonotonic\n"
		"GetUnit a.slice\nControlGroup a.slice\nDropInPaths a.slice\n"
		"GetUnit b.slice\nControlGroup b.slice\nDropInPaths b.slice\nGetUnit c.slice\n"
		"GetUnit d.slice\nControlGroup d.slice\n";
	static const char again[] = "Get UnitsLoadTimestampMonotonic\nGetUnit c.slice\n";
	struct dropin_cache cache = { 0 };
	char keep[PATH_MAX * 2];
	const struct fake_unit units[] = {
		{ "a.slice", "/a.slice", (const char *const[]){ keep, NULL } },
		{ "b.slice", "/b.slice", NULL },
		{ "d.slice", "/machine.slice/d.slice", NULL },
		{ 0 } };
	pid_t bus;

	snprintf(keep, sizeof(keep), "%s/elsewhere/keep.conf", tree_dir);
	tree_mkdir("elsewhere");
	tree_put("elsewhere/keep.conf", "[X-Memtide]\nShrink=never\n");
	tree_mkdir("root/d.slice");
	tree_put("root/d.slice/memory.stat", "anon 0\n");
	unsetenv("MEMTIDE_UNIT_PATH");
	tree_put("system.units-load", "1000\n");
	bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", units);
	plan_asks(&cache, all);
	/* the next interval: only the name not loaded; a.slice's drop-in still read */
	plan_asks(&cache, again);
	/* a daemon-reload */
	tree_put("system.units-load", "2000\n");
	plan_asks(&cache, all);
	/* b.slice stopped and started again: a new cgroup of that name */
	tree_rename("root/b.slice", "root/old");
	tree_mkdir("root/b.slice");
	tree_put("root/b.slice/memory.stat", "anon 0\n");
	plan_asks(&cache, "Get UnitsLoadTimestampMonotonic\n"
		  "GetUnit b.slice\nControlGroup b.slice\nDropInPaths b.slice\nGetUnit c.slice\n");
	/* answers too old */
	cache.max_age_us = 1;
	usleep(1000);
	plan_asks(&cache, all);
	cache.max_age_us = 0;
	plan_asks(&cache, again);
	/* the bus daemon restarted: the kept connection is dead, a new one asks everything */
	fake_bus_stop(bus);
	tree_remove("system.bus");
	bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", units);
	plan_asks(&cache, all);
	plan_asks(&cache, again);
	/* a manager too busy to answer: one warning, the directories (a.slice's is elsewhere) */
	tree_put("system.units-load", "slow\n");
	plan_asks_then(&cache, "Get UnitsLoadTimestampMonotonic\n", false, 1);
	/* a systemd without the property */
	tree_remove("system.units-load");
	plan_asks(&cache, all);
	plan_asks(&cache, all);
	fake_bus_stop(bus);
	dropin_cache_free(&cache);
}

/* the switch file, as an administrator may write it: on or off, as the hook reads it */
static void test_sleep_switch(void **state)
{
	static const char *const on[] = {
		"SLEEP_HOOK=yes\n", "SLEEP_HOOK=\"yes\"\n", "SLEEP_HOOK='yes'\n",
		"export SLEEP_HOOK=yes\n", "SLEEP_HOOK=yes # turned on\n", "SLEEP_HOOK=yes",
		"SLEEP_HOOK=no\nSLEEP_HOOK=yes\n", "  SLEEP_HOOK=yes\n", "\tSLEEP_HOOK=yes  \n",
		"# comment\nSLEEP_HOOK=\"yes\"\t# on\n", "export  SLEEP_HOOK='yes' #\n",
	};
	static const char *const off[] = {
		"SLEEP_HOOK=no\n", "SLEEP_HOOK=yes\nSLEEP_HOOK=no\n", "#SLEEP_HOOK=yes\n",
		"SLEEP_HOOK=yesno\n", "SLEEP_HOOK=\"yes\n", "SLEEP_HOOK=\n", "XSLEEP_HOOK=yes\n",
		"SLEEP_HOOK=yes#c\n", "SLEEP_HOOK = yes\n", "exportSLEEP_HOOK=yes\n",
		"SLEEP_HOOK=\"yes'\n", "",
	};
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/default-memtide", tree_dir);
	setenv("MEMTIDE_SLEEP_SWITCH", path, 1);
	for (size_t i = 0; i < sizeof(on) / sizeof(*on); i++) {
		tree_put("default-memtide", on[i]);
		if (!sleep_hook_on())
			fail_msg("off, want on: '%s'", on[i]);
	}
	for (size_t i = 0; i < sizeof(off) / sizeof(*off); i++) {
		tree_put("default-memtide", off[i]);
		if (sleep_hook_on())
			fail_msg("on, want off: '%s'", off[i]);
	}
	tree_remove("default-memtide");
	assert_false(sleep_hook_on());
	unsetenv("MEMTIDE_SLEEP_SWITCH");
}

/* nothing shrunk, nothing written to the power state, no list for `memtide resume` */
static void expect_untouched(void)
{
	for (int i = 0; i < 3; i++) {
		char rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "root/%s/memory.reclaim", slices[i]);
		tree_expect(rel, "");
	}
	tree_expect("power-state", "");
	check_prepared("-");
}

/*
 * Under systemd (faked: MEMTIDE_SYSTEMD=1), `memtide hibernate` is `systemctl hibernate`,
 * which the sleep hook prepares: with the hook off it refuses (exit 1), names the file it
 * read, and shrinks and hibernates nothing.
 */
static void test_hook_off_refused(void **state)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/default-memtide", tree_dir);
	setenv("MEMTIDE_SLEEP_SWITCH", path, 1);
	setenv("MEMTIDE_SYSTEMD", "1", 1);
	tree_put("default-memtide", "SLEEP_HOOK=no\n");
	assert_int_equal(child_run(hibernate, NULL), EXIT_ERROR);
	check_stderr("the sleep hook is off");
	check_stderr(path);
	tree_remove("default-memtide");
	assert_int_equal(child_run(hibernate, NULL), EXIT_ERROR);
	check_stderr(path);
	unsetenv("MEMTIDE_SYSTEMD");
	unsetenv("MEMTIDE_SLEEP_SWITCH");
	expect_untouched();
}

/*
 * Under systemd, with the sleep hook on: memtide asks logind to hibernate, as systemctl
 * would, on the system bus (a fake logind, fake_bus.h) when one answers, or runs
 * `systemctl hibernate` (a stand-in on PATH that logs its arguments) when none does.
 * Either way the sleep hook prepares; memtide itself shrinks nothing.
 */
static char *saved_path;

static void hook_on(void)
{
	char path[PATH_MAX + 16];

	saved_path = strdup(getenv("PATH"));
	snprintf(path, sizeof(path), "%s/default-memtide", tree_dir);
	setenv("MEMTIDE_SLEEP_SWITCH", path, 1);
	setenv("MEMTIDE_SYSTEMD", "1", 1);
	tree_put("default-memtide", "SLEEP_HOOK=yes\n");
	tree_mkdir("bin");
	tree_put("bin/systemctl", "#!/bin/sh\necho \"$*\" >>\"${0%/bin/*}/systemctl.log\"\n");
	snprintf(path, sizeof(path), "%s/bin/systemctl", tree_dir);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/bin:%s", tree_dir, getenv("PATH"));
	setenv("PATH", path, 1);
}

static void hook_off(void)
{
	setenv("PATH", saved_path, 1);
	free(saved_path);
	unsetenv("MEMTIDE_SYSTEMD");
	unsetenv("MEMTIDE_SLEEP_SWITCH");
}

/* Whether REL is there */
static bool tree_has(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	return access(path, F_OK) == 0;
}

/*
 * memtide hibernate with the sleep hook on and a fake logind on the system bus whose
 * Hibernate answers ERROR (NULL: accepts); its exit status
 */
static int hibernate_with_logind(const char *error)
{
	pid_t bus;
	int status;

	hook_on();
	fake_logind_error = error;
	bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", (struct fake_unit[]){ { 0 } });
	fake_logind_error = NULL;
	status = child_run(hibernate, NULL);
	fake_bus_stop(bus);	/* before any assertion: a failed one must not leave it running */
	return status;
}

static void test_logind_asked(void **state)
{
	assert_int_equal(hibernate_with_logind(NULL), EXIT_DONE);
	tree_expect("system.log", "Hibernate false\n");
	assert_false(tree_has("systemctl.log"));
	expect_untouched();
	hook_off();
}

static void test_logind_refuses(void **state)
{
	assert_int_equal(hibernate_with_logind("org.freedesktop.login1.SleepVerbNotSupported"),
			 EXIT_ERROR);
	check_stderr("memtide: logind refused to hibernate: Refused by the test.");
	/* systemctl would be refused alike: not tried */
	assert_false(tree_has("systemctl.log"));
	expect_untouched();
	hook_off();
}

/* any other error (logind masked, its activation failing): systemctl, as systemctl does */
static void test_logind_fails(void **state)
{
	assert_int_equal(hibernate_with_logind("org.freedesktop.systemd1.UnitMasked"), EXIT_DONE);
	tree_expect("system.log", "Hibernate false\n");
	tree_expect("systemctl.log", "hibernate\n");
	expect_untouched();
	hook_off();
}

static void test_no_logind(void **state)
{
	hook_on();
	/* tree_use(): the system bus's address points nowhere */
	assert_int_equal(child_run(hibernate, NULL), EXIT_DONE);
	tree_expect("systemctl.log", "hibernate\n");
	expect_untouched();
	hook_off();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stop_after_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout_after_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_hibernation, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resume_error_then_stop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hibernation_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sleep_switch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hook_off_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logind_asked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logind_refuses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logind_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_logind, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_note_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropins_of_the_manager, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dropins_manager_fails, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_asks_once, setup, teardown),
	};

	return cmocka_run_group_tests_name("hibernate", tests, NULL, NULL);
}
