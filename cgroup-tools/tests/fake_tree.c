// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "fake_tree.h"
#include "stop.h"

char tree_dir[PATH_MAX];

int tree_create(void)
{
	snprintf(tree_dir, sizeof(tree_dir), "/tmp/memtide-test.XXXXXX");
	return mkdtemp(tree_dir) ? 0 : -1;
}

int tree_create_stock_box(void)
{
	if (tree_create())
		return -1;
	tree_mkdir("root");
	tree_put("root/memory.stat", "anon 0\n");
	tree_mkdir("root/box.slice");
	tree_put("root/box.slice/memory.stat", "anon 0\nfile 0\n");
	tree_put("root/box.slice/memory.current", "1048576\n");
	tree_put("root/box.slice/memory.reclaim", "");
	tree_put("root/box.slice/cgroup.procs", "");
	tree_use("vanilla-perf-6.12.117");
	return 0;
}

int tree_destroy(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree_dir);
	return system(cmd) ? -1 : 0;
}

void tree_mkdir(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

void tree_put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
}

static char *slurp(const char *path)
{
	char *text = NULL;
	size_t cap = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		fail_msg("%s: %m", path);
	/* the files hold no NUL: getdelim() reads them whole */
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	assert_non_null(text);
	return text;
}

char *tree_get(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	return slurp(path);
}

void tree_expect(const char *rel, const char *want)
{
	char *got = tree_get(rel);

	if (strcmp(got, want))
		fail_msg("%s holds '%s', want '%s'", rel, got, want);
	free(got);
}

char *fixture(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, rel);
	return slurp(path);
}

void tree_use(const char *kernel)
{
	static const char *const env[][2] = {
		{ "MEMTIDE_CGROUP_ROOT", "root" }, { "MEMTIDE_UNIT_PATH", "units" },
		{ "MEMTIDE_STATE_DIR", "state" }, { "MEMTIDE_PROC_ROOT", "proc" },
		{ "MEMTIDE_POWER_STATE", "power-state" },
	};
	char path[PATH_MAX * 2], *text;

	for (size_t i = 0; i < sizeof(env) / sizeof(*env); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree_dir, env[i][1]);
		setenv(env[i][0], path, 1);
	}
	/*
	 * a copy inside the tree, not the source's file: a test that drops privileges must still
	 * read it when the source lies in a directory only root may enter (dpkg-buildpackage run
	 * in a mktemp -d directory, as test_deb does)
	 */
	snprintf(path, sizeof(path), "%s/%s/features", FIXTURES, kernel);
	if (!access(path, F_OK)) {
		text = slurp(path);
		tree_put("features", text);
		free(text);
	} else {
		/* a stock kernel has none: not the one of a kernel used before */
		tree_remove("features");
	}
	snprintf(path, sizeof(path), "%s/features", tree_dir);
	setenv("MEMTIDE_FEATURES_FILE", path, 1);
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
	/* --user's bus: not the one of whoever runs the tests */
	setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/memtide-test-bus", 1);
}

void tree_rename(const char *from, const char *to)
{
	char old[PATH_MAX * 2], new[PATH_MAX * 2];

	snprintf(old, sizeof(old), "%s/%s", tree_dir, from);
	snprintf(new, sizeof(new), "%s/%s", tree_dir, to);
	assert_int_equal(rename(old, new), 0);
}

void tree_release(const char *release)
{
	static const char *const dirs[] = { "proc", "proc/sys", "proc/sys/kernel" };
	char path[PATH_MAX * 2], text[256];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree_dir, dirs[i]);
		if (mkdir(path, 0755))
			assert_int_equal(errno, EEXIST);
	}
	snprintf(text, sizeof(text), "%s\n", release);
	tree_put("proc/sys/kernel/osrelease", text);
}

void tree_release_of(const char *kernel)
{
	char rel[256], release[128];
	char *version;

	/* "Linux version 6.12.117-memtide (root@vm) ..." */
	snprintf(rel, sizeof(rel), "%s/uname", kernel);
	version = fixture(rel);
	assert_int_equal(sscanf(version, "Linux version %127s", release), 1);
	free(version);
	tree_release(release);
}

void tree_remove(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	if (unlink(path))
		assert_int_equal(errno, ENOENT);
}

void tree_fifo(const char *rel)
{
	char path[PATH_MAX * 2];

	tree_remove(rel);
	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	assert_int_equal(mkfifo(path, 0644), 0);
}

int tree_fifo_fill(const char *rel)
{
	char path[PATH_MAX * 2], block[4096] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tree_dir, rel);
	/* read-write: the open does not wait for a reader, and the contents stay */
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	assert_true(fd >= 0);
	while (write(fd, block, sizeof(block)) > 0 || write(fd, block, 1) > 0)
		;
	assert_int_equal(errno, EAGAIN);
	return fd;
}

pid_t child_start(int (*fn)(void *arg), void *arg)
{
	char path[PATH_MAX + 16], ready;
	int sync[2];
	pid_t pid;

	assert_int_equal(pipe(sync), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/.stdout", tree_dir);
		if (!freopen(path, "w", stdout))
			_exit(126);
		snprintf(path, sizeof(path), "%s/.stderr", tree_dir);
		if (!freopen(path, "w", stderr))
			_exit(126);
		stop_install();
		close(sync[0]);
		if (write(sync[1], "", 1) != 1)
			_exit(126);
		close(sync[1]);
		ready = (char)fn(arg);
		fflush(NULL);
		_exit((unsigned char)ready);
	}
	close(sync[1]);
	assert_int_equal(read(sync[0], &ready, 1), 1);
	close(sync[0]);
	return pid;
}

bool child_exited(pid_t pid, int *status)
{
	int wstatus;
	pid_t ret = waitpid(pid, &wstatus, WNOHANG);

	assert_true(ret >= 0);
	if (!ret)
		return false;
	*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	return true;
}

int child_wait(pid_t pid)
{
	int status;

	for (int i = 0; i < 2000; i++) {
		if (child_exited(pid, &status))
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("the command did not return within 20 s");
	return -1;
}

int child_run(int (*fn)(void *arg), void *arg)
{
	return child_wait(child_start(fn, arg));
}

int run_memtide(void *arg)
{
	char **argv = arg;
	int argc = 0;

	while (argv[argc])
		argc++;
	return memtide_main(argc, argv);
}
