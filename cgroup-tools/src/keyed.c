// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "keyed.h"
#include "parse.h"

/*
 * One line, "key value" with nothing after, into KEY and *V. Returns 1, 0 if it is no such
 * line, or -E2BIG for a key too long to keep.
 */
static int parse_line(const char *line, size_t len, char *key, uint64_t *v)
{
	size_t key_len = strcspn(line, " \t\n");
	const char *value = line + key_len;
	char buf[32];
	size_t value_len;

	if (!key_len || key_len >= len)
		return 0;
	value += strspn(value, " \t");
	value_len = len - (size_t)(value - line);
	while (value_len && strchr(" \t\r", value[value_len - 1]))
		value_len--;
	if (!value_len || value_len >= sizeof(buf) || memchr(value, ' ', value_len) ||
	    memchr(value, '\t', value_len))
		return 0;
	memcpy(buf, value, value_len);
	buf[value_len] = '\0';
	if (!strcmp(buf, "max"))
		*v = AMOUNT_MAX;
	else if (parse_size(buf, v))
		return 0;
	if (key_len >= KEYED_KEY_LEN)
		return -E2BIG;
	memcpy(key, line, key_len);
	key[key_len] = '\0';
	return 1;
}

int keyed_parse(const char *text, struct keyed *r)
{
	const char *line = text;

	memset(r, 0, sizeof(*r));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char key[KEYED_KEY_LEN];
		uint64_t v;
		int ret = parse_line(line, len, key, &v);

		if (ret < 0 || (ret && keyed_set(r, key, v)))
			return -E2BIG;
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

int keyed_set(struct keyed *r, const char *key, uint64_t value)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->kv[i].key, key))
			break;
	if (i == r->n) {
		if (i == KEYED_MAX || strlen(key) >= KEYED_KEY_LEN)
			return -E2BIG;
		snprintf(r->kv[i].key, sizeof(r->kv[i].key), "%s", key);
		r->n++;
	}
	r->kv[i].value = value;
	return 0;
}

const char *keyed_strerror(int err)
{
	return err == -E2BIG ? "more keys, or longer ones, than memtide holds" : strerror(-err);
}
