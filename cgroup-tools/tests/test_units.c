// SPDX-License-Identifier: GPL-2.0
/*
 * Unit names as systemctl takes them, run as a user runs memtide (memtide_main() in a child
 * process), with the system manager and the user's manager stood in for by fake_bus.h:
 * sshd is sshd.service, a pattern stands for every loaded unit it matches, a template's
 * instance is a unit, --user asks the user's manager, and a unit a manager has not loaded
 * is looked for in the tree, below user@UID.service too.
 *
 *   root/ memory.stat
 *     legacy/                       a cgroup without a unit's name (legacy.service is loaded)
 *     system.slice/
 *       sshd.service/  idle.service/ (left behind: idle.service is loaded, not running)
 *       legacy.service/
 *       system-getty.slice/ getty@tty1.service/ getty@tty2.service/
 *     decoy.slice/ sshd.service/ web.service/    (the tree alone cannot tell these apart)
 *     user.slice/ user-1000.slice/ user@1000.service/
 *       app.slice/ app-firefox-42.scope/ web.service/ dup.service/
 *       session.slice/ dup.service/
 *   Every cgroup has memory.stat and memory.reclaim (plain files keep what is written).
 *
 *   system bus: sshd.service, idle.service (no cgroup), legacy.service, getty@tty1.service,
 *               getty@tty2.service, system.slice, user.slice, user@1000.service
 *   user bus:   web.service, app.slice
 * Each logs the calls it answers (system.log, user.log).
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

#include "fake_bus.h"
#include "fake_tree.h"

/* memtide ARG...: its exit status */
#define MEMTIDE(...) child_run(run_memtide, (char *[]){ "memtide", __VA_ARGS__, NULL })
/* memtide status of the targets ARG... alone, as JSON, which says which cgroups they are */
#define STATUS(...) MEMTIDE("status", "--json", "--depth", "0", __VA_ARGS__)

#define USER "user.slice/user-1000.slice/user@1000.service"
#define GETTY "system.slice/system-getty.slice/getty@"

static const char *const cgroups[] = {
	"legacy", "system.slice", "system.slice/sshd.service", "system.slice/idle.service",
	"system.slice/legacy.service", "system.slice/system-getty.slice", GETTY "tty1.service",
	GETTY "tty2.service",
	"decoy.slice", "decoy.slice/sshd.service", "decoy.slice/web.service",
	"user.slice", "user.slice/user-1000.slice", USER, USER "/app.slice",
	USER "/app.slice/app-firefox-42.scope", USER "/app.slice/web.service",
	USER "/app.slice/dup.service", USER "/session.slice", USER "/session.slice/dup.service",
};

static const struct fake_unit system_units[] = {
	{ "sshd.service", "/system.slice/sshd.service" },
	{ "idle.service", "" },
	{ "legacy.service", "/system.slice/legacy.service" },
	{ "getty@tty1.service", "/" GETTY "tty1.service" },
	{ "getty@tty2.service", "/" GETTY "tty2.service" },
	{ "system.slice", "/system.slice" },
	{ "user.slice", "/user.slice" },
	{ "user@1000.service", "/" USER },
	{ NULL, NULL },
};

static const struct fake_unit user_units[] = {
	{ "web.service", "/" USER "/app.slice/web.service" },
	{ "app.slice", "/" USER "/app.slice" },
	{ NULL, NULL },
};

static pid_t system_bus, user_bus;

static int setup(void **state)
{
	char rel[PATH_MAX];

	if (tree_create())
		return -1;
	tree_mkdir("root");
	tree_put("root/memory.stat", "anon 0\n");
	for (size_t i = 0; i < sizeof(cgroups) / sizeof(*cgroups); i++) {
		snprintf(rel, sizeof(rel), "root/%s", cgroups[i]);
		tree_mkdir(rel);
		snprintf(rel, sizeof(rel), "root/%s/memory.stat", cgroups[i]);
		tree_put(rel, "anon 0\nfile 0\n");
		snprintf(rel, sizeof(rel), "root/%s/memory.reclaim", cgroups[i]);
		tree_put(rel, "");
	}
	tree_use("memtide-6.12.117");
	system_bus = fake_bus_start("system", "DBUS_SYSTEM_BUS_ADDRESS", system_units);
	user_bus = fake_bus_start("user", "DBUS_SESSION_BUS_ADDRESS", user_units);
	return 0;
}

static int teardown(void **state)
{
	fake_bus_stop(system_bus);
	fake_bus_stop(user_bus);
	return tree_destroy();
}

