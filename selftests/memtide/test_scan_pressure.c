// SPDX-License-Identifier: GPL-2.0
/*
 * Scan pressure: memory.stat's scan_pressure (per memory cgroup) and /proc/zoneinfo's (per
 * node). It must rise under a memory-limited workload, decay once the workload stops, stay
 * out of proactive reclaim, stay in the cgroup whose limit caused the reclaim, and read as
 * full when reclaim had to take memory that memory.low protects.
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

/*
 * The peak scan_pressure of a parent limited to 16M while read_file_4x() runs in its child,
 * whose memory.low is @low, and the child's count of memory.events "low" in *low_events:
 * -1 on error.
 */
static long parent_peak(const char *root, const char *name, char *low, long *low_events)
{
	char *parent = cg_name(root, name), *child = NULL;
	long peak = -1, v;
	int status;
	pid_t pid;

	if (!parent || cg_create(parent) || cg_write(parent, "cgroup.subtree_control", "+memory") ||
	    cg_write(parent, "memory.max", "16M"))
		goto out;
	child = cg_name(parent, "reader");
	if (!child || cg_create(child) || cg_write(child, "memory.low", low))
		goto out;
	pid = cg_run_nowait(child, read_file_4x, NULL);
	if (pid < 0)
		goto out;
	peaks_while_running(parent, pid, &status, &v, NULL);
	*low_events = cg_read_key_long(child, "memory.events", "low ");
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		peak = v;
out:
	if (child)
		cg_destroy(child);
	if (parent)
		cg_destroy(parent);
	free(child);
	free(parent);
	return peak;
}

/*
 * A reclaim run that has to take memory memory.low protects is a shortage at its deepest,
 * counted once. Under a parent's limit, a child protected by memory.low makes every run find
 * nothing at first (the child is skipped), then retry with the protection ignored: the run
 * counts as SCAN_PRESSURE_MAX, however shallow the retry, and the parent's average climbs to
 * it. Next to it, the same reader in an unprotected child keeps its parent low. (The first
 * version sampled each failed attempt and then the retry's priority: 775 against 76.)
 */
static int test_low_breach_is_full_pressure(const char *root)
{
	long plain, low, plain_events = -1, low_events = -1;

	if (make_uncached_file())
		return KSFT_FAIL;
	/* read_file_4x() drops the file's page cache before each pass */
	plain = parent_peak(root, "memtide_scan_plain", "0", &plain_events);
	low = parent_peak(root, "memtide_scan_low", "max", &low_events);
	unlink(file_name);
	ksft_print_msg("peak under the limit: child unprotected %ld, child with memory.low %ld "
		       "(its low events %ld)\n", plain, low, low_events);
	/* the protection was broken, the retry ran */
	if (plain < 0 || low < 0 || low_events <= 0)
		return KSFT_FAIL;
	if (low < DEPTH_MAX * 9 / 10 || plain >= DEPTH_MAX / 2)
		return KSFT_FAIL;
	return KSFT_PASS;
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
 * Waits until global reclaim's figures, the nodes' in /proc/zoneinfo (*node) and the root
 * cgroup's (*cg), read 0 again, at most long enough for SCAN_PRESSURE_MAX to decay away: 10
 * half-lives take 1000 below 1 (1000 / 2^10), 12 give the decay's whole seconds room. Leaves
 * the last values read in *node and *cg; -1 if one could not be read.
 */
static int wait_global_idle(const char *root, long *node, long *cg)
{
	int i;

	for (i = 0; i <= 12 * HALF_LIFE_S; i++) {
		*node = zoneinfo_scan_pressure();
		*cg = scan_pressure(root);
		if (*node < 0 || *node > DEPTH_MAX || *cg < 0 || *cg > DEPTH_MAX)
			return -1;
		if (!*node && !*cg)
			break;
		sleep(1);
	}
	return 0;
}

/*
 * Anonymous memory beyond what the system has available, with swap on: kswapd and direct
 * reclaim run, and /proc/zoneinfo's and the root cgroup's scan_pressure must rise above what
 * they read before. Without reclaim the average only decays, so a peak above the idle value
 * is a sample deeper than it: the hog's reclaim, counted where the interface says. Earlier
 * global reclaim (another test's) is left to decay to 0 first; were it still running, the
 * hog's reclaim would still have to go deeper than it.
 */
static int test_global_reclaim_in_zoneinfo(const char *root)
{
	long avail = proc_key_long("/proc/meminfo", "MemAvailable:") * 1024;
	long swap = proc_key_long("/proc/meminfo", "SwapFree:") * 1024;
	char *cg = cg_name(root, "memtide_scan_hog");
	long idle, root_idle, node_peak, root_peak;
	int ret = KSFT_FAIL, status;
	size_t len;
	pid_t pid;

	if (wait_global_idle(root, &idle, &root_idle)) {
		ksft_print_msg("zoneinfo %ld, root memory.stat %ld\n", idle, root_idle);
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
	ksft_print_msg("global: %zu MiB over %ld MiB available: node peak %ld (idle %ld), root peak %ld (idle %ld)\n",
		       len >> 20, avail >> 20, node_peak, idle, root_peak, root_idle);
	if (WIFEXITED(status) && !WEXITSTATUS(status) &&
	    node_peak > idle && node_peak <= DEPTH_MAX &&
	    root_peak > root_idle && root_peak <= DEPTH_MAX)
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
		MEMTIDE_TEST(test_low_breach_is_full_pressure),
	};

	return memtide_run_tests(tests, ARRAY_SIZE(tests));
}
