// SPDX-License-Identifier: GPL-2.0
/* Sizes, durations, swappiness and their formatting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse.h"

/* PARSE(word, OUT) is -EINVAL for every word of the array BAD */
#define assert_all_invalid(parse, bad, out)					\
	do {									\
		for (size_t i_ = 0; i_ < sizeof(bad) / sizeof((bad)[0]); i_++)	\
			if (parse((bad)[i_], (out)) != -EINVAL)			\
				fail_msg("'%s' is not -EINVAL", (bad)[i_]);	\
	} while (0)

static void test_size_valid(void **state)
{
	static const struct {
		const char *in;
		uint64_t bytes;
	} cases[] = {
		{ "0", 0 }, { "4096", 4096 }, { "1K", 1024 }, { "1k", 1024 },
		{ "512M", 512ULL << 20 }, { "1G", 1ULL << 30 }, { "1GiB", 1ULL << 30 },
		{ "1GB", 1ULL << 30 }, { "3T", 3ULL << 40 }, { "2P", 2ULL << 50 },
		{ "15E", 15ULL << 60 }, { "100B", 100 },
		/* the suffix in any case, and always a power of two */
		{ "1gb", 1ULL << 30 }, { "1Gb", 1ULL << 30 }, { "1gib", 1ULL << 30 },
		{ "1GIB", 1ULL << 30 }, { "2kB", 2048 }, { "100b", 100 },
		{ "18446744073709551615", UINT64_MAX },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 1;

		assert_int_equal(parse_size(cases[i].in, &v), 0);
		assert_true(v == cases[i].bytes);
	}
}

static void test_size_invalid(void **state)
{
	static const char *const bad[] = {
		"", "12Q", "-5M", "+5M", " 5M", "5M ", "1e99", "1.5G", "0x10", "G", "1GiBx",
		"1iB", "max", "5 M", "1KK", "1ib", "1Gi", "1GBB", "1Bi",
	};
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_size(bad[i], &v), -EINVAL);
	assert_true(v == 42);
	assert_int_equal(parse_size(NULL, &v), -EINVAL);
}

