// SPDX-License-Identifier: GPL-2.0
/*
 * op.c's loop around the kernel's write, with the kernel's answers scripted: write() is
 * wrapped at link time (-Wl,--wrap=write, see the Makefile), and a write to memory.reclaim
 * or memory.release of the fake tree returns what the script says, after putting the
 * script's read-back in the file, where op.c reads it on the same descriptor as it does
 * from the kernel. Every other write goes through.
 *
 *   root/box.slice/ memory.stat memory.current (1 MiB) memory.reclaim memory.release
 *   features: the memtide 6.12.117 fixture's (a read-back), or none (a stock kernel)
 *
 * What a real kernel does here is covered in the guest (test_reclaim_report, test_tool);
 * these are the paths a guest cannot reach on demand: -EAGAIN, the freezer's -EINTR again
 * and again, a cgroup removed while its write runs.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_tree.h"
#include "memtide.h"
#include "parse.h"
#include "stop.h"
#include "target.h"

#define MiB (1ULL << 20)

ssize_t __real_write(int fd, const void *buf, size_t len);

/* One answer of the kernel: ERR (0: the write succeeds) and what it then reads back */
struct answer {
	int err;
	const char *readback;
};

static struct answer script[4];
static int nscript, answered;
static bool armed;			/* from script_set() to the end of run() */
/* what op.c wrote, the first few */
static char requests[4][96];
static int nrequests;

static void script_set(int n, const struct answer *a)
{
	memcpy(script, a, n * sizeof(*a));
	nscript = n;
	answered = nrequests = 0;
	armed = true;
}

/* Whether FD is a memory.reclaim or memory.release of the fake tree */
static bool kernel_file(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return false;
	path[n] = '\0';
	return strstr(path, tree_dir) && (strstr(path, "/memory.reclaim") ||
					  strstr(path, "/memory.release"));
}

/* the last answer of the script repeats */
ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	const struct answer *a;

	if (!armed || !kernel_file(fd))
		return __real_write(fd, buf, len);
	if (nrequests < 4)
		snprintf(requests[nrequests], sizeof(requests[0]), "%.*s", (int)len,
			 (const char *)buf);
	nrequests++;
	a = &script[answered < nscript - 1 ? answered++ : nscript - 1];
	if (ftruncate(fd, 0) ||
	    (a->readback && pwrite(fd, a->readback, strlen(a->readback), 0) < 0))
		return -1;
	if (a->err) {
		errno = a->err;
		return -1;
	}
	return len;
}

static int setup(void **state)
{
	if (tree_create_stock_box())
		return -1;
	tree_put("root/box.slice/memory.release", "");
	tree_put("root/box.slice/memory.swap.current", "2097152\n");
	return 0;
}

static int teardown(void **state)
{
	stop_clear();
	return tree_destroy();
}

/* reclaim (or release) REQ->amount of box.slice on KERNEL's fixture; the result in RES */
static void run_request(const struct op_request *req, const char *kernel, bool reclaim,
			struct op_result *res)
{
	struct features f;
	struct cgroot root;
	struct target t;
	char err[256];

	tree_use(kernel);
	assert_int_equal(features_load(&f), 0);
	assert_int_equal(cgroot_open(&root, err, sizeof(err)), 0);
	assert_int_equal(target_open_path(&root, "/box.slice", &t, err, sizeof(err)), 0);
	if (reclaim)
		op_reclaim(req, &f, &t, res);
	else
		op_release(req, &f, &t, res);
	armed = false;
	target_close(&t);
	cgroot_close(&root);
}

/* reclaim (or release) AMOUNT of box.slice on KERNEL's fixture; the result in RES */
static void run(const char *kernel, bool reclaim, uint64_t amount, struct op_result *res)
{
	const struct op_request req = { .amount = amount, .swappiness = -1 };

	run_request(&req, kernel, reclaim, res);
}

static uint64_t value(const struct op_result *res, const char *key)
{
	uint64_t v = 0;

	if (!keyed_get(&res->r, key, &v))
		fail_msg("no %s in the result", key);
	return v;
}

/* -EAGAIN: the kernel did what it could; partial (exit 3), with what it did */
static void test_partial(void **state)
{
	struct op_result res;

	script_set(1, (struct answer[]){
		{ EAGAIN, "requested 4194304\nreclaimed 1048576\nanon 1048576\nfile 0\n" } });
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_PARTIAL);
	assert_int_equal(res.error, EAGAIN);
	assert_int_equal(value(&res, "reclaimed"), MiB);
	assert_int_equal(op_exit_code(&res, 1), EXIT_PARTIAL);
	assert_int_equal(nrequests, 1);
}

/*
 * The freezer's -EINTR with no stop asked for: write again, for what the read-back says is
 * still missing, and add up what both writes did
 */
static void test_freezer_readback(void **state)
{
	struct op_result res;

	script_set(2, (struct answer[]){
		{ EINTR, "requested 4194304\nreclaimed 1048576\nanon 1048576\nfile 0\n" },
		{ 0, "requested 3145728\nreclaimed 3145728\nanon 2097152\nfile 1048576\n" } });
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_DONE);
	assert_int_equal(res.freezer_retries, 1);
	assert_int_equal(nrequests, 2);
	assert_string_equal(requests[0], "4194304");
	assert_string_equal(requests[1], "3145728");
	assert_int_equal(value(&res, "reclaimed"), 4 * MiB);
	assert_int_equal(value(&res, "file"), MiB);
	/* "max" is asked again as it was */
	script_set(2, (struct answer[]){ { EINTR, "requested max\nreclaimed 1048576\n" },
					 { 0, "requested max\nreclaimed 8192\n" } });
	run("memtide-6.12.117", true, AMOUNT_MAX, &res);
	assert_int_equal(res.status, OP_DONE);
	assert_string_equal(requests[1], "max");
	/* and a release the same way */
	script_set(2, (struct answer[]){ { EINTR, "requested 2097152\nreleased 1048576\n" },
					 { 0, "requested 1048576\nreleased 1048576\n" } });
	run("memtide-6.12.117", false, 2 * MiB, &res);
	assert_int_equal(res.status, OP_DONE);
	assert_string_equal(requests[1], "1048576");
	assert_int_equal(value(&res, "released"), 2 * MiB);
}

