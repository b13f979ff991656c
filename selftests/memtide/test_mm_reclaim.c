// SPDX-License-Identifier: GPL-2.0
/*
 * The system-wide side of memtide's reclaim: /sys/power/mm_reclaim/run (the seed's file),
 * /sys/kernel/mm/memcg/features, and the proactive counters in /proc/vmstat and memory.stat.
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
#define FEATURES "/sys/kernel/mm/memcg/features"
#define SLACK MB(2L)

/* Writes s to path in one write(); 0 or -errno. */
static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static long read_long(const char *path)
{
	char buf[64];
	long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	v = fgets(buf, sizeof(buf), f) ? strtol(buf, NULL, 10) : -1;
	fclose(f);
	return v;
}

/* A key of /proc/vmstat, or -1. */
static long vmstat(const char *key)
{
	char name[64];
	long v, found = -1;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", name, &v) == 2)
		if (!strcmp(name, key))
			found = v;
	fclose(f);
	return found;
}

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
	err = write_file(RUN, buf);
	got = read_long(RUN);
	ksft_print_msg("run %ld pages: write %d, read back %ld\n", want, err, got);
	if (err || got < want || got > want + MB(16) / getpagesize())
		goto out;

	/* 0: as much as possible; the idle hog's anon memory goes to swap */
	err = write_file(RUN, "0");
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
	err = write_file(RUN, "0");
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
	static const struct {
		const char *in;
		int err;
	} bad[] = {
		{ "abc", -EINVAL }, { "-1", -EINVAL }, { "1G", -EINVAL }, { "\n", -EINVAL },
		{ "12 34", -EINVAL }, { "99999999999999999999999", -ERANGE },
	};
	struct hog_spec spec = { .anon = MB(16), .file = MB(16) };
	long last, pswpout, current;
	int ret = KSFT_FAIL;
	size_t i;
	pid_t pid;
	char *cg;
	int err;

	cg = hogged_cgroup_create(root, "memtide_mm_reclaim", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	err = write_file(RUN, "256");
	if (err && err != -EAGAIN)
		goto out;
	last = read_long(RUN);
	pswpout = vmstat("pswpout");
	current = cg_read_long(cg, "memory.current");
	if (last < 0 || pswpout < 0)
		goto out;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = write_file(RUN, bad[i].in);
		if (err != bad[i].err) {
			ksft_print_msg("'%s': got %d, want %d\n", bad[i].in, err, bad[i].err);
			goto out;
		}
	}
	if (read_long(RUN) != last || vmstat("pswpout") != pswpout ||
	    cg_read_long(cg, "memory.current") != current) {
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
		if (vmstat(keys[i]) < 0 || cg_read_key_long(cg, "memory.stat", key) < 0) {
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
 * The features file names memory.reclaim's arguments, and its result= list is exactly the
 * keys a read returns: a tool may trust it instead of trying writes.
 */
static int test_features_file(const char *root)
{
	static const char *const want[] = { "amount=bytes,max", "swappiness=0-200,max" };
	char line[512], *result = NULL, *key, *save;
	struct reclaim_result r;
	int fd, ret = KSFT_FAIL;
	char buf[1024];
	ssize_t n;
	size_t i;
	FILE *f;

	f = fopen(FEATURES, "r");
	if (!f)
		return KSFT_FAIL;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "memory.reclaim ", 15))
			break;
	fclose(f);
	if (strncmp(line, "memory.reclaim ", 15))
		return KSFT_FAIL;
	line[strcspn(line, "\n")] = '\0';
	for (i = 0; i < ARRAY_SIZE(want); i++)
		if (!strstr(line, want[i])) {
			ksft_print_msg("'%s' lacks %s\n", line, want[i]);
			return KSFT_FAIL;
		}
	result = strstr(line, "result=");
	if (!result)
		return KSFT_FAIL;

	/* every listed key is in a real read-back, and nothing else is */
	fd = reclaim_open(root);
	if (fd < 0)
		return KSFT_FAIL;
	if (reclaim_read(fd, &r))
		goto out;
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
			ksft_print_msg("feature key %s not in the read-back\n", key);
			goto out;
		}
		i++;
	}
	for (n = -1, key = buf; (key = strchr(key, '\n')); key++)
		n++;
	if ((size_t)n != i) {
		ksft_print_msg("read-back has %zd keys, features list %zu\n", n, i);
		goto out;
	}
	ret = KSFT_PASS;
out:
	close(fd);
	return ret;
}

static const struct memtide_test tests[] = {
	MEMTIDE_TEST(test_run_reclaims_pages),
	MEMTIDE_TEST(test_run_interrupted),
	MEMTIDE_TEST(test_run_bad_input),
	MEMTIDE_TEST(test_proactive_counters),
	MEMTIDE_TEST(test_features_file),
};

int main(void)
{
	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