static void test_size_overflow(void **state)
{
	uint64_t v = 42;

	assert_int_equal(parse_size("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse_size("16E", &v), -ERANGE);
	assert_int_equal(parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(parse_size("99999999999999999999999", &v), -ERANGE);
	assert_true(v == 42);
}

static void test_amount(void **state)
{
	uint64_t v = 0;

	assert_int_equal(parse_amount("max", &v), 0);
	assert_true(v == AMOUNT_MAX);
	assert_int_equal(parse_amount("1M", &v), 0);
	assert_true(v == 1ULL << 20);
	assert_int_equal(parse_amount("MAX", &v), -EINVAL);
	assert_int_equal(parse_amount("maximum", &v), -EINVAL);
	/* "max"'s own value, as a number, is too large: it would silently mean max */
	v = 0;
	assert_int_equal(parse_amount("18446744073709551615", &v), -ERANGE);
	assert_int_equal(parse_amount("16E", &v), -ERANGE);
	assert_true(v == 0);
	assert_int_equal(parse_amount("18446744073709551614", &v), 0);
	assert_true(v == AMOUNT_MAX - 1);
	/* what the command line takes as an amount rather than a target */
	assert_true(looks_like_amount("max"));
	assert_true(looks_like_amount("1G"));
	assert_true(looks_like_amount("12Q"));
	assert_true(looks_like_amount("-5M"));
	assert_true(looks_like_amount(""));
	assert_true(looks_like_amount(".5G"));
	assert_false(looks_like_amount("spot.slice"));
	assert_false(looks_like_amount("/a/b"));
	assert_false(looks_like_amount("pid:1"));
	assert_false(looks_like_amount("maxi"));
	/* a dot before a digit only: these are paths */
	assert_false(looks_like_amount("./a.slice"));
	assert_false(looks_like_amount("../a"));
	assert_false(looks_like_amount(".hidden"));
	/* a sign only before a number: systemd's root slice is a unit */
	assert_true(looks_like_amount("-.5G"));
	assert_true(looks_like_amount("+1M"));
	assert_true(looks_like_amount("-"));
	assert_false(looks_like_amount("-.slice"));
	assert_false(looks_like_amount("-foo.service"));
}

/*
 * A decimal fraction of a suffix, as systemd and numfmt take them: exact to the byte,
 * rounded down; it needs a suffix (a fraction of a byte is none).
 */
static void test_amount_fraction(void **state)
{
	static const struct {
		const char *in;
		uint64_t bytes;
	} cases[] = {
		{ "1.5G", 3ULL << 29 }, { "0.5g", 1ULL << 29 }, { "512MiB", 512ULL << 20 },
		{ "1.5K", 1536 }, { "0.1K", 102 }, { "2.25MB", 9ULL << 18 }, { "0.5kib", 512 },
		{ "1.0E", 1ULL << 60 }, { "15.999E", 18445591152204944769ULL },
		{ "0.000000000000000001E", 1 }, { "0.0001K", 0 },
	};
	static const char *const bad[] = {
		"1.5.5G", "1.5", "1.5B", "1.G", ".5G", "1..5G", "-1G", "+1.5G", "1e3", "1.5e3",
		"%", "50%", "1,5G", "1.5 G",
	};
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (parse_amount(cases[i].in, &v))
			fail_msg("'%s' is refused", cases[i].in);
		if (v != cases[i].bytes)
			fail_msg("'%s' is %llu bytes, want %llu", cases[i].in,
				 (unsigned long long)v, (unsigned long long)cases[i].bytes);
	}
	v = 42;
	assert_all_invalid(parse_amount, bad, &v);
	assert_int_equal(parse_amount("16.0E", &v), -ERANGE);
	/* more digits after the point than are kept: refused, as such */
	assert_int_equal(parse_amount("15.9999999999999999999E", &v), -EDOM);
	assert_int_equal(parse_amount("0.0000000000000000001E", &v), -EDOM);
	assert_true(v == 42);
	/* the kernel's files stay whole numbers */
	assert_int_equal(parse_size("1.5G", &v), -EINVAL);
}

/* "50%": a share in parts per million, of what a cgroup holds, rounded down to a byte */
static void test_share(void **state)
{
	static const char *const bad[] = {
		"%", "50", "50%%", "5 0%", "1.2.3%", "-5%", "+5%", ".5%", "5.%",
		"1e2%", "1G%", "50% ", " 50%",
	};
	uint32_t ppm = 7;
	char buf[16];

	static const struct {
		const char *in;
		uint32_t ppm;
	} cases[] = {
		{ "50%", 500000 }, { "12.5%", 125000 }, { "100%", SHARE_WHOLE },
		{ "33.3333%", 333333 }, { "0.0001%", 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_share(cases[i].in, &ppm), 0);
		assert_int_equal(ppm, cases[i].ppm);
	}
	ppm = 7;
	assert_all_invalid(parse_share, bad, &ppm);
	assert_int_equal(parse_share("150%", &ppm), -ERANGE);
	assert_int_equal(parse_share("100.0001%", &ppm), -ERANGE);
	/* a digit past the fourth after the point is refused, not rounded away */
	assert_int_equal(parse_share("100.00001%", &ppm), -EDOM);
	assert_int_equal(parse_share("0.00001%", &ppm), -EDOM);
	assert_int_equal(parse_share("50.00000%", &ppm), -EDOM);
	assert_int_equal(parse_share("33.333333%", &ppm), -EDOM);
	assert_int_equal(parse_share("1.23456.7%", &ppm), -EINVAL);
	assert_true(ppm == 7);
	/* 0% is a share, of 0 bytes: the caller says so */
	assert_int_equal(parse_share("0%", &ppm), 0);
	assert_int_equal(ppm, 0);
	assert_int_equal(parse_share("0.0000%", &ppm), 0);
	assert_int_equal(ppm, 0);
	ppm = 7;
	assert_int_equal(parse_share("99999999999999999999999%", &ppm), -ERANGE);
	assert_int_equal(ppm, 7);
	assert_true(share_of(1048576, 500000) == 524288);
	assert_true(share_of(3, 500000) == 1);
	assert_true(share_of(UINT64_MAX, SHARE_WHOLE) == UINT64_MAX);
	assert_true(share_of(UINT64_MAX, 1) == UINT64_MAX / SHARE_WHOLE);
	assert_string_equal(format_share(500000, buf, sizeof(buf)), "50%");
	assert_string_equal(format_share(125000, buf, sizeof(buf)), "12.5%");
	assert_string_equal(format_share(1, buf, sizeof(buf)), "0.0001%");
	assert_string_equal(format_share(SHARE_WHOLE, buf, sizeof(buf)), "100%");
}

static void test_duration(void **state)
{
	static const struct {
		const char *in;
		uint64_t usec;
	} cases[] = {
		{ "90", 90000000 }, { "30s", 30000000 }, { "500ms", 500000 }, { "2m", 120000000 },
		{ "2min", 120000000 }, { "1h", 3600000000ULL }, { "1m30s", 90000000 },
		{ "1h1m1s1ms1us", 3661001001ULL }, { "250us", 250 },
		/* systemd.time(7)'s spans: fractions, its unit names, spaces between parts */
		{ "1.5s", 1500000 }, { "1.5", 1500000 }, { "5min", 300000000 },
		{ "2h 30min", 9000000000ULL }, { "2 h", 7200000000ULL }, { "0.5min", 30000000 },
		{ "1d", 86400000000ULL }, { "2hr", 7200000000ULL }, { "3sec", 3000000 },
		{ "1w", 604800000000ULL }, { "55s500ms", 55500000 }, { "10 s", 10000000 },
		{ "1.5h", 5400000000ULL }, { "2usec 3msec", 3002 }, { "1 day 2 hours", 93600000000ULL },
		{ "1minute 1second", 61000000 }, { " 5s ", 5000000 }, { "1.0000005s", 1000000 },
		{ "0.0000015s", 1 },
	};
	static const char *const bad[] = {
		"", " ", "0", "0s", "-1", "s", "10x", "1e3", "1sm", "1mx", "1M", "1y", "1.5.5s",
		"1.s", ".5s", "1 2", "1 30s", "30s 1", "infinity", "0.0000001s", "1,5s", "5 min x",
		"1s-2s", "+1s", "1hours2", "1.0000000000000000001s",
	};
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (parse_duration(cases[i].in, &v))
			fail_msg("'%s' is refused", cases[i].in);
		if (v != cases[i].usec)
			fail_msg("'%s' is %llu us, want %llu", cases[i].in, (unsigned long long)v,
				 (unsigned long long)cases[i].usec);
	}
	v = 42;
	assert_all_invalid(parse_duration, bad, &v);
	assert_int_equal(parse_duration("99999999999999999999", &v), -ERANGE);
	assert_int_equal(parse_duration("18446744073710s", &v), -ERANGE);
	/* anything that would make now + timeout wrap: ten years at most */
	assert_int_equal(parse_duration("18446744073709", &v), -ERANGE);
	assert_int_equal(parse_duration("5000000h", &v), -ERANGE);
	assert_int_equal(parse_duration("316224001", &v), -ERANGE);
	assert_int_equal(parse_duration("3661d", &v), -ERANGE);
	/* nothing refused wrote its result */
	assert_true(v == 42);
	assert_int_equal(parse_duration("316224000", &v), 0);
	assert_int_equal(parse_duration("3660d", &v), 0);
}

/* a delay is a duration that may be zero; nothing at all is still not a delay */
static void test_delay(void **state)
{
	static const char *const zero[] = { "0", "0s", "0ms", " 0 ", "0.0", "0h 0min" };
	static const char *const bad[] = { "", " ", "-1", "s", "1M", "infinity", "soon", "0 0" };
	uint64_t v;

	for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
		v = 42;
		if (parse_delay(zero[i], &v) || v)
			fail_msg("'%s' is not a delay of 0", zero[i]);
	}
	assert_int_equal(parse_delay("1.5s", &v), 0);
	assert_int_equal(v, 1500000);
	assert_int_equal(parse_delay("250ms", &v), 0);
	assert_int_equal(v, 250000);
	v = 42;
	assert_all_invalid(parse_delay, bad, &v);
	assert_int_equal(parse_delay("3661d", &v), -ERANGE);
	assert_true(v == 42);
}

