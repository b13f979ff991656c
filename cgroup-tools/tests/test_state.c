// SPDX-License-Identifier: GPL-2.0
/* The record of each cgroup's last reclaim and release that memtide status shows. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "state.h"

static char dir[PATH_MAX];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/memtide-state.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("MEMTIDE_STATE_DIR", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void record(const char *cgroup, const char *op, enum op_status status, uint64_t bytes)
{
	struct op_result res = { .operation = op, .status = status };

	keyed_set(&res.r, strcmp(op, "reclaim") ? "released" : "reclaimed", bytes);
	state_record(cgroup, &res);
}

static void test_record_lookup(void **state)
{
	struct last_op last;

	assert_int_equal(state_lookup("/a", "reclaim", &last), -ENOENT);
	record("/a", "reclaim", OP_DONE, 4096);
	record("/a", "release", OP_PARTIAL, 8192);
	record("/b c", "reclaim", OP_INTERRUPTED, 1);
	assert_int_equal(state_lookup("/a", "reclaim", &last), 0);
	assert_string_equal(last.status, "done");
	assert_true(last.bytes == 4096 && last.when > 0);
	assert_int_equal(state_lookup("/a", "release", &last), 0);
	assert_string_equal(last.status, "partial");
	assert_true(last.bytes == 8192);
	/* a name with a space, and no confusion with a prefix of it */
	assert_int_equal(state_lookup("/b c", "reclaim", &last), 0);
	assert_string_equal(last.status, "interrupted");
	assert_int_equal(state_lookup("/b", "reclaim", &last), -ENOENT);
	/* a newer result replaces the old one; errors are not recorded */
	record("/a", "reclaim", OP_DONE, 1 << 20);
	record("/a", "reclaim", OP_ERROR, 5);
	assert_int_equal(state_lookup("/a", "reclaim", &last), 0);
	assert_true(last.bytes == 1 << 20);
}

/* The text of dir/last (malloc'ed; "" if there is none) */
static char *read_last(void)
{
	char file[PATH_MAX + 16], *text = calloc(1, 65536);
	FILE *f;

	snprintf(file, sizeof(file), "%s/last", dir);
	assert_non_null(text);
	f = fopen(file, "re");
	if (f) {
		size_t n = fread(text, 1, 65535, f);

		text[n] = '\0';
		fclose(f);
	}
	return text;
}

/* The names in dir, one string ("a b c "), for comparing what is there before and after */
static void dir_names(char *buf, size_t size)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t len = 0;

	assert_non_null(d);
	buf[0] = '\0';
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "stderr"))
			len += snprintf(buf + len, len < size ? size - len : 0, "%s ", e->d_name);
	closedir(d);
}

/*
 * Best effort: where the state directory cannot be made (below a regular file here), the
 * record is left out without a word, and nothing is written anywhere else: not in the
 * directory the file is in, not in the record of the directory that works
 */
