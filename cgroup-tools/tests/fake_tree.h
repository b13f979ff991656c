/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests that run memtide's commands share: a fake cgroup tree (plain files in a
 * temporary directory, for MEMTIDE_CGROUP_ROOT and friends), the kernel files of
 * tests/fixtures/, and a command's standard output. Each helper fails the test on error.
 */
#ifndef MEMTIDE_FAKE_TREE_H
#define MEMTIDE_FAKE_TREE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* the temporary directory; REL paths below are relative to it */
extern char tree_dir[PATH_MAX];

/* Make tree_dir. Returns 0 or -1 (a cmocka setup's return). */
int tree_create(void);
/*
 * tree_create() with one cgroup as a stock kernel shows it: root/box.slice/ with memory.stat
 * (nothing in it), memory.current (1 MiB), memory.reclaim and an empty cgroup.procs, and
 * memtide pointed at the tree (tree_use() of the vanilla-perf-6.12.117 fixture, which has
 * no features file). Returns 0 or -1 (a cmocka setup's return).
 */
int tree_create_stock_box(void);
/* Remove tree_dir and everything in it. Returns 0 or -1. */
int tree_destroy(void);
void tree_mkdir(const char *rel);
/* Write TEXT to REL, replacing it. */
void tree_put(const char *rel, const char *text);
/* The text of REL (malloc'ed). */
char *tree_get(const char *rel);
/* REL holds exactly WANT, or the test fails naming both */
void tree_expect(const char *rel, const char *want);
/* The text of tests/fixtures/REL (malloc'ed), as the kernel wrote it. */
char *fixture(const char *rel);
/*
 * Point memtide at the tree: root/ is the cgroup2 mount, units/ holds the drop-ins, state/
 * memtide's records, proc/ stands for /proc and power-state for /sys/power/state. The
 * features file is a copy of the fixture KERNEL's (a stock kernel has none). No bus: the
 * system and the session bus addresses point nowhere (fake_bus.h starts one).
 */
void tree_use(const char *kernel);
/* rename() FROM to TO: a reader sees the old file or the new one, never half of one */
void tree_rename(const char *from, const char *to);
/*
 * The kernel release memtide reads (proc/sys/kernel/osrelease, as uname -r says it):
 * RELEASE, or with a fixture's name that kernel's (the third word of its uname file).
 */
void tree_release(const char *release);
void tree_release_of(const char *kernel);
/* Remove the file REL, if it is there. */
void tree_remove(const char *rel);
/* Make REL a FIFO (replacing a file). */
void tree_fifo(const char *rel);
/*
 * Fill the FIFO REL to the brim, so that a write to it blocks as a long reclaim or release
 * does. Returns the descriptor that keeps its contents; close it when done.
 */
int tree_fifo_fill(const char *rel);

/*
 * Run FN(ARG) in a child process, with memtide's stop handlers installed before this
 * returns (a signal may follow at once), standard output and error going to tree_dir's
 * .stdout and .stderr (tree_get() reads them), and FN's return as its exit status.
 */
pid_t child_start(int (*fn)(void *arg), void *arg);
/* Whether the child has exited; then its exit status in *STATUS (-1: killed by a signal). */
bool child_exited(pid_t pid, int *status);
/* Wait for the child, killing it after 20 s (a hang fails the test, never the suite). */
int child_wait(pid_t pid);
/* child_start() and child_wait() */
int child_run(int (*fn)(void *arg), void *arg);

/*
 * memtide_main() of ARG, a NULL-terminated argv, as child_run() calls FN: memtide as a user
 * runs it, its output in the tree's .stdout and .stderr
 */
int run_memtide(void *arg);

#endif