/* No bus answers: the addresses point nowhere again */
static void no_bus(void)
{
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
	setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
}

/* Every "cgroup" string in J, at any depth, each after a space, into BUF */
static void collect_cgroups(json_object *j, char *buf, size_t size)
{
	if (json_object_is_type(j, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(j); i++)
			collect_cgroups(json_object_array_get_idx(j, i), buf, size);
	} else if (json_object_is_type(j, json_type_object)) {
		json_object_object_foreach(j, key, value) {
			if (!strcmp(key, "cgroup") && json_object_is_type(value, json_type_string))
				snprintf(buf + strlen(buf), size - strlen(buf), " %s",
					 json_object_get_string(value));
			else
				collect_cgroups(value, buf, size);
		}
	}
}

/*
 * After `memtide status --json --depth 0 ...` exited with STATUS: exit 0 and the cgroups
 * WANT ("/a /b", in order) shown, nothing on stderr.
 */
static void assert_shown(int status, const char *want)
{
	char *out = tree_get(".stdout"), *err = tree_get(".stderr"), got[4096] = "";
	json_object *j = json_tokener_parse(out);

	if (j)
		collect_cgroups(j, got, sizeof(got));
	if (status || *err || !j || strcmp(got[0] ? got + 1 : got, want))
		fail_msg("want exit 0 and %s; got exit %d, cgroups '%s', stderr '%s'", want,
			 status, got[0] ? got + 1 : got, err);
	json_object_put(j);
	free(out);
	free(err);
}

/* After a command exited with STATUS: exit 1, and one line on stderr containing WANT */
static void assert_failed(int status, const char *want)
{
	char *err = tree_get(".stderr"), *nl = strchr(err, '\n');

	if (status != 1 || !nl || nl[1] || !strstr(err, want))
		fail_msg("want exit 1 and one line with '%s'; got exit %d, stderr '%s'", want,
			 status, err);
	free(err);
}

/* WANT is a line of the log of the bus NAME, or with WANT NULL that bus was never asked */
static void assert_asked(const char *name, const char *want)
{
	char rel[64], path[PATH_MAX * 2], line[256], *log;

	snprintf(rel, sizeof(rel), "%s.log", name);
	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	log = access(path, F_OK) ? strdup("") : tree_get(rel);
	snprintf(line, sizeof(line), "%s\n", want ? want : "");
	if (want ? !strstr(log, line) : !!*log)
		fail_msg("%s bus: want %s%s; it logged '%s'", name, want ? "the call " : "no call",
			 want ? want : "", log);
	free(log);
}

/* The system manager's units are found over the bus, where the tree alone is ambiguous */
static void test_system_bus(void **state)
{
	assert_shown(STATUS("sshd.service"), "/system.slice/sshd.service");
	assert_asked("system", "GetUnit sshd.service");
	/* loaded, not running: no cgroup, and the tree's leftover is not taken for it */
	assert_failed(STATUS("idle.service"), "not running");
}

/*
 * A unit the system manager has not loaded (a user session's scope, a unit of the user's
 * manager) is looked for in the tree, below user@1000.service too, as without a bus: the one
 * cgroup of that name; two are ambiguous; none, one line.
 */
static void test_unknown_to_manager(void **state)
{
	assert_shown(STATUS("app-firefox-42.scope"), "/" USER "/app.slice/app-firefox-42.scope");
	assert_asked("system", "GetUnit app-firefox-42.scope");
	assert_failed(STATUS("dup.service"), "2 cgroups have that name");
	assert_failed(STATUS("nosuch.service"), "no such unit");
}

/* --user: the units of the user's manager, over its bus (DBUS_SESSION_BUS_ADDRESS) */
static void test_user(void **state)
{
	assert_shown(STATUS("--user", "web.service"), "/" USER "/app.slice/web.service");
	assert_asked("user", "GetUnit web.service");
	assert_asked("system", NULL);
	/* the option anywhere, as the others */
	assert_shown(MEMTIDE("--user", "status", "--json", "--depth", "0", "app.slice"),
		     "/" USER "/app.slice");
	/* what the user's manager has not loaded: the tree, as for the system's */
	assert_shown(STATUS("--user", "getty@tty1.service"), "/" GETTY "tty1.service");
	assert_asked("user", "GetUnit getty@tty1.service");
}

