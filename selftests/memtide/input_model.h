/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel makes of a write to memtide's files, computed in user space from the
 * parsers' code (lib/kstrtox.c, lib/parser.c, kernel/sysctl.c, fs/kernfs/file.c and the
 * series' memory_reclaim_parse()/memory_release_parse()), so that test_bad_input can tell
 * an input the kernel must refuse, and with which errno, from one it must take. Each model
 * follows its kernel function step by step; where the model cannot be sure (a
 * "swappiness=" value match_token() could read either way), it says so.
 */
#ifndef INPUT_MODEL_H
#define INPUT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

enum input_verdict {
	INPUT_VALID,	/* the kernel takes it: value (and is_max) say what it read */
	INPUT_INVALID,	/* the kernel refuses it with err */
	INPUT_UNSURE,	/* the model cannot tell: not used by the test */
};

struct input_model {
	enum input_verdict verdict;
	int err;			/* -EINVAL, -ERANGE or -E2BIG when INPUT_INVALID */
	unsigned long long value;	/* bytes, pages or the sysctl's value when INPUT_VALID */
	bool is_max;			/* "max" (memory.reclaim, memory.release) */
};

/* The files memtide adds, as the models know them. */
enum input_file {
	FILE_RECLAIM,		/* a cgroup's memory.reclaim */
	FILE_RELEASE,		/* a cgroup's memory.release */
	FILE_MM_RECLAIM,	/* /sys/power/mm_reclaim/run or /release */
	FILE_SYSCTL,		/* vm.swapout_second_chance, 0 to 1000 */
};

/* The model of file f for a write of len bytes of buf. */
struct input_model model_input(enum input_file f, const char *buf, size_t len);

/* A write of len bytes of buf (any bytes, NULs too) to a cgroup's memory.reclaim. */
struct input_model model_memory_reclaim(const char *buf, size_t len);

/* The same for memory.release: an amount, no keys. */
struct input_model model_memory_release(const char *buf, size_t len);

/* The same for /sys/power/mm_reclaim/run and /release: kstrtoul(buf, 0) of the raw bytes. */
struct input_model model_mm_reclaim(const char *buf, size_t len);

/* The same for a proc_dointvec_minmax() sysctl of the range [min, max], written at offset 0. */
struct input_model model_sysctl_int(const char *buf, size_t len, int min, int max);

#endif
