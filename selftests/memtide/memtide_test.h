/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by memtide's guest tests; cgroup_util.h (upstream's) does the cgroup file work. */
#ifndef MEMTIDE_TEST_H
#define MEMTIDE_TEST_H

#include <stddef.h>
#include <sys/types.h>

struct memtide_test {
	int (*fn)(const char *root);	/* returns KSFT_PASS, KSFT_FAIL or KSFT_SKIP */
	const char *name;
};
#define MEMTIDE_TEST(x) { x, #x }

/*
 * Finds the cgroup2 root, runs every test (or those MEMTIDE_TESTS names, space-separated) as
 * one TAP plan and exits with kselftest's status.
 */
int memtide_run_tests(const struct memtide_test *tests, size_t n);

/* Fills len bytes with xorshift output, so neither zswap nor hibernation can compress it. */
void fill_incompressible(char *buf, size_t len, unsigned long seed);

/* What hog() holds: anonymous memory and clean page cache of an unlinked file in the cwd. */
struct hog_spec {
	size_t anon;
	size_t file;
};

/*
 * cg_run_nowait() body: arg is a struct hog_spec * (valid in the child: it is forked). Fills
 * both incompressibly, makes the file's pages clean (fsync), says it is ready (see
 * wait_for_hog()) and sleeps until killed.
 */
int hog(const char *cgroup, void *arg);

/*
 * Arms a one-shot SIGALRM ms milliseconds from now whose handler does nothing and is installed
 * without SA_RESTART, so that a blocking write it lands in fails with EINTR; 0 or -1.
 */
int interrupt_after_ms(int ms);

/* The handler of interrupt_after_ms() alone, for a test that sends SIGALRM itself; 0 or -1. */
int catch_sigalrm(void);

/*
 * Creates root/name with one hog(spec) in it and waits until the hog holds all its memory.
 * Returns the cgroup's path (free it with hogged_cgroup_destroy()) or NULL.
 */
char *hogged_cgroup_create(const char *root, const char *name, struct hog_spec *spec, pid_t *pid);

/*
 * The same with any cg_run_nowait() body fn that calls hog_ready() once it holds its memory.
 * Tear down with hogged_cgroup_destroy() too.
 */
char *cgroup_with_child(const char *root, const char *name,
			int (*fn)(const char *cgroup, void *arg), void *arg, pid_t *pid);

/*
 * Starts fn in the existing cgroup cg (one another user made, say) and waits until it calls
 * hog_ready(); its pid, or -1 (nothing left running). hog() with a struct hog_spec is one.
 */
pid_t child_in(const char *cg, int (*fn)(const char *cgroup, void *arg), void *arg);

/* Tells cgroup_with_child() that the calling child is ready; 0 or -1. */
int hog_ready(void);

/*
 * What a checked_child() holds, each filled with fill_incompressible() under its own seed: anon
 * memory, a memfd mapped shared, tmpfs bytes of the file tmpfs_file (on a tmpfs the test
 * mounted) and page cache of the file cache_file (on the ext4 working directory). On SIGUSR1
 * it checks everything and exits: 0 intact and at most max_majflt major faults on the way,
 * 1 corrupted, 2 too many major faults, 3 setup failed. The files stay: the test removes them.
 */
struct checked_spec {
	size_t anon, memfd, tmpfs, cache;
	const char *tmpfs_file, *cache_file;
	long max_majflt;
};

/* cgroup_with_child() body; arg is a struct checked_spec *. */
int checked_child(const char *cgroup, void *arg);

/* Has the checked child check its memory; its exit status (0 good) or -1. */
int check_child(pid_t pid);

/* Pages of buf that do not hold fill_incompressible(buf, len, seed)'s data. */
size_t count_corrupt_pages(const char *buf, size_t len, unsigned long seed);

/* An input the kernel must refuse, and the errno it must refuse it with. */
struct bad_input {
	const char *in;
	int err;
};

/*
 * Writes each input to fd in one write(2); 0 if every one failed with its errno, else says
 * which did not and returns -1.
 */
int expect_refused(int fd, const struct bad_input *bad, size_t n);

/* Writes s to path in one write(); 0 or -errno. */
int write_string(const char *path, const char *s);

/* expect_refused() on a descriptor of path; 0 or -1. */
int refused_by_file(const char *path, const struct bad_input *bad, size_t n);

/* Mounts a 256M tmpfs at dir (made if missing), for tmpfs_file; 0 or -1. */
int tmpfs_mount(const char *dir);

/* Unmounts it (lazily) and removes dir. */
void tmpfs_umount(const char *dir);

/* The number a file (a sysctl, a one-value sysfs file) starts with, or -1. */
long read_long(const char *path);

/* The value of KEY in a "KEY VALUE" file (/proc/vmstat; "Key:" in /proc/meminfo), or -1. */
long proc_key_long(const char *path, const char *key);

/* Switches MGLRU on ("y") or off ("n"); returns 0, or -1 if the kernel has no MGLRU. */
int set_lru_gen(const char *on);

/* Whether MGLRU is on now (1, 0), or -1 if the kernel has no MGLRU. */
int lru_gen_is_on(void);

/* Kills the hog (unless pid <= 0: reaped already), removes the cgroup, frees cg. */
void hogged_cgroup_destroy(char *cg, pid_t pid);

#endif
