// SPDX-License-Identifier: GPL-2.0
/*
 * The read-backs of one operation whose write the freezer interrupted: memtide wrote again
 * for what was left, and its result merges the two. Totals add up; what describes the
 * state at the end (what is still in swap, what the user asked for) does not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "parse.h"
#include "readback.h"
#include "report.h"

/* the release of max that the freezer stopped after 4 MiB (some read, still in swap) */
static const char release_interrupted[] =
	"requested max\nreleased 4194304\nanon 4194304\nshmem 0\nresident 0\nread 4259840\n"
	"no_room 0\nskipped 65536\nremaining 8454144\nelapsed_us 100000\n";
/* the retry, which mapped what the first write had left in the swap cache */
static const char release_retry[] =
	"requested max\nreleased 8437760\nanon 8437760\nshmem 0\nresident 0\nread 8372224\n"
	"no_room 0\nskipped 0\nremaining 16384\nelapsed_us 200000\n";
/* reclaim 8M: 3 MiB before the freezer, then the 5 MiB that were missing */
static const char reclaim_interrupted[] =
	"requested 8388608\nreclaimed 3145728\nanon 3145728\nfile 0\nslab 0\n"
	"scanned 6291456\nelapsed_us 50000\n";
static const char reclaim_retry[] =
	"requested 5242880\nreclaimed 5242880\nanon 4194304\nfile 1048576\nslab 0\n"
	"scanned 9437184\nelapsed_us 70000\n";

/* Merge the read-back TEXT into INTO as op.c does, through a descriptor holding it. */
static uint64_t add(struct keyed *into, const char *done_key, const char *text)
{
	FILE *f = tmpfile();
	uint64_t done;

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0 && fflush(f) == 0, 1);
	assert_int_equal(readback_add(fileno(f), done_key, into, &done), 0);
	fclose(f);
	return done;
}

static void check(const struct keyed *r, const char *key, uint64_t want)
{
	uint64_t v;

	if (!keyed_get(r, key, &v))
		fail_msg("no %s", key);
	if (v != want)
		fail_msg("%s %llu, want %llu", key, (unsigned long long)v,
			 (unsigned long long)want);
}

static void test_release(void **state)
{
	struct op_result res = { .operation = "release", .status = OP_DONE };
	json_object *o, *remaining;

	assert_int_equal(add(&res.r, "released", release_interrupted), 4194304);
	assert_int_equal(add(&res.r, "released", release_retry), 8437760);
	/* totals: what each write did */
	check(&res.r, "released", 12632064);
	check(&res.r, "anon", 12632064);
	check(&res.r, "read", 12632064);
	check(&res.r, "elapsed_us", 300000);
	/* state: the last write's */
	check(&res.r, "remaining", 16384);
	check(&res.r, "skipped", 0);
	check(&res.r, "requested", AMOUNT_MAX);
	o = report_json("app.service", "/app.service", &res);
	assert_true(json_object_object_get_ex(o, "remaining", &remaining));
	assert_int_equal(json_object_get_uint64(remaining), 16384);
	json_object_put(o);
}

static void test_reclaim(void **state)
{
	struct keyed r = { 0 };

	add(&r, "reclaimed", reclaim_interrupted);
	add(&r, "reclaimed", reclaim_retry);
	check(&r, "reclaimed", 8388608);
	check(&r, "scanned", 15728640);
	check(&r, "file", 1048576);
	/* what was asked for: the first write's whole amount, not the sum of the two */
	check(&r, "requested", 8388608);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_reclaim),
	};

	return cmocka_run_group_tests_name("read-back merge", tests, NULL, NULL);
}
