// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup2 mount, and cgroups and their files opened beneath it without leaving it
 * (reading them: cgroup_read.c; walking them: cgroup_walk.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libcgroup.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdbool.h>
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
 * The mount FD is on. Not st_dev: every cgroup2 mount, and every bind mount of a cgroup,
 * shares the one cgroup2 superblock, and so its st_dev. statx()'s STATX_MNT_ID is Linux 5.8;
 * before it (where open_walk() is most needed), /proc/self/fdinfo's mnt_id (3.15). Returns 0,
 * or -1 with errno set (ENOTSUP: neither says).
 */
int cg_mount_id(int fd, uint64_t *id)
{
	char path[64], line[128];
	struct statx stx;
	FILE *f;
	int ret = -1;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) && (stx.stx_mask & STATX_MNT_ID)) {
		*id = stx.stx_mnt_id;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	while (f && ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "mnt_id: %" SCNu64, id) == 1)
			ret = 0;
	if (f)
		fclose(f);
	if (ret)
		errno = ENOTSUP;
	return ret;
}

/*
 * REL (normalized: no "." or "..") opened below ROOTFD one component at a time, as
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV) would: a symbolic link is
 * ELOOP, a file ENOTDIR, another mount (a bind mount of a cgroup too) EXDEV. For where
 * openat2() is refused: kernels before 5.6, and seccomp filters that predate it (older
 * container runtimes' default profiles, which answer ENOSYS or EPERM for a system call they
 * do not know). Each component is checked on the descriptor opened, not by name again.
 * Returns an O_PATH descriptor, or -1 with errno set.
 */
static int open_walk(int rootfd, const char *rel)
{
	char copy[PATH_MAX], *save = NULL;
	uint64_t root_mnt, mnt;
	struct stat st;
	int fd;

	if (cg_mount_id(rootfd, &root_mnt))
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
		else if (cg_mount_id(next, &mnt))
			e = errno;
		else if (mnt != root_mnt)
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
	/* refused once, refused for good: status opens every cgroup of the tree */
	static bool no_openat2;

	t->fd = no_openat2 ? -1 :
		syscall(SYS_openat2, root->fd, rel[0] ? rel : ".", &how, sizeof(how));
	if (no_openat2 || (t->fd < 0 && (errno == ENOSYS || errno == EPERM))) {
		no_openat2 = true;
		t->fd = open_walk(root->fd, rel);
	}
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
