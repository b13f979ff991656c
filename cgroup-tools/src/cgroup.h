/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup2 mount and the cgroups memtide acts on. Every cgroup a user names is opened
 * beneath a directory descriptor of the mount, and its files beneath the cgroup's, so no
 * argument can reach outside it. (The tree walk, cg_walk(), goes by path without following
 * symbolic links or entering another mount.)
 */
#ifndef MEMTIDE_CGROUP_H
#define MEMTIDE_CGROUP_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keyed.h"

struct cgroot {
	int fd;				/* O_PATH directory of the cgroup2 mount */
	char path[PATH_MAX];		/* where it is mounted */
};

/* A cgroup opened to act on; target.h resolves the words that name them */
struct target {
	const char *arg;		/* as the user wrote it, for messages */
	char path[PATH_MAX];		/* "/" for the root, else "/a/b" below the mount */
	int fd;				/* O_PATH directory of the cgroup */
};

/*
 * Find the cgroup2 mount through libcgroup ($MEMTIDE_CGROUP_ROOT overrides it: tests use a
 * fake tree, and a container may have cgroupfs elsewhere). On failure, writes why to ERR.
 * Returns 0, -ENOENT (no mount with the memory controller), -ENOTSUP (the memory
 * controller is on cgroup v1) or another -errno.
 */
int cgroot_open(struct cgroot *root, char *err, size_t errlen);
void cgroot_close(struct cgroot *root);

/* Open PATH ("/a/b", relative to the mount) as T, checking it is a memory cgroup. */
int target_open_path(const struct cgroot *root, const char *path, struct target *t,
		     char *err, size_t errlen);
void target_close(struct target *t);

/* Open FILE (a plain name) of the cgroup T with FLAGS. Returns an fd or -errno. */
int cg_open(const struct target *t, const char *file, int flags);
/* Read FILE of T into BUF (NUL-terminated). Returns its length or -errno. */
int cg_read(const struct target *t, const char *file, char *buf, size_t size);
/* Read a single-value file ("123" or "max" = UINT64_MAX). Returns 0 or -errno. */
int cg_read_u64(const struct target *t, const char *file, uint64_t *value);
/*
 * Read a flat-keyed file (memory.stat) into R. Returns 0 or -errno; -E2BIG when it has more
 * keys, or longer ones, than R holds (keyed.h).
 */
int cg_read_keyed(const struct target *t, const char *file, struct keyed *r);
/* What a cgroup holds: memory.current and memory.stat's anon, file and shmem (0 if unread). */
struct cg_usage {
	uint64_t current, anon, file, shmem;
	bool has_current;	/* false for the root, which has no memory.current */
	/*
	 * memory.stat's scan_pressure (memtide kernels): how deep reclaim caused by the
	 * cgroup's limits had to scan lately, 0-1000; false on a stock kernel.
	 */
	bool has_scan_pressure;
	uint64_t scan_pressure;
};
/*
 * Fill U; without memory.current (the root), current is anon + file. Returns 0, or the
 * -errno of reading memory.stat (then anon, file and shmem are 0, and no scan pressure).
 */
int cg_read_usage(const struct target *t, struct cg_usage *u);
/* The "some avg10" of memory.pressure, in hundredths of a percent; -errno if absent. */
int cg_read_pressure(const struct target *t, long *avg10_centi);

/*
 * Call FN for T's cgroup and every cgroup below it, parents before children, names in
 * order, DEPTH 0 for T. FN returning CG_WALK_SKIP skips the cgroups below that one; any
 * other nonzero return stops the walk and is returned. A mount inside the tree (a bind
 * mount of another cgroup) is not entered, nor is T if it is one.
 */
#define CG_WALK_SKIP 1
/*
 * The mount FD is on (statx()'s mount ID, else /proc/self/fdinfo's). Not st_dev, which every
 * cgroup2 mount and bind mount share. Returns 0, or -1 with errno set (ENOTSUP: neither says).
 */
int cg_mount_id(int fd, uint64_t *id);

typedef int (*cg_walk_fn)(const struct cgroot *root, const char *path, int depth, void *data);
int cg_walk(const struct cgroot *root, const char *path, cg_walk_fn fn, void *data);

/* Process ids in cgroup.procs of T. Returns the count (*PIDS malloc'ed) or -errno. */
int cg_procs(const struct target *t, int **pids);

#endif
