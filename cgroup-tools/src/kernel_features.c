// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_features.h"

/* Whether comma-separated LIST contains WORD. */
static bool list_has(const char *list, size_t len, const char *word)
{
	size_t wlen = strlen(word);
	const char *p = list, *end = list + len;

	while (p < end) {
		const char *comma = memchr(p, ',', end - p);
		size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);

		if (n == wlen && !memcmp(p, word, n))
			return true;
		p += n + 1;
	}
	return false;
}

/*
 * The value of token KEY= in LINE (a line of the features file), as a pointer and length;
 * NULL if the line has no such token.
 */
static const char *token(const char *line, size_t line_len, const char *key, size_t *len)
{
	size_t klen = strlen(key);
	const char *p = line, *end = line + line_len;

	while (p < end) {
		const char *sp = memchr(p, ' ', end - p);
		size_t n = sp ? (size_t)(sp - p) : (size_t)(end - p);

		if (n > klen && !memcmp(p, key, klen) && p[klen] == '=') {
			*len = n - klen - 1;
			return p + klen + 1;
		}
		p += n + 1;
	}
	return NULL;
}

static void copy_list(char *dst, size_t size, const char *src, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

void features_parse(const char *text, struct features *f)
{
	const char *line = text;

	memset(f, 0, sizeof(*f));
	f->present = true;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line), n;
		const char *v;

		if (len > 15 && !memcmp(line, "memory.reclaim ", 15)) {
			if ((v = token(line, len, "amount", &n)))
				f->reclaim_max = list_has(v, n, "max");
			if ((v = token(line, len, "swappiness", &n)))
				f->swappiness_max = list_has(v, n, "max");
			if ((v = token(line, len, "result", &n))) {
				f->reclaim_readback = true;
				copy_list(f->reclaim_keys, sizeof(f->reclaim_keys), v, n);
			}
		} else if (len > 15 && !memcmp(line, "memory.release ", 15)) {
			f->release = true;
			if ((v = token(line, len, "result", &n))) {
				f->release_readback = true;
				copy_list(f->release_keys, sizeof(f->release_keys), v, n);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
}

int features_load(struct features *f)
{
	const char *path = getenv("MEMTIDE_FEATURES_FILE");
	char buf[4096];
	ssize_t len;
	int fd;

	memset(f, 0, sizeof(*f));
	fd = open(path ? path : FEATURES_FILE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	features_parse(buf, f);
	return 0;
}
