// SPDX-License-Identifier: GPL-2.0
/* The kernel's read-back and features file as memtide reads them, and what it prints. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kernel_features.h"
#include "keyed.h"
#include "parse.h"
#include "progress.h"
#include "report.h"

static const char memtide_features[] =
	"memory.reclaim amount=bytes,max swappiness=0-200,max result=requested,reclaimed,anon,file,slab,scanned,elapsed_us\n"
	"memory.release amount=bytes,max result=requested,released,anon,shmem,resident,read,no_room,skipped,remaining,elapsed_us\n";

static void test_features(void **state)
{
	struct features f;

	features_parse(memtide_features, &f);
	assert_true(f.present && f.reclaim_readback && f.reclaim_max && f.swappiness_max);
	assert_true(f.release && f.release_readback);
	assert_string_equal(f.release_keys,
			    "requested,released,anon,shmem,resident,read,no_room,skipped,remaining,"
			    "elapsed_us");
	/* an older memtide kernel: reclaim only, no "max" swappiness */
	features_parse("memory.reclaim amount=bytes,max swappiness=0-200 result=reclaimed\n", &f);
	assert_true(f.reclaim_readback && f.reclaim_max);
	assert_false(f.swappiness_max || f.release);
	/* tokens are matched whole: "maximum" is not "max", "result_x" is not "result" */
	features_parse("memory.reclaim amount=bytes,maximum swappiness=maxi result_x=a\n", &f);
	assert_false(f.reclaim_max || f.swappiness_max || f.reclaim_readback);
	/* unknown lines and files are ignored; a line for another file does not count */
	features_parse("memory.reclaimx result=a\nmemory.other result=b\n\n", &f);
	assert_false(f.reclaim_readback || f.release);
}

static void test_features_file(void **state)
{
	char path[] = "/tmp/memtide-features.XXXXXX";
	struct features f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, memtide_features, strlen(memtide_features)),
			 (int)strlen(memtide_features));
	close(fd);
	setenv("MEMTIDE_FEATURES_FILE", path, 1);
	assert_int_equal(features_load(&f), 0);
	assert_true(f.present && f.release);
	unlink(path);
	/* absent: a stock kernel */
	assert_int_equal(features_load(&f), 0);
	assert_false(f.present || f.reclaim_readback || f.release);
	unsetenv("MEMTIDE_FEATURES_FILE");
}

static void test_keyed(void **state)
{
	struct keyed a;
	uint64_t v;

	assert_int_equal(keyed_parse("requested max\nreclaimed 4096\nanon 4096\n"
				       "garbage\nkey notanumber\nfile 0", &a), 4);
	assert_true(keyed_get(&a, "requested", &v) && v == AMOUNT_MAX);
	assert_true(keyed_get(&a, "file", &v) && v == 0);
	assert_false(keyed_get(&a, "key", &v));
}

static struct op_result result(const char *op, enum op_status status, const char *kernel)
{
	struct op_result res = { .operation = op, .status = status };

	keyed_parse(kernel, &res.r);
	return res;
}

static void line_of(const struct op_result *res, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	report_line(f, "/spot.slice", res);
	fclose(f);
}

static void test_lines(void **state)
{
	char buf[512];
	struct op_result res;

	res = result("reclaim", OP_DONE, "requested 734003200\nreclaimed 734003200\n"
		     "anon 681574400\nfile 52428800\nslab 0\nelapsed_us 8400000\n");
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: reclaimed 700.0 MiB of 700.0 MiB "
			    "(anon 650.0 MiB, file 50.0 MiB) in 8.4 s\n");
	/* with memory tiers: part of what was reclaimed was only demoted */
	res = result("reclaim", OP_DONE, "requested 33554432\nreclaimed 33554432\n"
		     "anon 31457280\nfile 2097152\nslab 0\ndemoted 16777216\nelapsed_us 400000\n");
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: reclaimed 32.0 MiB of 32.0 MiB "
			    "(anon 30.0 MiB, file 2.0 MiB; 16.0 MiB of it demoted, still charged) "
			    "in 400 ms\n");
	res = result("release", OP_PARTIAL, "requested max\nreleased 1048576\nanon 1048576\n"
		     "no_room 1\nelapsed_us 1000\n");
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: released 1.0 MiB (anon 1.0 MiB) in 1 ms; "
			    "partial: no room left below memory.high, memory.max or in RAM\n");
	res = result("release", OP_PARTIAL, "requested max\nreleased 1048576\nanon 1048576\n"
		     "no_room 0\nskipped 8192\nelapsed_us 1000\n");
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: released 1.0 MiB (anon 1.0 MiB) in 1 ms; "
			    "partial: 8.0 KiB stayed in swap (held by processes outside "
			    "the cgroup)\n");
	/* a stock release that skipped processes it may not ptrace */
	res = result("release", OP_PARTIAL, "requested max\nreleased 1048576\n"
		     "skipped_processes 2\nelapsed_us 1000\n");
	res.approximate = true;
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: released ~1.0 MiB in 1 ms; partial: 2 processes "
			    "skipped (no ptrace access)\n");
	res = result("reclaim", OP_INTERRUPTED, "requested max\nreclaimed 0\n");
	res.approximate = true;
	line_of(&res, buf, sizeof(buf));
	assert_string_equal(buf, "/spot.slice: reclaimed ~0 B; interrupted\n");
}