static void test_swappiness(void **state)
{
	static const char *const bad[] = { "", "201", "-1", "60x", " 60", "MAX", "1e2" };
	int v = 7;

	assert_int_equal(parse_swappiness("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_swappiness("200", &v), 0);
	assert_int_equal(v, 200);
	assert_int_equal(parse_swappiness("max", &v), 0);
	assert_int_equal(v, SWAPPINESS_MAX);
	v = 7;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_swappiness(bad[i], &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_format(void **state)
{
	char buf[32];

	assert_string_equal(format_size(0, buf, sizeof(buf)), "0 B");
	assert_string_equal(format_size(1023, buf, sizeof(buf)), "1023 B");
	assert_string_equal(format_size(1536, buf, sizeof(buf)), "1.5 KiB");
	assert_string_equal(format_size(700ULL << 20, buf, sizeof(buf)), "700.0 MiB");
	assert_string_equal(format_size(UINT64_MAX, buf, sizeof(buf)), "16.0 EiB");
	assert_string_equal(format_duration(850000, buf, sizeof(buf)), "850 ms");
	assert_string_equal(format_duration(8400000, buf, sizeof(buf)), "8.4 s");
	assert_string_equal(format_duration(125000000, buf, sizeof(buf)), "2 min 5 s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_valid),
		cmocka_unit_test(test_size_invalid),
		cmocka_unit_test(test_size_overflow),
		cmocka_unit_test(test_amount),
		cmocka_unit_test(test_amount_fraction),
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_delay),
		cmocka_unit_test(test_swappiness),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
