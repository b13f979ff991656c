// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
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

int cg_read(const struct target *t, const char *file, char *buf, size_t size)
{
	size_t len = 0;
	int fd = cg_open(t, file, O_RDONLY), ret = 0;

	if (fd < 0)
		return fd;
	while (len < size - 1) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return ret ? ret : (int)len;
}

int cg_read_u64(const struct target *t, const char *file, uint64_t *value)
{
	char buf[64];
	int ret = cg_read(t, file, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	buf[strcspn(buf, "\n")] = '\0';
	if (!strcmp(buf, "max")) {
		*value = UINT64_MAX;
		return 0;
	}
	return parse_size(buf, value) ? -EINVAL : 0;
}

int cg_read_keyed(const struct target *t, const char *file, struct keyed *r)
{
	char buf[8192];
	int ret = cg_read(t, file, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	/* a full buffer may be a file cut short: its last keys would look absent */
	if (ret == sizeof(buf) - 1)
		return -E2BIG;
	ret = keyed_parse(buf, r);
	return ret < 0 ? ret : 0;
}

int cg_read_usage(const struct target *t, struct cg_usage *u)
{
	struct keyed stat;
	int ret;

	memset(u, 0, sizeof(*u));
	ret = cg_read_keyed(t, "memory.stat", &stat);
	if (!ret) {
		keyed_get(&stat, "anon", &u->anon);
		keyed_get(&stat, "file", &u->file);
		keyed_get(&stat, "shmem", &u->shmem);
		u->has_scan_pressure = keyed_get(&stat, "scan_pressure", &u->scan_pressure);
	}
	u->has_current = !cg_read_u64(t, "memory.current", &u->current);
	if (!u->has_current)
		u->current = u->anon + u->file;
	return ret;
}

int cg_read_pressure(const struct target *t, long *avg10_centi)
{
	char buf[512];
	unsigned int whole, frac;
	int ret = cg_read(t, "memory.pressure", buf, sizeof(buf));

	if (ret < 0)
		return ret;
	if (sscanf(buf, "some avg10=%u.%2u", &whole, &frac) != 2)
		return -EINVAL;
	*avg10_centi = whole * 100L + frac;
	return 0;
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/*
 * Not libcgroup's cgroup_walk_tree_*(): it resolves the base path against the mount table
 * libcgroup read from /proc/mounts, so it cannot walk a tree given by $MEMTIDE_CGROUP_ROOT
 * (tests, a cgroupfs mounted elsewhere), and it follows symbolic links (FTS_LOGICAL).
 */
int cg_walk(const struct cgroot *root, const char *path, cg_walk_fn fn, void *data)
{
	char start[PATH_MAX * 2];
	char *paths[] = { start, NULL };
	size_t mlen = strlen(root->path);
	FTSENT *e;
	FTS *fts;
	int ret = 0;

	snprintf(start, sizeof(start), "%s%s", root->path, strcmp(path, "/") ? path : "");
	fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV, by_name);
	if (!fts)
		return -errno;
	while (!ret && (e = fts_read(fts))) {
		const char *rel;

		if (e->fts_info == FTS_DNR || e->fts_info == FTS_ERR) {
			/* a cgroup removed while we walk is not an error */
			if (e->fts_errno == ENOENT)
				continue;
			ret = -e->fts_errno;
			break;
		}
		if (e->fts_info != FTS_D)
			continue;
		rel = e->fts_path + mlen;
		ret = fn(root, *rel ? rel : "/", e->fts_level, data);
		if (ret == CG_WALK_SKIP) {
			fts_set(fts, e, FTS_SKIP);
			ret = 0;
		}
	}
	fts_close(fts);
	return ret;
}

int cg_procs(const struct target *t, int **pids)
{
	int fd = cg_open(t, "cgroup.procs", O_RDONLY), *list = NULL, pid;
	size_t n = 0, cap = 0;
	FILE *f;

	if (fd < 0)
		return fd;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while (fscanf(f, "%d", &pid) == 1) {
		if (n == cap) {
			int *bigger = realloc(list, (cap = cap ? cap * 2 : 64) * sizeof(*list));

			if (!bigger) {
				free(list);
				fclose(f);
				return -ENOMEM;
			}
			list = bigger;
		}
		list[n++] = pid;
	}
	fclose(f);
	*pids = list;
	return (int)n;
}
