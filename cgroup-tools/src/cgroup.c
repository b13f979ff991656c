// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup2 mount, and cgroups and their files opened beneath it without leaving it
 * (reading them: cgroup_read.c; walking them: cgroup_walk.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"
#include "parse.h"

#define seterr(...) snprintf(err, errlen, __VA_ARGS__)

int cgroot_open(struct cgroot *root, char *err, size_t errlen)
{
	const char *override = getenv("MEMTIDE_CGROUP_ROOT");
	char *mount = NULL;
	struct statfs sfs;
	int ret;

	root->fd = -1;
	if (override) {
		snprintf(root->path, sizeof(root->path), "%s", override);
	} else {
		/* libcgroup reads /proc/mounts and each cgroup2 mount's cgroup.controllers */
		cgroup_set_loglevel(CGROUP_LOG_ERROR);
		ret = cgroup_init();
		if (!ret)
			ret = cgroup_get_subsys_mount_point("memory", &mount);
		if (ret) {
			seterr("cannot find the memory controller's mount: %s", cgroup_strerror(ret));
			return -ENOENT;
		}
		snprintf(root->path, sizeof(root->path), "%s", mount);
		free(mount);
	}
	/* "/sys/fs/cgroup/" and "/sys/fs/cgroup" are one mount: paths below are made from it */
	for (size_t len = strlen(root->path); len > 1 && root->path[len - 1] == '/'; len--)
		root->path[len - 1] = '\0';
	root->fd = open(root->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root->fd < 0) {
		ret = -errno;
		seterr("%s: %s", root->path, strerror(errno));
		return ret;
	}
	/*
	 * A v1 memory controller's mount is not cgroup2 and holds memory.limit_in_bytes, which
	 * cgroup2 never has: the second test holds for a tree given by $MEMTIDE_CGROUP_ROOT too
	 */
	if ((!override && (fstatfs(root->fd, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)) ||
	    !faccessat(root->fd, "memory.limit_in_bytes", F_OK, 0)) {
		seterr("the memory controller is mounted at %s as cgroup v1; memtide needs cgroup v2",
		       root->path);
		cgroot_close(root);
		return -ENOTSUP;
	}
	return 0;
}

void cgroot_close(struct cgroot *root)
{
	if (root->fd >= 0)
		close(root->fd);
	root->fd = -1;
}

/*
 * ARG as a path relative to the mount without "." or ".." components or repeated slashes,
 * written to REL ("" for the root). ".." is resolved lexically and may not climb above the
 * mount: -EXDEV. openat2(RESOLVE_BENEATH) checks again at open time.
 */
static int normalize(const struct cgroot *root, const char *arg, char *rel, size_t size)
{
	size_t mlen = strlen(root->path), len = 0;
	const char *p = arg;

	if (!strncmp(arg, root->path, mlen) && (arg[mlen] == '/' || arg[mlen] == '\0') &&
	    mlen > 1)
		p = arg + mlen;
	rel[0] = '\0';
	while (*p) {
		size_t n;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing, or "." */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;

			if (!len)
				return -EXDEV;
			slash = strrchr(rel, '/');
			len = slash ? (size_t)(slash - rel) : 0;
			rel[len] = '\0';
		} else {
			if (len + !!len + n + 1 > size)
				return -ENAMETOOLONG;
			if (len)
				rel[len++] = '/';
			memcpy(rel + len, p, n);
			len += n;
			rel[len] = '\0';
		}
		p += n;
	}
	return 0;
}

/*
 * REL (normalized: no "." or "..") opened below ROOTFD one component at a time, as
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV) would: a symbolic link is
 * ELOOP, a file ENOTDIR, another mount EXDEV. For where openat2() is refused: kernels before
 * 5.6, and seccomp filters that predate it (older container runtimes' default profiles, which
 * answer ENOSYS or EPERM for a system call they do not know). Returns an O_PATH descriptor,
 * or -1 with errno set.
 */
static int open_walk(int rootfd, const char *rel)
{
	char copy[PATH_MAX], *save = NULL;
	struct stat root_st, st;
	int fd;

	if (fstat(rootfd, &root_st))
		return -1;
	fd = openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	snprintf(copy, sizeof(copy), "%s", rel);
	for (char *c = strtok_r(copy, "/", &save); c && fd >= 0; c = strtok_r(NULL, "/", &save)) {
		/* O_PATH | O_NOFOLLOW opens a link itself, which fstat() then shows */
		int next = openat(fd, c, O_PATH | O_NOFOLLOW | O_CLOEXEC), e = 0;

		if (next < 0 || fstat(next, &st))
			e = errno;
		else if (S_ISLNK(st.st_mode))
			e = ELOOP;
		else if (!S_ISDIR(st.st_mode))
			e = ENOTDIR;
		else if (st.st_dev != root_st.st_dev)
			e = EXDEV;
		close(fd);
		fd = next;
		if (e) {
			if (next >= 0)
				close(next);
			errno = e;
			return -1;
		}
	}
	return fd;
}

int target_open_path(const struct cgroot *root, const char *path, struct target *t,
		     char *err, size_t errlen)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_NO_XDEV,
	};
	char rel[PATH_MAX];
	int ret = normalize(root, path, rel, sizeof(rel));

	t->fd = -1;
	if (ret == -EXDEV) {
		seterr("path leaves the cgroup2 mount %s", root->path);
		return ret;
	}
	if (ret) {
		seterr("%s", strerror(-ret));
		return ret;
	}
	snprintf(t->path, sizeof(t->path), "/%s", rel);
	t->fd = syscall(SYS_openat2, root->fd, rel[0] ? rel : ".", &how, sizeof(how));
	if (t->fd < 0 && (errno == ENOSYS || errno == EPERM))
		t->fd = open_walk(root->fd, rel);
	if (t->fd < 0) {
		ret = -errno;
		switch (errno) {
		case ENOENT:
			seterr("no such cgroup");
			break;
		case ENOTDIR:
			seterr("not a cgroup");
			break;
		case ELOOP:
			seterr("path goes through a symbolic link");
			break;
		case EXDEV:
			seterr("path leaves the cgroup2 mount %s", root->path);
			break;
		default:
			seterr("%s", strerror(errno));
		}
		return ret;
	}
	if (faccessat(t->fd, "memory.stat", F_OK, 0)) {
		seterr("not a memory cgroup (its parent's cgroup.subtree_control lacks +memory)");
		target_close(t);
		return -ENOTSUP;
	}
	return 0;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

int cg_open(const struct target *t, const char *file, int flags)
{
	int fd = openat(t->fd, file, flags | O_CLOEXEC | O_NOFOLLOW);

	return fd < 0 ? -errno : fd;
}
