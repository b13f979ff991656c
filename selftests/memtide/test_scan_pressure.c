// SPDX-License-Identifier: GPL-2.0
/*
 * Scan pressure: memory.stat's scan_pressure (per memory cgroup) and /proc/zoneinfo's (per
 * node). It must rise under a memory-limited workload, decay once the workload stops, stay
 * out of proactive reclaim, and stay in the cgroup whose limit caused the reclaim.
 *
 *   root
 *    |- memtide_scan_limited   memory.max 16M, a reader cycling a 64 MiB file through it
 *    |- memtide_scan_sibling   no limit, idle
 *    `- memtide_scan_hog       global pressure: anonymous memory beyond MemAvailable
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "cgroup_util.h"
#include "memtide_test.h"

#define FILE_SIZE MB(64)
#define DEPTH_MAX 1000
/* the decay the interface documents: the average halves every 4 seconds */
#define HALF_LIFE_S 4

static const char *file_name = "memtide-scan-pressure.data";

static long scan_pressure(const char *cg)
{
	return cg_read_key_long(cg, "memory.stat", "scan_pressure ");
}

/* The largest scan_pressure of a node in /proc/zoneinfo, or -1 if there is none. */
static long zoneinfo_scan_pressure(void)
{
	char line[256];
	long v, max = -1;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " scan_pressure %ld", &v) == 1 && v > max)
			max = v;
	fclose(f);
	return max;
}

/* A FILE_SIZE file in the cwd with none of its pages in the page cache; 0 or -1. */
static int make_uncached_file(void)
{
	char *buf = malloc(MB(1));
	int fd, i, ret = -1;

	fd = open(file_name, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	if (fd < 0 || !buf)
		goto out;
	fill_incompressible(buf, MB(1), 7);
	for (i = 0; i < FILE_SIZE / MB(1); i++)
		if (write(fd, buf, MB(1)) != MB(1))
			goto out;
	if (!fsync(fd) && !posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED))
		ret = 0;
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return ret;
}

/* cg_run_nowait() body: reads the file through its cgroup's limit, 4 times over. */
static int read_file_4x(const char *cgroup, void *arg)
{
	char *buf = malloc(MB(1));
	int fd = open(file_name, O_RDONLY);
	int pass;

	if (fd < 0 || !buf)
		return 1;
	for (pass = 0; pass < 4; pass++) {
		/* through the page cache, so every page is charged and must be reclaimed */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		for (off_t off = 0; off < FILE_SIZE; off += MB(1))
			if (pread(fd, buf, MB(1), off) != MB(1))
				return 1;
	}
	return 0;
}

/*
 * Polls every 50 ms, until pid exits, cg's scan_pressure into *cg_peak and, when node_peak is
 * not NULL, the nodes' into *node_peak.
 */
static void peaks_while_running(const char *cg, pid_t pid, int *status,
				long *cg_peak, long *node_peak)
{
	long v;

	*cg_peak = -1;
	if (node_peak)
		*node_peak = -1;
	for (;;) {
		v = scan_pressure(cg);
		if (v > *cg_peak)
			*cg_peak = v;
		if (node_peak) {
			v = zoneinfo_scan_pressure();
			if (v > *node_peak)
				*node_peak = v;
		}
		if (waitpid(pid, status, WNOHANG) == pid)
			return;
		usleep(50000);
	}
}

/*
 * A reader in a cgroup limited to a quarter of its file: limit reclaim runs all the time.
 * The cgroup's scan_pressure rises; an idle sibling's does not; once the reader has exited,
 * the average decays at the documented rate.
 */
