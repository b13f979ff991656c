// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_tree.h"

char tree_dir[PATH_MAX];

int tree_create(void)
{
	snprintf(tree_dir, sizeof(tree_dir), "/tmp/memtide-test.XXXXXX");
	return mkdtemp(tree_dir) ? 0 : -1;
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

char *fixture(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, rel);
	return slurp(path);
}

int capture_stdout(int (*fn)(void *arg), void *arg, char **out)
{
	char path[PATH_MAX + 8];
	int saved, fd, ret;

	snprintf(path, sizeof(path), "%s/.stdout", tree_dir);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	ret = fn(arg);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	*out = slurp(path);
	unlink(path);
	return ret;
}
