/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests that run memtide's commands share: a fake cgroup tree (plain files in a
 * temporary directory, for MEMTIDE_CGROUP_ROOT and friends), the kernel files of
 * tests/fixtures/, and a command's standard output. Each helper fails the test on error.
 */
#ifndef MEMTIDE_FAKE_TREE_H
#define MEMTIDE_FAKE_TREE_H

#include <limits.h>
#include <stddef.h>

/* the temporary directory; REL paths below are relative to it */
extern char tree_dir[PATH_MAX];

/* Make tree_dir. Returns 0 or -1 (a cmocka setup's return). */
int tree_create(void);
/* Remove tree_dir and everything in it. Returns 0 or -1. */
int tree_destroy(void);
void tree_mkdir(const char *rel);
/* Write TEXT to REL, replacing it. */
void tree_put(const char *rel, const char *text);
/* The text of REL (malloc'ed). */
char *tree_get(const char *rel);
/* The text of tests/fixtures/REL (malloc'ed), as the kernel wrote it. */
char *fixture(const char *rel);
/* Run FN(ARG) with standard output going to *OUT (malloc'ed); FN's return. */
int capture_stdout(int (*fn)(void *arg), void *arg, char **out);

#endif