/* a freezer that never lets a write finish: given up after 1000 retries, interrupted */
static void test_freezer_cap(void **state)
{
	struct op_result res;

	script_set(1, (struct answer[]){ { EINTR, "requested max\nreclaimed 0\n" } });
	run("memtide-6.12.117", true, AMOUNT_MAX, &res);
	assert_int_equal(res.status, OP_INTERRUPTED);
	assert_int_equal(res.freezer_retries, 1000);
	assert_int_equal(nrequests, 1001);
	assert_int_equal(op_exit_code(&res, 1), EXIT_INTERRUPTED);
}

/* -EINTR after SIGINT or SIGTERM (or the deadline): no retry, interrupted (exit 4) */
static void test_stop_asked(void **state)
{
	struct op_result res;

	script_set(1, (struct answer[]){ { EINTR, "requested 4194304\nreclaimed 4096\n" } });
	stop_deadline_pass();
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_INTERRUPTED);
	assert_int_equal(res.freezer_retries, 0);
	/* a stop asked for before the write: the write is not made */
	assert_int_equal(nrequests, 0);
	stop_clear();
	/* SIGTERM, as systemd stops a unit */
	stop_install();
	assert_int_equal(raise(SIGTERM), 0);
	assert_int_equal(stop_requested(), SIGTERM);
	script_set(1, (struct answer[]){ { EINTR, "requested 4194304\nreclaimed 4096\n" } });
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_INTERRUPTED);
	assert_int_equal(nrequests, 0);
	stop_clear();
}

/* the cgroup removed while its write ran: an error that says so */
static void test_removed(void **state)
{
	struct op_result res;

	script_set(1, (struct answer[]){ { ENODEV, NULL } });
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_ERROR);
	assert_string_equal(res.message, "memory.reclaim: the cgroup was removed");
	assert_int_equal(op_exit_code(&res, 1), EXIT_ERROR);
	script_set(1, (struct answer[]){ { ENOENT, NULL } });
	run("memtide-6.12.117", false, 4 * MiB, &res);
	assert_string_equal(res.message, "memory.release: the cgroup was removed");
}

/* a read-back memtide cannot hold whole: an error, not keys silently dropped */
static void test_readback_too_long(void **state)
{
	char big[1100];
	struct op_result res;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "reclaimed 4096\nk ", 17);
	script_set(1, (struct answer[]){ { 0, big } });
	run("memtide-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_ERROR);
	if (!strstr(res.message, "memory.reclaim: read-back:"))
		fail_msg("message: '%s'", res.message);
}

/*
 * A stock kernel's memory.reclaim has no "max": memtide asks for what memory.current holds,
 * and the kernel's -EAGAIN then means all that could be was reclaimed: done, not partial
 */
static void test_stock_max(void **state)
{
	struct op_result res;

	script_set(1, (struct answer[]){ { EAGAIN, NULL } });
	run("vanilla-perf-6.12.117", true, AMOUNT_MAX, &res);
	assert_int_equal(res.status, OP_DONE);
	assert_string_equal(requests[0], "1048576");
	assert_true(res.approximate);
	/* a byte amount there: -EAGAIN is partial as on any kernel */
	script_set(1, (struct answer[]){ { EAGAIN, NULL } });
	run("vanilla-perf-6.12.117", true, 4 * MiB, &res);
	assert_int_equal(res.status, OP_PARTIAL);
}

/*
 * What a reclaim of box.slice draws on stderr with the bar on, shown once the write has run
 * DELAY_US: what stderr received, in BUF
 */
static void stderr_of_reclaim(uint64_t delay_us, char *buf, size_t len)
{
	const struct op_request req = { .amount = 4 * MiB, .swappiness = -1, .progress = true,
					.progress_delay_us = delay_us };
	struct op_result res;
	FILE *capture = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	assert_non_null(capture);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(capture), STDERR_FILENO) >= 0);
	script_set(1, (struct answer[]){ { 0, "requested 4194304\nreclaimed 4194304\n" } });
	run_request(&req, "memtide-6.12.117", true, &res);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	assert_int_equal(res.status, OP_DONE);
	rewind(capture);
	n = fread(buf, 1, len - 1, capture);
	buf[n] = '\0';
	fclose(capture);
}

/*
 * MEMTIDE_PROGRESS_DELAY: the bar of a write shows once the write has run that long. The
 * scripted write returns at once: with no delay the watcher draws the bar on its first look
 * and erases it at the end; with the default second it draws nothing at all.
 */
static void test_progress_delay(void **state)
{
	char out[512];

	stderr_of_reclaim(0, out, sizeof(out));
	if (!strstr(out, "\r/box.slice [") || !strstr(out, "] reclaimed ") ||
	    strcmp(out + strlen(out) - 4, "\r\033[K"))
		fail_msg("no bar drawn and erased: '%s'", out);
	stderr_of_reclaim(PROGRESS_DELAY_US, out, sizeof(out));
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freezer_readback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_freezer_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_asked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readback_too_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stock_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_progress_delay, setup, teardown),
	};

	return cmocka_run_group_tests_name("op", tests, NULL, NULL);
}
