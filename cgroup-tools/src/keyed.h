/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flat-keyed cgroup text ("key value" per line, cgroup-v2.rst's term): memory.stat,
 * cpu.stat, and the read-back of memory.reclaim and memory.release on the memtide kernel.
 */
#ifndef MEMTIDE_KEYED_H
#define MEMTIDE_KEYED_H

#include <stdbool.h>
#include <stdint.h>

/*
 * memory.stat has 65 keys on 6.12 (memtide adds scan_pressure) and grows with each kernel;
 * room for twice that. Text with more keys, or a longer key, is an error (-E2BIG), never
 * cut short: a key past the limit would look absent, as if the kernel had no such counter.
 */
#define KEYED_MAX 128
#define KEYED_KEY_LEN 64		/* with the NUL */

struct keyed {
	int n;
	struct {
		char key[KEYED_KEY_LEN];
		uint64_t value;		/* AMOUNT_MAX for "max" */
	} kv[KEYED_MAX];
};

/*
 * Parse TEXT; lines that are not "key <number|max>" are skipped. Returns the number of keys,
 * or -E2BIG (more than KEYED_MAX keys, or a key of KEYED_KEY_LEN characters or more).
 */
int keyed_parse(const char *text, struct keyed *r);
/* The value of KEY, or false if absent. */
bool keyed_get(const struct keyed *r, const char *key, uint64_t *value);
/* Set KEY (added if absent). Returns 0, or -E2BIG when R is full or KEY too long. */
int keyed_set(struct keyed *r, const char *key, uint64_t value);
/* strerror(-ERR), with keyed's -E2BIG said as what it means */
const char *keyed_strerror(int err);

#endif
