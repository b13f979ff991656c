// SPDX-License-Identifier: GPL-2.0
/*
 * The system-wide side of memtide's reclaim and release: /sys/power/mm_reclaim/run and
 * release (the seed's files), /sys/kernel/mm/memcg/features, and the proactive counters in
 * /proc/vmstat and memory.stat.
 *
 *   root
 *    `- memtide_mm_reclaim (one idle process holding incompressible anon memory)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"
#include "reclaim_result.h"

#define RUN "/sys/power/mm_reclaim/run"
#define RELEASE "/sys/power/mm_reclaim/release"
#define FEATURES "/sys/kernel/mm/memcg/features"
#define SLACK MB(2L)

/* Writing N pages reclaims about N from the whole system; reading returns the count. */
static int test_run_reclaims_pages(const char *root)
{
	struct hog_spec spec = { .anon = MB(64) };
	long swap, got, want = MB(32) / getpagesize();
	int ret = KSFT_FAIL;
	char buf[32];
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;

	snprintf(buf, sizeof(buf), "%ld", want);
	err = write_string(RUN, buf);
	got = read_long(RUN);
	ksft_print_msg("run %ld pages: write %d, read back %ld\n", want, err, got);
	if (err || got < want || got > want + MB(16) / getpagesize())
		goto out;

	/* 0: as much as possible; the idle hog's anon memory goes to swap */
	err = write_string(RUN, "0");
	got = read_long(RUN);
	swap = cg_read_long(cg, "memory.swap.current");
	ksft_print_msg("run 0: write %d, read back %ld, hog's swap %ld\n", err, got, swap);
	if (err || got <= 0 || swap < MB(64) - SLACK)
		goto out;
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* A signal stops a system-wide run: -EINTR, and the count of what it got is kept. */
static int test_run_interrupted(const char *root)
{
	struct hog_spec spec = { .anon = MB(256) };
	int ret = KSFT_FAIL;
	long got;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	if (interrupt_after_ms(100))
		goto out;
	err = write_string(RUN, "0");
	got = read_long(RUN);
	ksft_print_msg("run 0 interrupted: write %d, read back %ld pages\n", err, got);
	if (err != -EINTR || got <= 0 || got * getpagesize() >= MB(256))
		goto out;
	ret = KSFT_PASS;
out:
	signal(SIGALRM, SIG_DFL);
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* Non-numbers fail with their errno, reclaim nothing and leave the last count in place. */
static int test_run_bad_input(const char *root)
{
	static const struct bad_input bad[] = {
		{ "abc", -EINVAL }, { "-1", -EINVAL }, { "1G", -EINVAL }, { "\n", -EINVAL },
		{ "12 34", -EINVAL }, { "99999999999999999999999", -ERANGE },
	};
	struct hog_spec spec = { .anon = MB(16), .file = MB(16) };
	long last, pswpout, current;
	int ret = KSFT_FAIL;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	err = write_string(RUN, "256");
	if (err && err != -EAGAIN)
		goto out;
	last = read_long(RUN);
	pswpout = proc_key_long("/proc/vmstat", "pswpout");
	current = cg_read_long(cg, "memory.current");
	if (last < 0 || pswpout < 0)
		goto out;
	if (refused_by_file(RUN, bad, ARRAY_SIZE(bad)))
		goto out;
	if (read_long(RUN) != last || proc_key_long("/proc/vmstat", "pswpout") != pswpout ||
	    cg_read_long(cg, "memory.current") != current) {
		ksft_print_msg("refused writes changed the system\n");
		goto out;
	}
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/*
 * Swaps out a hog of size bytes, writes request to "release" and wants the write's status
 * want_err, all of the hog's swap back and the read-back to count it.
 */
static int release_all_of_hog(const char *root, long size, const char *request, int want_err)
{
	struct hog_spec spec = { .anon = size };
	struct reclaim_result r;
	int ret = KSFT_FAIL;
	long swap, got;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_release", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	reclaim_request(cg, "max", &r);
	swap = cg_read_long(cg, "memory.swap.current");
	if (swap < size - SLACK)
		goto out;
	err = write_string(RELEASE, request);
	got = read_long(RELEASE);
	ksft_print_msg("release %s: write %d, read back %ld pages; hog's swap %ld -> %ld\n",
		       request, err, got, swap, cg_read_long(cg, "memory.swap.current"));
	if (err != want_err || got * getpagesize() < swap - SLACK ||
	    cg_read_long(cg, "memory.swap.current") > SLACK)
		goto out;
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* Writing 0 to "release" brings all swap back; reading returns the pages it released. */
static int test_release_brings_back_all(const char *root)
{
	return release_all_of_hog(root, MB(64), "0", 0);
}

/*
 * A count of pages too large to say in bytes is more than is in swap: all of it comes back
 * and the write says -EAGAIN. Shifted into bytes it wrapped: 2^52 + 1 pages released one page
 * and succeeded.
 */
static int test_release_huge_count(const char *root)
{
	return release_all_of_hog(root, MB(16), "4503599627370497", -EAGAIN);
}

/* Non-numbers fail with their errno, release nothing and leave the last count in place. */
static int test_release_bad_input(const char *root)
{
	static const struct bad_input bad[] = {
		{ "abc", -EINVAL }, { "-1", -EINVAL }, { "1G", -EINVAL }, { "\n", -EINVAL },
		{ "12 34", -EINVAL }, { "99999999999999999999999", -ERANGE },
	};
	struct hog_spec spec = { .anon = MB(16) };
	struct reclaim_result r;
	int ret = KSFT_FAIL;
	long last, swap;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	reclaim_request(cg, "max", &r);
	err = write_string(RELEASE, "16");
	last = read_long(RELEASE);
	swap = cg_read_long(cg, "memory.swap.current");
	if (err || last < 16 || last > 16 + 512 || swap < MB(8))
		goto out;
	if (refused_by_file(RELEASE, bad, ARRAY_SIZE(bad)))
		goto out;
	if (read_long(RELEASE) != last || cg_read_long(cg, "memory.swap.current") != swap) {
		ksft_print_msg("refused writes changed the system\n");
		goto out;
	}
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* Each memory.stat / vmstat key exists, and memcg reclaim counts as proactive, not direct. */
static int test_proactive_counters(const char *root)
{
	struct hog_spec spec = { .anon = MB(32) };
	long direct_before, direct_after, pro_before, pro_after;
	static const char *const keys[] = {
		"pgscan_proactive", "pgsteal_proactive", "pgdemote_proactive",
	};
	struct reclaim_result r;
	int ret = KSFT_FAIL;
	char key[64];
	size_t i;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		snprintf(key, sizeof(key), "%s ", keys[i]);
		if (proc_key_long("/proc/vmstat", keys[i]) < 0 || cg_read_key_long(cg, "memory.stat", key) < 0) {
			ksft_print_msg("%s missing\n", keys[i]);
			goto out;
		}
	}

	direct_before = cg_read_key_long(cg, "memory.stat", "pgsteal_direct ");
	pro_before = cg_read_key_long(cg, "memory.stat", "pgsteal_proactive ");
	err = reclaim_request(cg, "16M", &r);
	direct_after = cg_read_key_long(cg, "memory.stat", "pgsteal_direct ");
	pro_after = cg_read_key_long(cg, "memory.stat", "pgsteal_proactive ");
	ksft_print_msg("pgsteal_direct %ld -> %ld, pgsteal_proactive %ld -> %ld\n",
		       direct_before, direct_after, pro_before, pro_after);
	if ((err && err != -EAGAIN) || direct_after != direct_before ||
	    (pro_after - pro_before) * getpagesize() < MB(16) - SLACK)
		goto out;
	ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/*
 * The features line of file names the arguments in want[], and its result= list is exactly
 * the keys a read of the file on the root cgroup returns: a tool may trust it instead of
 * trying writes. 0 or -1.
 */
static int check_features_line(const char *root, const char *file, const char *const *want,
			       size_t nwant)
{
	char line[512] = "", prefix[64], *result = NULL, *key, *save;
	int fd, ret = -1;
	char buf[1024];
	ssize_t n;
	size_t i;
	FILE *f;

	f = fopen(FEATURES, "r");
	if (!f)
		return -1;
	snprintf(prefix, sizeof(prefix), "%s ", file);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix)))
			break;
	fclose(f);
	if (strncmp(line, prefix, strlen(prefix))) {
		ksft_print_msg("no %s line\n", file);
		return -1;
	}
	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < nwant; i++)
		if (!strstr(line, want[i])) {
			ksft_print_msg("'%s' lacks %s\n", line, want[i]);
			return -1;
		}
	result = strstr(line, "result=");
	if (!result)
		return -1;

	/* every listed key is in a real read-back, and nothing else is */
	snprintf(buf, sizeof(buf), "%s/%s", root, file);
	fd = open(buf, O_RDWR);
	if (fd < 0)
		return -1;
	/* a newline in front, so that every key is found as "\nKEY " */
	buf[0] = '\n';
	n = pread(fd, buf + 1, sizeof(buf) - 2, 0);
	if (n <= 0)
		goto out;
	buf[n + 1] = '\0';
	i = 0;
	for (key = strtok_r(result + 7, ",", &save); key; key = strtok_r(NULL, ",", &save)) {
		char needle[64];

		snprintf(needle, sizeof(needle), "\n%s ", key);
		if (!strstr(buf, needle)) {
			ksft_print_msg("%s: feature key %s not in the read-back\n", file, key);
			goto out;
		}
		i++;
	}
	for (n = -1, key = buf; (key = strchr(key, '\n')); key++)
		n++;
	if ((size_t)n != i) {
		ksft_print_msg("%s: read-back has %zd keys, features list %zu\n", file, n, i);
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* The features file describes memory.reclaim and memory.release as they behave. */
static int test_features_file(const char *root)
{
	static const char *const reclaim[] = { "amount=bytes,max", "swappiness=0-200,max" };
	static const char *const release[] = { "amount=bytes,max" };

	if (check_features_line(root, "memory.reclaim", reclaim, ARRAY_SIZE(reclaim)) ||
	    check_features_line(root, "memory.release", release, ARRAY_SIZE(release)))
		return KSFT_FAIL;
	return KSFT_PASS;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_run_reclaims_pages),
	MEMTIDE_TEST(test_run_interrupted),
	MEMTIDE_TEST(test_run_bad_input),
	MEMTIDE_TEST(test_release_brings_back_all),
	MEMTIDE_TEST(test_release_huge_count),
	MEMTIDE_TEST(test_release_bad_input),
	MEMTIDE_TEST(test_proactive_counters),
	MEMTIDE_TEST(test_features_file),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
