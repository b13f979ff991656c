// SPDX-License-Identifier: GPL-2.0
/*
 * The hibernation plan over a fake tree with drop-ins:
 *
 *   /init.scope                    never (PID 1)
 *   /system.slice                  no drop-in: shrink
 *     db.service                   Shrink=never            -> system.slice is split
 *     web.service                                          -> shrunk, priority 100
 *       payload                    no memory controller: web.service is still shrunk whole
 *   /user.slice                    ReleasePriority=900     -> shrunk whole
 *     user-1000.slice
 *   /spot.slice                    Shrink=idle             -> kept
 *     batch.service                Shrink=hibernate, ReleasePriority=10 -> shrunk
 *     other.service                ReleasePriority=5 only: still Shrink=idle -> kept
 *   /nomem                         no memory controller    -> left alone
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "plan.h"

static char dir[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	/* mkdir -p of the directories on the way */
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (text) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	} else {
		mkdir(path, 0755);
	}
}

static int setup(void **state)
{
	static char root[PATH_MAX + 8], units[PATH_MAX + 8];
	static const char *const memory_cgroups[] = {
		"cg", "cg/init.scope", "cg/system.slice", "cg/system.slice/db.service",
		"cg/system.slice/web.service", "cg/user.slice", "cg/user.slice/user-1000.slice",
		"cg/spot.slice", "cg/spot.slice/batch.service", "cg/spot.slice/other.service",
	};
	char file[PATH_MAX];

	snprintf(dir, sizeof(dir), "/tmp/memtide-plan.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	for (size_t i = 0; i < sizeof(memory_cgroups) / sizeof(memory_cgroups[0]); i++) {
		snprintf(file, sizeof(file), "%s/memory.stat", memory_cgroups[i]);
		put(file, "anon 0\n");
	}
	put("cg/nomem", NULL);
	put("cg/system.slice/web.service/payload", NULL);
	put("units/other.service.d/prio.conf", "[X-Memtide]\nReleasePriority=5\n");
	put("units/db.service.d/memtide.conf", "[X-Memtide]\nShrink=never\n");
	put("units/user.slice.d/memtide.conf", "[X-Memtide]\nReleasePriority=900\n");
	put("units/spot.slice.d/memtide.conf", "[X-Memtide]\nShrink=idle\n");
	put("units/batch.service.d/memtide.conf",
	    "[X-Memtide]\nShrink=hibernate\nReleasePriority=10\n");
	snprintf(root, sizeof(root), "%s/cg", dir);
	snprintf(units, sizeof(units), "%s/units", dir);
	setenv("MEMTIDE_CGROUP_ROOT", root, 1);
	setenv("MEMTIDE_UNIT_PATH", units, 1);
	/* the drop-ins of the directories above, not of the host's system manager */
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void no_warning(const char *warning)
{
	fail_msg("unexpected warning: %s", warning);
}

static void test_plan(void **state)
{
	static const char *const want[] = {
		"/user.slice", "/system.slice/web.service", "/spot.slice/batch.service",
	};
	struct cgroot root;
	struct plan plan;
	char err[256];
	int order[32], n, kept = 0;

	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(plan_build(&root, PLAN_HIBERNATE, &plan, no_warning), 0);
	assert_int_equal(plan.n, 12);
	n = plan_release_order(&plan, order);
	assert_int_equal(n, 3);
	for (int i = 0; i < n; i++)
		assert_string_equal(plan.e[order[i]].path, want[i]);
	assert_int_equal(plan.e[order[0]].policy.release_priority, 900);
	assert_int_equal(plan.e[order[2]].policy.release_priority, 10);
	for (int i = 0; i < plan.n; i++) {
		if (!plan.e[i].kept)
			continue;
		kept++;
		assert_true(!strcmp(plan.e[i].path, "/system.slice/db.service") ||
			    !strcmp(plan.e[i].path, "/spot.slice") ||
			    !strcmp(plan.e[i].path, "/spot.slice/other.service"));
	}
	assert_int_equal(kept, 3);
	plan_free(&plan);
	cgroot_close(&root);
}

static void test_everything_kept(void **state)
{
	struct cgroot root;
	struct plan plan;
	char err[256], path[PATH_MAX * 2];
	int order[32];

	/* a root-level drop-in cannot exist (the root is no unit): hold every top slice */
	for (const char *s = "system.slice\0user.slice\0"; *s; s += strlen(s) + 1) {
		snprintf(path, sizeof(path), "units/%s.d/zz.conf", s);
		put(path, "[X-Memtide]\nShrink=never\n");
	}
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(plan_build(&root, PLAN_HIBERNATE, &plan, no_warning), 0);
	/* only batch.service, by its own drop-in, is left to shrink */
	assert_int_equal(plan_release_order(&plan, order), 1);
	assert_string_equal(plan.e[order[0]].path, "/spot.slice/batch.service");
	plan_free(&plan);
	cgroot_close(&root);
}

/*
 * The units below user@1000.service are that user's manager's: their drop-ins are those of
 * the user's search path, not of the system's, where a unit of the same name may have others
 */
static void test_user_manager_units(void **state)
{
	static const char *const scope =
		"/user.slice/user-1000.slice/user@1000.service/app.slice/app-web.scope";
	char users[PATH_MAX + 16], file[PATH_MAX * 2];
	struct cgroot root;
	struct plan plan;
	char err[256];
	int order[32], n;

	/* a memory controller in each cgroup on the way */
	for (const char *slash = strchr(scope + 1, '/');; slash = strchr(slash + 1, '/')) {
		int len = slash ? (int)(slash - scope) : (int)strlen(scope);

		snprintf(file, sizeof(file), "cg%.*s/memory.stat", len, scope);
		put(file, "anon 0\n");
		if (!slash)
			break;
	}
	put("units/app-web.scope.d/10-system.conf", "[X-Memtide]\nReleasePriority=3\n");
	put("user-units/app-web.scope.d/20-user.conf",
	    "[X-Memtide]\nShrink=hibernate\nReleasePriority=42\n");
	snprintf(users, sizeof(users), "%s/user-units", dir);
	setenv("MEMTIDE_USER_UNIT_PATH", users, 1);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	/* user.slice holds (test_everything_kept): the user's scope is shrunk by its own drop-in */
	assert_int_equal(plan_build(&root, PLAN_HIBERNATE, &plan, no_warning), 0);
	n = plan_release_order(&plan, order);
	assert_int_equal(n, 2);
	assert_string_equal(plan.e[order[0]].path, scope);
	assert_int_equal(plan.e[order[0]].policy.release_priority, 42);
	assert_int_equal(plan.e[order[0]].policy.sources, 1);
	plan_free(&plan);

	/*
	 * A user's drop-in cannot put the user before others: 950 is cut to its
	 * user@1000.service's 900 (user.slice's). And a cgroup named user@1000.service
	 * elsewhere (a delegated subtree's) is no user's manager: the user's drop-ins do not
	 * reach below it (spot.slice's Shrink=idle keeps it)
	 */
	put("user-units/app-web.scope.d/30-first.conf", "[X-Memtide]\nReleasePriority=950\n");
	put("cg/spot.slice/user@1000.service/memory.stat", "anon 0\n");
	put("cg/spot.slice/user@1000.service/app-web.scope/memory.stat", "anon 0\n");
	assert_int_equal(plan_build(&root, PLAN_HIBERNATE, &plan, no_warning), 0);
	n = plan_release_order(&plan, order);
	assert_int_equal(n, 2);
	assert_string_equal(plan.e[order[0]].path, scope);
	assert_int_equal(plan.e[order[0]].policy.release_priority, 900);
	assert_string_equal(plan.e[order[1]].path, "/spot.slice/batch.service");
	plan_free(&plan);
	cgroot_close(&root);
	unsetenv("MEMTIDE_USER_UNIT_PATH");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_everything_kept),
		cmocka_unit_test(test_user_manager_units),
	};

	return cmocka_run_group_tests_name("plan", tests, setup, teardown);
}
