// SPDX-License-Identifier: GPL-2.0
/*
 * [X-Memtide] drop-ins: parsing, precedence between directories and files, bad files, and
 * the directories systemd reads a unit's drop-ins from (prefix, template, type, masking).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "policy.h"

#define DROPIN_TEST_MAX (64 * 1024)	/* policy.c's DROPIN_MAX */

static char dir[PATH_MAX], warnings[4096];

static void collect(const char *warning)
{
	strncat(warnings, warning, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	*strrchr(path, '/') = '\0';
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char path[PATH_MAX + 8];

	snprintf(dir, sizeof(dir), "/tmp/memtide-policy.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	char units[3 * PATH_MAX + 16];

	snprintf(units, sizeof(units), "%s/etc:%s/run:%s/lib", dir, dir, dir);
	setenv("MEMTIDE_UNIT_PATH", units, 1);
	mkdir(strcat(strcpy(path, dir), "/etc"), 0755);
	mkdir(strcat(strcpy(path, dir), "/run"), 0755);
	mkdir(strcat(strcpy(path, dir), "/lib"), 0755);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void test_defaults(void **state)
{
	struct policy p;

	policy_default(&p);
	assert_true(p.shrink_hibernate);
	assert_false(p.shrink_idle);
	assert_int_equal(p.release_priority, 100);
	assert_true(p.idle_threshold_us == 300000000ULL);
	assert_int_equal(p.sources, 0);
}

static void test_apply(void **state)
{
	struct policy p;
	char warn[256] = "";

	policy_default(&p);
	assert_int_equal(policy_apply_text("[Slice]\nMemoryMax=1G\nShrink=bogus\n\n"
					   "# comment\n[X-Memtide]\n; comment\n"
					   "  Shrink = idle hibernate \nReleasePriority=7\n"
					   "IdleThreshold=1m30s\n[Unit]\nShrink=never\n",
					   "a.conf", &p, warn, sizeof(warn)), 0);
	assert_true(p.shrink_idle && p.shrink_hibernate);
	assert_int_equal(p.release_priority, 7);
	assert_true(p.idle_threshold_us == 90000000ULL);
	assert_int_equal(p.sources, 1);
	assert_int_equal(policy_apply_text("[X-Memtide]\nShrink=never\n", "b.conf", &p, warn,
					   sizeof(warn)), 0);
	assert_false(p.shrink_idle || p.shrink_hibernate);
	assert_int_equal(p.release_priority, 7);
	assert_int_equal(policy_apply_text("[X-Memtide]\nShrink=both\n", "c.conf", &p, warn,
					   sizeof(warn)), 0);
	assert_true(p.shrink_idle && p.shrink_hibernate);
	/* a file without our section changes nothing and counts for nothing */
	assert_int_equal(policy_apply_text("[Slice]\nCPUWeight=10\n", "d.conf", &p, warn,
					   sizeof(warn)), 0);
	assert_int_equal(p.sources, 3);
}

static void test_bad(void **state)
{
	static const struct {
		const char *text, *warning;
	} cases[] = {
		{ "[X-Memtide]\nShrink=idle\nFoo=1\n", "bad.conf:3: unknown key 'Foo' in [X-Memtide]" },
		{ "[X-Memtide]\nShrink=sometimes\n", "bad.conf:2: invalid Shrink 'sometimes'" },
		{ "[X-Memtide]\nShrink=never idle\n", "bad.conf:2: invalid Shrink 'never idle'" },
		{ "[X-Memtide]\nShrink=\n", "bad.conf:2: invalid Shrink ''" },
		{ "\n\n[X-Memtide]\nReleasePriority=1001\n", "bad.conf:4: invalid ReleasePriority '1001'" },
		{ "[X-Memtide]\nReleasePriority=10K\n", "bad.conf:2: invalid ReleasePriority '10K'" },
		{ "[X-Memtide]\nReleasePriority=-1\n", "bad.conf:2: invalid ReleasePriority '-1'" },
		{ "[X-Memtide]\nIdleThreshold=0\n", "bad.conf:2: invalid IdleThreshold '0'" },
		{ "[X-Memtide]\nIdleThreshold=soon\n", "bad.conf:2: invalid IdleThreshold 'soon'" },
		{ "[X-Memtide]\nShrink idle\n", "bad.conf:2: expected Key=Value" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct policy p, before;
		char warn[256] = "";

		policy_default(&p);
		p.release_priority = 3;
		before = p;
		assert_int_equal(policy_apply_text(cases[i].text, "bad.conf", &p, warn,
						   sizeof(warn)), -EINVAL);
		assert_string_equal(warn, cases[i].warning);
		/* never half-applied: the good line before the bad one did not count either */
		assert_memory_equal(&p, &before, sizeof(p));
	}
}

static void test_load(void **state)
{
	struct policy base, p;

	/* /etc hides /lib's file of the same name; names apply in order across directories */
	put("lib/spot.slice.d/50-vendor.conf", "[X-Memtide]\nReleasePriority=1\nShrink=idle\n");
	put("etc/spot.slice.d/50-vendor.conf", "[X-Memtide]\nReleasePriority=2\n");
	put("run/spot.slice.d/60-run.conf", "[X-Memtide]\nIdleThreshold=10s\n");
	put("lib/spot.slice.d/10-base.conf", "[X-Memtide]\nReleasePriority=900\nShrink=both\n");
	put("etc/spot.slice.d/70-broken.conf", "[X-Memtide]\nReleasePriority=5\nShrink=maybe\n");
	put("etc/spot.slice.d/README", "[X-Memtide]\nShrink=never\n");
	warnings[0] = '\0';
	policy_default(&base);
	assert_int_equal(policy_load("spot.slice", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 2);	/* 10-base, then /etc's 50-vendor */
	assert_true(p.shrink_idle && p.shrink_hibernate);	/* from 10-base only */
	assert_true(p.idle_threshold_us == 10000000ULL);
	assert_int_equal(p.sources, 3);
	assert_non_null(strstr(warnings, "/etc/spot.slice.d/70-broken.conf:3: invalid Shrink 'maybe'; the file is ignored"));
	assert_int_equal((int)(strchr(warnings, '\n') - warnings + 1), (int)strlen(warnings));
	/* a unit without drop-ins: the defaults, no warning */
	warnings[0] = '\0';
	assert_int_equal(policy_load("other.slice", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_int_equal(p.sources, 0);
	assert_string_equal(warnings, "");
}

/* LINK in the tree is a symbolic link to TARGET */
static void link_to(const char *target, const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

/*
 * The drop-ins systemd applies to a unit (systemd.unit(5)): its own, its template's
 * (foo@.service.d), its prefixes' (app-web-.scope.d, app-.scope.d, the instance kept), and
 * its type's (scope.d); a file hides one of the same name in a later directory (the search
 * path's order first, then the more specific name), /dev/null masks, and the files apply
 * in name order whatever their directory.
 */
static void test_systemd_search(void **state)
{
	struct policy base, p;

	put("run/app-.scope.d/40-gen.conf", "[X-Memtide]\nReleasePriority=300\n");
	put("run/app-web-.scope.d/40-gen.conf", "[X-Memtide]\nReleasePriority=400\n");
	put("lib/scope.d/10-type.conf", "[X-Memtide]\nShrink=idle\nIdleThreshold=1min\n");
	put("etc/app-web-1.scope.d/05-own.conf", "[X-Memtide]\nIdleThreshold=2min\n");
	put("etc/other-web-1.scope.d/.hidden.conf", "[X-Memtide]\nReleasePriority=1\n");
	warnings[0] = '\0';
	policy_default(&base);
	assert_int_equal(policy_load("app-web-1.scope", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 400);	/* app-web-.scope.d's hides app-'s */
	assert_true(p.shrink_idle && !p.shrink_hibernate);	/* scope.d applies */
	assert_true(p.idle_threshold_us == 60000000ULL);	/* 10-type after 05-own */
	assert_int_equal(p.sources, 3);
	/* scope.d's file masked in an earlier directory: gone, the rest stays */
	put("etc/scope.d/keep", "");
	link_to("/dev/null", "etc/scope.d/10-type.conf");
	assert_int_equal(policy_load("app-web-1.scope", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_true(!p.shrink_idle && p.shrink_hibernate);
	assert_true(p.idle_threshold_us == 120000000ULL);
	assert_int_equal(p.sources, 2);
	/* a scope with no drop-in of its own or its prefixes': its type's only; hidden files never */
	assert_int_equal(policy_load("other-web-1.scope", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_int_equal(p.sources, 0);

	/* an instance: its template's, then the prefixes of both, the instance kept */
	put("lib/getty@.service.d/20-t.conf", "[X-Memtide]\nReleasePriority=20\n");
	put("run/foo-@x.service.d/30-i.conf", "[X-Memtide]\nReleasePriority=31\n");
	put("lib/foo-.service.d/32-p.conf", "[X-Memtide]\nIdleThreshold=3min\n");
	put("lib/foo-bar@.service.d/33-t.conf", "[X-Memtide]\nShrink=never\n");
	assert_int_equal(policy_load("getty@tty1.service", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 20);
	assert_int_equal(policy_load("foo-bar@x.service", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 31);
	assert_true(p.idle_threshold_us == 180000000ULL);
	assert_true(!p.shrink_idle && !p.shrink_hibernate);
	assert_int_equal(p.sources, 3);
	/* another instance of the template: not foo-@x's */
	assert_int_equal(policy_load("foo-bar@y.service", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_int_equal(p.sources, 2);

	/* a cgroup that is no unit: its own directory only, no type's */
	put("lib/slice.d/10-all.conf", "[X-Memtide]\nReleasePriority=7\n");
	put("lib/my-group.d/10-own.conf", "[X-Memtide]\nIdleThreshold=4min\n");
	assert_int_equal(policy_load("my-group", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_true(p.idle_threshold_us == 240000000ULL);
	assert_string_equal(warnings, "");
}

/* Asserts that cmd (a systemd-analyze unit-paths run) prints dirs, one a line, in order. */
static void assert_paths_equal(const char *cmd, const char *const *dirs)
{
	char line[PATH_MAX];
	size_t i = 0;
	FILE *f;

	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		assert_non_null(dirs[i]);
		assert_string_equal(dirs[i], line);
		i++;
	}
	assert_int_equal(pclose(f), 0);
	assert_null(dirs[i]);
}

/*
 * The built-in search path is the one systemd itself walks, in its order (which decides
 * which of two drop-ins of one name applies): checked against systemd-analyze of the host,
 * asked with no $SYSTEMD_UNIT_PATH, which would change its answer.
 */
static void test_default_search_path(void **state)
{
	if (system("command -v systemd-analyze >/dev/null"))
		skip();
	assert_paths_equal("env -u SYSTEMD_UNIT_PATH systemd-analyze unit-paths --system",
			   policy_system_unit_path);
}

/* A user manager's search path likewise, for a user and home that need not exist */
static void test_user_search_path(void **state)
{
	char **dirs;
	size_t i;

	if (system("command -v systemd-analyze >/dev/null"))
		skip();
	assert_int_equal(policy_user_unit_path(1000, "/home/x", &dirs), 0);
	assert_paths_equal("env -i HOME=/home/x XDG_RUNTIME_DIR=/run/user/1000 "
			   "$(command -v systemd-analyze) unit-paths --user",
			   (const char *const *)dirs);
	for (i = 0; dirs[i]; i++)
		free(dirs[i]);
	free(dirs);
	/* no home (no passwd entry): the directories of the home are left out, not made up */
	assert_int_equal(policy_user_unit_path(1000, NULL, &dirs), 0);
	for (i = 0; dirs[i]; i++) {
		assert_true(dirs[i][0] == '/' && strncmp(dirs[i], "/home", 5));
		free(dirs[i]);
	}
	assert_int_equal(i, 13);
	free(dirs);
}

/* A user manager's unit: the drop-ins of that manager's path, not of the system's */
static void test_user_dropins(void **state)
{
	char users[PATH_MAX + 8];
	struct policy base, p;

	snprintf(users, sizeof(users), "%s/user", dir);
	setenv("MEMTIDE_USER_UNIT_PATH", users, 1);
	mkdir(users, 0755);
	put("user/mail-2.scope.d/10-user.conf", "[X-Memtide]\nReleasePriority=42\n");
	put("etc/mail-2.scope.d/10-system.conf", "[X-Memtide]\nShrink=never\n");
	policy_default(&base);
	assert_int_equal(policy_load("mail-2.scope", 1000, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 42);
	assert_true(p.shrink_hibernate);
	assert_int_equal(p.sources, 1);
	/* and the system's unit of that name the system's */
	assert_int_equal(policy_load("mail-2.scope", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_false(p.shrink_hibernate);
	unsetenv("MEMTIDE_USER_UNIT_PATH");
}

/*
 * What root reads in a user's directories: a FIFO must not hang it, a link only masks, a
 * huge file is no policy; each is said once and the rest applies
 */
static void test_user_files(void **state)
{
	char users[PATH_MAX + 8], path[PATH_MAX * 2], big[DROPIN_TEST_MAX + 2];
	struct policy base, p;

	snprintf(users, sizeof(users), "%s/user2", dir);
	setenv("MEMTIDE_USER_UNIT_PATH", users, 1);
	mkdir(users, 0755);
	put("user2/web-3.scope.d/10-ok.conf", "[X-Memtide]\nReleasePriority=42\n");
	snprintf(path, sizeof(path), "%s/web-3.scope.d/20-fifo.conf", users);
	assert_int_equal(mkfifo(path, 0644), 0);
	put("secret.conf", "[X-Memtide]\nShrink=never\n");
	snprintf(path, sizeof(path), "%s/secret.conf", dir);
	link_to(path, "user2/web-3.scope.d/30-link.conf");
	memset(big, '#', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put("user2/web-3.scope.d/40-big.conf", big);
	warnings[0] = '\0';
	policy_default(&base);
	assert_int_equal(policy_load("web-3.scope", 1000, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 42);
	assert_true(p.shrink_hibernate);
	assert_non_null(strstr(warnings, "20-fifo.conf: not a regular file; ignored"));
	assert_non_null(strstr(warnings, "30-link.conf: a symbolic link in a user's directory"));
	assert_non_null(strstr(warnings, "40-big.conf: larger than 64 KiB; ignored"));
	/* the same link in a system directory is followed, as systemd follows it */
	put("etc/web-3.scope.d/keep", "");
	link_to(path, "etc/web-3.scope.d/30-link.conf");
	assert_int_equal(policy_load("web-3.scope", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_false(p.shrink_hibernate);
	/* a link to /dev/null masks, in a user's directory too */
	link_to("/dev/null", "user2/web-3.scope.d/10-ok.conf");
	warnings[0] = '\0';
	assert_int_equal(policy_load("web-3.scope", 1000, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 100);
	assert_null(strstr(warnings, "10-ok.conf"));
	unsetenv("MEMTIDE_USER_UNIT_PATH");
}

/*
 * No limit cuts the search short: a long instance name has hundreds of drop-in directories
 * (its template's and every prefix's of both, in each directory of the path), and a unit may
 * have more drop-ins than any fixed count; the most generic directory and the last file by
 * name are the ones a cut would lose.
 */
static void test_many_dirs_and_dropins(void **state)
{
	const char *unit = "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p@z.service";
	struct policy base, p;
	char rel[64];

	put("lib/service.d/50-type.conf", "[X-Memtide]\nReleasePriority=9\n");
	warnings[0] = '\0';
	policy_default(&base);
	assert_int_equal(policy_load(unit, POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 9);
	assert_int_equal(p.sources, 1);

	for (int i = 0; i < 100; i++) {
		snprintf(rel, sizeof(rel), "etc/many.socket.d/%02d-n.conf", i);
		put(rel, i == 99 ? "[X-Memtide]\nReleasePriority=99\n" :
				   "[X-Memtide]\nReleasePriority=1\n");
	}
	assert_int_equal(policy_load("many.socket", POLICY_SYSTEM, &base, &p, collect), 0);
	assert_int_equal(p.release_priority, 99);
	assert_int_equal(p.sources, 100);
	assert_string_equal(warnings, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_systemd_search),
		cmocka_unit_test(test_default_search_path),
		cmocka_unit_test(test_user_search_path),
		cmocka_unit_test(test_user_dropins),
		cmocka_unit_test(test_user_files),
		cmocka_unit_test(test_many_dirs_and_dropins),
	};

	return cmocka_run_group_tests_name("policy", tests, setup, teardown);
}
