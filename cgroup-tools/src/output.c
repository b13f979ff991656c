// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "output.h"

/*
 * The length of the well-formed UTF-8 sequence at S (2 to 4), or 0: not one (a stray or
 * overlong byte, a surrogate, beyond U+10FFFF) or a C1 control, U+0080-U+009F.
 */
static size_t utf8_sequence(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte's range rules out overlong forms, surrogates and beyond U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	if (s[0] == 0xc2 && s[1] <= 0x9f)
		return 0;	/* C1: 0x9b is CSI to a terminal in 8-bit mode */
	return n;
}

/* The escapes of both: "\n" for a newline, ... */
static const char plain[] = "\a\b\t\n\v\f\r\\", named[] = "abtnvfr\\";

static char *escape(const char *s, char *buf, size_t len, bool utf8)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t used = 0;

	if (!len)
		return buf;
	while (*p) {
		const char *special = strchr(plain, *p);
		size_t in = utf8 && *p >= 0x80 ? utf8_sequence(p) : 0, out;
		char esc[5];

		if (in) {
			memcpy(esc, p, in);
			out = in;
		} else if (special) {
			esc[0] = '\\';
			esc[1] = named[special - plain];
			in = 1;
			out = 2;
		} else if (*p < 0x20 || *p >= 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			in = 1;
			out = 4;
		} else {
			esc[0] = (char)*p;
			in = 1;
			out = 1;
		}
		if (used + out >= len)
			break;
		memcpy(buf + used, esc, out);
		used += out;
		p += in;
	}
	buf[used] = '\0';
	return buf;
}

char *cescape(const char *s, char *buf, size_t len)
{
	return escape(s, buf, len, true);
}

char *cescape_ascii(const char *s, char *buf, size_t len)
{
	return escape(s, buf, len, false);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int cunescape(const char *s, char *buf, size_t len)
{
	size_t used = 0;

	for (; *s; s++) {
		char c = *s;

		if (c == '\\') {
			const char *special = s[1] ? strchr(named, s[1]) : NULL;

			if (special) {
				c = plain[special - named];
				s++;
			} else if (s[1] == 'x' && hex_digit(s[2]) >= 0 && hex_digit(s[3]) >= 0) {
				c = (char)(hex_digit(s[2]) << 4 | hex_digit(s[3]));
				if (!c)
					return -EINVAL;
				s += 3;
			} else {
				return -EINVAL;
			}
		}
		if (used + 1 >= len)
			return -ENAMETOOLONG;
		buf[used++] = c;
	}
	if (!len)
		return -ENAMETOOLONG;
	buf[used] = '\0';
	return 0;
}

int terminal_columns(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (env) {
		errno = 0;
		n = strtol(env, &end, 10);
		if (!errno && end != env && !*end && n > 0 && n <= 10000)
			return (int)n;
	}
	return 80;
}

size_t columns_of(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* The byte offset in S after its first COLS columns (a whole UTF-8 sequence each). */
static size_t after_columns(const char *s, size_t cols)
{
	size_t i = 0;

	while (s[i] && cols) {
		for (i++; ((unsigned char)s[i] & 0xc0) == 0x80; i++)
			;
		cols--;
	}
	return i;
}

void fit_line(char *line, size_t head, int columns)
{
	size_t max = columns > 1 ? (size_t)columns - 1 : 1, len = strlen(line), rest_cols;
	static const char dots[] = "...";

	if (head > len)
		head = len;
	if (columns_of(line, len) <= max)
		return;
	rest_cols = columns_of(line + head, len - head);
	if (rest_cols + strlen(dots) < max) {
		/* the end of the name, which tells cgroups apart better than its start */
		size_t keep = max - rest_cols - strlen(dots);
		size_t skip = after_columns(line, columns_of(line, head) - keep);

		memmove(line + strlen(dots), line + skip, len - skip + 1);
		memcpy(line, dots, strlen(dots));
		return;
	}
	line[after_columns(line, max)] = '\0';
}

int close_stdout(void)
{
	bool failed = ferror(stdout);
	int err;

	errno = 0;
	if (fclose(stdout))
		failed = true;
	err = errno;
	if (!failed || err == EPIPE)
		return 0;
	return err ? -err : -EIO;
}