static void test_unwritable(void **state)
{
	char blocker[PATH_MAX + 16], bad[PATH_MAX + 32], errs[PATH_MAX + 16];
	char before[4096], after[4096], *last_before, *last_after;
	int saved = dup(2), fd;
	struct last_op last;
	struct stat st;
	FILE *f;

	record("/kept", "reclaim", OP_DONE, 4096);
	snprintf(blocker, sizeof(blocker), "%s/file", dir);
	f = fopen(blocker, "w");
	assert_non_null(f);
	fputs("x", f);
	fclose(f);
	dir_names(before, sizeof(before));
	last_before = read_last();
	snprintf(bad, sizeof(bad), "%s/file/state", dir);
	snprintf(errs, sizeof(errs), "%s/stderr", dir);
	fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	setenv("MEMTIDE_STATE_DIR", bad, 1);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	record("/a", "reclaim", OP_DONE, 1);
	assert_int_equal(state_lookup("/a", "reclaim", &last), -ENOENT);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	setenv("MEMTIDE_STATE_DIR", dir, 1);
	assert_int_equal(stat(errs, &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(stat(blocker, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_size == 1);
	dir_names(after, sizeof(after));
	assert_string_equal(after, before);
	last_after = read_last();
	assert_string_equal(last_after, last_before);
	assert_int_equal(state_lookup("/kept", "reclaim", &last), 0);
	free(last_before);
	free(last_after);
	unlink(blocker);
	unlink(errs);
}

/* No list, as before a prepare (the tool drops it through state_prepared_done()). */
static void clear_prepared(void)
{
	char file[PATH_MAX + 16];

	snprintf(file, sizeof(file), "%s/prepared", dir);
	unlink(file);
}

static void free_list(char **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* A delegated user names cgroups: a name with a newline must not forge a line. */
static void test_names_are_one_line(void **state)
{
	static const char forger[] = "/p\nreclaim done 734003200 1 /victim";
	char *paths[] = { "/x\n1000 /victim", "/c\\d\x1b[2J" }, **got;
	int priorities[] = { 1, 2 };
	struct last_op last;

	record(forger, "reclaim", OP_DONE, 4096);
	assert_int_equal(state_lookup("/victim", "reclaim", &last), -ENOENT);
	assert_int_equal(state_lookup(forger, "reclaim", &last), 0);
	assert_true(last.bytes == 4096);
	/* and the prepared list: two cgroups, not three */
	assert_int_equal(state_save_prepared(paths, priorities, 2), 0);
	assert_int_equal(state_load_prepared(&got), 2);
	assert_string_equal(got[0], paths[0]);
	assert_string_equal(got[1], paths[1]);
	free_list(got, 2);
	clear_prepared();
}

/* Whether DIR holds a file whose name starts with PREFIX. */
static bool has_file(const char *prefix)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	bool found = false;

	while (d && (e = readdir(d)))
		found |= !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return found;
}

/* A list cut short (here by RLIMIT_FSIZE, as by a full /run) leaves the old one whole. */
static void test_prepared_atomic(void **state)
{
	char *old[] = { "/a.slice", "/b.slice" }, *big[200], **got;
	int priorities[200] = { 0 }, ret;
	struct rlimit saved, small = { .rlim_cur = 64, .rlim_max = RLIM_INFINITY };

	for (int i = 0; i < 200; i++)
		big[i] = "/c.slice";
	assert_int_equal(state_save_prepared(old, priorities, 2), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
	small.rlim_max = saved.rlim_max;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	ret = state_save_prepared(big, priorities, 200);
	setrlimit(RLIMIT_FSIZE, &saved);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(ret, -EFBIG);
	assert_int_equal(state_load_prepared(&got), 2);
	assert_string_equal(got[0], "/a.slice");
	assert_string_equal(got[1], "/b.slice");
	free_list(got, 2);
	assert_false(has_file("prepared."));	/* no temporary file left */
	/* a list that is written replaces the old one whole */
	assert_int_equal(state_save_prepared(big, priorities, 200), 0);
	assert_int_equal(state_load_prepared(&got), 200);
	free_list(got, 200);
	clear_prepared();
}

/* A release that is over takes its cgroup off the list, matched by name, not by its escape. */
static void test_prepared_done_escaped(void **state)
{
	char *paths[] = { "/a\nb", "/c\\d", "/a\\nb" }, **got;
	int priorities[] = { 1, 2, 3 };

	assert_int_equal(state_save_prepared(paths, priorities, 3), 0);
	assert_int_equal(state_prepared_done("/a\nb"), 0);
	assert_int_equal(state_load_prepared(&got), 2);
	assert_string_equal(got[0], "/c\\d");
	assert_string_equal(got[1], "/a\\nb");
	free_list(got, 2);
	assert_int_equal(state_prepared_done("/a\\nb"), 0);
	assert_int_equal(state_load_prepared(&got), 1);
	assert_string_equal(got[0], "/c\\d");
	free_list(got, 1);
	assert_false(has_file("prepared."));
	/* the last one: no list */
	assert_int_equal(state_prepared_done("/c\\d"), 0);
	assert_int_equal(state_load_prepared(&got), -ENOENT);
}

/* Where another user's records go; 0 if right, else which check failed. */
static int user_state_dirs(void)
{
	char buf[PATH_MAX];

	unsetenv("MEMTIDE_STATE_DIR");
	setenv("XDG_RUNTIME_DIR", "/run/user/65534", 1);
	if (state_dir(buf, sizeof(buf)) || strcmp(buf, "/run/user/65534/memtide"))
		return 1;
	/* empty is unset: not "/memtide" */
	setenv("XDG_RUNTIME_DIR", "", 1);
	if (state_dir(buf, sizeof(buf)) != -ENOENT)
		return 2;
	unsetenv("XDG_RUNTIME_DIR");
	if (state_dir(buf, sizeof(buf)) != -ENOENT)
		return 3;
	return 0;
}

static void test_state_dir(void **state)
{
	char buf[PATH_MAX];
	int status;
	pid_t pid;

	assert_int_equal(state_dir(buf, sizeof(buf)), 0);
	assert_string_equal(buf, dir);
	/* an empty MEMTIDE_STATE_DIR is no override */
	setenv("MEMTIDE_STATE_DIR", "", 1);
	setenv("XDG_RUNTIME_DIR", "", 1);
	if (geteuid() == 0) {
		assert_int_equal(state_dir(buf, sizeof(buf)), 0);
		assert_string_equal(buf, "/run/memtide");
		/* another user: in a child that drops root (no cmocka there) */
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534) ?
			      9 : user_state_dirs());
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	} else {
		assert_int_equal(user_state_dirs(), 0);
	}
	unsetenv("XDG_RUNTIME_DIR");
	setenv("MEMTIDE_STATE_DIR", dir, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_lookup),
		cmocka_unit_test(test_unwritable),
		cmocka_unit_test(test_state_dir),
		cmocka_unit_test(test_names_are_one_line),
		cmocka_unit_test(test_prepared_atomic),
		cmocka_unit_test(test_prepared_done_escaped),
	};

	return cmocka_run_group_tests_name("state", tests, setup, teardown);
}