static void test_json(void **state)
{
	struct op_result res = result("release", OP_DONE,
				      "requested max\nreleased 8192\nanon 8192\n");
	json_object *o = report_json("spot.slice", "/spot.slice", &res), *v;

	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							    JSON_C_TO_STRING_NOSLASHESCAPE),
			    "{\"target\":\"spot.slice\",\"cgroup\":\"/spot.slice\","
			    "\"operation\":\"release\",\"status\":\"done\",\"approximate\":false,"
			    "\"requested\":null,\"requested_max\":true,\"released\":8192,"
			    "\"anon\":8192}");
	json_object_put(o);
	/* an error, with a name that needs escaping */
	res = result("reclaim", OP_ERROR, "");
	snprintf(res.message, sizeof(res.message), "memory.reclaim: Permission denied");
	o = report_json("we\"ird\n", NULL, &res);
	assert_true(json_object_object_get_ex(o, "error", &v));
	assert_string_equal(json_object_get_string(v), "memory.reclaim: Permission denied");
	assert_non_null(strstr(json_object_to_json_string(o), "\"we\\\"ird\\n\""));
	json_object_put(o);
}

static void test_progress(void **state)
{
	char buf[256];

	progress_line(buf, sizeof(buf), "/spot.slice", "reclaimed", 300ULL << 20, 700ULL << 20,
		      3750000, PROGRESS_BAR_WIDTH);
	assert_string_equal(buf, "/spot.slice [##########..............] reclaimed 300.0 MiB of "
			    "700.0 MiB  80.0 MiB/s  ETA 5 s");
	/* past the goal (memory.current also falls for other reasons): a full bar, no more */
	progress_line(buf, sizeof(buf), "/a", "released", 800ULL << 20, 700ULL << 20, 1000000,
		      PROGRESS_BAR_WIDTH);
	assert_string_equal(buf, "/a [########################] released 700.0 MiB of 700.0 MiB  "
			    "800.0 MiB/s  ETA 0 s");
	/* goal unknown: no bar, no ETA; nothing done yet: no rate */
	progress_line(buf, sizeof(buf), "/", "reclaimed", 1ULL << 20, 0, 1000000, 24);
	assert_string_equal(buf, "/ reclaimed 1.0 MiB  1.0 MiB/s");
	progress_line(buf, sizeof(buf), "/a", "reclaimed", 0, 1ULL << 20, 0, 24);
	assert_string_equal(buf, "/a [........................] reclaimed 0 B of 1.0 MiB  0 B/s");
	/* a narrower bar */
	progress_line(buf, sizeof(buf), "/a", "reclaimed", 1ULL << 19, 1ULL << 20, 0, 10);
	assert_string_equal(buf, "/a [#####.....] reclaimed 512.0 KiB of 1.0 MiB  0 B/s");
}

static void test_progress_row(void **state)
{
	char buf[256];

	/* wide enough: the full bar */
	progress_row(buf, sizeof(buf), "/tool", "reclaimed", 300ULL << 20, 700ULL << 20, 3750000,
		     120);
	assert_string_equal(buf, "/tool [##########..............] reclaimed 300.0 MiB of "
			    "700.0 MiB  80.0 MiB/s  ETA 5 s");
	/* 80 columns: the bar gives way (the full line takes 86), the ETA stays */
	progress_row(buf, sizeof(buf), "/tool", "reclaimed", 300ULL << 20, 700ULL << 20, 3750000,
		     80);
	assert_string_equal(buf, "/tool [#######..........] reclaimed 300.0 MiB of "
			    "700.0 MiB  80.0 MiB/s  ETA 5 s");
	/* narrower still: the bar stops at 8 columns, then the path loses its start */
	progress_row(buf, sizeof(buf), "/a/long/name", "reclaimed", 300ULL << 20, 700ULL << 20,
		     3750000, 72);
	assert_string_equal(buf, "...ame [###.....] reclaimed 300.0 MiB of 700.0 MiB  "
			    "80.0 MiB/s  ETA 5 s");
	/* no goal, no bar: fit_line() alone */
	progress_row(buf, sizeof(buf), "/a", "reclaimed", 1ULL << 20, 0, 1000000, 10);
	assert_string_equal(buf, "/a reclai");
}

static void test_exit_codes(void **state)
{
	struct op_result r[3] = {
		{ .status = OP_DONE }, { .status = OP_PARTIAL }, { .status = OP_DONE },
	};

	assert_int_equal(op_exit_code(r, 1), 0);
	assert_int_equal(op_exit_code(r, 3), 3);
	r[2].status = OP_INTERRUPTED;
	assert_int_equal(op_exit_code(r, 3), 4);
	r[0].status = OP_ERROR;
	assert_int_equal(op_exit_code(r, 3), 1);
	assert_int_equal(op_exit_code(r, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_features_file),
		cmocka_unit_test(test_keyed),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_progress_row),
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
