// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "parse.h"

/* Digits only (no sign, no spaces, no exponent: strtoull accepts all three). */
static int parse_digits(const char **s, uint64_t *value)
{
	const char *p = *s;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned int d = *p - '0';

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*s = p;
	*value = v;
	return 0;
}

int parse_uint(const char *s, uint64_t max, uint64_t *value)
{
	const char *p = s;
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_digits(&p, &v);
	if (err)
		return err;
	if (*p)
		return -EINVAL;
	if (v > max)
		return -ERANGE;
	*value = v;
	return 0;
}

/*
 * DIGITS or DIGITS.DIGITS at *S times SCALE, rounded down; *S moves past it. At most
 * PLACES digits after the point (FRACTION_DIGITS at most, so that their value times SCALE
 * fits 128 bits). Returns 0, -EINVAL (no digit first, none after the point), -EDOM (more
 * than PLACES after it) or -ERANGE (beyond 64 bits).
 */
static int parse_decimal(const char **s, uint64_t scale, int places, uint64_t *value)
{
	const char *p = *s;
	uint64_t whole, frac = 0, den = 1;
	unsigned __int128 v;
	int err = parse_digits(&p, &whole);

	if (err)
		return err;
	if (*p == '.') {
		if (!isdigit((unsigned char)*++p))
			return -EINVAL;
		for (int n = 0; isdigit((unsigned char)*p); p++, n++) {
			if (n == places)
				return -EDOM;
			frac = frac * 10 + (*p - '0');
			den *= 10;
		}
	}
	v = (unsigned __int128)whole * scale + (unsigned __int128)frac * scale / den;
	if (v > UINT64_MAX)
		return -ERANGE;
	*s = p;
	*value = (uint64_t)v;
	return 0;
}

/* parse_size(), and with FRACTION a decimal fraction before a K..E suffix ("1.5G") */
static int parse_bytes(const char *s, bool fraction, uint64_t *bytes)
{
	static const char suffixes[] = "KMGTPE";
	const char *p, *end, *suffix;
	int shift = 0, err;

	if (!s)
		return -EINVAL;
	end = s + strspn(s, "0123456789");
	if (fraction && *end == '.')
		end += 1 + strspn(end + 1, "0123456789");
	p = end;
	/* case does not matter anywhere in the suffix: 1G, 1g, 1GB, 1gb and 1GiB are one size */
	if (*p && (suffix = strchr(suffixes, toupper((unsigned char)*p)))) {
		shift = 10 * (int)(suffix - suffixes + 1);
		p++;
		if (!strcasecmp(p, "iB"))
			p += 2;
		else if (!strcasecmp(p, "B"))
			p++;
	} else if (!strcasecmp(p, "B")) {
		p++;
	}
	/* after the number, a suffix and nothing else; a fraction of a byte is none */
	if (*p || (!shift && memchr(s, '.', end - s)))
		return -EINVAL;
	p = s;
	err = parse_decimal(&p, 1ULL << shift, FRACTION_DIGITS, bytes);
	if (!err && p != end)
		err = -EINVAL;
	return err;
}

int parse_size(const char *s, uint64_t *bytes)
{
	return parse_bytes(s, false, bytes);
}

int parse_amount(const char *s, uint64_t *bytes)
{
	uint64_t v;
	int err;

	if (s && !strcmp(s, "max")) {
		*bytes = AMOUNT_MAX;
		return 0;
	}
	err = parse_bytes(s, true, &v);
	if (err)
		return err;
	/* 2^64 - 1 bytes is the sentinel of "max": written as a number, it is too large */
	if (v == AMOUNT_MAX)
		return -ERANGE;
	*bytes = v;
	return 0;
}

int parse_share(const char *s, uint32_t *ppm)
{
	const char *p = s;
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	/* percent times 10^4 is parts per million: 4 digits after the point, no more */
	err = parse_decimal(&p, 10000, SHARE_PLACES, &v);
	if (err == -EDOM) {
		/* malformed before too precise: DIGITS.DIGITS% and nothing else */
		const char *q = p + strspn(p, "0123456789");

		if (strcmp(q + 1 + strspn(q + 1, "0123456789"), "%"))
			err = -EINVAL;
	}
	if (!err && strcmp(p, "%"))
		err = -EINVAL;
	if (!err && v > SHARE_WHOLE)
		err = -ERANGE;
	if (err)
		return err;
	*ppm = (uint32_t)v;
	return 0;
}

uint64_t share_of(uint64_t total, uint32_t ppm)
{
	return (uint64_t)((unsigned __int128)total * ppm / SHARE_WHOLE);
}

/* a digit, or a dot before a digit (".5G"): "./a.slice" and ".." are paths */
static bool number_start(const char *s)
{
	return isdigit((unsigned char)s[0]) || (s[0] == '.' && isdigit((unsigned char)s[1]));
}

