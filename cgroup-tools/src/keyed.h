/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flat-keyed cgroup text ("key value" per line): the read-back of memory.reclaim and
 * memory.release on the memtide kernel, memory.stat, memory.pressure's fields.
 */
#ifndef MEMTIDE_KEYED_H
#define MEMTIDE_KEYED_H

#include <stdbool.h>
#include <stdint.h>

#define KEYED_MAX 32

struct keyed {
	int n;
	struct {
		char key[32];
		uint64_t value;		/* AMOUNT_MAX for "max" */
	} kv[KEYED_MAX];
};

/* Parse TEXT; lines that are not "key <number|max>" are skipped. Returns the number of keys. */
int keyed_parse(const char *text, struct keyed *r);
/* The value of KEY, or false if absent. */
bool keyed_get(const struct keyed *r, const char *key, uint64_t *value);
/* Set KEY (added if absent). */
void keyed_set(struct keyed *r, const char *key, uint64_t value);
/* Add every key of FROM into INTO (sums; "max" stays max); elapsed_us and requested too. */
void keyed_add(struct keyed *into, const struct keyed *from);

#endif
