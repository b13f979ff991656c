// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for what users type on memtide's command line (src/parse.c): sizes,
 * amounts, shares, durations, swappiness, plain numbers. Besides the sanitizers' own checks,
 * each parser must keep its promise: an error is -EINVAL or -ERANGE (or, for amounts and
 * shares, -EDOM: more digits after the point than they keep) and leaves nothing half
 * parsed, a success is in range, and what format_size()/format_duration() print of it fits
 * the buffer and ends in a NUL.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static void expect(int cond)
{
	if (!cond)
		abort();
}

static void expect_err(int ret)
{
	expect(ret == 0 || ret == -EINVAL || ret == -ERANGE);
}

/* amounts and shares: -EDOM too (a digit past what they keep, refused rather than rounded) */
static void expect_err_dom(int ret)
{
	if (ret != -EDOM)
		expect_err(ret);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), out[64];
	uint64_t v = 12345, size_v = 0;
	uint32_t ppm = 7, ppm2 = 0;
	int ret, size_ret, sw = -7;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	size_ret = parse_size(s, &size_v);
	expect_err(size_ret);
	if (!size_ret) {
		/* a size reads back as itself in plain bytes */
		snprintf(out, sizeof(out), "%llu", (unsigned long long)size_v);
		expect(!parse_size(out, &v) && v == size_v);
		expect(strlen(format_size(size_v, out, sizeof(out))) < sizeof(out));
	}
	v = 12345;
	ret = parse_amount(s, &v);
	expect_err_dom(ret);
	if (!strcmp(s, "max"))
		expect(!ret && v == AMOUNT_MAX);
	else if (!size_ret && size_v == AMOUNT_MAX)	/* max's own value, as a number */
		expect(ret == -ERANGE && v == 12345);
	else if (!size_ret)	/* otherwise exactly a size */
		expect(ret == size_ret && v == size_v);
	else if (!ret)	/* or a fraction before a suffix, which parse_size() refuses */
		expect(strchr(s, '.') && v != AMOUNT_MAX);
	else
		expect(v == 12345);
	ret = parse_share(s, &ppm);
	expect_err_dom(ret);
	/* "0%" parses (to 0): the command line refuses it as nothing to do, not the parser */
	expect(ret ? ppm == 7 : ppm <= SHARE_WHOLE && strchr(s, '%'));
	if (!ret) {
		/* a share reads back as itself, to the four decimals it keeps */
		format_share(ppm, out, sizeof(out));
		expect(!parse_share(out, &ppm2) && ppm2 == ppm);
	}
	v = 12345;
	ret = parse_duration(s, &v);
	expect_err(ret);
	if (!ret) {
		expect(v > 0 && v <= DURATION_MAX_US);
		expect(strlen(format_duration(v, out, sizeof(out))) < sizeof(out));
	}
	v = 12345;
	ret = parse_timeout(s, &v);
	expect_err(ret);
	expect(ret ? v == 12345 : (v == 0) == !strcmp(s, "infinity"));
	ret = parse_swappiness(s, &sw);
	expect(ret == 0 || ret == -EINVAL);
	expect(ret ? sw == -7 : sw >= 0 && sw <= SWAPPINESS_MAX);
	v = 12345;
	ret = parse_uint(s, 1000, &v);
	expect_err(ret);
	expect(ret ? v == 12345 : v <= 1000);
	free(s);
	return 0;
}
