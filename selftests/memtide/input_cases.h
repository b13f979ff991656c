/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inputs whose fate is known, the corners of the kernel's parsers: the host checks that
 * input_model.c gives each its verdict (selftests/host/test_input_model.sh), and the guest
 * that the kernel does (test_bad_input), so the model the generated inputs are judged by is
 * the kernel's own behaviour.
 */
#ifndef INPUT_CASES_H
#define INPUT_CASES_H

#include <errno.h>

#include "input_model.h"

struct input_case {
	enum input_file file;
	const char *in;
	unsigned int len;	/* bytes of in to write (NULs and all) */
	int err;		/* 0: taken */
	unsigned long long value;	/* what it is taken as (for "max": ~0ULL) */
};

#define CASE(f, s, e, v) { f, s, sizeof(s) - 1, e, v }
static const struct input_case input_cases[] = {
	CASE(FILE_RECLAIM, "1G", 0, 1ULL << 30),
	CASE(FILE_RECLAIM, "max", 0, ~0ULL),
	CASE(FILE_RECLAIM, " max\n", 0, ~0ULL),
	CASE(FILE_RECLAIM, "\xa0" "1K", 0, 1024),	/* Latin-1 NBSP is a space in the kernel */
	CASE(FILE_RECLAIM, "0x10M", 0, 16ULL << 20),
	CASE(FILE_RECLAIM, "010", 0, 8),		/* octal */
	CASE(FILE_RECLAIM, "+1k", 0, 1024),
	CASE(FILE_RECLAIM, "1\nK", 0, 1024),		/* kstrtoull() takes one trailing \n */
	CASE(FILE_RECLAIM, "1G\0junk", 0, 1ULL << 30),	/* the kernel reads up to the NUL */
	CASE(FILE_RECLAIM, "15E", 0, 15ULL << 60),
	CASE(FILE_RECLAIM, "4K swappiness=200 swappiness=max", 0, 4096),
	CASE(FILE_RECLAIM, "08", -EINVAL, 0),
	CASE(FILE_RECLAIM, "0x", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1Q", -EINVAL, 0),
	CASE(FILE_RECLAIM, "K", -EINVAL, 0),
	CASE(FILE_RECLAIM, "MAX", -EINVAL, 0),
	CASE(FILE_RECLAIM, "max max", -EINVAL, 0),
	CASE(FILE_RECLAIM, " \t\n", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1G\tswappiness=60", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1G swappiness=201", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1G swappiness=+5", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1G swappiness=", -EINVAL, 0),
	CASE(FILE_RECLAIM, "1G swappiness=99999999999", -EINVAL, 0),
	CASE(FILE_RECLAIM, "16E", -ERANGE, 0),
	CASE(FILE_RECLAIM, "17179869184G", -ERANGE, 0),
	CASE(FILE_RECLAIM, "18446744073709551616", -ERANGE, 0),
	CASE(FILE_RECLAIM, "99999999999999999999x", -ERANGE, 0),	/* range before syntax */
	CASE(FILE_RELEASE, "max", 0, ~0ULL),
	CASE(FILE_RELEASE, "16M\n", 0, 16ULL << 20),
	CASE(FILE_RELEASE, "1G swappiness=60", -EINVAL, 0),
	CASE(FILE_RELEASE, "1G ", 0, 1ULL << 30),
	CASE(FILE_MM_RECLAIM, "256", 0, 256),
	CASE(FILE_MM_RECLAIM, "256\n", 0, 256),
	CASE(FILE_MM_RECLAIM, "+4", 0, 4),
	CASE(FILE_MM_RECLAIM, "0x10", 0, 16),
	CASE(FILE_MM_RECLAIM, " 256", -EINVAL, 0),
	CASE(FILE_MM_RECLAIM, "256 ", -EINVAL, 0),
	CASE(FILE_MM_RECLAIM, "-1", -EINVAL, 0),
	CASE(FILE_MM_RECLAIM, "4K", -EINVAL, 0),
	CASE(FILE_MM_RECLAIM, "18446744073709551616", -ERANGE, 0),
	CASE(FILE_SYSCTL, "500", 0, 500),
	CASE(FILE_SYSCTL, "-0", 0, 0),
	CASE(FILE_SYSCTL, "  7\n", 0, 7),
	CASE(FILE_SYSCTL, "0x10", 0, 16),
	CASE(FILE_SYSCTL, "5 junk", 0, 5),	/* text after a separator is ignored */
	CASE(FILE_SYSCTL, "00000000000000000005", 0, 5),	/* 20 characters: read whole */
	CASE(FILE_SYSCTL, "000000000000000000005", -EINVAL, 0),	/* 21: too long to judge */
	CASE(FILE_SYSCTL, "1001", -EINVAL, 0),
	CASE(FILE_SYSCTL, "-1", -EINVAL, 0),
	CASE(FILE_SYSCTL, "0x3e9", -EINVAL, 0),
	CASE(FILE_SYSCTL, "5x", -EINVAL, 0),
	CASE(FILE_SYSCTL, "5\0", -EINVAL, 0),
	CASE(FILE_SYSCTL, "-", -EINVAL, 0),
	CASE(FILE_SYSCTL, " ", -EINVAL, 0),
	CASE(FILE_SYSCTL, "99999999999", -EINVAL, 0),
};
#undef CASE

#endif
