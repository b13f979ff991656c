// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keyed.h"
#include "parse.h"

int keyed_parse(const char *text, struct keyed *r)
{
	const char *line = text;

	memset(r, 0, sizeof(*r));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		char buf[96], key[32], value[40];
		size_t len = end ? (size_t)(end - line) : strlen(line);
		uint64_t v;

		if (len < sizeof(buf)) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			if (sscanf(buf, "%31s %39s", key, value) == 2 &&
			    (!strcmp(value, "max") || !parse_size(value, &v))) {
				if (!strcmp(value, "max"))
					v = AMOUNT_MAX;
				keyed_set(r, key, v);
			}
		}
		line = end ? end + 1 : NULL;
	}
	return r->n;
}

bool keyed_get(const struct keyed *r, const char *key, uint64_t *value)
{
	for (int i = 0; i < r->n; i++) {
		if (!strcmp(r->kv[i].key, key)) {
			*value = r->kv[i].value;
			return true;
		}
	}
	return false;
}

void keyed_set(struct keyed *r, const char *key, uint64_t value)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->kv[i].key, key))
			break;
	if (i == KEYED_MAX)
		return;
	if (i == r->n) {
		snprintf(r->kv[i].key, sizeof(r->kv[i].key), "%s", key);
		r->n++;
	}
	r->kv[i].value = value;
}

void keyed_add(struct keyed *into, const struct keyed *from)
{
	for (int i = 0; i < from->n; i++) {
		uint64_t old = 0, v = from->kv[i].value;

		if (keyed_get(into, from->kv[i].key, &old) && old != AMOUNT_MAX && v != AMOUNT_MAX)
			v += old;
		else if (old == AMOUNT_MAX)
			v = AMOUNT_MAX;
		keyed_set(into, from->kv[i].key, v);
	}
}
