// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "readback.h"

/*
 * Most keys are totals of what one write did (reclaimed, released, anon, file, shmem, slab,
 * resident, read, scanned, elapsed_us): the operation did the sum of its writes. These
 * others are not, and a sum of them would be a figure no write reported:
 */
static const struct {
	const char *key;
	bool first;	/* keep the first write's value; else take the last write's */
} not_totals[] = {
	/* what the user asked for: the first write's; a retry asks only for what is left */
	{ "requested", true },
	/* what is still in swap when the operation ends */
	{ "remaining", false },
	/*
	 * what a write found and left in swap (shared with a process outside, left by a
	 * signal, no room): each write looks again and counts what it leaves, so the last
	 * one says what stayed
	 */
	{ "skipped", false },
	{ "no_room", false },
};

int readback_merge(struct keyed *into, const struct keyed *once)
{
	for (int i = 0; i < once->n; i++) {
		const char *key = once->kv[i].key;
		uint64_t old, v = once->kv[i].value;
		bool had = keyed_get(into, key, &old), total = true;

		for (size_t j = 0; j < sizeof(not_totals) / sizeof(*not_totals); j++) {
			if (strcmp(key, not_totals[j].key))
				continue;
			total = false;
			if (had && not_totals[j].first)
				v = old;
		}
		/* "max" stays max */
		if (total && had)
			v = old == AMOUNT_MAX || v == AMOUNT_MAX ? AMOUNT_MAX : old + v;
		if (keyed_set(into, key, v))
			return -E2BIG;
	}
	return 0;
}

int readback_add(int fd, const char *done_key, struct keyed *into, uint64_t *done)
{
	struct keyed once;
	char buf[1024];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	*done = 0;
	if (n < 0)
		return 0;
	buf[n] = '\0';
	/* a full buffer may be a read-back cut short */
	if (n == sizeof(buf) - 1 || keyed_parse(buf, &once) < 0 || readback_merge(into, &once))
		return -E2BIG;
	keyed_get(&once, done_key, done);
	return 0;
}