static int test_limit_reclaim_rises_and_decays(const char *root)
{
	char *cg = cg_name(root, "memtide_scan_limited");
	char *sib = cg_name(root, "memtide_scan_sibling");
	long peak, end, later, sibling;
	int ret = KSFT_FAIL, status;
	pid_t pid;

	if (!cg || !sib || cg_create(cg) || cg_create(sib) || make_uncached_file())
		goto out;
	if (cg_write(cg, "memory.max", "16M") || scan_pressure(cg) != 0 ||
	    scan_pressure(sib) != 0) {
		ksft_print_msg("scan_pressure missing, or not 0 in a new cgroup\n");
		goto out;
	}
	pid = cg_run_nowait(cg, read_file_4x, NULL);
	if (pid < 0)
		goto out;
	peaks_while_running(cg, pid, &status, &peak, NULL);
	end = scan_pressure(cg);
	sibling = scan_pressure(sib);
	ksft_print_msg("limited: peak %ld, at exit %ld; sibling %ld; reader status %d\n",
		       peak, end, sibling, status);
	if (!WIFEXITED(status) || WEXITSTATUS(status) ||
	    peak <= 0 || peak > DEPTH_MAX || end <= 0 || sibling != 0)
		goto out;

	/* nothing allocates in the cgroup any more: two half-lives quarter the average */
	sleep(2 * HALF_LIFE_S);
	later = scan_pressure(cg);
	ksft_print_msg("limited: %ld after %d s without reclaim\n", later, 2 * HALF_LIFE_S);
	if (later > end / 4 + 1)
		goto out;
	ret = KSFT_PASS;
out:
	unlink(file_name);
	if (sib)
		cg_destroy(sib);
	if (cg)
		cg_destroy(cg);
	free(sib);
	free(cg);
	return ret;
}

/* memory.reclaim is a request, not pressure: it leaves scan_pressure at 0. */
static int test_proactive_reclaim_is_not_pressure(const char *root)
{
	struct hog_spec spec = { .file = MB(48) };
	int ret = KSFT_FAIL;
	long before, after;
	pid_t pid;
	char *cg;

	cg = hogged_cgroup_create(root, "memtide_scan_proactive", &spec, &pid);
	if (!cg)
		return KSFT_FAIL;
	before = scan_pressure(cg);
	if (cg_write(cg, "memory.reclaim", "40M"))
		goto out;
	after = scan_pressure(cg);
	ksft_print_msg("proactive: before %ld, after reclaiming 40M %ld, current %ld\n",
		       before, after, cg_read_long(cg, "memory.current"));
	if (before == 0 && after == 0)
		ret = KSFT_PASS;
out:
	hogged_cgroup_destroy(cg, pid);
	return ret;
}

/* cg_run_nowait() body: touches arg bytes of anonymous memory, one distinct value a page. */
static int touch_anon(const char *cgroup, void *arg)
{
	size_t len = *(size_t *)arg, i;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < len; i += getpagesize())
		memset(p + i, (int)(i >> 12) | 1, getpagesize());
	return 0;
}

/*
 * Anonymous memory beyond what the system has available, with swap on: kswapd and direct
 * reclaim run, and /proc/zoneinfo's and the root cgroup's scan_pressure rise.
 */
static int test_global_reclaim_in_zoneinfo(const char *root)
{
	long avail = proc_key_long("/proc/meminfo", "MemAvailable:") * 1024;
	long swap = proc_key_long("/proc/meminfo", "SwapFree:") * 1024;
	char *cg = cg_name(root, "memtide_scan_hog");
	long idle, node_peak, root_peak;
	int ret = KSFT_FAIL, status;
	size_t len;
	pid_t pid;

	idle = zoneinfo_scan_pressure();
	if (idle < 0 || idle > DEPTH_MAX || scan_pressure(root) < 0) {
		ksft_print_msg("zoneinfo %ld, root memory.stat %ld\n", idle, scan_pressure(root));
		goto out;
	}
	len = avail + MB(128);
	if (avail <= 0 || swap < (long)len / 2) {
		ksft_print_msg("needs swap for half of %zu bytes, has %ld\n", len, swap);
		goto out;
	}
	if (!cg || cg_create(cg))
		goto out;
	pid = cg_run_nowait(cg, touch_anon, &len);
	if (pid < 0)
		goto out;
	peaks_while_running(root, pid, &status, &root_peak, &node_peak);
	ksft_print_msg("global: %zu MiB over %ld MiB available: node peak %ld (idle %ld), root peak %ld\n",
		       len >> 20, avail >> 20, node_peak, idle, root_peak);
	if (WIFEXITED(status) && !WEXITSTATUS(status) && node_peak > 0 &&
	    node_peak <= DEPTH_MAX && root_peak > 0 && root_peak <= DEPTH_MAX)
		ret = KSFT_PASS;
out:
	if (cg)
		cg_destroy(cg);
	free(cg);
	return ret;
}

int main(void)
{
	static const struct memtide_test tests[] = {
		MEMTIDE_TEST(test_limit_reclaim_rises_and_decays),
		MEMTIDE_TEST(test_proactive_reclaim_is_not_pressure),
		MEMTIDE_TEST(test_global_reclaim_in_zoneinfo),
	};

	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
