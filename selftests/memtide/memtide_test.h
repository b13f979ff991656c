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

/* Finds the cgroup2 root, runs every test as one TAP plan and exits with kselftest's status. */
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

/* Tells cgroup_with_child() that the calling child is ready; 0 or -1. */
int hog_ready(void);

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

/* Kills the hog (unless pid <= 0: reaped already), removes the cgroup, frees cg. */
void hogged_cgroup_destroy(char *cg, pid_t pid);

#endif
