// SPDX-License-Identifier: GPL-2.0
/* Walking a cgroup tree, parents before children, names in order. */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

/*
 * Whether PATH is on the mount ROOT_MNT. FTS_XDEV alone cannot tell: it compares st_dev,
 * and a bind mount of a cgroup inside the tree has the same st_dev as the tree. -errno if
 * PATH cannot be looked at (ENOENT: removed while we walk).
 */
static int on_mount(const char *path, uint64_t root_mnt)
{
	struct statx stx;
	uint64_t mnt;
	int fd, ret;

	/* one statx() by path where it says the mount ID (5.8): a plan walks every cgroup */
	if (!statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &stx)) {
		if (stx.stx_mask & STATX_MNT_ID)
			return stx.stx_mnt_id == root_mnt;
	} else if (errno == ENOENT) {
		return -ENOENT;		/* removed while we walk */
	}
	/* else by a descriptor: cg_mount_id() falls back to /proc/self/fdinfo */
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = cg_mount_id(fd, &mnt) ? -errno : mnt == root_mnt;
	close(fd);
	return ret;
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
	uint64_t root_mnt;
	bool by_mount;
	FTSENT *e;
	FTS *fts;
	int ret = 0;

	/* without a mount ID (neither statx nor fdinfo says), FTS_XDEV is what is left */
	by_mount = !cg_mount_id(root->fd, &root_mnt);

	snprintf(start, sizeof(start), "%s%s", root->path, strcmp(path, "/") ? path : "");
	/*
	 * FTS_NOSTAT: the files of a cgroup (40-70 each) are not stat()ed, only what d_type says
	 * is a directory: the walk wants the directories alone, and a plan walks every cgroup
	 */
	fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV | FTS_NOSTAT, by_name);
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
		if (by_mount) {
			int on = on_mount(e->fts_accpath, root_mnt);

			if (on == -ENOENT)
				continue;
			if (on <= 0) {
				fts_set(fts, e, FTS_SKIP);
				if (on == 0)
					continue;
				ret = on;
				break;
			}
		}
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