/* --user without a user bus: the tree, and a message that says which bus was missing */
static void test_user_without_bus(void **state)
{
	no_bus();
	assert_shown(STATUS("--user", "app-firefox-42.scope"),
		     "/" USER "/app.slice/app-firefox-42.scope");
	assert_failed(STATUS("--user", "nosuch.service"), "no user bus");
}

/* A name without a type is a service, as systemctl reads it, unless a cgroup has that name */
static void test_service_implied(void **state)
{
	assert_shown(STATUS("sshd"), "/system.slice/sshd.service");
	assert_asked("system", "GetUnit sshd.service");
	assert_shown(STATUS("getty@tty2"), "/" GETTY "tty2.service");
	/* a cgroup at the top of the tree keeps its name: legacy.service is not asked for */
	assert_shown(STATUS("legacy"), "/legacy");
	/* types without a cgroup are not services */
	assert_failed(STATUS("multi-user.target"), "a target unit has no cgroup");
	assert_failed(STATUS("nosuch"), "nosuch.service");
	/* and without a bus, in the tree */
	no_bus();
	assert_shown(STATUS("getty@tty1"), "/" GETTY "tty1.service");
	/* what a unit name may not hold is escaped, as systemd names the unit and its cgroup */
	tree_mkdir("root/system.slice/my\\x20job.service");
	tree_put("root/system.slice/my\\x20job.service/memory.stat", "");
	assert_shown(STATUS("my job"), "/system.slice/my\\x20job.service");
}

/* A template's instance is a unit; the template itself has no cgroup */
static void test_templates(void **state)
{
	assert_shown(STATUS("getty@tty1.service"), "/" GETTY "tty1.service");
	assert_failed(STATUS("getty@.service"), "a template");
	no_bus();
	assert_shown(STATUS("getty@tty2.service"), "/" GETTY "tty2.service");
}

/*
 * A pattern is every loaded unit it matches (ListUnitsByPatterns), in name order; one the
 * manager has none of is matched in the tree; no match anywhere is one line, exit 1.
 */
static void test_patterns(void **state)
{
	assert_shown(STATUS("getty@tty?.service"),
		     "/" GETTY "tty1.service /" GETTY "tty2.service");
	assert_asked("system", "ListUnitsByPatterns getty@tty?.service");
	/* the decoy's sshd.service is not a loaded unit: only the manager's */
	assert_shown(STATUS("ssh*"), "/system.slice/sshd.service");
	assert_shown(STATUS("app-*.scope"), "/" USER "/app.slice/app-firefox-42.scope");
	assert_failed(STATUS("nomatch-*"), "no unit matches");
	/* loaded, but not running: nothing to act on, and the tree is not asked instead */
	assert_failed(STATUS("idle*"), "not running");
	assert_shown(STATUS("--user", "[w]eb.*"), "/" USER "/app.slice/web.service");
	assert_asked("user", "ListUnitsByPatterns [w]eb.*");
}

/* Without a bus, a pattern matches the names of the cgroups in the tree that are units' */
static void test_patterns_in_tree(void **state)
{
	no_bus();
	assert_shown(STATUS("getty@*"),
		     "/" GETTY "tty1.service /" GETTY "tty2.service");
	assert_shown(STATUS("*.scope", "legacy*"),
		     "/" USER "/app.slice/app-firefox-42.scope /system.slice/legacy.service");
	assert_failed(STATUS("nomatch-*"), "no unit matches");
}

/* reclaim acts on every match; a pattern without any is an error, and nothing is written */
static void test_pattern_reclaim(void **state)
{
	assert_int_equal(MEMTIDE("reclaim", "--quiet", "getty@*", "1M"), 0);
	tree_expect("root/" GETTY "tty1.service/memory.reclaim", "1048576");
	tree_expect("root/" GETTY "tty2.service/memory.reclaim", "1048576");
	tree_put("root/" GETTY "tty1.service/memory.reclaim", "");
	tree_put("root/" GETTY "tty2.service/memory.reclaim", "");
	assert_failed(MEMTIDE("reclaim", "getty@*", "nomatch-*", "1M"), "no unit matches");
	tree_expect("root/" GETTY "tty1.service/memory.reclaim", "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_system_bus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_to_manager, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_without_bus, setup, teardown),
		cmocka_unit_test_setup_teardown(test_service_implied, setup, teardown),
		cmocka_unit_test_setup_teardown(test_templates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_patterns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_patterns_in_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pattern_reclaim, setup, teardown),
	};

	return cmocka_run_group_tests_name("unit names", tests, NULL, NULL);
}
