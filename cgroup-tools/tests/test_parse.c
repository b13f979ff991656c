// SPDX-License-Identifier: GPL-2.0
/* Sizes, durations, swappiness and their formatting. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "parse.h"

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

static void test_duration(void **state)
{
	static const struct {
		const char *in;
		uint64_t usec;
	} cases[] = {
		{ "90", 90000000 }, { "30s", 30000000 }, { "500ms", 500000 }, { "2m", 120000000 },
		{ "2min", 120000000 }, { "1h", 3600000000ULL }, { "1m30s", 90000000 },
		{ "1h1m1s1ms1us", 3661001001ULL }, { "250us", 250 },
	};
	static const char *const bad[] = {
		"", "0", "0s", "-1", "1.5s", "s", "10x", "10 s", "1e3", "1sm", "1mx", "1d",
	};
	uint64_t v = 42;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse_duration(cases[i].in, &v), 0);
		assert_true(v == cases[i].usec);
	}
	v = 42;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_duration(bad[i], &v), -EINVAL);
	assert_int_equal(parse_duration("99999999999999999999", &v), -ERANGE);
	assert_int_equal(parse_duration("18446744073710s", &v), -ERANGE);
	/* anything that would make now + timeout wrap: ten years at most */
	assert_int_equal(parse_duration("18446744073709", &v), -ERANGE);
	assert_int_equal(parse_duration("5000000h", &v), -ERANGE);
	assert_int_equal(parse_duration("316224001", &v), -ERANGE);
	assert_int_equal(parse_duration("316224000", &v), 0);
	v = 42;
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
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_swappiness),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