int looks_like_amount(const char *s)
{
	/* a sign alone or before a number ("-5M"): "-.slice" is systemd's root slice */
	return !*s || !strcmp(s, "max") || !strcmp(s, "%") || number_start(s) ||
	       ((*s == '+' || *s == '-') && (!s[1] || number_start(s + 1)));
}

static int parse_span(const char *s, bool zero_ok, uint64_t *usec)
{
	/* systemd.time(7)'s, but months and years: "5M" is a mistake, not five months */
	static const struct {
		const char *name;
		uint64_t usec;
	} units[] = {
		{ "usec", 1 }, { "us", 1 }, { "msec", 1000 }, { "ms", 1000 },
		{ "seconds", 1000000 }, { "second", 1000000 }, { "sec", 1000000 }, { "s", 1000000 },
		{ "minutes", 60000000 }, { "minute", 60000000 }, { "min", 60000000 },
		{ "m", 60000000 }, { "hours", 3600000000ULL }, { "hour", 3600000000ULL },
		{ "hr", 3600000000ULL }, { "h", 3600000000ULL }, { "days", 86400000000ULL },
		{ "day", 86400000000ULL }, { "d", 86400000000ULL }, { "weeks", 604800000000ULL },
		{ "week", 604800000000ULL }, { "w", 604800000000ULL },
	};
	static const char space[] = " \t";
	const char *p;
	uint64_t total = 0, v;
	int err;

	if (!s)
		return -EINVAL;
	for (p = s + strspn(s, space); *p; p += strspn(p, space)) {
		const char *end = p + strspn(p, "0123456789"), *unit;
		uint64_t scale = 0;

		if (*end == '.')
			end += 1 + strspn(end + 1, "0123456789");
		unit = end + strspn(end, space);
		for (size_t i = 0; !scale && i < sizeof(units) / sizeof(units[0]); i++) {
			size_t len = strlen(units[i].name);

			if (!strncmp(unit, units[i].name, len) && !isalpha((unsigned char)unit[len]) &&
			    unit[len] != '.') {
				scale = units[i].usec;
				unit += len;
			}
		}
		/* a bare number is seconds, as for timeout(1), when it is all there is */
		if (!scale && p == s + strspn(s, space) && !unit[strspn(unit, space)])
			scale = 1000000;
		else if (!scale)
			return -EINVAL;
		err = parse_decimal(&p, scale, FRACTION_DIGITS, &v);
		if ((!err && p != end) || err == -EDOM)
			err = -EINVAL;
		if (err)
			return err;
		if (total > UINT64_MAX - v)
			return -ERANGE;
		total += v;
		p = unit;
	}
	if (!total && (!zero_ok || p == s + strspn(s, space)))
		return -EINVAL;
	if (total > DURATION_MAX_US)
		return -ERANGE;
	*usec = total;
	return 0;
}

int parse_duration(const char *s, uint64_t *usec)
{
	return parse_span(s, false, usec);
}

int parse_delay(const char *s, uint64_t *usec)
{
	return parse_span(s, true, usec);
}

int parse_timeout(const char *s, uint64_t *usec)
{
	if (s && !strcmp(s, "infinity")) {
		*usec = 0;
		return 0;
	}
	return parse_duration(s, usec);
}

int parse_swappiness(const char *s, int *swappiness)
{
	const char *p = s;
	uint64_t v;

	if (s && !strcmp(s, "max")) {
		*swappiness = SWAPPINESS_MAX;
		return 0;
	}
	if (!s || parse_digits(&p, &v) || *p || v > 200)
		return -EINVAL;
	*swappiness = (int)v;
	return 0;
}

char *format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = -1;

	if (bytes < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
		return buf;
	}
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.1f %s", v, units[i]);
	return buf;
}

char *format_share(uint32_t ppm, char *buf, size_t len)
{
	char frac[8];

	/* the four decimals of the percent, less the zeros at their end */
	snprintf(frac, sizeof(frac), "%04u", ppm % 10000);
	for (int i = 3; i >= 0 && frac[i] == '0'; i--)
		frac[i] = '\0';
	snprintf(buf, len, "%u%s%s%%", ppm / 10000, *frac ? "." : "", frac);
	return buf;
}

char *format_duration(uint64_t usec, char *buf, size_t len)
{
	if (usec < 1000000)
		snprintf(buf, len, "%llu ms", (unsigned long long)(usec / 1000));
	else if (usec < 60000000)
		snprintf(buf, len, "%.1f s", usec / 1e6);
	else
		snprintf(buf, len, "%llu min %llu s", (unsigned long long)(usec / 60000000),
			 (unsigned long long)(usec / 1000000 % 60));
	return buf;
}
