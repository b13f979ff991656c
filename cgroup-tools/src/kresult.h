/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flat-keyed cgroup text ("key value" per line): the read-back of memory.reclaim and
 * memory.release on the memtide kernel, memory.stat, memory.pressure's fields.
 */
#ifndef MEMTIDE_KRESULT_H
#define MEMTIDE_KRESULT_H

#include <stdbool.h>
#include <stdint.h>

#define KRESULT_KEYS 32

struct kresult {
	int n;
	struct {
		char key[32];
		uint64_t value;		/* AMOUNT_MAX for "max" */
	} kv[KRESULT_KEYS];
};

/* Parse TEXT; lines that are not "key <number|max>" are skipped. Returns the number of keys. */
int kresult_parse(const char *text, struct kresult *r);
/* The value of KEY, or false if absent. */
bool kresult_get(const struct kresult *r, const char *key, uint64_t *value);
/* Set KEY (added if absent). */
void kresult_set(struct kresult *r, const char *key, uint64_t value);
/* Add every key of FROM into INTO (sums; "max" stays max); elapsed_us and requested too. */
void kresult_add(struct kresult *into, const struct kresult *from);

#endif
