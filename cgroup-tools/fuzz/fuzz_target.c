// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for target arguments (src/target.c target_expand()): paths, unit names,
 * patterns and pid:N, resolved against a fake cgroup tree made once in a temporary
 * directory (no bus: unit names and patterns are searched for in the tree, as without
 * systemd).
 * Whatever the argument, each target it resolves to is a directory inside the tree, named
 * by a normalised path; one that does not resolve has a one-line reason and no target.
 *
 *   ROOT/ a.slice/ b.service/   c.slice/   nomem/ (no memory.stat)   out -> /   link -> a.slice
 *   PROC/ 100/cgroup "0::/a.slice/b.service"   200/cgroup "0::/../.."
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "target.h"

static char base[PATH_MAX];
static struct cgroot root;

static void expect(int cond)
{
	if (!cond)
		abort();
}

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, rel);
	if (text) {
		f = fopen(path, "w");
		expect(f && fputs(text, f) >= 0 && !fclose(f));
	} else {
		expect(!mkdir(path, 0755));
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX * 2], err[256];

	snprintf(base, sizeof(base), "/tmp/memtide-fuzz-target.XXXXXX");
	expect(mkdtemp(base) != NULL);
	put("root", NULL);
	put("root/memory.stat", "");
	put("root/a.slice", NULL);
	put("root/a.slice/memory.stat", "");
	put("root/a.slice/b.service", NULL);
	put("root/a.slice/b.service/memory.stat", "");
	put("root/c.slice", NULL);
	put("root/c.slice/memory.stat", "");
	put("root/nomem", NULL);
	snprintf(path, sizeof(path), "%s/root/out", base);
	expect(!symlink("/", path));
	snprintf(path, sizeof(path), "%s/root/link", base);
	expect(!symlink("a.slice", path));
	put("proc", NULL);
	put("proc/100", NULL);
	put("proc/100/cgroup", "0::/a.slice/b.service\n");
	put("proc/200", NULL);
	put("proc/200/cgroup", "0::/../..\n");
	snprintf(path, sizeof(path), "%s/root", base);
	setenv("MEMTIDE_CGROUP_ROOT", path, 1);
	snprintf(path, sizeof(path), "%s/proc", base);
	setenv("MEMTIDE_PROC_ROOT", path, 1);
	setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/memtide-fuzz-bus", 1);
	expect(!cgroot_open(&root, err, sizeof(err)));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = malloc(size + 1), err[512], fdpath[64], real[PATH_MAX], want[PATH_MAX];
	struct target_list l = { 0 };
	ssize_t n;
	int ret;

	if (!arg)
		return 0;
	memcpy(arg, data, size);
	arg[size] = '\0';
	err[0] = '\0';
	ret = target_expand(&root, UNIT_MANAGER_SYSTEM, arg, &l, err, sizeof(err));
	if (ret)
		expect(ret < 0 && l.n == 0 && err[0] && !strchr(err, '\n'));
	else
		expect(l.n >= 1);
	for (int i = 0; i < l.n; i++) {
		const struct target *t = &l.t[i];

		/* a normalised path: "/" or "/x/y", no "." or ".." parts, no empty ones */
		expect(t->path[0] == '/' && !strstr(t->path, "//") && !strstr(t->path, "/./") &&
		       !strstr(t->path, "/../"));
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", t->fd);
		n = readlink(fdpath, real, sizeof(real) - 1);
		expect(n > 0);
		real[n] = '\0';
		/* the descriptor is the directory the path names, inside the tree */
		snprintf(want, sizeof(want), "%s%s", root.path, strcmp(t->path, "/") ? t->path : "");
		expect(!strcmp(real, want));
	}
	target_list_close(&l);
	free(arg);
	return 0;
}
